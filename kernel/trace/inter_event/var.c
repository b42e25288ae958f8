// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: variables and references to them.
 *
 * A variable keeps a value per histogram entry, set at every hit.  Another
 * histogram refers to it by name ("$ts0", "sched.sched_waking.$ts0", or
 * the RFC's bare "ts0") and reads it, once, from the entry whose key is
 * the key of its own event (or its leading keys, when the defining
 * histogram has fewer).  A reference to a variable of the same
 * trigger stands for that variable's expression.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "inter_event.h"

/* How deep variables of one trigger may be inlined into each other. */
#define IE_INLINE_DEPTH		4

/*
 * Can @hist look up @def's entries with its own key?  @def's keys must be
 * the first keys of @hist, of the same types and sizes: a histogram keyed
 * by pid,lat finds the variables of one keyed by pid.
 */
static bool ie_keys_fit(const struct ie_hist *hist, const struct ie_hist *def)
{
	unsigned int i;

	if (def->n_keys > hist->n_keys)
		return false;
	for (i = 0; i < def->n_keys; i++) {
		if (hist->keys[i].type != def->keys[i].type ||
		    hist->keys[i].size != def->keys[i].size)
			return false;
	}
	return true;
}

/**
 * ie_find_var - look up a variable of a histogram
 * @hist: the histogram
 * @name: the variable's name, without '$'
 *
 * Return: the index of variable @name in @hist->vars, or -ENOENT.
 */
int ie_find_var(struct ie_hist *hist, const char *name)
{
	unsigned int i;

	for (i = 0; i < hist->n_vars; i++) {
		if (!strcmp(hist->vars[i].name, name))
			return i;
	}
	return -ENOENT;
}

/* The registered histogram defining @name, on @sys:@event if given. */
static struct ie_hist *ie_find_def(struct ie_hist *hist, const char *sys,
				   const char *event, const char *name,
				   unsigned int *var, enum ie_err *err)
{
	struct ie_hist *found = NULL, *h;
	struct event_trigger_data *data;
	struct trace_event_file *file;
	int idx;

	lockdep_assert_held(&event_mutex);

	list_for_each_entry(file, &hist->file->tr->events, list) {
		if (sys && (strcmp(file->event_call->class->system, sys) ||
			    strcmp(trace_event_name(file->event_call), event)))
			continue;
		list_for_each_entry(data, &file->triggers, list) {
			if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
				continue;
			h = data->private_data;
			/* A helper's variables are its users' alone. */
			if (h->is_aux)
				continue;
			idx = ie_find_var(h, name);
			if (h == hist || idx < 0 || h == found)
				continue;
			if (found) {
				*err = IE_ERR_VAR_NOT_UNIQUE;
				return NULL;
			}
			found = h;
			*var = idx;
		}
	}
	if (!found)
		*err = IE_ERR_VAR_NOT_FOUND;
	return found;
}

/**
 * ie_ref_add - make @hist read variable @var of histogram @def
 * @hist: the histogram being built (its keys are resolved already)
 * @def: the registered histogram defining the variable
 * @var: index in def->vars
 *
 * Return: the reference's index in hist->refs (one per variable),
 * -EINVAL if @hist can't look up @def's entries with its key, or
 * -ENOSPC if @hist has too many references.
 */
int ie_ref_add(struct ie_hist *hist, struct ie_hist *def, unsigned int var)
{
	unsigned int i;

	if (!ie_keys_fit(hist, def))
		return -EINVAL;
	for (i = 0; i < hist->n_refs; i++) {
		if (hist->refs[i].def == def && hist->refs[i].var == var)
			return i;
	}
	if (i == IE_MAX_REFS)
		return -ENOSPC;
	if (def->vars[var].str_size) {
		/* The slots from the top hold the stacks taken (ie_var_add()). */
		if (hist->n_str_refs + hist->n_stack_vars == IE_MAX_STR_REFS)
			return -ENOSPC;
		hist->refs[i].str_slot = hist->n_str_refs++;
	}
	hist->refs[i].def = def;
	hist->refs[i].var = var;
	hist->n_refs++;
	return i;
}

/* Replace @leaf by the expression of local variable @var. */
static int ie_inline_var(struct ie_resolver *rs, struct ie_expr *leaf,
			 struct ie_var *var)
{
	struct ie_expr *sub;
	unsigned int pos;
	enum ie_err err;
	int ret;

	if (rs->depth >= IE_INLINE_DEPTH)
		return ie_resolve_fail(rs, leaf, IE_ERR_TOO_MANY_OPERANDS);
	ret = ie_expr_parse(var->text, &sub, &pos, &err);
	if (ret == -ENOMEM) {
		*rs->err = IE_ERR_NOMEM;
		return ret;
	}
	if (ret)
		return ie_resolve_fail(rs, leaf, err);
	rs->depth++;
	ret = ie_expr_walk_leaves(sub, ie_resolve_leaf, rs);
	rs->depth--;
	if (ret) {
		ie_expr_free(sub);
		*rs->err_pos = leaf->pos;
		return ret;
	}
	/* Listed as written ("$var", or the RFC's bare name). */
	kfree(sub->alias);
	sub->alias = leaf->text;
	pos = leaf->pos;
	*leaf = *sub;
	leaf->pos = pos;
	kfree(sub);
	return 0;
}

/* @leaf names another trigger's variable: a reference to it. */
static int ie_resolve_ref(struct ie_resolver *rs, struct ie_expr *leaf,
			  const char *sys, const char *event, const char *name)
{
	struct ie_hist *hist = rs->hist, *def;
	unsigned int var;
	enum ie_err err;
	int ref;

	def = ie_find_def(hist, sys, event, name, &var, &err);
	if (!def)
		return ie_resolve_fail(rs, leaf, err);
	if (def->vars[var].str_size && (!rs->allow_str || leaf != rs->root))
		return ie_resolve_fail(rs, leaf, IE_ERR_STR_OPERAND);
	ref = ie_ref_add(hist, def, var);
	if (ref < 0)
		return ie_resolve_fail(rs, leaf, ref == -ENOSPC ?
				       IE_ERR_TOO_MANY_REFS :
				       IE_ERR_REF_KEY_MISMATCH);
	leaf->kind = IE_EX_REF;
	leaf->ref = ref;
	kfree(leaf->text);
	leaf->text = sys ? kasprintf(GFP_KERNEL, "%s.%s.$%s", sys, event, name) :
			   kasprintf(GFP_KERNEL, "$%s", name);
	return leaf->text ? 0 : -ENOMEM;
}

/**
 * ie_resolve_var - resolve an operand naming a variable
 * @rs: the expression's resolver
 * @leaf: the operand
 * @text: its text, a copy to cut up: "$name", "system.event.$name", or
 *	the RFC's bare name (not a field of the event)
 *
 * A variable of the same trigger is inlined: @leaf becomes its
 * expression, resolved in turn, at most IE_INLINE_DEPTH deep.  Another
 * trigger's, unique among the instance's hist triggers (or on the
 * event named), becomes a reference (IE_EX_REF), added to the
 * histogram's.  A string variable is only the whole of an expression
 * that may be a string.
 *
 * Context: Must be called with event_mutex held.
 * Return: 0 or a negative error, @rs's error set.
 */
int ie_resolve_var(struct ie_resolver *rs, struct ie_expr *leaf, char *text)
{
	char *sys = NULL, *event = NULL, *name = text, *dollar;
	struct ie_hist *hist = rs->hist;
	int local;

	dollar = strrchr(text, '$');
	if (dollar) {
		name = dollar + 1;
		if (dollar != text) {
			/* "system.event.$name" */
			if (dollar[-1] != '.')
				return ie_resolve_fail(rs, leaf, IE_ERR_BAD_EXPR);
			dollar[-1] = '\0';
			sys = text;
			event = strchr(text, '.');
			if (!event)
				return ie_resolve_fail(rs, leaf, IE_ERR_BAD_EXPR);
			*event++ = '\0';
		}
	}
	if (!ie_name_ok(name))
		return ie_resolve_fail(rs, leaf, IE_ERR_BAD_NAME);

	local = sys ? -ENOENT : ie_find_var(hist, name);
	/* A string is read by another event's trigger, whole. */
	if (local >= 0 && hist->vars[local].str_size)
		return ie_resolve_fail(rs, leaf, IE_ERR_STR_OPERAND);
	if (local >= 0)
		return ie_inline_var(rs, leaf, &hist->vars[local]);
	return ie_resolve_ref(rs, leaf, sys, event, name);
}

/**
 * ie_var_add - define a variable of @hist
 * @hist: the histogram being built
 * @name: the variable's name
 * @text: its expression
 * @pos: offset of @text in the command, for errors
 * @err_pos: offset of the offending part on failure
 * @err: error code on failure
 *
 * Return: 0 or a negative error.
 */
int ie_var_add(struct ie_hist *hist, const char *name, const char *text,
	       unsigned int pos, unsigned int *err_pos, enum ie_err *err)
{
	unsigned int off = 0, size;
	struct ie_var *var;
	int ret;

	*err_pos = pos;
	if (hist->n_vars == IE_MAX_VARS) {
		*err = IE_ERR_TOO_MANY_VARS;
		return -EINVAL;
	}
	if (!strcmp(text, "hitcount")) {
		*err = IE_ERR_VAR_ON_HITCOUNT;
		return -EINVAL;
	}
	var = &hist->vars[hist->n_vars];
	ret = ie_expr_parse(text, &var->expr, &off, err);
	if (!ret)
		ret = ie_expr_resolve_str(hist, var->expr, &off, err);
	/*
	 * A string or a stack trace, of the event or copied from another
	 * event's variable: kept whole in the entry.  A stack trace is
	 * kept with a 0 after its last frame.
	 */
	if (!ret && ie_expr_is_str(hist, var->expr, &size)) {
		var->str_compat = size;
		var->str_size = var->expr->kind == IE_EX_REF ?
			ie_ref_var(hist, var->expr)->str_size :
			var->expr->field->size;
	} else if (!ret && ie_expr_is_stack(hist, var->expr)) {
		var->is_stack = true;
		var->str_size = (IE_STACK_DEPTH + 1) * sizeof(unsigned long);
		/*
		 * A stack taken at the event (not copied): into a scratch
		 * slot first, shared with the string references.
		 */
		var->stack_slot = -1;
		if (var->expr->kind == IE_EX_FIELD &&
		    hist->n_str_refs + hist->n_stack_vars == IE_MAX_STR_REFS) {
			*err = IE_ERR_TOO_MANY_REFS;
			ret = -EINVAL;
		} else if (var->expr->kind == IE_EX_FIELD) {
			var->stack_slot = IE_MAX_STR_REFS - 1 -
					  hist->n_stack_vars++;
		}
	}
	if (ret) {
		*err_pos = pos + off;
		ie_expr_free(var->expr);
		var->expr = NULL;
		return ret;
	}
	var->name = kstrdup(name, GFP_KERNEL);
	var->text = kstrdup(text, GFP_KERNEL);
	hist->n_vars++;
	if (!var->name || !var->text) {
		*err = IE_ERR_NOMEM;
		return -ENOMEM;
	}
	return 0;
}

/**
 * ie_vars_save - store an event's values of the variables in an entry
 * @hist: the histogram
 * @elt: the entry the event updated
 * @vals: the values, one per variable; a string or stack variable's is
 *	the address of a copy in scratch space, or 0 to copy the string
 *	field from @rec
 * @rec: the event's record
 *
 * Event path: store the variables of @hist in entry @elt, each for one
 * later event to read.  An event writing a variable while another one
 * does (another CPU, or an event this one interrupted) leaves it to the
 * other: as if it had written first and been overwritten at once.  A
 * value not read yet is replaced; all are published with one new write
 * tag (ie_event_write_tag()).
 *
 * Context: event path, any context including NMI.
 */
void ie_vars_save(struct ie_hist *hist, struct ie_elt *elt,
		  const u64 *vals, void *rec)
{
	u8 *data = ie_elt_data(hist->m, elt);
	u64 tag = ie_event_write_tag();
	const struct ie_var *var;
	atomic64_t *slot;
	unsigned int i;

	for (i = 0; i < hist->n_vars; i++) {
		var = &hist->vars[i];
		slot = ie_var_tag(hist, elt, i);
		if (!ie_var_claim(slot))
			continue;
		/*
		 * Readers see the tag odd from here: they can't take it.  A
		 * copy or a stack was made in scratch space (@vals has its
		 * address): the entry gets it whole.
		 */
		if (var->str_size && vals[i])
			memcpy(data + var->str_off,
			       (const void *)(unsigned long)vals[i],
			       var->str_size);
		else if (var->str_size)
			ie_field_key(var->expr->field, rec, data + var->str_off);
		else
			atomic64_set(ie_elt_var(hist->m, elt, var->map_idx),
				     vals[i]);
		atomic64_set_release(slot, tag);
	}
}

/*
 * Event path: consume a string variable, copying it to @dst on the way:
 * a copy made while a writer changed it is not taken (the tag changed),
 * and is made again.
 */
static bool ie_var_take_str(atomic64_t *tag, const char *src, char *dst,
			    unsigned int size)
{
	unsigned int tries;
	s64 t;

	for (tries = 0; tries < IE_TAKE_TRIES; tries++) {
		/* Pairs with the release of the writer's tag. */
		t = atomic64_read_acquire(tag);
		if (!t || (t & IE_TAG_BUSY))
			return false;
		/* Racing with a writer by design: its copy is not taken. */
		data_race(memcpy(dst, src, size));
		dst[size - 1] = '\0';
		/* Fully ordered: the copy was made before. */
		if (atomic64_try_cmpxchg(tag, &t, 0))
			return true;
	}
	return false;
}

/**
 * ie_refs_read - read the variables a histogram refers to, for an event
 * @hist: the histogram
 * @key: the event's compound key, to look up each defining histogram
 * @vals: set to the values, one per reference; a string's is the
 *	address of its copy in @strs
 * @elts: room for the defining entries, one per reference
 * @strs: room for the copies of strings, IE_STR_MAX bytes each
 *
 * Event path: read every referenced variable from the entry of @key in
 * its histogram.  A variable is read once: the first event that reads it
 * consumes it, so one saved value pairs with one later event.  All the
 * triggers of that one event read the value it consumed (kept in the
 * event's mark), so that several triggers on an event act on the same
 * saved value.  All references must have a value, or none is read.
 *
 * Events on several CPUs may race for one saved value: exactly one
 * consumes it (ie_var_take()).  An event that loses such a race after
 * consuming an earlier reference of its list reads nothing, and that
 * earlier value is consumed (its other triggers may still read it): at
 * most once, never twice.  A map being cleared is not looked into.
 *
 * Context: event path, any context including NMI.
 * Return: true if every reference has a value; false if not, and the
 * event doesn't count.
 */
bool ie_refs_read(struct ie_hist *hist, void *key, u64 *vals,
		  struct ie_elt **elts, char *strs)
{
	unsigned int i, need = 0, tag_off, val_off;
	const struct ie_ref *ref;
	const struct ie_var *var;
	atomic64_t *tag;
	char *dst;
	u64 v;
	s64 t;

	if (hist->n_refs == 1) {
		ref = &hist->refs[0];
		if (!ref->def->vars[ref->var].str_size) {
			ie_ref_offsets(ref, &tag_off, &val_off);
			return ie_ref_take_one(ref->def, tag_off, val_off, key,
					       vals, elts,
					       ie_this_mark(ie_this_level()));
		}
	}
	for (i = 0; i < hist->n_refs; i++) {
		ref = &hist->refs[i];
		/* Pairs with the release in ie_hist_control(): see there. */
		if (smp_load_acquire(&ref->def->m->clearing))
			return false;
		elts[i] = ie_index_find(&ref->def->m->index, key);
		if (!elts[i])
			return false;
		tag = ie_var_tag(ref->def, elts[i], ref->var);
		/*
		 * A string is copied as it is taken, and not kept for the
		 * event's other triggers: the first of them reads it.
		 */
		if (ref->def->vars[ref->var].str_size) {
			t = atomic64_read(tag);
			if (!t || (t & IE_TAG_BUSY))
				return false;
			continue;
		}
		if (ie_event_taken(tag, &v))
			continue;
		if (!ie_var_peek(tag, ie_elt_var(ref->def->m, elts[i],
						 ref->def->vars[ref->var].map_idx),
				 &t, &v))
			return false;
		need++;
	}
	/* What this event consumes must be kept for its other triggers. */
	if (need && !ie_event_take_room(need))
		return false;
	for (i = 0; i < hist->n_refs; i++) {
		ref = &hist->refs[i];
		var = &ref->def->vars[ref->var];
		tag = ie_var_tag(ref->def, elts[i], ref->var);
		if (var->str_size) {
			dst = strs + ref->str_slot * IE_STR_MAX;
			if (!ie_var_take_str(tag, (u8 *)ie_elt_data(ref->def->m,
								    elts[i]) +
					     var->str_off, dst, var->str_size))
				return false;	/* another event took it */
			vals[i] = (unsigned long)dst;
			continue;
		}
		if (ie_event_taken(tag, &vals[i]))
			continue;
		if (!ie_var_take(tag, ie_elt_var(ref->def->m, elts[i], var->map_idx),
				 &vals[i]))
			return false;	/* another event took it */
		ie_event_take(tag, vals[i]);
	}
	return true;
}

/**
 * ie_refs_hold - pin the histograms a histogram depends on
 * @hist: the histogram, built
 *
 * Pin the histograms we refer to, so they can't be removed under us, and
 * those our helpers mirror, so their filters stay the helpers'.  One pin
 * per reference and per helper; ie_refs_release() gives them back.
 *
 * Context: Must be called with event_mutex held.
 */
void ie_refs_hold(struct ie_hist *hist)
{
	unsigned int i;

	for (i = 0; i < hist->n_refs; i++)
		hist->refs[i].def->users++;
	for (i = 0; i < hist->n_aux; i++)
		hist->aux[i].match->users++;
}

static void ie_hist_unpin(struct ie_hist *def)
{
	/* Each pin counted once; see ie_hist_put(). */
	if (!--def->users && def->orphan)
		ie_hist_destroy(def);
}

/**
 * ie_refs_release - give back the pins of ie_refs_hold()
 * @hist: the histogram being destroyed
 *
 * A pinned histogram whose trigger is gone (an orphan) is destroyed
 * when its last pin goes.
 *
 * Context: Must be called with event_mutex held.
 */
void ie_refs_release(struct ie_hist *hist)
{
	unsigned int i;

	for (i = 0; i < hist->n_refs; i++)
		ie_hist_unpin(hist->refs[i].def);
	for (i = 0; i < hist->n_aux; i++)
		ie_hist_unpin(hist->aux[i].match);
}
