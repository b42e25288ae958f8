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

#define IE_INLINE_DEPTH		4

struct ie_resolver {
	struct ie_hist	*hist;
	unsigned int	depth;
	unsigned int	*err_pos;
	enum ie_err	*err;
	struct ie_expr	*root;
	bool		allow_str;	/* the root may be a string */
};

static int ie_resolve_fail(struct ie_resolver *rs, struct ie_expr *leaf,
			   enum ie_err err)
{
	*rs->err = err;
	*rs->err_pos = leaf->pos;
	return -EINVAL;
}

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

static int ie_resolve_leaf(struct ie_expr *leaf, void *arg);

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

static int ie_resolve_ref(struct ie_resolver *rs, struct ie_expr *leaf,
			  char *text)
{
	struct ie_hist *hist = rs->hist, *def;
	char *sys = NULL, *event = NULL, *name = text, *dollar;
	unsigned int i, var;
	enum ie_err err;
	int local, ref;

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
	i = ref;
	leaf->kind = IE_EX_REF;
	leaf->ref = i;
	kfree(leaf->text);
	leaf->text = sys ? kasprintf(GFP_KERNEL, "%s.%s.$%s", sys, event, name) :
			   kasprintf(GFP_KERNEL, "$%s", name);
	return leaf->text ? 0 : -ENOMEM;
}

static int ie_resolve_leaf(struct ie_expr *leaf, void *arg)
{
	struct ie_resolver *rs = arg;
	struct ie_field *f;
	enum ie_err err;
	char *text;
	int ret;

	if (leaf->kind != IE_EX_LEAF)
		return 0;
	if (!strcmp(leaf->text, "common_timestamp") ||
	    !strcmp(leaf->text, "common_timestamp.usecs")) {
		leaf->kind = IE_EX_TIMESTAMP;
		leaf->usecs = leaf->text[16] == '.';
		rs->hist->uses_ts = true;
		return 0;
	}
	if (!strcmp(leaf->text, "hitcount"))
		return ie_resolve_fail(rs, leaf, IE_ERR_VAR_ON_HITCOUNT);

	text = kstrdup(leaf->text, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	if (strchr(text, '$'))
		goto ref;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f) {
		ret = -ENOMEM;
		goto out;
	}
	ret = ie_field_resolve(rs->hist, f, text, false, &err);
	if (ret && err == IE_ERR_FIELD_UNBOUNDED) {
		kfree(f);
		ret = ie_resolve_fail(rs, leaf, err);
		goto out;
	}
	if (!ret && (f->type == IE_FT_NUM || f->type == IE_FT_CPU)) {
		leaf->kind = IE_EX_FIELD;
		leaf->field = f;
		goto out;
	}
	/* A string field, the whole of a variable's expression. */
	if (ret && err == IE_ERR_BAD_VAL && rs->allow_str && leaf == rs->root) {
		/* Resolved again as a key may be: the text was cut up. */
		kfree(text);
		text = kstrdup(leaf->text, GFP_KERNEL);
		if (!text) {
			kfree(f);
			*rs->err = IE_ERR_NOMEM;
			return -ENOMEM;
		}
		ret = ie_field_resolve(rs->hist, f, text, true, &err);
		if (!ret && (f->type == IE_FT_STR || f->type == IE_FT_STACK) &&
		    !f->mods) {
			leaf->kind = IE_EX_FIELD;
			leaf->field = f;
			goto out;
		}
		if (!ret)
			ie_field_free(f);
		kfree(f);
		if (ret == -ENOMEM)
			goto out;	/* *rs->err is IE_ERR_NOMEM already */
		ret = ie_resolve_fail(rs, leaf, IE_ERR_STR_OPERAND);
		goto out;
	}
	if (ret == -ENOMEM) {
		kfree(f);
		goto out;	/* *rs->err is IE_ERR_NOMEM already */
	}
	if (!ret) {
		/* A string field can't be computed with. */
		ie_field_free(f);
		kfree(f);
		ret = ie_resolve_fail(rs, leaf, IE_ERR_BAD_VAL);
		goto out;
	}
	kfree(f);
	/* Not a field of this event: the RFC's bare variable name. */
	kfree(text);
	text = kstrdup(leaf->text, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	if (!ie_name_ok(text)) {
		ret = ie_resolve_fail(rs, leaf, err);
		goto out;
	}
ref:
	ret = ie_resolve_ref(rs, leaf, text);
out:
	kfree(text);
	return ret;
}

/*
 * ie_expr_resolve() and ie_expr_resolve_str(): @allow_str says whether
 * the whole expression may be a string.
 */
static int __ie_expr_resolve(struct ie_hist *hist, struct ie_expr *e,
			     unsigned int *err_pos, enum ie_err *err,
			     bool allow_str)
{
	struct ie_resolver rs = {
		.hist = hist, .err_pos = err_pos, .err = err,
		.root = e, .allow_str = allow_str,
	};
	unsigned int leaves, height;
	const struct ie_expr *zero;
	int ret;

	*err = IE_ERR_NOMEM;
	ret = ie_expr_walk_leaves(e, ie_resolve_leaf, &rs);
	if (!ret)
		ret = ie_expr_fold(e);
	if (ret)
		return ret;
	/*
	 * The trigger's own variables are inlined: what an event evaluates
	 * is bounded only here, after that.
	 */
	ie_expr_size(e, &leaves, &height);
	*err_pos = 0;
	if (leaves > IE_EXPR_MAX_LEAVES ||
	    hist->n_leaves + leaves > IE_HIST_MAX_LEAVES) {
		*err = IE_ERR_TOO_MANY_OPERANDS;
		return -EINVAL;
	}
	if (height > IE_EXPR_MAX_HEIGHT) {
		*err = IE_ERR_EXPR_DEPTH;
		return -EINVAL;
	}
	hist->n_leaves += leaves;
	/* Dividing by a constant zero is a mistake worth reporting. */
	zero = ie_expr_div_by_zero(e);
	if (zero) {
		*err = IE_ERR_DIV_BY_ZERO;
		*err_pos = zero->pos;
		return -EINVAL;
	}
	return 0;
}

/**
 * ie_expr_resolve - resolve the operands of an expression for @hist
 * @hist: the histogram being built (its keys are resolved already)
 * @e: the parsed expression
 * @err_pos: offset of the offending operand in the expression's text
 * @err: error code
 *
 * Each operand becomes a numeric field of the event, common_timestamp,
 * the expression of a variable of @hist (inlined) or a reference to
 * another histogram's variable, added to @hist->refs (where it stays
 * even if resolving fails later).  Constant subexpressions are folded;
 * the operands count against IE_EXPR_MAX_LEAVES and, added to
 * @hist->n_leaves, IE_HIST_MAX_LEAVES; the height is bounded by
 * IE_EXPR_MAX_HEIGHT; a division by the constant 0 is refused.
 *
 * Context: Must be called with event_mutex held (for the lookup of
 * other histograms' variables).
 * Return: 0 or a negative error.
 */
int ie_expr_resolve(struct ie_hist *hist, struct ie_expr *e,
		    unsigned int *err_pos, enum ie_err *err)
{
	return __ie_expr_resolve(hist, e, err_pos, err, false);
}

/**
 * ie_expr_resolve_str - resolve an expression that may be a string
 * @hist: the histogram being built (its keys are resolved already)
 * @e: the parsed expression
 * @err_pos: offset of the offending operand in the expression's text
 * @err: error code
 *
 * The same, but the whole expression may be a string: a string field
 * (a variable's value) or a reference to a string variable (a trace()
 * parameter).  A stack trace field, without modifiers, may be the
 * whole expression too.
 *
 * Context: Must be called with event_mutex held.
 * Return: 0 or a negative error.
 */
int ie_expr_resolve_str(struct ie_hist *hist, struct ie_expr *e,
			unsigned int *err_pos, enum ie_err *err)
{
	return __ie_expr_resolve(hist, e, err_pos, err, true);
}

/* The variable reference @e (an IE_EX_REF of @hist) reads. */
static const struct ie_var *ie_ref_var(const struct ie_hist *hist,
				       const struct ie_expr *e)
{
	const struct ie_ref *ref = &hist->refs[e->ref];

	return &ref->def->vars[ref->var];
}

/**
 * ie_expr_is_str - whether a resolved expression is a string
 * @hist: the histogram @e belongs to
 * @e: the expression, resolved
 * @size: set, if it is a string, to its size
 *
 * Is resolved expression @e a string (a string field or a reference to
 * a string variable)?  @size: its size as CONFIG_HIST_TRIGGERS counts it, a
 * fixed-size string's own or 256 bytes.  A variable knows what it holds
 * (set when it is defined), so a chain of copies is looked at one hop.
 * A stack trace is no string.
 *
 * Return: true if @e is a string.
 */
bool ie_expr_is_str(const struct ie_hist *hist, const struct ie_expr *e,
		    unsigned int *size)
{
	const struct ie_var *var;

	if (e->kind == IE_EX_REF) {
		var = ie_ref_var(hist, e);
		if (!var->str_size || var->is_stack)
			return false;
		*size = var->str_compat;
		return true;
	}
	if (e->kind != IE_EX_FIELD || e->field->type != IE_FT_STR)
		return false;
	*size = e->field->ev->filter_type == FILTER_STATIC_STRING ?
		e->field->ev->size : MAX_FILTER_STR_VAL;
	return true;
}

/**
 * ie_expr_is_stack - whether a resolved expression is a stack trace
 * @hist: the histogram @e belongs to
 * @e: the expression, resolved
 *
 * Is resolved expression @e a stack trace, or a variable holding one?
 *
 * Return: true if it is.
 */
bool ie_expr_is_stack(const struct ie_hist *hist, const struct ie_expr *e)
{
	if (e->kind == IE_EX_REF)
		return ie_ref_var(hist, e)->is_stack;
	return e->kind == IE_EX_FIELD && e->field->type == IE_FT_STACK;
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
 * ie_var_take - consume the value of a variable
 * @tag: the variable's read-once tag in its entry
 * @val: the variable's value in its entry
 * @v: set to the value consumed
 *
 * Event path: consume the value of a variable (see ie_var_peek()),
 * trying IE_TAKE_TRIES times while writers replace it.
 *
 * Context: event path, any context including NMI.
 * Return: true if a value was consumed; false if there is none, or if
 * writers kept replacing it.
 */
bool ie_var_take(atomic64_t *tag, atomic64_t *val, u64 *v)
{
	unsigned int tries;
	s64 t;

	for (tries = 0; tries < IE_TAKE_TRIES; tries++) {
		if (!ie_var_peek(tag, val, &t, v))
			return false;
		if (ie_var_confirm(tag, t))
			return true;
	}
	return false;
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
	s64 old;

	for (i = 0; i < hist->n_vars; i++) {
		var = &hist->vars[i];
		slot = ie_var_tag(hist, elt, i);
		old = atomic64_read(slot);
		do {
			if (old & IE_TAG_BUSY)
				break;
		} while (!atomic64_try_cmpxchg(slot, &old, IE_TAG_BUSY));
		if (old & IE_TAG_BUSY)
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
	const struct ie_ref *ref;
	const struct ie_var *var;
	unsigned int i, need = 0;
	atomic64_t *tag;
	char *dst;
	u64 v;
	s64 t;

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

/* common_cpu, as a trace() parameter */
static const struct ie_type ie_type_cpu = { "unsigned int", sizeof(int), false };

/**
 * ie_expr_type - the C type of an expression's value
 * @hist: the histogram the expression belongs to (for its references)
 * @e: a resolved expression
 * @t: filled in
 *
 * Typed as CONFIG_HIST_TRIGGERS types it, so that the same
 * synthetic event parameters are accepted: an event field has its type,
 * common_cpu is an unsigned int, a reference has the type of the variable's
 * expression, an operator the type of its left operand, and a constant
 * or a time stamp is a u64.
 */
void ie_expr_type(const struct ie_hist *hist, const struct ie_expr *e,
		  struct ie_type *t)
{
	const struct ie_ref *ref;

	switch (e->kind) {
	case IE_EX_FIELD:
		if (e->field->type == IE_FT_CPU) {	/* common_cpu by name */
			*t = ie_type_cpu;
			return;
		}
		/* A stack trace is no number: typed as none could be. */
		if (!e->field->ev || e->field->type != IE_FT_NUM) {
			*t = (struct ie_type){ "", 0, false };
			return;
		}
		t->name = e->field->ev->type;
		t->size = e->field->ev->size;
		t->is_signed = e->field->ev->is_signed;
		return;
	case IE_EX_CPU:
		*t = ie_type_cpu;
		return;
	case IE_EX_REF:
		ref = &hist->refs[e->ref];
		ie_expr_type(ref->def, ref->def->vars[ref->var].expr, t);
		return;
	case IE_EX_ADD:
	case IE_EX_SUB:
	case IE_EX_MUL:
	case IE_EX_DIV:
	case IE_EX_NEG:
		ie_expr_type(hist, e->l, t);
		return;
	default:
		*t = (struct ie_type){ "u64", sizeof(u64), false };
		return;
	}
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
