// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: the operands of expressions.
 *
 * An expression's operands are parsed as text (expr.c) and resolved here
 * for the histogram that computes it: each becomes a numeric field of
 * the event or common_timestamp, or, by var.c, a variable: one of the
 * same trigger stands for its expression (inlined), another trigger's is
 * a reference read from its entry.  Then constants are folded and the
 * expression's size is bounded.  The type of a resolved expression is
 * the one synthetic event parameters are checked against.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "inter_event.h"

/**
 * ie_resolve_leaf - resolve one operand of an expression
 * @leaf: the operand, as parsed (IE_EX_LEAF); other nodes are left alone
 * @arg: the struct ie_resolver of the expression
 *
 * For ie_expr_walk_leaves(): make @leaf a numeric field of the event,
 * common_timestamp, or (ie_resolve_var()) a variable.  The root of an
 * expression that may be a string may be a string or stack trace field.
 *
 * Context: Must be called with event_mutex held.
 * Return: 0 or a negative error, *@arg's error set.
 */
int ie_resolve_leaf(struct ie_expr *leaf, void *arg)
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
	ret = ie_resolve_var(rs, leaf, text);
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
