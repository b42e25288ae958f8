// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the expressions of inter-event hist triggers: parsing,
 * errors and their positions, evaluation, printing and leaf walking.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "inter_event.h"

/* The operand-limit cases below spell out lists one operand too long. */
static_assert(IE_EXPR_MAX_OPERANDS == 4);

#define TREE_STR_LEN	256

KUNIT_DEFINE_ACTION_WRAPPER(expr_free_action, ie_expr_free, struct ie_expr *);

/* Parse @text, which must succeed; the tree is freed when the test ends. */
static struct ie_expr *parse_ok(struct kunit *test, const char *text)
{
	enum ie_err err = IE_ERR_MAX;
	unsigned int err_pos = 0;
	struct ie_expr *e;
	int ret;

	ret = ie_expr_parse(text, &e, &err_pos, &err);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "'%s': error %d at %u", text, err,
			    err_pos);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, e);
	ret = kunit_add_action_or_reset(test, expr_free_action, e);
	KUNIT_ASSERT_EQ(test, ret, 0);
	return e;
}

/*
 * The tree as a prefix expression: "(- (* a b) #3)".  Constants show as
 * '#' and their value, other leaves as their text.
 */
static int tree_str_sub(const struct ie_expr *e, char *buf, size_t len)
{
	static const char * const ops[] = {
		[IE_EX_ADD] = "+", [IE_EX_SUB] = "-",
		[IE_EX_MUL] = "*", [IE_EX_DIV] = "/",
	};
	int n = 0;

	if (!e)
		return scnprintf(buf, len, "NULL");
	switch (e->kind) {
	case IE_EX_CONST:
		return scnprintf(buf, len, "#%llu", e->konst);
	case IE_EX_LEAF:
		return scnprintf(buf, len, "%s", e->text ?: "NULL");
	case IE_EX_NEG:
		n += scnprintf(buf + n, len - n, "(neg ");
		n += tree_str_sub(e->l, buf + n, len - n);
		n += scnprintf(buf + n, len - n, ")");
		return n;
	case IE_EX_ADD:
	case IE_EX_SUB:
	case IE_EX_MUL:
	case IE_EX_DIV:
		n += scnprintf(buf + n, len - n, "(%s ", ops[e->kind]);
		n += tree_str_sub(e->l, buf + n, len - n);
		n += scnprintf(buf + n, len - n, " ");
		n += tree_str_sub(e->r, buf + n, len - n);
		n += scnprintf(buf + n, len - n, ")");
		return n;
	default:
		return scnprintf(buf, len, "?%d", e->kind);
	}
}

static const char *tree_str(struct kunit *test, const struct ie_expr *e)
{
	char *buf = kunit_kzalloc(test, TREE_STR_LEN, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	tree_str_sub(e, buf, TREE_STR_LEN);
	return buf;
}

struct expr_tree_case {
	const char	*text;
	const char	*tree;
};

static const struct expr_tree_case expr_tree_cases[] = {
	{ "a",				"a" },
	{ "ts0",			"ts0" },
	{ "$ts0",			"$ts0" },
	{ "common_timestamp.usecs",	"common_timestamp.usecs" },
	{ "sched.sched_wakeup.$ts0",	"sched.sched_wakeup.$ts0" },
	{ "call_site.sym-offset",	"call_site.sym-offset" },
	{ "common_timestamp.usecs-$ts0", "(- common_timestamp.usecs $ts0)" },
	/* Left associative. */
	{ "a-b-c",			"(- (- a b) c)" },
	{ "a/b/c",			"(/ (/ a b) c)" },
	{ "a-b+c",			"(+ (- a b) c)" },
	{ "a*b/c",			"(/ (* a b) c)" },
	/* * and / bind tighter than + and -. */
	{ "a+b*c",			"(+ a (* b c))" },
	{ "a*b+c",			"(+ (* a b) c)" },
	{ "a*b-c/d",			"(- (* a b) (/ c d))" },
	{ "a-b/c",			"(- a (/ b c))" },
	/* Unary minus binds tightest. */
	{ "-a",				"(neg a)" },
	{ "--a",			"(neg (neg a))" },
	{ "a--b",			"(- a (neg b))" },
	{ "-a*b",			"(* (neg a) b)" },
	{ "a*-b",			"(* a (neg b))" },
	{ "a/-b*c",			"(* (/ a (neg b)) c)" },
	{ "-a-b",			"(- (neg a) b)" },
	{ "-(a+b)",			"(neg (+ a b))" },
	{ "-1",				"(neg #1)" },
	/* Parentheses. */
	{ "(a)",			"a" },
	{ "((a))",			"a" },
	{ "(a)-(b)",			"(- a b)" },
	{ "a-(b-c)",			"(- a (- b c))" },
	{ "(a+b)*c",			"(* (+ a b) c)" },
	{ "a*(b+c)/d",			"(/ (* a (+ b c)) d)" },
	{ "(a*(b-(c/d)))",		"(* a (- b (/ c d)))" },
	/* Constants. */
	{ "0",				"#0" },
	{ "1+0x10",			"(+ #1 #16)" },
	{ "0XfF*10",			"(* #255 #10)" },
	{ "18446744073709551615",	"#18446744073709551615" },
	{ "0xffffffffffffffff",		"#18446744073709551615" },
	/* The dash of .sym-offset belongs to the operand, no other dash. */
	{ "call_site.sym-offset-1",	"(- call_site.sym-offset #1)" },
	{ "a.sym-b",			"(- a.sym b)" },
	{ "a.sym-o",			"(- a.sym o)" },
	{ "sym-offset",			"(- sym offset)" },
	{ "a.sym--offset",		"(- a.sym (neg offset))" },
	{ "sched.sched_wakeup.$ts0+call_site.sym-offset",
	  "(+ sched.sched_wakeup.$ts0 call_site.sym-offset)" },
};

static void expr_test_tree(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(expr_tree_cases); i++) {
		const struct expr_tree_case *c = &expr_tree_cases[i];
		struct ie_expr *e = parse_ok(test, c->text);

		KUNIT_EXPECT_STREQ_MSG(test, tree_str(test, e), c->tree,
				       "'%s'", c->text);
	}
}

#define MAX_LEAVES	8

struct leaf_list {
	unsigned int	n;
	struct ie_expr	*leaf[MAX_LEAVES];
	const char	*stop_at;	/* return -E2BIG after this leaf */
};

static int collect_leaf(struct ie_expr *leaf, void *arg)
{
	struct leaf_list *list = arg;

	if (list->n == MAX_LEAVES)
		return -ENOSPC;
	list->leaf[list->n++] = leaf;
	if (list->stop_at && leaf->text && !strcmp(leaf->text, list->stop_at))
		return -E2BIG;
	return 0;
}

struct expr_leaf {
	const char	*text;
	unsigned int	pos;
	bool		is_const;
	u64		konst;
};

struct expr_leaves_case {
	const char		*text;
	unsigned int		n;
	struct expr_leaf	leaf[IE_EXPR_MAX_OPERANDS];
};

static const struct expr_leaves_case expr_leaves_cases[] = {
	{ "common_timestamp.usecs-$ts0", 2, {
		{ "common_timestamp.usecs", 0 },
		{ "$ts0", 23 },
	} },
	{ "sched.sched_wakeup.$ts0+call_site.sym-offset", 2, {
		{ "sched.sched_wakeup.$ts0", 0 },
		{ "call_site.sym-offset", 24 },
	} },
	{ "(a+bb)*-(ccc-0x1F)", 4, {
		{ "a", 1 },
		{ "bb", 3 },
		{ "ccc", 9 },
		{ "0x1F", 13, true, 31 },
	} },
	{ "ts0", 1, {
		{ "ts0", 0 },
	} },
	{ "10/-(0x10)", 2, {
		{ "10", 0, true, 10 },
		{ "0x10", 5, true, 16 },
	} },
	{ "007+18446744073709551615", 2, {
		{ "007", 0, true, 7 },
		{ "18446744073709551615", 4, true, U64_MAX },
	} },
};

static void expr_test_leaves(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(expr_leaves_cases); i++) {
		const struct expr_leaves_case *c = &expr_leaves_cases[i];
		struct ie_expr *e = parse_ok(test, c->text);
		struct leaf_list list = { };
		int ret;

		ret = ie_expr_walk_leaves(e, collect_leaf, &list);
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "'%s'", c->text);
		KUNIT_ASSERT_EQ_MSG(test, list.n, c->n, "'%s'", c->text);
		for (j = 0; j < c->n; j++) {
			const struct expr_leaf *want = &c->leaf[j];
			const struct ie_expr *leaf = list.leaf[j];

			KUNIT_EXPECT_STREQ_MSG(test, leaf->text, want->text,
					       "'%s' leaf %u", c->text, j);
			KUNIT_EXPECT_EQ_MSG(test, leaf->pos, want->pos,
					    "'%s' leaf %u", c->text, j);
			KUNIT_EXPECT_EQ_MSG(test, leaf->kind,
					    want->is_const ? IE_EX_CONST :
					    IE_EX_LEAF,
					    "'%s' leaf %u", c->text, j);
			if (want->is_const)
				KUNIT_EXPECT_EQ_MSG(test, leaf->konst,
						    want->konst,
						    "'%s' leaf %u", c->text, j);
			KUNIT_EXPECT_NULL(test, leaf->l);
			KUNIT_EXPECT_NULL(test, leaf->r);
			KUNIT_EXPECT_NULL(test, leaf->field);
		}
	}
}

struct expr_bad_case {
	const char	*text;
	enum ie_err	err;
	unsigned int	pos;
};

static const struct expr_bad_case expr_bad_cases[] = {
	{ "",				IE_ERR_BAD_EXPR,	0 },
	/* Missing operands; there is no unary plus. */
	{ "a+",				IE_ERR_BAD_EXPR,	2 },
	{ "a-",				IE_ERR_BAD_EXPR,	2 },
	{ "-",				IE_ERR_BAD_EXPR,	1 },
	{ "+a",				IE_ERR_BAD_EXPR,	0 },
	{ "*a",				IE_ERR_BAD_EXPR,	0 },
	{ "a++b",			IE_ERR_BAD_EXPR,	2 },
	{ "a+*b",			IE_ERR_BAD_EXPR,	2 },
	{ "a*/b",			IE_ERR_BAD_EXPR,	2 },
	{ "a-+b",			IE_ERR_BAD_EXPR,	2 },
	/* Parentheses. */
	{ "()",				IE_ERR_BAD_EXPR,	1 },
	{ "a*(",			IE_ERR_BAD_EXPR,	3 },
	{ ")",				IE_ERR_BAD_EXPR,	0 },
	{ "(a+b",			IE_ERR_UNBALANCED,	0 },
	{ "a*(b+c",			IE_ERR_UNBALANCED,	2 },
	{ "((a)",			IE_ERR_UNBALANCED,	0 },
	{ "a+b)",			IE_ERR_UNBALANCED,	3 },
	{ "(a))",			IE_ERR_UNBALANCED,	3 },
	{ "a(b)",			IE_ERR_BAD_EXPR,	1 },
	{ "(a)b",			IE_ERR_BAD_EXPR,	3 },
	/* Characters that are neither operators nor operand characters. */
	{ "a b",			IE_ERR_BAD_EXPR,	1 },
	{ " a",				IE_ERR_BAD_EXPR,	0 },
	{ "a ",				IE_ERR_BAD_EXPR,	1 },
	{ "a\tb",			IE_ERR_BAD_EXPR,	1 },
	{ "a+b#",			IE_ERR_BAD_EXPR,	3 },
	{ "a+b,c",			IE_ERR_BAD_EXPR,	3 },
	{ "a=b",			IE_ERR_BAD_EXPR,	1 },
	{ "a.sym-offset#",		IE_ERR_BAD_EXPR,	12 },
	/* Constants. */
	{ "1x",				IE_ERR_BAD_CONST,	0 },
	{ "a+1x",			IE_ERR_BAD_CONST,	2 },
	{ "0x",				IE_ERR_BAD_CONST,	0 },
	{ "0xg",			IE_ERR_BAD_CONST,	0 },
	{ "1.5",			IE_ERR_BAD_CONST,	0 },
	{ "a*(2-3$)",			IE_ERR_BAD_CONST,	5 },
	{ "99999999999999999999",	IE_ERR_BAD_CONST,	0 },
	{ "18446744073709551616",	IE_ERR_BAD_CONST,	0 },
	{ "a-0x10000000000000000",	IE_ERR_BAD_CONST,	2 },
	/*
	 * More than IE_EXPR_MAX_OPERANDS: where CONFIG_HIST_TRIGGERS reports
	 * too many subexpressions, the start of the fourth operator's
	 * subexpression (root first, left before right).
	 */
	{ "a+b+c+d+e",			IE_ERR_TOO_MANY_OPERANDS, 0 },
	{ "a*(b-c)/d+1",		IE_ERR_TOO_MANY_OPERANDS, 3 },
	{ "-a-b-c-d--e",		IE_ERR_TOO_MANY_OPERANDS, 0 },
	{ "1+2+3+4+5+6",		IE_ERR_TOO_MANY_OPERANDS, 0 },
	{ "32+10*3/20-4",		IE_ERR_TOO_MANY_OPERANDS, 3 },
	{ "a+b*c*d*e",			IE_ERR_TOO_MANY_OPERANDS, 2 },
	{ "a+b+(c*d*e)",		IE_ERR_TOO_MANY_OPERANDS, 5 },
	/* A syntax error is reported first, wherever it is. */
	{ "a+b+c+d+1x",			IE_ERR_BAD_CONST,	8 },
	/* Beyond 16 operands the text is refused at the 17th. */
	{ "1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1", IE_ERR_TOO_MANY_OPERANDS, 32 },
	/* What would be listed nested too deep: "(-(-(-(-(a)))))*2". */
	{ "----a*2",			IE_ERR_EXPR_DEPTH,	0 },
	{ "-----a",			IE_ERR_EXPR_DEPTH,	0 },
	/* "-(x)" ends its subexpression: at x. */
	{ "-(1)+2",			IE_ERR_UNARY_MINUS_SUBEXPR, 2 },
	{ "-(a)*b",			IE_ERR_UNARY_MINUS_SUBEXPR, 2 },
	{ "a*(-(b+c)-d)",		IE_ERR_UNARY_MINUS_SUBEXPR, 5 },
};

static void expr_test_errors(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(expr_bad_cases); i++) {
		const struct expr_bad_case *c = &expr_bad_cases[i];
		struct ie_expr *e = ERR_PTR(-EFAULT);
		unsigned int err_pos = UINT_MAX;
		enum ie_err err = IE_ERR_MAX;
		int ret;

		ret = ie_expr_parse(c->text, &e, &err_pos, &err);
		KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL, "'%s'", c->text);
		KUNIT_EXPECT_NULL_MSG(test, e, "'%s'", c->text);
		KUNIT_EXPECT_EQ_MSG(test, err, c->err, "'%s'", c->text);
		KUNIT_EXPECT_EQ_MSG(test, err_pos, c->pos, "'%s'", c->text);
		if (!ret)
			ie_expr_free(e);
	}
}

/* Exactly IE_EXPR_MAX_OPERANDS operands parse, one more does not. */
static void expr_test_operand_limit(struct kunit *test)
{
	char text[8 * IE_EXPR_MAX_OPERANDS + 8] = "";
	unsigned int i, err_pos, pos = 0;
	struct leaf_list list = { };
	struct ie_expr *e;
	enum ie_err err;
	size_t n = 0;

	for (i = 0; i < IE_EXPR_MAX_OPERANDS; i++) {
		pos = n + !!i;
		n += scnprintf(text + n, sizeof(text) - n, "%sv%u",
			       i ? (i & 1 ? "-" : "*") : "", i);
	}
	e = parse_ok(test, text);
	KUNIT_EXPECT_EQ(test, ie_expr_walk_leaves(e, collect_leaf, &list), 0);
	KUNIT_ASSERT_EQ(test, list.n, IE_EXPR_MAX_OPERANDS);
	KUNIT_EXPECT_EQ(test, list.leaf[IE_EXPR_MAX_OPERANDS - 1]->pos, pos);

	/* One more: reported at the fourth operator's start, "v1". */
	pos = strstr(text, "v1") - text;
	scnprintf(text + n, sizeof(text) - n, "+1");
	e = ERR_PTR(-EFAULT);
	KUNIT_EXPECT_EQ(test, ie_expr_parse(text, &e, &err_pos, &err), -EINVAL);
	KUNIT_EXPECT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, err, IE_ERR_TOO_MANY_OPERANDS);
	KUNIT_EXPECT_EQ(test, err_pos, pos);
}

static void expr_test_leaf_walk(struct kunit *test)
{
	struct leaf_list list = { };
	struct ie_expr *e;

	/* Left to right, constants included, through unary minus. */
	e = parse_ok(test, "(-(x+1))*y/-z");
	KUNIT_EXPECT_EQ(test, ie_expr_walk_leaves(e, collect_leaf, &list), 0);
	KUNIT_ASSERT_EQ(test, list.n, 4);
	KUNIT_EXPECT_STREQ(test, list.leaf[0]->text, "x");
	KUNIT_EXPECT_STREQ(test, list.leaf[1]->text, "1");
	KUNIT_EXPECT_STREQ(test, list.leaf[2]->text, "y");
	KUNIT_EXPECT_STREQ(test, list.leaf[3]->text, "z");

	/* The first non-zero return ends the walk and is returned. */
	e = parse_ok(test, "a*b-c/d");
	memset(&list, 0, sizeof(list));
	list.stop_at = "b";
	KUNIT_EXPECT_EQ(test, ie_expr_walk_leaves(e, collect_leaf, &list),
			-E2BIG);
	KUNIT_ASSERT_EQ(test, list.n, 2);
	KUNIT_EXPECT_STREQ(test, list.leaf[0]->text, "a");
	KUNIT_EXPECT_STREQ(test, list.leaf[1]->text, "b");

	memset(&list, 0, sizeof(list));
	list.stop_at = "c";
	KUNIT_EXPECT_EQ(test, ie_expr_walk_leaves(e, collect_leaf, &list),
			-E2BIG);
	KUNIT_EXPECT_EQ(test, list.n, 3);

	memset(&list, 0, sizeof(list));
	list.stop_at = "d";
	KUNIT_EXPECT_EQ(test, ie_expr_walk_leaves(e, collect_leaf, &list),
			-E2BIG);
	KUNIT_EXPECT_EQ(test, list.n, 4);

	/* A lone leaf is the root; no tree, no call. */
	e = parse_ok(test, "ts0");
	memset(&list, 0, sizeof(list));
	KUNIT_EXPECT_EQ(test, ie_expr_walk_leaves(e, collect_leaf, &list), 0);
	KUNIT_ASSERT_EQ(test, list.n, 1);
	KUNIT_EXPECT_PTR_EQ(test, list.leaf[0], e);

	memset(&list, 0, sizeof(list));
	KUNIT_EXPECT_EQ(test, ie_expr_walk_leaves(NULL, collect_leaf, &list),
			0);
	KUNIT_EXPECT_EQ(test, list.n, 0);
}

/*
 * Evaluation.  Leaves are resolved the way a histogram would: a, b, c, d
 * and $ts0 are references to ctx.refs[0..4], common_timestamp[.usecs] is
 * the event's timestamp and common_cpu the current CPU.
 */
static const char * const expr_ref_names[] = { "a", "b", "c", "d", "$ts0" };
#define EXPR_NREFS	ARRAY_SIZE(expr_ref_names)

static int resolve_leaf(struct ie_expr *leaf, void *arg)
{
	unsigned int i;

	if (leaf->kind == IE_EX_CONST)
		return 0;
	if (leaf->kind != IE_EX_LEAF)
		return -EINVAL;
	if (!strcmp(leaf->text, "common_timestamp") ||
	    !strcmp(leaf->text, "common_timestamp.usecs")) {
		leaf->kind = IE_EX_TIMESTAMP;
		leaf->usecs = !!strchr(leaf->text, '.');
		return 0;
	}
	if (!strcmp(leaf->text, "common_cpu")) {
		leaf->kind = IE_EX_CPU;
		return 0;
	}
	for (i = 0; i < EXPR_NREFS; i++) {
		if (!strcmp(leaf->text, expr_ref_names[i])) {
			leaf->kind = IE_EX_REF;
			leaf->ref = i;
			return 0;
		}
	}
	return -ENOENT;
}

static struct ie_expr *parse_resolved(struct kunit *test, const char *text)
{
	struct ie_expr *e = parse_ok(test, text);

	KUNIT_ASSERT_EQ_MSG(test, ie_expr_walk_leaves(e, resolve_leaf, NULL),
			    0, "'%s'", text);
	return e;
}

struct expr_eval_case {
	const char	*text;
	u64		refs[EXPR_NREFS];
	u64		ts;
	u64		want;
};

static const struct expr_eval_case expr_eval_cases[] = {
	{ "a+b",		{ 1, 2 },			0, 3 },
	{ "a+b",		{ U64_MAX, 2 },			0, 1 },
	{ "18446744073709551615+2", { },			0, 1 },
	/* Subtraction wraps around. */
	{ "a-b",		{ 1, 2 },			0, U64_MAX },
	{ "1-2",		{ },				0, U64_MAX },
	{ "a-b-c",		{ 10, 3, 2 },			0, 5 },
	{ "a-(b-c)",		{ 10, 3, 2 },			0, 9 },
	/* Multiplication is mod 2^64. */
	{ "a*b",		{ 1ULL << 32, 1ULL << 32 },	0, 0 },
	{ "a*b",		{ 3, 0x5555555555555556ULL },	0, 2 },
	{ "a*b",		{ 0x100000001ULL, 0xffffffffULL }, 0, U64_MAX },
	{ "a*b*c",		{ 1ULL << 40, 1ULL << 20, 1ULL << 4 }, 0, 0 },
	/* Division truncates; by zero it gives U64_MAX. */
	{ "a/b",		{ 7, 2 },			0, 3 },
	{ "a/b",		{ U64_MAX, 0x100000000ULL },	0, 0xffffffffULL },
	{ "a/b",		{ U64_MAX, 3 },		0, 0x5555555555555555ULL },
	{ "a/b",		{ 1, U64_MAX },			0, 0 },
	{ "a/b",		{ 5, 0 },			0, U64_MAX },
	{ "a/0",		{ 5 },				0, U64_MAX },
	{ "0/0",		{ },				0, U64_MAX },
	{ "a/(b-b)",		{ 1, 42 },			0, U64_MAX },
	/* Unary minus is two's complement. */
	{ "-a",			{ 1 },				0, U64_MAX },
	{ "-1",			{ },				0, U64_MAX },
	{ "-a",			{ 0 },				0, 0 },
	{ "--a",		{ 5 },				0, 5 },
	{ "a--b",		{ 5, 3 },			0, 8 },
	{ "-(a+b)",		{ 1, 2 },			0, U64_MAX - 2 },
	{ "-a*b",		{ 2, 3 },			0, -6ULL },
	{ "a*-b",		{ 2, 3 },			0, -6ULL },
	/* Precedence. */
	{ "a+b*c",		{ 2, 3, 4 },			0, 14 },
	{ "(a+b)*c",		{ 2, 3, 4 },			0, 20 },
	{ "a*b-c/d",		{ 3, 4, 10, 3 },		0, 9 },
	{ "a*(b-c)/d",		{ 3, 10, 4, 5 },		0, 3 },
	{ "a-b/c*d",		{ 100, 10, 3, 2 },		0, 94 },
	{ "0x10*3+1",		{ },				0, 49 },
	{ "(a+b)/(c-d)",	{ 10, 20, 9, 4 },		0, 6 },
	/* Timestamps, in ns or in us. */
	{ "common_timestamp",	{ },				1234567, 1234567 },
	{ "common_timestamp.usecs", { },			1234567, 1235 },
	{ "common_timestamp.usecs", { },			1234499, 1234 },
	{ "common_timestamp.usecs", { },			1234500, 1235 },
	{ "common_timestamp.usecs", { },			499, 0 },
	{ "common_timestamp.usecs", { },	U64_MAX, 18446744073709552ULL },
	{ "common_timestamp.usecs-$ts0", { [4] = 1000 },	1234567, 235 },
	{ "common_timestamp.usecs-$ts0", { [4] = 1236 },	1234567, U64_MAX },
	{ "common_timestamp-$ts0", { [4] = 1000000 },		1234567, 234567 },
	{ "(common_timestamp-$ts0)/1000", { [4] = 1000 },	1234567, 1233 },
};

static void expr_test_eval(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(expr_eval_cases); i++) {
		const struct expr_eval_case *c = &expr_eval_cases[i];
		struct ie_eval_ctx ctx = { .ts = c->ts, .refs = c->refs };
		struct ie_expr *e = parse_resolved(test, c->text);

		KUNIT_EXPECT_EQ_MSG(test, ie_expr_eval(e, &ctx), c->want,
				    "'%s'", c->text);
	}
}

static void expr_test_eval_kinds(struct kunit *test)
{
	static const u64 refs[EXPR_NREFS] = { 10, 20, 30, 40, 50 };
	struct ie_eval_ctx ctx = { .ts = 5000, .refs = refs };
	struct leaf_list list = { };
	struct ie_expr *e;

	/* Leaves resolve to the kinds expected. */
	e = parse_resolved(test, "$ts0-common_timestamp.usecs*d+7");
	KUNIT_EXPECT_EQ(test, ie_expr_walk_leaves(e, collect_leaf, &list), 0);
	KUNIT_ASSERT_EQ(test, list.n, 4);
	KUNIT_EXPECT_EQ(test, list.leaf[0]->kind, IE_EX_REF);
	KUNIT_EXPECT_EQ(test, list.leaf[0]->ref, 4);
	KUNIT_EXPECT_EQ(test, list.leaf[1]->kind, IE_EX_TIMESTAMP);
	KUNIT_EXPECT_TRUE(test, list.leaf[1]->usecs);
	KUNIT_EXPECT_EQ(test, list.leaf[2]->kind, IE_EX_REF);
	KUNIT_EXPECT_EQ(test, list.leaf[2]->ref, 3);
	KUNIT_EXPECT_EQ(test, list.leaf[3]->kind, IE_EX_CONST);
	KUNIT_EXPECT_EQ(test, ie_expr_eval(e, &ctx), 50 - 5 * 40 + 7ULL);

	/* A leaf turned into a constant. */
	e = parse_ok(test, "x*2");
	list.n = 0;
	KUNIT_EXPECT_EQ(test, ie_expr_walk_leaves(e, collect_leaf, &list), 0);
	KUNIT_ASSERT_EQ(test, list.n, 2);
	list.leaf[0]->kind = IE_EX_CONST;
	list.leaf[0]->konst = 21;
	KUNIT_EXPECT_EQ(test, ie_expr_eval(e, &ctx), 42);

	/* An unresolved leaf counts as 0. */
	e = parse_ok(test, "x+5");
	KUNIT_EXPECT_EQ(test, ie_expr_eval(e, &ctx), 5);

	/* The CPU we run on. */
	e = parse_resolved(test, "common_cpu+1");
	KUNIT_EXPECT_GE(test, ie_expr_eval(e, &ctx), 1);
	KUNIT_EXPECT_LE(test, ie_expr_eval(e, &ctx), nr_cpu_ids);
}

struct expr_print_case {
	const char	*text;
	const char	*printed;
};

static const struct expr_print_case expr_print_cases[] = {
	{ "a",				"a" },
	{ "a-(b-c)",			"a-(b-c)" },
	{ "(a-b)-c",			"a-b-c" },
	{ "a+(b+c)",			"a+(b+c)" },
	{ "(a+b)+c",			"a+b+c" },
	{ "a-(b+c)",			"a-(b+c)" },
	{ "a*(b+c)",			"a*(b+c)" },
	{ "(a*b)+c",			"a*b+c" },
	{ "a+(b*c)",			"a+b*c" },
	{ "a/(b/c)",			"a/(b/c)" },
	{ "a/(b*c)",			"a/(b*c)" },
	{ "(a/b)*c",			"a/b*c" },
	{ "(a*b)-(c/d)",		"a*b-c/d" },
	{ "-(a+b)",			"-(a+b)" },
	{ "-(a*b)",			"-(a*b)" },
	{ "-(a)",			"-(a)" },
	{ "-a",				"-(a)" },
	{ "(-a)*b",			"(-(a))*b" },
	{ "a-(-b)",			"a--(b)" },
	{ "a-(-b)+c",			"a-(-(b))+c" },
	{ "a*-b-c",			"a*(-(b))-c" },
	{ "(-(a))",			"-(a)" },
	{ "--a",			"-(-(a))" },
	{ "----a",			"-(-(-(-(a))))" },
	{ "---a*2",			"(-(-(-(a))))*2" },
	{ "-(-(a))",			"-(-(a))" },
	{ "((a))",			"a" },
	{ "(((a+b)))*c",		"(a+b)*c" },
	{ "0x1F+10",			"0x1F+10" },
	{ "007*0XfF",			"007*0XfF" },
	{ "common_timestamp.usecs-$ts0", "common_timestamp.usecs-$ts0" },
	{ "(call_site.sym-offset)*2",	"call_site.sym-offset*2" },
	{ "sched.sched_wakeup.$ts0",	"sched.sched_wakeup.$ts0" },
};

static void expr_test_print(struct kunit *test)
{
	char buf[64];
	unsigned int i;
	int n;

	for (i = 0; i < ARRAY_SIZE(expr_print_cases); i++) {
		const struct expr_print_case *c = &expr_print_cases[i];
		struct ie_expr *e = parse_ok(test, c->text), *again;

		n = ie_expr_print(e, buf, sizeof(buf));
		KUNIT_EXPECT_STREQ_MSG(test, buf, c->printed, "'%s'", c->text);
		KUNIT_EXPECT_EQ_MSG(test, n, strlen(buf), "'%s'", c->text);

		/* The printed text is the same tree. */
		again = parse_ok(test, buf);
		KUNIT_EXPECT_STREQ_MSG(test, tree_str(test, again),
				       tree_str(test, e), "'%s'", c->text);
	}
}

/* Give every leaf but common_* the text @arg. */
static int rename_leaf(struct ie_expr *leaf, void *arg)
{
	char *text;

	if (str_has_prefix(leaf->text, "common_"))
		return 0;
	text = kstrdup(arg, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	kfree(leaf->text);
	leaf->text = text;
	return 0;
}

/* Leaves print with their current text, whatever their kind. */
static void expr_test_print_leaves(struct kunit *test)
{
	struct ie_expr *e = parse_ok(test, "common_timestamp.usecs-ts0");
	char buf[64];

	KUNIT_ASSERT_EQ(test, ie_expr_walk_leaves(e, rename_leaf, "$ts0"), 0);
	ie_expr_print(e, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "common_timestamp.usecs-$ts0");

	KUNIT_ASSERT_EQ(test, ie_expr_walk_leaves(e, resolve_leaf, NULL), 0);
	KUNIT_ASSERT_EQ(test, ie_expr_walk_leaves(e, rename_leaf, "x.y.$ts0"),
			0);
	ie_expr_print(e, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "common_timestamp.usecs-x.y.$ts0");
}

/* A small buffer gets a NUL-terminated prefix and nothing past its end. */
static void expr_test_print_truncate(struct kunit *test)
{
	static const char * const texts[] = {
		"abc+def", "(-(a+b))*c", "a-(b-c)", "common_timestamp.usecs-$ts0",
	};
	char full[64], buf[80];
	unsigned int i;
	size_t len;
	int n;

	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		struct ie_expr *e = parse_ok(test, texts[i]);
		size_t flen = ie_expr_print(e, full, sizeof(full));

		KUNIT_ASSERT_EQ(test, flen, strlen(texts[i]));
		for (len = 0; len <= flen + 1; len++) {
			memset(buf, 0x7f, sizeof(buf));
			n = ie_expr_print(e, buf, len);
			if (!len) {
				KUNIT_EXPECT_EQ(test, buf[0], 0x7f);
				continue;
			}
			KUNIT_EXPECT_EQ_MSG(test, strnlen(buf, len),
					    min(flen, len - 1),
					    "'%s' in %zu bytes", texts[i], len);
			KUNIT_EXPECT_EQ_MSG(test, n, strnlen(buf, len),
					    "'%s' in %zu bytes", texts[i], len);
			KUNIT_EXPECT_EQ_MSG(test, memcmp(buf, full, n), 0,
					    "'%s' in %zu bytes", texts[i], len);
			KUNIT_EXPECT_EQ_MSG(test, buf[len], 0x7f,
					    "'%s' in %zu bytes", texts[i], len);
		}
	}

	/* The brief's case: 5 bytes. */
	memset(buf, 0x7f, sizeof(buf));
	n = ie_expr_print(parse_ok(test, "abc+def"), buf, 5);
	KUNIT_EXPECT_STREQ(test, buf, "abc+");
	KUNIT_EXPECT_EQ(test, n, 4);
	KUNIT_EXPECT_EQ(test, buf[5], 0x7f);
}

static void expr_test_free(struct kunit *test)
{
	struct ie_expr *e = ERR_PTR(-EFAULT);
	unsigned int err_pos;
	enum ie_err err;
	int i, ret;

	ie_expr_free(NULL);
	ie_expr_free(ERR_PTR(-EINVAL));
	ie_expr_free(ERR_PTR(-ENOMEM));

	/* A failed parse leaves NULL behind, which is safe to free. */
	KUNIT_EXPECT_EQ(test, ie_expr_parse("a+(b", &e, &err_pos, &err),
			-EINVAL);
	KUNIT_EXPECT_NULL(test, e);
	ie_expr_free(e);

	/* Trees with every kind of node, freed by hand. */
	for (i = 0; i < 100; i++) {
		ret = ie_expr_parse("(-(a+0x2))*$ts0/d", &e, &err_pos, &err);
		KUNIT_ASSERT_EQ(test, ret, 0);
		if (i & 1)
			ret = ie_expr_walk_leaves(e, resolve_leaf, NULL);
		ie_expr_free(e);
		KUNIT_EXPECT_EQ(test, ret, 0);
	}
}

/* xorshift32: the same strings on every run. */
static u32 expr_rand(u32 *state)
{
	u32 x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

static int number_leaf(struct ie_expr *leaf, void *arg)
{
	unsigned int *n = arg;

	if (leaf->kind == IE_EX_LEAF) {
		leaf->kind = IE_EX_REF;
		leaf->ref = (*n)++ % EXPR_NREFS;
	}
	return 0;
}

/*
 * The random cases check ie_expr_eval() against evaluators of their own,
 * written from the documented semantics, not from expr.c: arithmetic on
 * u64 that wraps, unary minus as 0 - x, division truncating, and a
 * division by zero giving U64_MAX (Documentation/trace/inter-event.rst).
 */
static u64 model_div(u64 l, u64 r)
{
	return r ? div64_u64(l, r) : U64_MAX;
}

/* At most this many mismatches are shown in full, then only counted. */
#define MODEL_MAX_SHOWN	16

/*
 * An evaluator over the text itself, for the random strings: the grammar
 * of the parser's documentation (expr := term {+|- term}, term := unary
 * {*|/ unary}, unary := -unary | (expr) | operand), an operand being a
 * run of [A-Za-z0-9_.$], a constant if it starts with a digit (read as
 * kstrtou64() base 0 reads it).  Other operands take the values of
 * @refs in turn, left to right, as number_leaf() numbers the leaves.
 * The strings have no 's', so no ".sym-offset" operand.  Only strings
 * the parser accepted are evaluated, so the nesting is bounded.
 */
struct text_model {
	const char	*p;
	const u64	*refs;
	unsigned int	n_leaves;
	bool		bad;
};

static u64 text_model_sum(struct text_model *tm);

static bool text_model_operand_char(char c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '$';
}

static u64 text_model_operand(struct text_model *tm)
{
	const char *start = tm->p;
	char buf[24];
	u64 val = 0;
	size_t len;

	while (text_model_operand_char(*tm->p))
		tm->p++;
	len = tm->p - start;
	if (!len || len >= sizeof(buf)) {
		tm->bad = true;
		return 0;
	}
	if (!isdigit(*start))
		return tm->refs[tm->n_leaves++ % EXPR_NREFS];
	memcpy(buf, start, len);
	buf[len] = '\0';
	if (kstrtou64(buf, 0, &val))
		tm->bad = true;
	return val;
}

static u64 text_model_unary(struct text_model *tm)
{
	u64 val;

	if (*tm->p == '-') {
		tm->p++;
		return 0 - text_model_unary(tm);
	}
	if (*tm->p != '(')
		return text_model_operand(tm);
	tm->p++;
	val = text_model_sum(tm);
	if (*tm->p == ')')
		tm->p++;
	else
		tm->bad = true;
	return val;
}

static u64 text_model_product(struct text_model *tm)
{
	u64 val = text_model_unary(tm);
	char op;

	while (!tm->bad && (*tm->p == '*' || *tm->p == '/')) {
		op = *tm->p++;
		if (op == '*')
			val *= text_model_unary(tm);
		else
			val = model_div(val, text_model_unary(tm));
	}
	return val;
}

static u64 text_model_sum(struct text_model *tm)
{
	u64 val = text_model_product(tm);
	char op;

	while (!tm->bad && (*tm->p == '+' || *tm->p == '-')) {
		op = *tm->p++;
		if (op == '+')
			val += text_model_product(tm);
		else
			val -= text_model_product(tm);
	}
	return val;
}

/* The value of @text with @refs; false if the model can't read it. */
static bool text_model_eval(const char *text, const u64 *refs, u64 *val)
{
	struct text_model tm = { .p = text, .refs = refs };

	*val = text_model_sum(&tm);
	return !tm.bad && !*tm.p;
}

#define FUZZ_ROUNDS	4000
#define FUZZ_MAX_LEN	12

/*
 * Random short strings never crash the parser; what parses prints as text
 * that parses to the same tree, and evaluates to the value the text has.
 */
static void expr_test_random(struct kunit *test)
{
	static const char chars[] = "ab1$.()+-*/ ";
	char text[FUZZ_MAX_LEN + 1], printed[128], again_printed[128];
	unsigned int i, j, len, err_pos, parsed = 0, wrong = 0;
	struct ie_expr *e, *again;
	u64 refs[EXPR_NREFS], got, want;
	struct ie_eval_ctx ctx = { .refs = refs };
	u32 state = 0x1e5eed;
	enum ie_err err;
	int ret;

	for (i = 0; i < FUZZ_ROUNDS; i++) {
		len = expr_rand(&state) % (FUZZ_MAX_LEN + 1);
		for (j = 0; j < len; j++)
			text[j] = chars[expr_rand(&state) % (sizeof(chars) - 1)];
		text[len] = '\0';

		err_pos = UINT_MAX;
		err = IE_ERR_MAX;
		ret = ie_expr_parse(text, &e, &err_pos, &err);
		if (ret) {
			KUNIT_ASSERT_EQ_MSG(test, ret, -EINVAL, "'%s'", text);
			KUNIT_ASSERT_NULL_MSG(test, e, "'%s'", text);
			KUNIT_ASSERT_TRUE_MSG(test, err == IE_ERR_BAD_EXPR ||
					      err == IE_ERR_UNBALANCED ||
					      err == IE_ERR_BAD_CONST ||
					      err == IE_ERR_EXPR_DEPTH ||
					      err == IE_ERR_UNARY_MINUS_SUBEXPR ||
					      err == IE_ERR_TOO_MANY_OPERANDS,
					      "'%s': error %d", text, err);
			KUNIT_ASSERT_LE_MSG(test, err_pos, len, "'%s'", text);
			continue;
		}
		parsed++;
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, e);
		ret = kunit_add_action_or_reset(test, expr_free_action, e);
		KUNIT_ASSERT_EQ(test, ret, 0);

		ret = ie_expr_print(e, printed, sizeof(printed));
		KUNIT_ASSERT_LT_MSG(test, ret, sizeof(printed) - 1, "'%s'", text);
		ret = ie_expr_parse(printed, &again, &err_pos, &err);
		KUNIT_ASSERT_EQ_MSG(test, ret, 0, "'%s' printed as '%s'", text,
				    printed);
		ret = kunit_add_action_or_reset(test, expr_free_action, again);
		KUNIT_ASSERT_EQ(test, ret, 0);
		ie_expr_print(again, again_printed, sizeof(again_printed));
		KUNIT_ASSERT_STREQ_MSG(test, again_printed, printed, "'%s'",
				       text);
		KUNIT_ASSERT_STREQ_MSG(test, tree_str(test, again),
				       tree_str(test, e), "'%s'", text);

		/* Any values, zero divisors included. */
		j = 0;
		ie_expr_walk_leaves(e, number_leaf, &j);
		for (j = 0; j < EXPR_NREFS; j++) {
			refs[j] = expr_rand(&state);
			if (refs[j] & 1)
				refs[j] = 0;
			else
				refs[j] = (refs[j] << 32) | expr_rand(&state);
		}
		got = ie_expr_eval(e, &ctx);
		if (!text_model_eval(text, refs, &want)) {
			KUNIT_FAIL(test, "'%s': parsed, but not by the test's model",
				   text);
		} else if (got != want && wrong++ < MODEL_MAX_SHOWN) {
			KUNIT_FAIL(test,
				   "'%s' with operands %llu, %llu, %llu, %llu, %llu (left to right): %llu, expected %llu",
				   text, refs[0], refs[1], refs[2], refs[3],
				   refs[4], got, want);
		}

		kunit_release_action(test, expr_free_action, again);
		kunit_release_action(test, expr_free_action, e);
	}
	/* The strings are not all errors. */
	KUNIT_EXPECT_GT(test, parsed, FUZZ_ROUNDS / 20);
	KUNIT_EXPECT_EQ_MSG(test, wrong, 0, "of %u evaluations", parsed);
}

/*
 * Random expressions of the test's own making: a tree of operators over
 * constants (decimal, hex or octal, any u64), the references a, b, c, d
 * and $ts0, and common_timestamp[.usecs]; printed with the parentheses
 * precedence needs, some more, and as many minus signs as drawn; parsed,
 * resolved as a histogram would, evaluated with random values and
 * compared with the tree's own value, then again once constant parts
 * are folded.  A text nested deeper than the documented eight must be
 * refused.
 */
enum model_kind {
	MODEL_CONST,
	MODEL_REF,
	MODEL_TS,
	MODEL_TS_USECS,
	MODEL_NEG,
	MODEL_ADD,
	MODEL_SUB,
	MODEL_MUL,
	MODEL_DIV,
};

#define MODEL_MAX_DEPTH		8	/* parentheses and minus signs */
#define MODEL_MAX_NEGS		8
#define MODEL_MAX_NODES		(2 * IE_EXPR_MAX_OPERANDS - 1 + MODEL_MAX_NEGS)
#define MODEL_TEXT_LEN		256

struct model_node {
	enum model_kind	kind;
	u64		konst;
	unsigned int	ref;
	unsigned int	l, r;		/* operands, indices in nodes[] */
};

struct model_tree {
	struct model_node	nodes[MODEL_MAX_NODES];
	unsigned int		n_nodes;
	unsigned int		n_negs;
	u32			*state;
};

/* Values worth trying: zero divisors, wrap-around, sign bits. */
static u64 model_value(u32 *state)
{
	static const u64 special[] = {
		0, 1, 2, 3, 7, 10, 999, 1000, 1499, 1500, U32_MAX,
		1ULL << 32, 1ULL << 63, S64_MAX, U64_MAX - 1, U64_MAX,
	};
	u32 x = expr_rand(state);
	u64 hi;

	if (x & 1)
		return special[(x >> 1) % ARRAY_SIZE(special)];
	hi = expr_rand(state);
	return hi << 32 | expr_rand(state);
}

static unsigned int model_node(struct model_tree *t, enum model_kind kind)
{
	struct model_node *n = &t->nodes[t->n_nodes];

	memset(n, 0, sizeof(*n));
	n->kind = kind;
	return t->n_nodes++;
}

/* A subtree of @leaves operands; returns its index. */
static unsigned int model_gen(struct model_tree *t, unsigned int leaves)
{
	u32 x = expr_rand(t->state);
	unsigned int i, split;

	if (t->n_negs < MODEL_MAX_NEGS && x % 3 == 0) {
		t->n_negs++;
		i = model_node(t, MODEL_NEG);
		t->nodes[i].l = model_gen(t, leaves);
		return i;
	}
	x /= 3;
	if (leaves > 1) {
		i = model_node(t, MODEL_ADD + x % 4);
		split = 1 + (x / 4) % (leaves - 1);
		t->nodes[i].l = model_gen(t, split);
		t->nodes[i].r = model_gen(t, leaves - split);
		return i;
	}
	switch (x % 8) {
	case 0:
	case 1:
	case 2:
		i = model_node(t, MODEL_CONST);
		t->nodes[i].konst = model_value(t->state);
		return i;
	case 3:
		return model_node(t, MODEL_TS);
	case 4:
		return model_node(t, MODEL_TS_USECS);
	default:
		i = model_node(t, MODEL_REF);
		t->nodes[i].ref = expr_rand(t->state) % EXPR_NREFS;
		return i;
	}
}

static int model_prec(const struct model_node *n)
{
	switch (n->kind) {
	case MODEL_ADD:
	case MODEL_SUB:
		return 1;
	case MODEL_MUL:
	case MODEL_DIV:
		return 2;
	case MODEL_NEG:
		return 3;
	default:
		return 4;
	}
}

struct model_text {
	char		buf[MODEL_TEXT_LEN];
	size_t		len;
	unsigned int	depth;		/* the deepest nesting printed */
};

/* The first node under @i that is not a negation. */
static const struct model_node *model_under_negs(const struct model_tree *t,
						 unsigned int i)
{
	while (t->nodes[i].kind == MODEL_NEG)
		i = t->nodes[i].l;
	return &t->nodes[i];
}

/*
 * Print node @i, in parentheses if its precedence is below @min_prec (or
 * at random), nested @depth deep in parentheses and minus signs.
 * @followed: an operator follows at this level.  The parser refuses a
 * negation of a parenthesised operand followed by an operator ("-(a)*b",
 * as CONFIG_HIST_TRIGGERS does): such a negation is put in parentheses,
 * and a negation followed by an operator gets no random ones.
 */
static void model_print(struct model_tree *t, struct model_text *mt,
			unsigned int i, int min_prec, unsigned int depth,
			bool followed, bool no_rand)
{
	static const char * const ops[] = {
		[MODEL_ADD] = "+", [MODEL_SUB] = "-",
		[MODEL_MUL] = "*", [MODEL_DIV] = "/",
	};
	const struct model_node *n = &t->nodes[i];
	bool paren = model_prec(n) < min_prec ||
		     (!no_rand && expr_rand(t->state) % 6 == 0);
	size_t size = sizeof(mt->buf);
	u32 x;

	if (n->kind == MODEL_NEG && followed &&
	    model_prec(model_under_negs(t, i)) < model_prec(n))
		paren = true;
	if (paren) {
		mt->len += scnprintf(mt->buf + mt->len, size - mt->len, "(");
		depth++;
		followed = false;
	}
	mt->depth = max(mt->depth, depth);
	switch (n->kind) {
	case MODEL_CONST:
		x = expr_rand(t->state) % 4;
		mt->len += scnprintf(mt->buf + mt->len, size - mt->len,
				     x == 0 ? "0x%llx" : x == 1 ? "0%llo" :
				     "%llu", n->konst);
		break;
	case MODEL_REF:
		mt->len += scnprintf(mt->buf + mt->len, size - mt->len, "%s",
				     expr_ref_names[n->ref]);
		break;
	case MODEL_TS:
		mt->len += scnprintf(mt->buf + mt->len, size - mt->len,
				     "common_timestamp");
		break;
	case MODEL_TS_USECS:
		mt->len += scnprintf(mt->buf + mt->len, size - mt->len,
				     "common_timestamp.usecs");
		break;
	case MODEL_NEG:
		mt->len += scnprintf(mt->buf + mt->len, size - mt->len, "-");
		model_print(t, mt, n->l, model_prec(n), depth + 1, followed,
			    followed);
		break;
	default:
		model_print(t, mt, n->l, model_prec(n), depth, true, false);
		mt->len += scnprintf(mt->buf + mt->len, size - mt->len, "%s",
				     ops[n->kind]);
		/* a-(b-c), a/(b*c): the right operand binds tighter. */
		model_print(t, mt, n->r, model_prec(n) + 1, depth, followed,
			    false);
		break;
	}
	if (paren)
		mt->len += scnprintf(mt->buf + mt->len, size - mt->len, ")");
}

/*
 * How deep the trigger file's listing of node @i nests: a negation is
 * listed "-(x)", two levels, and in parentheses when an operator follows
 * it; other parentheses only where precedence needs them.  The parser
 * refuses what would be listed deeper than it reads.
 */
static unsigned int model_list_depth(const struct model_tree *t,
				     unsigned int i, int min_prec,
				     bool followed)
{
	const struct model_node *n = &t->nodes[i];
	bool paren = model_prec(n) < min_prec ||
		     (n->kind == MODEL_NEG && followed);
	unsigned int d;

	if (paren)
		followed = false;
	switch (n->kind) {
	case MODEL_NEG:
		d = 2 + model_list_depth(t, n->l, 0, false);
		break;
	case MODEL_ADD:
	case MODEL_SUB:
	case MODEL_MUL:
	case MODEL_DIV:
		d = max(model_list_depth(t, n->l, model_prec(n), true),
			model_list_depth(t, n->r, model_prec(n) + 1, followed));
		break;
	default:
		d = 0;
		break;
	}
	return d + paren;
}

/* The value of node @i: the documented semantics, written out. */
static u64 model_eval(const struct model_tree *t, unsigned int i,
		      const u64 *refs, u64 ts)
{
	const struct model_node *n = &t->nodes[i];
	u32 rem;
	u64 us;

	switch (n->kind) {
	case MODEL_CONST:
		return n->konst;
	case MODEL_REF:
		return refs[n->ref];
	case MODEL_TS:
		return ts;
	case MODEL_TS_USECS:
		/* Rounded to the nearest microsecond. */
		us = div_u64_rem(ts, 1000, &rem);
		return rem >= 500 ? us + 1 : us;
	case MODEL_NEG:
		return 0 - model_eval(t, n->l, refs, ts);
	case MODEL_ADD:
		return model_eval(t, n->l, refs, ts) +
		       model_eval(t, n->r, refs, ts);
	case MODEL_SUB:
		return model_eval(t, n->l, refs, ts) -
		       model_eval(t, n->r, refs, ts);
	case MODEL_MUL:
		return model_eval(t, n->l, refs, ts) *
		       model_eval(t, n->r, refs, ts);
	case MODEL_DIV:
		return model_div(model_eval(t, n->l, refs, ts),
				 model_eval(t, n->r, refs, ts));
	}
	return 0;
}

#define MODEL_TREES		1000
#define MODEL_VALUE_SETS	4

static void expr_test_random_trees(struct kunit *test)
{
	struct model_tree *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct model_text *mt = kunit_kzalloc(test, sizeof(*mt), GFP_KERNEL);
	unsigned int i, j, k, err_pos, deep = 0, wrong = 0, evals = 0;
	u64 refs[EXPR_NREFS], got, want;
	struct ie_eval_ctx ctx = { .refs = refs };
	u32 state = 0x7e57ab1e;
	struct ie_expr *e;
	enum ie_err err;
	bool folded;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, mt);
	t->state = &state;
	for (i = 0; i < MODEL_TREES; i++) {
		t->n_nodes = 0;
		t->n_negs = 0;
		model_gen(t, 1 + expr_rand(&state) % IE_EXPR_MAX_OPERANDS);
		mt->len = 0;
		mt->depth = 0;
		model_print(t, mt, 0, 0, 0, false, false);
		KUNIT_ASSERT_LT(test, mt->len, sizeof(mt->buf) - 1);

		err = IE_ERR_MAX;
		ret = ie_expr_parse(mt->buf, &e, &err_pos, &err);
		if (mt->depth > MODEL_MAX_DEPTH ||
		    model_list_depth(t, 0, 0, false) > MODEL_MAX_DEPTH) {
			deep++;
			KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL,
					    "'%s' is nested %u deep", mt->buf,
					    mt->depth);
			KUNIT_EXPECT_EQ_MSG(test, err, IE_ERR_EXPR_DEPTH,
					    "'%s' is nested %u deep", mt->buf,
					    mt->depth);
			if (!ret)
				ie_expr_free(e);
			continue;
		}
		KUNIT_ASSERT_EQ_MSG(test, ret, 0, "'%s': error %d at %u",
				    mt->buf, err, err_pos);
		ret = kunit_add_action_or_reset(test, expr_free_action, e);
		KUNIT_ASSERT_EQ(test, ret, 0);
		KUNIT_ASSERT_EQ_MSG(test,
				    ie_expr_walk_leaves(e, resolve_leaf, NULL),
				    0, "'%s'", mt->buf);

		folded = false;
		for (j = 0; j < 2 * MODEL_VALUE_SETS; j++) {
			/* The second half: constant parts folded. */
			if (j == MODEL_VALUE_SETS) {
				KUNIT_ASSERT_EQ(test, ie_expr_fold(e), 0);
				folded = true;
			}
			for (k = 0; k < EXPR_NREFS; k++)
				refs[k] = model_value(&state);
			ctx.ts = model_value(&state);
			got = ie_expr_eval(e, &ctx);
			want = model_eval(t, 0, refs, ctx.ts);
			evals++;
			if (got != want && wrong++ < MODEL_MAX_SHOWN)
				KUNIT_FAIL(test,
					   "'%s'%s with a=%llu b=%llu c=%llu d=%llu $ts0=%llu ts=%llu: %llu, expected %llu",
					   mt->buf, folded ? " folded" : "",
					   refs[0], refs[1], refs[2], refs[3],
					   refs[4], ctx.ts, got, want);
		}
		kunit_release_action(test, expr_free_action, e);
	}
	KUNIT_EXPECT_EQ_MSG(test, wrong, 0, "of %u evaluations", evals);
	/* Both sides of the depth limit were tried. */
	KUNIT_EXPECT_GT(test, deep, 0);
	KUNIT_EXPECT_LT(test, deep, MODEL_TREES / 2);
}

/*
 * Nesting is bounded: without a bound, a trigger of a few hundred '(' or
 * '-' would overflow the kernel stack while parsing, and deep NEG chains
 * would make evaluation on the event path recurse without limit.
 */
#define DEEP_PARENS	32
#define DEEP_MINUS	64

static void expr_test_deep_nesting(struct kunit *test)
{
	size_t size = 2 * DEEP_PARENS + DEEP_MINUS + 2;
	char *text = kunit_kzalloc(test, size, GFP_KERNEL);
	unsigned int err_pos;
	struct ie_expr *e;
	enum ie_err err;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, text);

	memset(text, '(', DEEP_PARENS);
	text[DEEP_PARENS] = 'a';
	memset(text + DEEP_PARENS + 1, ')', DEEP_PARENS);
	ret = ie_expr_parse(text, &e, &err_pos, &err);
	KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL, "%d nested parentheses",
			    DEEP_PARENS);
	KUNIT_EXPECT_EQ(test, err, IE_ERR_EXPR_DEPTH);
	if (!ret)
		ie_expr_free(e);

	memset(text, 0, size);
	memset(text, '-', DEEP_MINUS);
	text[DEEP_MINUS] = 'a';
	ret = ie_expr_parse(text, &e, &err_pos, &err);
	KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL, "%d unary minus", DEEP_MINUS);
	KUNIT_EXPECT_EQ(test, err, IE_ERR_EXPR_DEPTH);
	if (!ret)
		ie_expr_free(e);
}

/*
 * "x.sym-(offset)" is x.sym minus a field named offset; printed without
 * the parentheses it would read back as the one operand x.sym-offset.
 */
static void expr_test_print_sym_offset(struct kunit *test)
{
	struct ie_expr *e = parse_ok(test, "x.sym-(offset)"), *again;
	char buf[64];

	KUNIT_EXPECT_STREQ(test, tree_str(test, e), "(- x.sym offset)");
	ie_expr_print(e, buf, sizeof(buf));
	again = parse_ok(test, buf);
	KUNIT_EXPECT_STREQ_MSG(test, tree_str(test, again), tree_str(test, e),
			       "printed as '%s'", buf);
}

static struct kunit_case expr_test_cases[] = {
	KUNIT_CASE(expr_test_tree),
	KUNIT_CASE(expr_test_leaves),
	KUNIT_CASE(expr_test_errors),
	KUNIT_CASE(expr_test_operand_limit),
	KUNIT_CASE(expr_test_leaf_walk),
	KUNIT_CASE(expr_test_eval),
	KUNIT_CASE(expr_test_eval_kinds),
	KUNIT_CASE(expr_test_print),
	KUNIT_CASE(expr_test_print_leaves),
	KUNIT_CASE(expr_test_print_truncate),
	KUNIT_CASE(expr_test_free),
	KUNIT_CASE(expr_test_random),
	KUNIT_CASE(expr_test_random_trees),
	KUNIT_CASE(expr_test_deep_nesting),
	KUNIT_CASE(expr_test_print_sym_offset),
	{}
};

static struct kunit_suite expr_test_suite = {
	.name = "inter_event_expr",
	.test_cases = expr_test_cases,
};

kunit_test_suite(expr_test_suite);
