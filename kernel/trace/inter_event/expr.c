// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: arithmetic expressions over event fields,
 * timestamps, constants and variable references.
 *
 *   expr  := term { ("+" | "-") term }
 *   term  := unary { ("*" | "/") unary }
 *   unary := "-" unary | "(" expr ")" | operand
 *
 * An operand is a run of name characters ([A-Za-z0-9_.$]); a leading
 * digit makes it a constant (as kstrtou64() base 0 reads it: decimal, 0x
 * hex, 0 octal).  Parentheses and minus signs nest at most
 * IE_EXPR_MAX_DEPTH deep, so parsing and evaluation use bounded stack.
 * Arithmetic is on u64 and wraps; a division by zero gives U64_MAX (-1).
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "inter_event.h"

/* Parentheses and unary minus nest at most this deep (stack bound). */
#define IE_EXPR_MAX_DEPTH	8
/*
 * Operands parsed before the text is refused outright.  Up to here the
 * tree is built, to report too many operands where CONFIG_HIST_TRIGGERS
 * would (see ie_expr_parse()); a longer chain would make a tree as high
 * as it is long, and freeing it recurses.
 */
#define IE_EXPR_PARSE_OPERANDS	(4 * IE_EXPR_MAX_OPERANDS)

struct ie_expr_parser {
	const char	*text;
	const char	*p;
	unsigned int	operands;
	unsigned int	depth;
	unsigned int	err_pos;
	enum ie_err	err;
};

static struct ie_expr *ie_expr_fail(struct ie_expr_parser *ps, enum ie_err err,
				    const char *at)
{
	ps->err = err;
	ps->err_pos = at - ps->text;
	return ERR_PTR(-EINVAL);
}

static bool ie_operand_char(char c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '$';
}

static struct ie_expr *ie_expr_node(enum ie_expr_kind kind, struct ie_expr *l,
				    struct ie_expr *r)
{
	struct ie_expr *e = kzalloc(sizeof(*e), GFP_KERNEL);

	if (!e)
		return ERR_PTR(-ENOMEM);
	e->kind = kind;
	e->l = l;
	e->r = r;
	return e;
}

static struct ie_expr *ie_parse_sum(struct ie_expr_parser *ps);
static struct ie_expr *ie_parse_unary(struct ie_expr_parser *ps);

static struct ie_expr *ie_parse_operand(struct ie_expr_parser *ps)
{
	const char *start = ps->p;
	struct ie_expr *e;
	size_t len;

	while (ie_operand_char(*ps->p) ||
	       /* the one modifier with a dash in it */
	       (*ps->p == '-' && ps->p - start >= 4 &&
		!strncmp(ps->p - 4, ".sym-offset", 11)))
		ps->p++;
	len = ps->p - start;
	if (!len)
		return ie_expr_fail(ps, IE_ERR_BAD_EXPR, start);
	/* Too many is refused once the whole text parsed (see below). */
	if (++ps->operands > IE_EXPR_PARSE_OPERANDS)
		return ie_expr_fail(ps, IE_ERR_TOO_MANY_OPERANDS, start);

	e = ie_expr_node(IE_EX_LEAF, NULL, NULL);
	if (IS_ERR(e))
		return e;
	e->pos = start - ps->text;
	e->text = kstrndup(start, len, GFP_KERNEL);
	if (!e->text) {
		kfree(e);
		return ERR_PTR(-ENOMEM);
	}
	if (isdigit(*start)) {
		e->kind = IE_EX_CONST;
		if (kstrtou64(e->text, 0, &e->konst)) {
			ie_expr_free(e);
			return ie_expr_fail(ps, IE_ERR_BAD_CONST, start);
		}
	}
	return e;
}

static struct ie_expr *ie_parse_nested(struct ie_expr_parser *ps)
{
	const char *open = ps->p;
	struct ie_expr *e, *inner;

	if (*ps->p == '-') {
		ps->p++;
		inner = ie_parse_unary(ps);
		if (IS_ERR(inner))
			return inner;
		/*
		 * "-(x)" ends its subexpression, as CONFIG_HIST_TRIGGERS
		 * has it: "-(x)*y" is refused, "(-(x))*y" or "y*-(x)" is
		 * not.
		 */
		if (open[1] == '(' && *ps->p && strchr("+-*/", *ps->p)) {
			ie_expr_free(inner);
			return ie_expr_fail(ps, IE_ERR_UNARY_MINUS_SUBEXPR,
					    open + 2);
		}
		e = ie_expr_node(IE_EX_NEG, inner, NULL);
		if (IS_ERR(e)) {
			ie_expr_free(inner);
			return e;
		}
		e->pos = open - ps->text;
		return e;
	}
	ps->p++;
	e = ie_parse_sum(ps);
	if (IS_ERR(e))
		return e;
	if (*ps->p != ')') {
		ie_expr_free(e);
		return ie_expr_fail(ps, IE_ERR_UNBALANCED, open);
	}
	ps->p++;
	return e;
}

static struct ie_expr *ie_parse_unary(struct ie_expr_parser *ps)
{
	struct ie_expr *e;

	if (*ps->p != '-' && *ps->p != '(')
		return ie_parse_operand(ps);
	if (++ps->depth > IE_EXPR_MAX_DEPTH)
		return ie_expr_fail(ps, IE_ERR_EXPR_DEPTH, ps->p);
	e = ie_parse_nested(ps);
	ps->depth--;
	return e;
}

static struct ie_expr *ie_parse_binary(struct ie_expr_parser *ps, bool sum)
{
	struct ie_expr *l, *r, *e;
	enum ie_expr_kind kind;

	l = sum ? ie_parse_binary(ps, false) : ie_parse_unary(ps);
	while (!IS_ERR(l)) {
		if (sum && (*ps->p == '+' || *ps->p == '-'))
			kind = *ps->p == '+' ? IE_EX_ADD : IE_EX_SUB;
		else if (!sum && (*ps->p == '*' || *ps->p == '/'))
			kind = *ps->p == '*' ? IE_EX_MUL : IE_EX_DIV;
		else
			break;
		ps->p++;
		r = sum ? ie_parse_binary(ps, false) : ie_parse_unary(ps);
		if (IS_ERR(r)) {
			ie_expr_free(l);
			return r;
		}
		e = ie_expr_node(kind, l, r);
		if (IS_ERR(e)) {
			ie_expr_free(l);
			ie_expr_free(r);
			return e;
		}
		l = e;
	}
	return l;
}

static struct ie_expr *ie_parse_sum(struct ie_expr_parser *ps)
{
	return ie_parse_binary(ps, true);
}

static int ie_expr_prec(const struct ie_expr *e);

/* Might @e be printed as "x.sym-(...)"?  (Its left operand's last leaf.) */
static bool ie_expr_sym_sub(const struct ie_expr *e)
{
	const struct ie_expr *l = e->l;
	const char *t;

	if (e->kind != IE_EX_SUB)
		return false;
	while (l->kind >= IE_EX_ADD && l->kind <= IE_EX_DIV && !l->alias)
		l = l->r;
	t = l->alias ?: l->text;
	return l->kind != IE_EX_NEG && t && strlen(t) >= 4 &&
	       !strcmp(t + strlen(t) - 4, ".sym");
}

/*
 * How deep the listed text of @e nests, as the parser counts: the text
 * the trigger file lists must parse again (it is how a trigger is
 * removed), and "-a" is listed as "-(a)", a negation followed by an
 * operator as "(-(a))".  Follows ie_expr_print_sub(); where that looks
 * at the text printed ("x.sym-(offset)"), this may count one level more.
 */
static unsigned int ie_expr_list_depth(const struct ie_expr *e, int min_prec,
				       bool followed)
{
	bool paren = ie_expr_prec(e) < min_prec ||
		     (e->kind == IE_EX_NEG && followed);
	unsigned int d = 0, r;

	if (paren)
		followed = false;
	switch (e->kind) {
	case IE_EX_NEG:
		d = 2 + ie_expr_list_depth(e->l, 0, false);
		break;
	case IE_EX_ADD:
	case IE_EX_SUB:
	case IE_EX_MUL:
	case IE_EX_DIV:
		d = ie_expr_list_depth(e->l, ie_expr_prec(e), true);
		r = ie_expr_list_depth(e->r, ie_expr_sym_sub(e) ? 5 :
				       ie_expr_prec(e) + 1, followed);
		d = max(d, r);
		break;
	default:
		break;
	}
	return d + paren;
}

/* Where @e's text starts: its leftmost operand or minus sign. */
static unsigned int ie_expr_text_pos(const struct ie_expr *e)
{
	while (e->kind >= IE_EX_ADD && e->kind <= IE_EX_DIV)
		e = e->l;
	return e->pos;
}

/* The @n-th operator (from 1) of @e in pre-order, or NULL. */
static const struct ie_expr *ie_expr_nth_op(const struct ie_expr *e,
					    unsigned int *n)
{
	const struct ie_expr *found;

	if (e->kind < IE_EX_ADD)
		return NULL;
	if (!--*n)
		return e;
	found = ie_expr_nth_op(e->l, n);
	if (!found && e->r)
		found = ie_expr_nth_op(e->r, n);
	return found;
}

/**
 * ie_expr_parse - parse an expression
 * @text: the expression
 * @out: the tree; its leaves are IE_EX_LEAF (to resolve) or IE_EX_CONST
 * @err_pos: offset in @text of the offending part on failure
 * @err: error code on failure
 *
 * Return: 0, -EINVAL with @err and @err_pos set, or -ENOMEM.
 */
int ie_expr_parse(const char *text, struct ie_expr **out,
		  unsigned int *err_pos, enum ie_err *err)
{
	struct ie_expr_parser ps = { .text = text, .p = text };
	struct ie_expr *e;

	*out = NULL;
	e = ie_parse_sum(&ps);
	if (!IS_ERR(e) && *ps.p) {
		ie_expr_free(e);
		e = ie_expr_fail(&ps, *ps.p == ')' ? IE_ERR_UNBALANCED :
				 IE_ERR_BAD_EXPR, ps.p);
	}
	/*
	 * Too many operands: reported where CONFIG_HIST_TRIGGERS reports too
	 * many subexpressions, at the start of the fourth operator's
	 * subexpression, counted root first, left before right.
	 */
	/* Accepted only if it can be listed (the listing nests deeper). */
	if (!IS_ERR(e) && ie_expr_list_depth(e, 0, false) > IE_EXPR_MAX_DEPTH) {
		ie_expr_free(e);
		e = ie_expr_fail(&ps, IE_ERR_EXPR_DEPTH, text);
	}
	if (!IS_ERR(e) && ps.operands > IE_EXPR_MAX_OPERANDS) {
		unsigned int n = IE_EXPR_MAX_OPERANDS;
		const struct ie_expr *op = ie_expr_nth_op(e, &n);

		ps.err = IE_ERR_TOO_MANY_OPERANDS;
		ps.err_pos = op ? ie_expr_text_pos(op) : 0;
		ie_expr_free(e);
		e = ERR_PTR(-EINVAL);
	}
	if (IS_ERR(e)) {
		*err = PTR_ERR(e) == -ENOMEM ? IE_ERR_NOMEM : ps.err;
		*err_pos = ps.err_pos;
		return PTR_ERR(e);
	}
	*out = e;
	return 0;
}

/**
 * ie_expr_free - free an expression
 * @e: the expression's root; NULL or an ERR_PTR() is ignored
 *
 * Frees the whole tree: the operands, each leaf's field, text and
 * alias, and @e itself.
 */
void ie_expr_free(struct ie_expr *e)
{
	if (IS_ERR_OR_NULL(e))
		return;
	ie_expr_free(e->l);
	ie_expr_free(e->r);
	if (e->field) {
		ie_field_free(e->field);
		kfree(e->field);
	}
	kfree(e->text);
	kfree(e->alias);
	kfree(e);
}

static __always_inline u64 ie_expr_op(enum ie_expr_kind kind, u64 l, u64 r)
{
	switch (kind) {
	case IE_EX_ADD:
		return l + r;
	case IE_EX_SUB:
		return l - r;
	case IE_EX_MUL:
		return l * r;
	default:	/* IE_EX_DIV */
		return r ? div64_u64(l, r) : U64_MAX;
	}
}

/* The value of leaf @e (@e->kind below IE_EX_ADD). */
static __always_inline u64 ie_leaf_value(const struct ie_expr *e,
					 const struct ie_eval_ctx *ctx)
{
	switch (e->kind) {
	case IE_EX_CONST:
		return e->konst;
	case IE_EX_FIELD:
		return ie_field_num(e->field, ctx->rec);
	case IE_EX_TIMESTAMP:
		return ie_ts_value(e, ctx);
	case IE_EX_CPU:
		return raw_smp_processor_id();
	case IE_EX_REF:
		return ctx->refs[e->ref];
	default:	/* IE_EX_LEAF: unresolved */
		return 0;
	}
}

/* ie_expr_eval() of any expression: one frame per operator deep. */
static noinline u64 __ie_expr_eval(const struct ie_expr *e,
				   const struct ie_eval_ctx *ctx)
{
	u64 l, r;

	if (e->kind < IE_EX_ADD)
		return ie_leaf_value(e, ctx);
	l = e->l->kind < IE_EX_ADD ? ie_leaf_value(e->l, ctx) :
				      __ie_expr_eval(e->l, ctx);
	if (e->kind == IE_EX_NEG)
		return -l;
	r = e->r->kind < IE_EX_ADD ? ie_leaf_value(e->r, ctx) :
				      __ie_expr_eval(e->r, ctx);
	return ie_expr_op(e->kind, l, r);
}

/**
 * ie_expr_eval - the value of an expression for an event
 * @e: a resolved expression
 * @ctx: the event's record, time stamp and reference values
 *
 * Event path: no allocation; depth bounded by the parser's limits (and
 * IE_EXPR_MAX_HEIGHT once variables are inlined).  Arithmetic is on u64
 * and wraps; a division by zero gives U64_MAX.  common_timestamp.usecs
 * is rounded to the nearest microsecond, unless the clock doesn't count
 * in nanoseconds.  An operand left unresolved is 0.  ie_expr_fold()
 * computes constant subexpressions with it too.
 *
 * Context: any context, NMI included.
 * Return: the value.
 */
u64 ie_expr_eval(const struct ie_expr *e, const struct ie_eval_ctx *ctx)
{
	/*
	 * The commonest expression, an operator on two leaves (say
	 * "common_timestamp.usecs - $ts0"), without a call: this function
	 * then saves no register either.
	 */
	if (e->kind >= IE_EX_ADD && e->kind != IE_EX_NEG &&
	    e->l->kind < IE_EX_ADD && e->r->kind < IE_EX_ADD)
		return ie_expr_op(e->kind, ie_leaf_value(e->l, ctx),
				  ie_leaf_value(e->r, ctx));
	return __ie_expr_eval(e, ctx);
}

static int ie_expr_prec(const struct ie_expr *e)
{
	switch (e->kind) {
	case IE_EX_ADD:
	case IE_EX_SUB:
		return 1;
	case IE_EX_MUL:
	case IE_EX_DIV:
		return 2;
	case IE_EX_NEG:
		return 3;
	default:
		return 4;
	}
}

/*
 * @followed: an operator follows @e at its level of parentheses, which
 * "-(x)" must not have (the parser's rule): it is wrapped, "(-(x))".
 */
static int ie_expr_print_sub(const struct ie_expr *e, char *buf, size_t len,
			     int min_prec, bool alias, bool followed)
{
	static const char ops[] = { [IE_EX_ADD] = '+', [IE_EX_SUB] = '-',
				    [IE_EX_MUL] = '*', [IE_EX_DIV] = '/' };
	bool paren = ie_expr_prec(e) < min_prec ||
		     (e->kind == IE_EX_NEG && followed);
	int n = 0, start, rprec;

	/* An inlined variable is listed as it was written: "$var". */
	if (alias && e->alias)
		return scnprintf(buf, len, "%s", e->alias);

	if (paren) {
		n += scnprintf(buf + n, len - n, "(");
		followed = false;
	}
	switch (e->kind) {
	case IE_EX_NEG:
		/* Always -(x), the form CONFIG_HIST_TRIGGERS reads. */
		n += scnprintf(buf + n, len - n, "-(");
		n += ie_expr_print_sub(e->l, buf + n, len - n, 0, true,
				       false);
		n += scnprintf(buf + n, len - n, ")");
		break;
	case IE_EX_ADD:
	case IE_EX_SUB:
	case IE_EX_MUL:
	case IE_EX_DIV:
		start = n;
		n += ie_expr_print_sub(e->l, buf + n, len - n, ie_expr_prec(e),
				       true, true);
		n += scnprintf(buf + n, len - n, "%c", ops[e->kind]);
		/*
		 * Right operands of - and / bind tighter: a-(b-c).  And
		 * "x.sym-(offset)" must not read back as one operand.
		 */
		rprec = ie_expr_prec(e) + 1;
		if (e->kind == IE_EX_SUB && n - start > 4 &&
		    !strncmp(buf + n - 5, ".sym-", 5))
			rprec = 5;
		n += ie_expr_print_sub(e->r, buf + n, len - n, rprec, true,
				       followed);
		break;
	default:
		n += scnprintf(buf + n, len - n, "%s", e->text ?: "");
		break;
	}
	if (paren)
		n += scnprintf(buf + n, len - n, ")");
	return n;
}

/**
 * ie_expr_print - an expression as text
 * @e: the expression
 * @buf: where to write it
 * @len: size of @buf
 *
 * The expression as text, with the leaves' current text.  A variable
 * inlined in it is written as it was referred to ("$var"); parentheses
 * go where precedence needs them, and a unary minus is always "-(x)".
 * The text is cut to fit @buf, and ends with a NUL if @len isn't 0.
 *
 * Return: the number of characters written, the NUL not counted.
 */
int ie_expr_print(const struct ie_expr *e, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	return ie_expr_print_sub(e, buf, len, 0, true, false);
}

/**
 * ie_expr_print_expanded - an expression as text, its variable expanded
 * @e: the expression
 * @buf: where to write it
 * @len: size of @buf
 *
 * The same as ie_expr_print(), but a variable inlined as the whole
 * expression is expanded.  Variables inlined deeper are still "$var".
 *
 * Return: the number of characters written, the NUL not counted.
 */
int ie_expr_print_expanded(const struct ie_expr *e, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	return ie_expr_print_sub(e, buf, len, 0, false, false);
}

/**
 * ie_expr_size - the number of operands of an expression, and its height
 * @e: the expression
 * @leaves: set to the number of operands
 * @height: set to the height of the tree, 1 for an operand alone
 *
 * Operands of @e, and its height (what evaluating it recurses).
 */
void ie_expr_size(const struct ie_expr *e, unsigned int *leaves,
		  unsigned int *height)
{
	unsigned int l = 0, r = 0, hl = 0, hr = 0;

	if (e->kind < IE_EX_ADD) {
		*leaves = 1;
		*height = 1;
		return;
	}
	ie_expr_size(e->l, &l, &hl);
	if (e->r)
		ie_expr_size(e->r, &r, &hr);
	*leaves = l + r;
	*height = max(hl, hr) + 1;
}

/**
 * ie_expr_walk_leaves - call a function on every operand of an expression
 * @e: the expression, or NULL
 * @fn: called with each leaf and @arg
 * @arg: passed to @fn
 *
 * Call @fn on every operand leaf, left to right; stop on an error.
 * Operators, unary minus included, are not passed to @fn.
 *
 * Return: 0, or the first non-zero value @fn returned.
 */
int ie_expr_walk_leaves(struct ie_expr *e, ie_leaf_fn_t fn, void *arg)
{
	int ret;

	if (!e)
		return 0;
	if (e->kind >= IE_EX_ADD) {
		ret = ie_expr_walk_leaves(e->l, fn, arg);
		if (!ret)
			ret = ie_expr_walk_leaves(e->r, fn, arg);
		return ret;
	}
	return fn(e, arg);
}

/**
 * ie_expr_cmp - compare two expressions
 * @a: an expression, or NULL
 * @b: another, or NULL
 *
 * Node by node: the kinds, constants, .usecs and the operands' text.
 *
 * Return: 0 if @a and @b are the same expression, as shown, else 1.
 */
int ie_expr_cmp(const struct ie_expr *a, const struct ie_expr *b)
{
	if (!a || !b)
		return a != b;
	if (a->kind != b->kind || a->konst != b->konst || a->usecs != b->usecs)
		return 1;
	if (a->kind < IE_EX_ADD && strcmp(a->text ?: "", b->text ?: ""))
		return 1;
	return ie_expr_cmp(a->l, b->l) || ie_expr_cmp(a->r, b->r);
}

/*
 * Operators over constants only are folded, but for unary minus, which
 * stays as written (-(0) is listed -(0)), as with CONFIG_HIST_TRIGGERS.
 */
static bool ie_expr_constant(const struct ie_expr *e)
{
	if (!e)
		return true;
	if (e->kind == IE_EX_NEG)
		return false;
	if (e->kind < IE_EX_ADD)
		return e->kind == IE_EX_CONST;
	return ie_expr_constant(e->l) && ie_expr_constant(e->r);
}

/**
 * ie_expr_div_by_zero - find a division by the constant 0
 * @e: the expression, or NULL
 *
 * A division whose right operand is, in the tree as it is, the constant
 * 0; a constant subexpression worth 0 counts once it is folded.
 *
 * Return: the constant 0 some division divides by, if any, else NULL.
 */
const struct ie_expr *ie_expr_div_by_zero(const struct ie_expr *e)
{
	const struct ie_expr *z;

	if (!e || e->kind < IE_EX_ADD)
		return NULL;
	if (e->kind == IE_EX_DIV && e->r->kind == IE_EX_CONST && !e->r->konst)
		return e->r;
	z = ie_expr_div_by_zero(e->l);
	return z ?: ie_expr_div_by_zero(e->r);
}

/* Where @e starts: its leftmost operand, or an inlined "$var". */
static unsigned int ie_expr_pos(const struct ie_expr *e)
{
	while (e->kind >= IE_EX_ADD && !e->alias)
		e = e->l;
	return e->pos;
}

/**
 * ie_expr_fold - fold the constant subexpressions of an expression
 * @e: the expression, or NULL
 *
 * Replace constant subexpressions by their values, as the trigger file
 * then lists them ("x=16-8-4-2" is listed as "x=2").  A unary minus is
 * not folded, nor anything around one (what it negates is).  A constant
 * subexpression with a division by the constant 0 in it stays, to be
 * reported; a divisor that is itself a constant subexpression is not
 * folded yet when that is checked: 4/(2-2) folds to U64_MAX.
 *
 * Return: 0, or -ENOMEM (the tree may then be partly folded).
 */
int ie_expr_fold(struct ie_expr *e)
{
	struct ie_eval_ctx ctx = { };
	char *text;
	int ret;
	u64 val;

	if (!e || e->kind == IE_EX_CONST)
		return 0;
	if (!ie_expr_constant(e)) {
		if (e->kind < IE_EX_ADD)
			return 0;
		ret = ie_expr_fold(e->l);
		return ret ?: ie_expr_fold(e->r);
	}
	/* A division by zero stays, to be reported. */
	if (ie_expr_div_by_zero(e))
		return 0;
	/* An inlined variable keeps the position of its reference. */
	if (!e->alias)
		e->pos = ie_expr_pos(e);
	val = ie_expr_eval(e, &ctx);
	text = kasprintf(GFP_KERNEL, "%llu", val);
	if (!text)
		return -ENOMEM;
	ie_expr_free(e->l);
	ie_expr_free(e->r);
	kfree(e->text);
	e->l = NULL;
	e->r = NULL;
	e->kind = IE_EX_CONST;
	e->konst = val;
	e->text = text;
	return 0;
}
