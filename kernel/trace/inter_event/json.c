// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: the per-event 'hist_json' file, the data of
 * the 'hist' file as one JSON document (schema in
 * Documentation/trace/inter-event.rst, "Machine-readable output").
 *
 * Strings are written byte for byte: '"', '\\' and bytes below 0x20 or
 * from 0x7f up as escapes (a byte from 0x80 up as \u0080 to \u00ff, its
 * Latin-1 reading), so the document is ASCII and a reader gets the bytes
 * back.  Numbers are decimal integers, signed where the field is.
 */
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "inter_event.h"

#define IE_JSON_VERSION	1

/* A byte written as itself in a JSON string. */
static bool ie_json_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

static void ie_json_bytes(struct seq_file *m, const char *s, size_t len)
{
	unsigned char c;
	size_t i;

	seq_putc(m, '"');
	for (i = 0; i < len; i++) {
		c = s[i];
		if (ie_json_plain(c))
			seq_putc(m, c);
		else if (c == '"' || c == '\\')
			seq_printf(m, "\\%c", c);
		else
			seq_printf(m, "\\u%04x", c);
	}
	seq_putc(m, '"');
}

static void ie_json_str(struct seq_file *m, const char *s)
{
	ie_json_bytes(m, s, strlen(s));
}

/* "name": as a member's name. */
static void ie_json_name(struct seq_file *m, const char *name)
{
	ie_json_str(m, name);
	seq_putc(m, ':');
}

static void ie_json_num(struct seq_file *m, u64 v, bool is_signed)
{
	if (is_signed)
		seq_printf(m, "%lld", (s64)v);
	else
		seq_printf(m, "%llu", v);
}

/*
 * Whatever the seq_file holds from @start on, made a JSON string in its
 * place (escaped as ie_json_bytes() does, from the end backwards, so no
 * byte is overwritten before it is read): for text printed by the hist
 * file's own functions.  No room: the document overflows, and the piece
 * is printed again into a larger buffer (ie_doc_fits()).
 */
static void ie_json_since(struct seq_file *m, size_t start)
{
	size_t len, extra = 2, i, j;
	unsigned char c;

	if (seq_has_overflowed(m) || m->count < start)
		return;
	len = m->count - start;
	for (i = 0; i < len; i++) {
		c = m->buf[start + i];
		if (!ie_json_plain(c))
			extra += c == '"' || c == '\\' ? 1 : 5;
	}
	if (m->count + extra > m->size) {
		seq_commit(m, -1);	/* overflowed */
		return;
	}
	j = start + len + extra;
	m->buf[--j] = '"';
	for (i = len; i-- > 0;) {
		c = m->buf[start + i];
		if (ie_json_plain(c)) {
			m->buf[--j] = c;
		} else if (c == '"' || c == '\\') {
			m->buf[--j] = c;
			m->buf[--j] = '\\';
		} else {
			m->buf[--j] = hex_asc_lo(c);
			m->buf[--j] = hex_asc_hi(c);
			m->buf[--j] = '0';
			m->buf[--j] = '0';
			m->buf[--j] = 'u';
			m->buf[--j] = '\\';
		}
	}
	m->buf[--j] = '"';
	m->count = start + len + extra;
}

/* A kernel address as its symbol ("%ps", or "%pS" with @offset). */
static void ie_json_sym(struct seq_file *m, unsigned long addr, bool offset)
{
	size_t start = m->count;

	seq_printf(m, offset ? "%pS" : "%ps", (void *)addr);
	ie_json_since(m, start);
}

/*
 * Whether the document gives a column's numbers signed: a key's only
 * without a modifier (the hist file shows the others as unsigned); a
 * sum never (modulo 2^64, as the hist file shows it); a statistic as its
 * values are (a deviation never).
 */
static bool ie_json_signed(const struct ie_field *f, bool is_key)
{
	if (!f->is_signed)
		return false;
	if (is_key)
		return !f->mods;
	return (f->mods & IE_MOD_STATS) && !(f->mods & IE_MOD_STDDEV);
}

/* The type of what the document gives for a column. */
static const char *ie_json_type(const struct ie_field *f, bool is_key)
{
	if (f->type == IE_FT_STR && !(f->mods & IE_MOD_HEX))
		return "string";
	if (f->type == IE_FT_STACK)
		return "stacktrace";
	return ie_json_signed(f, is_key) ? "s64" : "u64";
}

/* A key or value's description: name, type, the modifier as written. */
static void ie_json_field(struct seq_file *m, const struct ie_field *f,
			  bool is_key)
{
	char buf[IE_MAX_NAME_LEN + 64];
	size_t len, n;

	seq_putc(m, '{');
	ie_json_name(m, "name");
	ie_json_str(m, f->name);
	seq_putc(m, ',');
	ie_json_name(m, "type");
	ie_json_str(m, ie_json_type(f, is_key));
	if (f->mods & IE_MOD_STATS) {
		seq_putc(m, ',');
		ie_json_name(m, "stat");
		ie_json_str(m, ie_stat_name(f->mods));
	} else if (f->mods) {
		/* The modifiers as the trigger lists them, after the name. */
		n = ie_field_display_name(f, buf, sizeof(buf));
		len = strlen(f->name);
		if (len < n && buf[len] == '.') {
			seq_putc(m, ',');
			ie_json_name(m, "modifiers");
			ie_json_str(m, buf + len + 1);
		}
	}
	seq_putc(m, '}');
}

/* "name":[the descriptions of @n columns], */
static void ie_json_fields(struct seq_file *m, const char *name,
			   const struct ie_field *f, unsigned int n, bool is_key)
{
	unsigned int i;

	ie_json_name(m, name);
	seq_putc(m, '[');
	for (i = 0; i < n; i++) {
		if (i)
			seq_putc(m, ',');
		ie_json_field(m, &f[i], is_key);
	}
	seq_puts(m, "],");
}

/*
 * One key of an entry: {"value": ...} and what its modifier shows
 * besides ("comm", "sym", "syscall", "high" for a range of values).
 */
static void ie_json_key(struct seq_file *m, const struct ie_field *f,
			const void *key, const void *data)
{
	const unsigned long *stack;
	const char *name;
	unsigned int i;
	u64 val;

	seq_putc(m, '{');
	ie_json_name(m, "value");
	if (f->type == IE_FT_STR && !(f->mods & IE_MOD_HEX)) {
		ie_json_bytes(m, key, strnlen(key, f->size));
		seq_putc(m, '}');
		return;
	}
	if (f->type == IE_FT_STACK) {
		seq_putc(m, '[');
		stack = key;
		for (i = 0; i < IE_STACK_DEPTH && stack[i]; i++) {
			if (i)
				seq_putc(m, ',');
			ie_json_sym(m, stack[i], true);
		}
		seq_puts(m, "]}");
		return;
	}
	memcpy(&val, key, sizeof(val));
	ie_json_num(m, val, ie_json_signed(f, true));
	if (f->mods & (IE_MOD_SYM | IE_MOD_SYM_OFFSET)) {
		seq_putc(m, ',');
		ie_json_name(m, "sym");
		ie_json_sym(m, val, f->mods & IE_MOD_SYM_OFFSET);
	} else if (f->mods & IE_MOD_EXECNAME) {
		seq_putc(m, ',');
		ie_json_name(m, "comm");
		name = data ?: "<...>";
		ie_json_bytes(m, name, strnlen(name, TASK_COMM_LEN));
	} else if (f->mods & IE_MOD_SYSCALL) {
		seq_putc(m, ',');
		ie_json_name(m, "syscall");
		name = get_syscall_name(val);
		ie_json_str(m, name ?: "unknown_syscall");
	} else if (f->mods & IE_MOD_BUCKETS) {
		seq_putc(m, ',');
		ie_json_name(m, "high");
		seq_printf(m, "%llu", val + f->buckets - 1);
	} else if (f->mods & IE_MOD_LOGLIN) {
		seq_putc(m, ',');
		ie_json_name(m, "high");
		seq_printf(m, "%llu", ie_loglin_last(val, f->buckets));
	}
	seq_putc(m, '}');
}

/* One value of an entry: a number, or the percentiles as an object. */
static void ie_json_val(struct seq_file *m, struct ie_hist *hist,
			const struct ie_map *em, const struct ie_field *f,
			struct ie_elt *elt, const u64 *sums, u32 *pctl)
{
	u64 q[IE_PCTL_N];
	unsigned int i;

	if (f->mods & IE_MOD_PCTL) {
		ie_pctl_read(ie_elt_data(em, elt) + f->stat_off, pctl, q);
		seq_putc(m, '{');
		for (i = 0; i < IE_PCTL_N; i++) {
			if (i)
				seq_putc(m, ',');
			ie_json_name(m, ie_pctl_names[i]);
			seq_printf(m, "%llu", q[i]);
		}
		seq_putc(m, '}');
	} else if (f->mods & IE_MOD_STATS) {
		ie_json_num(m, ie_stat_read_elt(em, f, elt,
						hist->vals[0].map_idx),
			    ie_json_signed(f, false));
	} else {
		seq_printf(m, "%llu", sums[f->map_idx]);
	}
}

/* An entry of @em (the map's, or a take's copy: take.c) and its sums. */
static void ie_json_entry(struct seq_file *m, struct ie_hist *hist,
			  const struct ie_map *em, struct ie_elt *elt,
			  const u64 *sums, u32 *pctl)
{
	unsigned int i;

	seq_putc(m, '{');
	ie_json_name(m, "key");
	seq_putc(m, '[');
	for (i = 0; i < hist->n_keys; i++) {
		if (i)
			seq_putc(m, ',');
		ie_json_key(m, &hist->keys[i],
			    (u8 *)ie_elt_key(elt) + hist->keys[i].key_off,
			    ie_elt_data(em, elt));
	}
	seq_puts(m, "],");
	ie_json_name(m, "values");
	seq_putc(m, '[');
	for (i = 0; i < hist->n_vals; i++) {
		if (i)
			seq_putc(m, ',');
		ie_json_val(m, hist, em, &hist->vals[i], elt, sums, pctl);
	}
	seq_puts(m, "]}");
}

/*
 * One trigger's histogram, as an object of the "histograms" array: its
 * live entries, or those of @t, a take.
 */
static int ie_json_hist(struct seq_file *m, struct event_trigger_data *data,
			struct ie_take_hist *t)
{
	struct ie_hist *hist = data->private_data;
	struct ie_row *rows = NULL;
	u64 hits, drops, *sums;
	u64 copy_sums[IE_MAX_SUMS];
	struct ie_elt *elt;
	size_t start, mark;
	u32 *pctl;
	int n, e, cpu;

	if (t) {
		n = t->n;
	} else {
		n = ie_hist_rows(hist, &rows);
		if (n < 0)
			return n;
	}
	pctl = hist->pctl ? kmalloc_array(IE_PCTL_BUCKETS, sizeof(*pctl),
					  GFP_KERNEL) : NULL;
	if (hist->pctl && !pctl) {
		kvfree(rows);
		return -ENOMEM;
	}
	/* Printed in pieces: a piece that overflows is printed again. */
	do {
		mark = m->count;
		seq_putc(m, '{');
		ie_json_name(m, "trigger");
		start = m->count;
		ie_hist_print_trigger(m, data);
		/* Without its newline. */
		if (!seq_has_overflowed(m) && m->count > start)
			m->count--;
		ie_json_since(m, start);
		seq_putc(m, ',');
		ie_json_name(m, "name");
		if (data->name)
			ie_json_str(m, data->name);
		else
			seq_puts(m, "null");
		seq_printf(m, ",\"paused\":%s,",
			   READ_ONCE(data->paused) ? "true" : "false");
		ie_json_fields(m, "keys", hist->keys, hist->n_keys, true);
		ie_json_fields(m, "values", hist->vals, hist->n_vals, false);
		if (t)
			seq_printf(m, "\"interval_ns\":[%llu,%llu],",
				   t->from_ns, t->to_ns);
		ie_json_name(m, "entries");
		seq_putc(m, '[');
	} while (!ie_doc_fits(m, mark));
	for (e = 0; e < n && !seq_has_overflowed(m); e++) {
		if (t) {
			elt = t->elts[e];
			ie_elt_read_sums(t->copies, elt, copy_sums);
			sums = copy_sums;
		} else {
			elt = rows[e].elt;
			sums = rows[e].sums;
		}
		do {
			mark = m->count;
			if (e)
				seq_putc(m, ',');
			seq_putc(m, '\n');
			ie_json_entry(m, hist, t ? t->copies : hist->m, elt,
				      sums, pctl);
		} while (!ie_doc_fits(m, mark));
		/* Under event_mutex: let others run. */
		cond_resched();
	}
	kfree(pctl);
	kvfree(rows);

	do {
		mark = m->count;
		seq_puts(m, "\n],");
		ie_map_totals(hist->m, &hits, &drops);
		seq_printf(m, "\"totals\":{\"hits\":%llu,\"entries\":%d,\"dropped\":%llu",
			   hits, n, drops);
		seq_printf(m, ",\"dropped_actions\":%llu},",
			   (u64)atomic64_read(&hist->actions_dropped));
		ie_json_name(m, "cpus");
		seq_putc(m, '[');
		e = 0;
		for_each_possible_cpu(cpu) {
			ie_map_cpu_counts(hist->m, cpu, &hits, &drops);
			seq_printf(m, "%s{\"cpu\":%d,\"hits\":%llu,\"dropped\":%llu}",
				   e++ ? "," : "", cpu, hits, drops);
		}
		seq_puts(m, "]}");
	} while (!ie_doc_fits(m, mark));
	return 0;
}

/**
 * ie_hist_json_show - the hist_json file of an event
 * @m: the document (see ie_doc_fits()); overflowed if it could not grow
 * @file: the event, under event_mutex
 * @take: the histograms' entries taken by ie_take_event() (held since
 *        under event_mutex), or NULL for the live ones
 *
 * Return: 0, -ENOMEM, or -EINVAL if the triggers are not those of @take.
 */
static int ie_hist_json_show(struct seq_file *m, struct trace_event_file *file,
			     struct ie_take *take)
{
	struct trace_event_call *call = file->event_call;
	struct event_trigger_data *data;
	struct ie_take_hist *t = NULL;
	unsigned int i = 0;
	bool first = true;
	size_t mark;
	int ret;

	lockdep_assert_held(&event_mutex);

	do {
		mark = m->count;
		seq_printf(m, "{\"version\":%d,", IE_JSON_VERSION);
		ie_json_name(m, "system");
		ie_json_str(m, call->class->system);
		seq_putc(m, ',');
		ie_json_name(m, "event");
		ie_json_str(m, trace_event_name(call));
		seq_putc(m, ',');
		ie_json_name(m, "histograms");
		seq_putc(m, '[');
	} while (!ie_doc_fits(m, mark));
	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		ie_doc_puts(m, first ? "\n" : ",\n");
		first = false;
		if (take) {
			/* The trigger list has not changed since the take. */
			if (WARN_ON_ONCE(i >= take->n ||
					 take->h[i].hist != data->private_data))
				return -EINVAL;
			t = &take->h[i++];
		}
		ret = ie_json_hist(m, data, t);
		if (ret)
			return ret;
		if (seq_has_overflowed(m))
			return 0;
	}
	ie_doc_puts(m, "\n]}\n");
	return 0;
}

/**
 * ie_hist_json_take - take an event's histograms, as a JSON document
 * @file: the event, under event_mutex
 * @text: set to the document, for kvfree()
 * @len: set to its length
 *
 * The document of ie_hist_json_show() for the entries taken from the
 * event's histograms (take.c), each histogram with its "interval_ns".
 * When it can't be made, what was taken is given back.
 *
 * Return: 0, -ENOMEM or -EFBIG (past %IE_DOC_MAX); on error, nothing
 * was taken.
 */
static int ie_hist_json_take(struct trace_event_file *file, char **text,
			     size_t *len)
{
	struct seq_file s = { };
	struct ie_take *take;
	int ret;

	lockdep_assert_held(&event_mutex);

	take = ie_take_event(file);
	if (IS_ERR(take))
		return PTR_ERR(take);
	s.size = PAGE_SIZE * 4;
	s.buf = kvmalloc(s.size, GFP_KERNEL_ACCOUNT);
	ret = -ENOMEM;
	if (s.buf)
		ret = ie_hist_json_show(&s, file, take);
	if (!ret && seq_has_overflowed(&s))
		ret = s.size * 2 > IE_DOC_MAX ? -EFBIG : -ENOMEM;
	if (ret) {
		kvfree(s.buf);
		ie_take_give_back(take);
	} else {
		/* Kept until the next take: no more than it needs. */
		*text = kvmemdup(s.buf, s.count, GFP_KERNEL_ACCOUNT);
		if (*text)
			kvfree(s.buf);
		else
			*text = s.buf;
		*len = s.count;
	}
	ie_take_free(take);
	return ret;
}

/*
 * hist_json: writing "take" takes the histograms' counts since the last
 * take (take.c) and rewinds the file, whose reads then give that
 * document, until the next take; an opener that never took reads the
 * live histograms.
 */
static ssize_t ie_hist_json_write(struct file *filp, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct ie_hist_file *hf = filp->private_data;
	struct trace_event_file *file;
	char cmd[16], loc[MAX_EVENT_NAME_LEN * 2 + 16];
	size_t len;
	char *text;
	int ret;

	if (!cnt)
		return 0;
	len = min(cnt, sizeof(cmd) - 1);
	if (copy_from_user(cmd, ubuf, len))
		return -EFAULT;
	cmd[len] = '\0';

	/*
	 * One take of this opener at a time, from the take to the document
	 * installed: a later take's document is never replaced by an
	 * earlier one's (writes may come in parallel, from io_uring).  The
	 * read path's order: doc_lock, then event_mutex.
	 */
	guard(mutex)(&hf->doc_lock);
	scoped_guard(mutex, &event_mutex) {
		file = event_file_file(filp);
		if (!file)
			return -ENODEV;
		snprintf(loc, sizeof(loc), "hist_json:%s:%s",
			 file->event_call->class->system,
			 trace_event_name(file->event_call));
		if (len != cnt || strcmp(strim(cmd), "take")) {
			ie_log_err(file->tr, loc, cmd, IE_ERR_JSON_CMD, 0);
			return -EINVAL;
		}
		/* Taken for nobody to read (echo take > hist_json): refused. */
		if (!(filp->f_mode & FMODE_READ)) {
			ie_log_err(file->tr, loc, cmd, IE_ERR_JSON_WRONLY, 0);
			return -EBADF;
		}
		ret = ie_hist_json_take(file, &text, &len);
		if (ret) {
			if (ret == -EFBIG)
				ie_log_err(file->tr, loc, cmd, IE_ERR_JSON_SIZE, 0);
			return ret;
		}
		hf->last_read = ie_hist_file_hits(file);
		hf->last_act = hf->last_read;
	}
	kvfree(hf->doc.buf);
	hf->doc.buf = text;
	hf->doc.size = len;
	hf->doc.count = len;
	hf->taken = true;
	*ppos = 0;
	return cnt;
}

static int ie_hist_json_doc(struct seq_file *m, struct trace_event_file *file)
{
	return ie_hist_json_show(m, file, NULL);
}

static int ie_hist_json_open(struct inode *inode, struct file *filp)
{
	return ie_hist_open_show(inode, filp, ie_hist_json_doc);
}

/* The data of the hist file as one JSON document; polled as hist is. */
const struct file_operations event_hist_json_fops = {
	.open		= ie_hist_json_open,
	.read		= ie_hist_read,
	.write		= ie_hist_json_write,
	.llseek		= ie_hist_llseek,
	.poll		= ie_hist_poll,
	.release	= ie_hist_release,
};
