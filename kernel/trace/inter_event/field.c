// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: keys and values, resolved against the
 * event's fields, with their modifiers, and read on the event path.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/string.h>

#include "inter_event.h"

struct ie_mod_name {
	const char	*name;
	unsigned long	mod;
	bool		key_only;
};

static const struct ie_mod_name ie_mods[] = {
	{ "hex",	IE_MOD_HEX,		false },
	{ "sym",	IE_MOD_SYM,		true },
	{ "sym-offset",	IE_MOD_SYM_OFFSET,	true },
	{ "execname",	IE_MOD_EXECNAME,	true },
	{ "syscall",	IE_MOD_SYSCALL,		true },
	{ "log2",	IE_MOD_LOG2,		true },
	{ "usecs",	IE_MOD_USECS,		false },
	{ "percent",	IE_MOD_PERCENT,		false },
	{ "graph",	IE_MOD_GRAPH,		false },
	{ "stacktrace",	IE_MOD_STACKTRACE,	true },
};

/* Apply one ".modifier" to @f; "buckets=N" and "loglin=N" carry a number. */
static int ie_field_add_mod(struct ie_field *f, char *mod, bool is_key)
{
	unsigned int i;

	if (str_has_prefix(mod, "buckets=")) {
		if (!is_key || kstrtoul(mod + 8, 0, &f->buckets) || !f->buckets)
			return -EINVAL;
		f->mods |= IE_MOD_BUCKETS;
		return 0;
	}
	/* The sub-bucket bits are kept where .buckets= keeps its size. */
	if (str_has_prefix(mod, "loglin=")) {
		if (!is_key || kstrtoul(mod + 7, 10, &f->buckets) ||
		    f->buckets > IE_LOGLIN_MAX_BITS)
			return -EINVAL;
		f->mods |= IE_MOD_LOGLIN;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(ie_mods); i++) {
		if (strcmp(mod, ie_mods[i].name))
			continue;
		if (ie_mods[i].key_only && !is_key)
			return -EINVAL;
		/* Percent and graph are ways to show a value, not a key. */
		if (is_key && (ie_mods[i].mod & (IE_MOD_PERCENT | IE_MOD_GRAPH)))
			return -EINVAL;
		f->mods |= ie_mods[i].mod;
		return 0;
	}
	return -EINVAL;
}

static bool ie_is_num_size(int size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/* Which modifiers a resolved field may carry. */
static bool ie_field_mods_ok(const struct ie_field *f)
{
	unsigned long display = f->mods & (IE_MOD_HEX | IE_MOD_SYM |
					   IE_MOD_SYM_OFFSET | IE_MOD_EXECNAME |
					   IE_MOD_SYSCALL | IE_MOD_LOG2 |
					   IE_MOD_BUCKETS | IE_MOD_LOGLIN);

	/* At most one way of displaying a key or value. */
	display |= f->mods & (IE_MOD_PERCENT | IE_MOD_GRAPH);
	if (display & (display - 1))
		return false;
	/* .stacktrace: a stack trace field shown as one (and nothing else). */
	if (f->type == IE_FT_STACK)
		return !(f->mods & ~IE_MOD_STACKTRACE);
	if (f->type == IE_FT_NUM || f->type == IE_FT_CPU) {
		if ((f->mods & IE_MOD_EXECNAME) &&
		    strcmp(f->name, "common_pid"))
			return false;
		/* Log-linear buckets order values from 0 up. */
		if ((f->mods & IE_MOD_LOGLIN) && f->is_signed)
			return false;
		/* A number is not a stack trace: .stacktrace would do nothing. */
		return !(f->mods & (IE_MOD_USECS | IE_MOD_STACKTRACE));
	}
	if (f->type == IE_FT_HITCOUNT)
		return !(f->mods & ~(IE_MOD_PERCENT | IE_MOD_GRAPH |
				     IE_MOD_HEX)) &&
		       hweight_long(f->mods) <= 1;
	/*
	 * Stack traces are shown as they are; a string may be shown as the
	 * number its first 8 bytes make (.hex), as with CONFIG_HIST_TRIGGERS.
	 */
	if (f->type == IE_FT_STR)
		return !(f->mods & ~IE_MOD_HEX);
	return !f->mods;
}

/**
 * ie_field_resolve - resolve "name[.modifier]..." against the hist's event
 * @hist: the histogram being built; its file names the event
 * @f: the field to fill in
 * @text: the field's text; modified
 * @is_key: whether @f is a key (else a value)
 * @err: error code when resolving fails
 *
 * Return: 0, or -EINVAL/-ENOMEM with @err set.
 */
int ie_field_resolve(struct ie_hist *hist, struct ie_field *f, char *text,
		     bool is_key, enum ie_err *err)
{
	struct trace_event_call *call = hist->file->event_call;
	struct ftrace_event_field *ev;
	char *name, *mod;

	memset(f, 0, sizeof(*f));
	name = strsep(&text, ".");
	while ((mod = strsep(&text, "."))) {
		/* No modifier contains a dot. */
		if (ie_field_add_mod(f, mod, is_key)) {
			*err = IE_ERR_BAD_MODIFIER;
			return -EINVAL;
		}
	}

	if (!strcmp(name, "hitcount")) {
		if (is_key)
			goto not_found;
		f->type = IE_FT_HITCOUNT;
	} else if (!strcmp(name, "common_stacktrace") ||
		   !strcmp(name, "stacktrace")) {
		f->type = IE_FT_STACK;
		f->size = IE_STACK_DEPTH * sizeof(unsigned long);
	} else {
		ev = trace_find_event_field(call, name);
		if (!ev)
			goto not_found;
		f->ev = ev;
		/* A synthetic event's stack trace field: its frames. */
		if (ev->filter_type == FILTER_OTHER &&
		    (!strcmp(ev->type, "__data_loc unsigned long[]") ||
		     !strcmp(ev->type, "__data_loc long[]"))) {
			f->type = IE_FT_STACK;
			f->size = IE_STACK_DEPTH * sizeof(unsigned long);
			goto resolved;
		}
		switch (ev->filter_type) {
		case FILTER_CPU:
			f->type = IE_FT_CPU;
			f->size = sizeof(u64);
			break;
		case FILTER_STATIC_STRING:
			/*
			 * A char[] of no size (ftrace/print's buf) is the rest
			 * of the record, whose end the trigger isn't told.
			 */
			if (!ev->size) {
				*err = IE_ERR_FIELD_UNBOUNDED;
				return -EINVAL;
			}
			f->type = IE_FT_STR;
			f->size = min_t(unsigned int, ev->size, IE_STR_MAX);
			break;
		case FILTER_DYN_STRING:
		case FILTER_RDYN_STRING:
			f->type = IE_FT_STR;
			f->size = IE_STR_MAX;
			break;
		case FILTER_STACKTRACE:
			/*
			 * The generic "STACKTRACE" field: the stack at the
			 * event, not frames in the record (it has none).
			 */
			f->ev = NULL;
			f->type = IE_FT_STACK;
			f->size = IE_STACK_DEPTH * sizeof(unsigned long);
			break;
		/*
		 * A "char *" field is the pointer (as CONFIG_HIST_TRIGGERS
		 * has it): it may point to user memory (a system call's
		 * argument), and an eprobe or a later event can read the
		 * string through it.
		 */
		case FILTER_PTR_STRING:
		case FILTER_OTHER:
			if (!ie_is_num_size(ev->size))
				goto not_found;
			f->type = IE_FT_NUM;
			f->size = sizeof(u64);
			f->is_signed = ev->is_signed;
			break;
		default:
			goto not_found;
		}
	}
resolved:
	/* Not a value; but a variable's whole value (resolved as a key). */
	if (!is_key && (f->type == IE_FT_STR || f->type == IE_FT_STACK)) {
		*err = IE_ERR_BAD_VAL;
		return -EINVAL;
	}

	if (f->type == IE_FT_STACK && !f->ev)
		name = "common_stacktrace";
	else if (f->type == IE_FT_CPU)
		name = "common_cpu";
	f->name = kstrdup(name, GFP_KERNEL);
	if (!f->name) {
		*err = IE_ERR_NOMEM;
		return -ENOMEM;
	}
	if (!ie_field_mods_ok(f)) {
		ie_field_free(f);
		*err = IE_ERR_BAD_MODIFIER;
		return -EINVAL;
	}
	return 0;

not_found:
	*err = IE_ERR_FIELD_NOT_FOUND;
	return -EINVAL;
}

/**
 * ie_field_free - free what a resolved field holds
 * @f: the field
 *
 * Frees and clears the field's name.  Not an expression value's tree
 * (@f->expr): its owner frees that with ie_expr_free(), as it frees @f
 * itself if it allocated it.
 */
void ie_field_free(struct ie_field *f)
{
	kfree(f->name);
	f->name = NULL;
}

/* Read an integer field of the record, sign-extended to 64 bits. */
/* Copy a string field of the record into @dst (f->size bytes, zeroed). */
static void ie_field_str(const struct ie_field *f, void *rec, char *dst)
{
	const struct ftrace_event_field *ev = f->ev;
	unsigned int len = f->size;
	const char *src;
	u32 loc;

	if (WARN_ON_ONCE(!len))
		return;
	switch (ev->filter_type) {
	case FILTER_STATIC_STRING:
		/* Up to its NUL: what follows may be anything (the key is 0). */
		src = rec + ev->offset;
		len = strnlen(src, min_t(unsigned int, len, ev->size));
		break;
	case FILTER_DYN_STRING:
		loc = *(u32 *)(rec + ev->offset);
		src = rec + (loc & 0xffff);
		len = min_t(unsigned int, len, loc >> 16);
		break;
	case FILTER_RDYN_STRING:
		loc = *(u32 *)(rec + ev->offset);
		src = rec + ev->offset + sizeof(u32) + (loc & 0xffff);
		len = min_t(unsigned int, len, loc >> 16);
		break;
	default:	/* not a string field */
		memset(dst, 0, f->size);
		return;
	}
	memcpy(dst, src, len);
	/* NUL-padded: a save() slot holds the last string only. */
	memset(dst + len, 0, f->size - len);
	/* Keep the last byte of a full-width key NUL. */
	if (len == f->size)
		dst[len - 1] = '\0';
}

/**
 * ie_field_str_ptr - where a string field's text is in a record
 * @f: a string field of the event
 * @rec: the event's record
 * @len: set to the text's bound: a dynamic string's __data_loc length,
 *	or a fixed-size string's size
 *
 * Where a string field's text is in the record, and its bound.  Nothing
 * is copied: the text ends at its NUL or after @len bytes.
 *
 * Context: event path, any context including NMI.
 * Return: the text's address in @rec.
 */
const char *ie_field_str_ptr(const struct ie_field *f, void *rec,
			     unsigned int *len)
{
	const struct ftrace_event_field *ev = f->ev;
	u32 loc;

	switch (ev->filter_type) {
	case FILTER_DYN_STRING:
		loc = *(u32 *)(rec + ev->offset);
		*len = loc >> 16;
		return rec + (loc & 0xffff);
	case FILTER_RDYN_STRING:
		loc = *(u32 *)(rec + ev->offset);
		*len = loc >> 16;
		return rec + ev->offset + sizeof(u32) + (loc & 0xffff);
	default:
		*len = ev->size;
		return rec + ev->offset;
	}
}

/* A stack trace field's frames from the record, 0 after the last. */
static void ie_field_frames(const struct ie_field *f, void *rec, void *key)
{
	u32 loc = *(u32 *)(rec + f->ev->offset);
	unsigned int n = min_t(unsigned int, (loc >> 16) / sizeof(long),
			       IE_STACK_DEPTH);

	memcpy(key, rec + (loc & 0xffff), n * sizeof(long));
	memset((unsigned long *)key + n, 0,
	       (IE_STACK_DEPTH - n) * sizeof(unsigned long));
}

/* event_triggers_call()'s text: where a stack leaves the tracing frames. */
static unsigned long ie_etc_start __ro_after_init;
static unsigned long ie_etc_end __ro_after_init;

/**
 * ie_field_init - find event_triggers_call()'s code, for stack traces
 *
 * Notes where event_triggers_call()'s code starts and ends, so that a
 * stack taken at an event (ie_field_key()) leaves out the frames of
 * tracing up to it.  If kallsyms can't tell, such stacks leave out
 * IE_STACK_SKIP frames instead.
 *
 * Context: boot, from register_trigger_hist_cmd().
 */
void __init ie_field_init(void)
{
	unsigned long addr = (unsigned long)event_triggers_call;
	unsigned long size, off;

	if (kallsyms_lookup_size_offset(addr, &size, &off)) {
		ie_etc_start = addr - off;
		ie_etc_end = ie_etc_start + size;
	}
}

/*
 * Event path: the stack at the event into @key, IE_STACK_DEPTH frames at
 * most, without the tracing frames: ours, event_triggers_call(), the
 * commit that called it and the event's probe.  How many frames are ours
 * depends on the compiler (inlining, tail calls, KCSAN or KASAN
 * instrumentation), so a first short walk counts them, up to
 * event_triggers_call()'s frame (IE_STACK_SKIP if it is not found), and
 * a second one saves the rest: two walks rather than a buffer of
 * IE_STACK_DEPTH + IE_STACK_OURS frames on the stack.  Returns the
 * number of frames saved.
 */
static noinline unsigned int ie_stack_save(unsigned long *key)
{
	unsigned long ours[IE_STACK_OURS];
	unsigned int n, i, skip = IE_STACK_SKIP;

	/* ours[0] is this function's frame. */
	n = stack_trace_save(ours, ARRAY_SIZE(ours), 0);
	for (i = 0; i < n; i++) {
		if (ours[i] >= ie_etc_start && ours[i] < ie_etc_end) {
			skip = i + 3;
			break;
		}
	}
	n = stack_trace_save(key, IE_STACK_DEPTH, skip);
	/*
	 * Not a tail call (which would walk from our caller's frame, one
	 * frame off the first walk): the result is used here.
	 */
	return min_t(unsigned int, n, IE_STACK_DEPTH);
}

/**
 * ie_field_key - fill a field's part of a compound key from a record
 * @f: the field
 * @rec: the event's record
 * @key: where the field's part starts (@f->size bytes)
 *
 * Fill this field's part of a compound key from the record: a string,
 * NUL-padded to @f->size and ending with a NUL; a stack trace's frames,
 * from the record or taken now, 0 after the last; or a number as a u64,
 * after its .log2, .buckets= or .loglin= modifier.  Also how save() and
 * string or stack variables copy their fields.
 *
 * Context: event path, any context including NMI; no allocation.
 */
void ie_field_key(const struct ie_field *f, void *rec, void *key)
{
	unsigned int n;
	u64 val;

	switch (f->type) {
	case IE_FT_STR:
		ie_field_str(f, rec, key);
		return;
	case IE_FT_STACK:
		if (f->ev) {
			ie_field_frames(f, rec, key);
			return;
		}
		n = ie_stack_save(key);
		/* A variable's copy is reused: no frame of an earlier stack stays. */
		memset((unsigned long *)key + n, 0,
		       (IE_STACK_DEPTH - n) * sizeof(unsigned long));
		return;
	default:
		break;
	}
	val = ie_field_num(f, rec);
	if (f->mods & IE_MOD_LOG2)
		val = val > 1 ? fls64(val - 1) : 0;
	else if (f->mods & IE_MOD_BUCKETS)
		val = div64_ul(val, f->buckets) * f->buckets;
	else if (f->mods & IE_MOD_LOGLIN)
		val = ie_loglin_floor(val, f->buckets);
	memcpy(key, &val, sizeof(val));
}
