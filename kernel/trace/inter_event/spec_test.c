// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the hist trigger specification parser.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "inter_event.h"

/* The error table below spells out lists one item too long. */
static_assert(IE_MAX_KEYS == 3 && IE_MAX_VALS == 3 && IE_MAX_SORT == 2);

static void spec_free_action(void *spec)
{
	ie_spec_free(spec);
}

/* A spec released when the test ends, whatever happens. */
static struct ie_spec *spec_new(struct kunit *test)
{
	struct ie_spec *spec = kunit_kzalloc(test, sizeof(*spec), GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, spec);
	ret = kunit_add_action_or_reset(test, spec_free_action, spec);
	KUNIT_ASSERT_EQ(test, ret, 0);
	return spec;
}

static struct ie_spec *parse_ok(struct kunit *test, const char *cmd)
{
	struct ie_spec *spec = spec_new(test);
	int ret = ie_spec_parse(cmd, spec);

	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "'%s': error %d at %u", cmd,
			    spec->err, spec->err_pos);
	return spec;
}

static void expect_item(struct kunit *test, const struct ie_spec_item *item,
			const char *var, const char *expr, unsigned int pos)
{
	if (var)
		KUNIT_EXPECT_STREQ(test, item->var, var);
	else
		KUNIT_EXPECT_NULL(test, item->var);
	KUNIT_EXPECT_STREQ(test, item->expr, expr);
	KUNIT_EXPECT_EQ(test, item->pos, pos);
}

static void expect_action(struct kunit *test, const struct ie_spec_action *act,
			  const char *handler, const char *arg,
			  const char *action, const char *params,
			  unsigned int pos)
{
	KUNIT_EXPECT_STREQ(test, act->handler, handler);
	KUNIT_EXPECT_STREQ(test, act->handler_arg, arg);
	KUNIT_EXPECT_STREQ(test, act->action, action);
	KUNIT_EXPECT_STREQ(test, act->params, params);
	KUNIT_EXPECT_EQ(test, act->pos, pos);
}

static void expect_no_options(struct kunit *test, const struct ie_spec *spec)
{
	KUNIT_EXPECT_EQ(test, spec->size, 0);
	KUNIT_EXPECT_NULL(test, spec->name);
	KUNIT_EXPECT_FALSE(test, spec->pause);
	KUNIT_EXPECT_FALSE(test, spec->cont);
	KUNIT_EXPECT_FALSE(test, spec->clear);
	KUNIT_EXPECT_FALSE(test, spec->nohitcount);
}

static void spec_test_timestamp(struct kunit *test)
{
	const char *cmd = "keys=pid:ts0=common_timestamp.usecs if comm==\"cyclictest\"";
	struct ie_spec *spec = parse_ok(test, cmd);

	KUNIT_EXPECT_STREQ(test, spec->buf, cmd);
	KUNIT_ASSERT_EQ(test, spec->n_keys, 1);
	expect_item(test, &spec->keys[0], NULL, "pid", 5);
	KUNIT_ASSERT_EQ(test, spec->n_vars, 1);
	expect_item(test, &spec->vars[0], "ts0", "common_timestamp.usecs", 9);
	KUNIT_EXPECT_EQ(test, spec->n_vals, 0);
	KUNIT_EXPECT_EQ(test, spec->n_sort, 0);
	KUNIT_EXPECT_EQ(test, spec->n_actions, 0);
	KUNIT_EXPECT_STREQ(test, spec->filter, "if comm==\"cyclictest\"");
	/* Where error_log's caret goes for the filter: in the text. */
	KUNIT_EXPECT_STREQ(test, spec->buf + spec->filter_pos,
			   "comm==\"cyclictest\"");
	expect_no_options(test, spec);
}

#define WAKEUP_SPEC \
	"keys=woken_pid=next_pid:woken_prio=next_prio:" \
	"wakeup_lat=common_timestamp.usecs-ts0:onmatch().trace(wakeup_latency)"
#define WAKEUP_FILTER	"if next_comm==\"cyclictest\""

/* The same command as pasted from shell scripts and mails. */
static const char * const wakeup_spellings[] = {
	WAKEUP_SPEC " " WAKEUP_FILTER,
	"keys=woken_pid=next_pid:woken_prio=next_prio:\\\n"
	"    wakeup_lat=common_timestamp.usecs-ts0:\\\n"
	"    onmatch().trace(wakeup_latency) \\\n"
	"    " WAKEUP_FILTER,
	"keys=woken_pid=next_pid:woken_prio=next_prio: \\\n"
	"    wakeup_lat=common_timestamp.usecs-ts0:onmatch().trace(wakeup_latency)\\\n"
	"\t" WAKEUP_FILTER,
	"keys=woken_pid=next_pid:woken_prio=next_prio:\\\r\n"
	"\twakeup_lat=common_timestamp.usecs-ts0:onmatch().trace(wakeup_latency)\t\\\r\n"
	"  " WAKEUP_FILTER "\n",
	"  keys=woken_pid=next_pid :\twoken_prio=next_prio\n:\n"
	"wakeup_lat=common_timestamp.usecs-ts0: onmatch( ).trace( wakeup_latency )\n"
	"\t " WAKEUP_FILTER " \t\n",
};

static void spec_test_wakeup(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(wakeup_spellings); i++) {
		struct ie_spec *spec = parse_ok(test, wakeup_spellings[i]);

		KUNIT_EXPECT_STREQ_MSG(test, spec->buf,
				       WAKEUP_SPEC " " WAKEUP_FILTER,
				       "spelling %u", i);
		KUNIT_ASSERT_EQ(test, spec->n_keys, 1);
		expect_item(test, &spec->keys[0], "woken_pid", "next_pid", 5);
		KUNIT_ASSERT_EQ(test, spec->n_vars, 2);
		expect_item(test, &spec->vars[0], "woken_prio", "next_prio", 24);
		expect_item(test, &spec->vars[1], "wakeup_lat",
			    "common_timestamp.usecs-ts0", 45);
		KUNIT_EXPECT_EQ(test, spec->n_vals, 0);
		KUNIT_EXPECT_EQ(test, spec->n_sort, 0);
		KUNIT_ASSERT_EQ(test, spec->n_actions, 1);
		expect_action(test, &spec->actions[0], "onmatch", "", "trace",
			      "wakeup_latency", 83);
		KUNIT_EXPECT_STREQ(test, spec->filter, WAKEUP_FILTER);
		expect_no_options(test, spec);
	}
}

static void spec_test_sort(struct kunit *test)
{
	struct ie_spec *spec = parse_ok(test, "keys=pid,prio,lat:sort=pid,lat");

	KUNIT_ASSERT_EQ(test, spec->n_keys, 3);
	expect_item(test, &spec->keys[0], NULL, "pid", 5);
	expect_item(test, &spec->keys[1], NULL, "prio", 9);
	expect_item(test, &spec->keys[2], NULL, "lat", 14);
	KUNIT_ASSERT_EQ(test, spec->n_sort, 2);
	KUNIT_EXPECT_STREQ(test, spec->sort[0].name, "pid");
	KUNIT_EXPECT_FALSE(test, spec->sort[0].descending);
	KUNIT_EXPECT_EQ(test, spec->sort[0].pos, 23);
	KUNIT_EXPECT_STREQ(test, spec->sort[1].name, "lat");
	KUNIT_EXPECT_FALSE(test, spec->sort[1].descending);
	KUNIT_EXPECT_EQ(test, spec->sort[1].pos, 27);
	KUNIT_EXPECT_EQ(test, spec->n_vars, 0);
	KUNIT_EXPECT_NULL(test, spec->filter);
	expect_no_options(test, spec);
}

#define ONMAX_CMD "keys=woken_pid=next_pid:woken_prio=next_prio:wakeup_lat=common_timestamp.usecs-ts0:onmax(wakeup_lat).save(next_comm,prev_pid,prev_prio,prev_comm)"
#define SYNTH_CMD "keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid)"
#define OPTIONS_CMD "keys=common_pid:vals=hitcount,bytes_req:sort=bytes_req.descending:size=4096:name=foo:pause"
#define BLANKS_CMD "keys=a :onmatch( sys.ev ).trace(synth ,\t$x,  b( c ) ) if  x==1 "

static void spec_test_onmax_save(struct kunit *test)
{
	struct ie_spec *spec = parse_ok(test, ONMAX_CMD);

	KUNIT_ASSERT_EQ(test, spec->n_keys, 1);
	expect_item(test, &spec->keys[0], "woken_pid", "next_pid", 5);
	KUNIT_ASSERT_EQ(test, spec->n_vars, 2);
	expect_item(test, &spec->vars[0], "woken_prio", "next_prio", 24);
	expect_item(test, &spec->vars[1], "wakeup_lat",
		    "common_timestamp.usecs-ts0", 45);
	KUNIT_ASSERT_EQ(test, spec->n_actions, 1);
	expect_action(test, &spec->actions[0], "onmax", "wakeup_lat", "save",
		      "next_comm,prev_pid,prev_prio,prev_comm", 83);
	KUNIT_EXPECT_NULL(test, spec->filter);
}

static void spec_test_synth_action(struct kunit *test)
{
	struct ie_spec *spec = parse_ok(test, SYNTH_CMD);

	KUNIT_ASSERT_EQ(test, spec->n_keys, 1);
	expect_item(test, &spec->keys[0], NULL, "next_pid", 5);
	KUNIT_ASSERT_EQ(test, spec->n_vars, 1);
	expect_item(test, &spec->vars[0], "wakeup_lat",
		    "common_timestamp.usecs-$ts0", 14);
	KUNIT_ASSERT_EQ(test, spec->n_actions, 1);
	expect_action(test, &spec->actions[0], "onmatch", "sched.sched_waking",
		      "wakeup_latency", "$wakeup_lat,next_pid", 53);
	KUNIT_EXPECT_NULL(test, spec->filter);
}

static void spec_test_options(struct kunit *test)
{
	struct ie_spec *spec = parse_ok(test, OPTIONS_CMD);

	KUNIT_ASSERT_EQ(test, spec->n_keys, 1);
	expect_item(test, &spec->keys[0], NULL, "common_pid", 5);
	KUNIT_ASSERT_EQ(test, spec->n_vals, 2);
	expect_item(test, &spec->vals[0], NULL, "hitcount", 21);
	expect_item(test, &spec->vals[1], NULL, "bytes_req", 30);
	KUNIT_ASSERT_EQ(test, spec->n_sort, 1);
	KUNIT_EXPECT_STREQ(test, spec->sort[0].name, "bytes_req");
	KUNIT_EXPECT_TRUE(test, spec->sort[0].descending);
	KUNIT_EXPECT_EQ(test, spec->sort[0].pos, 45);
	KUNIT_EXPECT_EQ(test, spec->size, 4096);
	KUNIT_EXPECT_STREQ(test, spec->name, "foo");
	KUNIT_EXPECT_TRUE(test, spec->pause);
	KUNIT_EXPECT_FALSE(test, spec->cont);
	KUNIT_EXPECT_FALSE(test, spec->clear);
	KUNIT_EXPECT_FALSE(test, spec->nohitcount);
	KUNIT_EXPECT_EQ(test, spec->n_vars, 0);
	KUNIT_EXPECT_EQ(test, spec->n_actions, 0);
	KUNIT_EXPECT_NULL(test, spec->filter);
}

static void spec_test_aliases_and_flags(struct kunit *test)
{
	struct ie_spec *spec;

	spec = parse_ok(test, "key=a:values=b,v=c:cont:clear:NOHC");
	KUNIT_ASSERT_EQ(test, spec->n_keys, 1);
	expect_item(test, &spec->keys[0], NULL, "a", 4);
	KUNIT_ASSERT_EQ(test, spec->n_vals, 2);
	expect_item(test, &spec->vals[0], NULL, "b", 13);
	expect_item(test, &spec->vals[1], "v", "c", 15);
	KUNIT_EXPECT_FALSE(test, spec->pause);
	KUNIT_EXPECT_TRUE(test, spec->cont);
	KUNIT_EXPECT_TRUE(test, spec->clear);
	KUNIT_EXPECT_TRUE(test, spec->nohitcount);

	spec = parse_ok(test, "continue:nohitcount:keys=a");
	KUNIT_EXPECT_TRUE(test, spec->cont);
	KUNIT_EXPECT_TRUE(test, spec->nohitcount);
	KUNIT_EXPECT_FALSE(test, spec->clear);
	expect_item(test, &spec->keys[0], NULL, "a", 25);

	spec = parse_ok(test, "keys=lat.log2:sort=lat.log2,hitcount.ascending");
	KUNIT_ASSERT_EQ(test, spec->n_sort, 2);
	KUNIT_EXPECT_STREQ(test, spec->sort[0].name, "lat.log2");
	KUNIT_EXPECT_FALSE(test, spec->sort[0].descending);
	KUNIT_EXPECT_STREQ(test, spec->sort[1].name, "hitcount");
	KUNIT_EXPECT_FALSE(test, spec->sort[1].descending);
	KUNIT_EXPECT_EQ(test, spec->sort[1].pos, 28);

	spec = parse_ok(test, "keys=lat.log2:sort=lat.log2.descending:size=131072");
	KUNIT_EXPECT_STREQ(test, spec->sort[0].name, "lat.log2");
	KUNIT_EXPECT_TRUE(test, spec->sort[0].descending);
	KUNIT_EXPECT_EQ(test, spec->size, 131072);
}

static void spec_test_blanks(struct kunit *test)
{
	struct ie_spec *spec;

	/* Blanks inside action parens, next to ',' '(' ')', vanish. */
	spec = parse_ok(test, BLANKS_CMD);
	KUNIT_EXPECT_STREQ(test, spec->buf,
			   "keys=a:onmatch(sys.ev).trace(synth,$x,b(c)) if  x==1");
	KUNIT_ASSERT_EQ(test, spec->n_actions, 1);
	expect_action(test, &spec->actions[0], "onmatch", "sys.ev", "trace",
		      "synth,$x,b(c)", 7);
	KUNIT_EXPECT_STREQ(test, spec->filter, "if  x==1");
	KUNIT_EXPECT_STREQ(test, spec->buf + spec->filter_pos, "x==1");

	/* Other blanks inside parens stay, as one space. */
	spec = parse_ok(test, "keys=a:onmax(x  y).save(p\tq)");
	expect_action(test, &spec->actions[0], "onmax", "x y", "save", "p q", 7);

	/* The filter keeps blanks in quotes, loses line breaks elsewhere. */
	spec = parse_ok(test, "keys=a\tif\ta==\"x\ty\" &&\n b=='\n'");
	KUNIT_EXPECT_STREQ(test, spec->filter, "if a==\"x\ty\" &&  b=='\n'");
	KUNIT_EXPECT_STREQ(test, spec->buf,
			   "keys=a if a==\"x\ty\" &&  b=='\n'");

	/* A continuation inside the filter. */
	spec = parse_ok(test, "keys=a if a==1 && \\\n     b==2");
	KUNIT_EXPECT_STREQ(test, spec->filter, "if a==1 && b==2");

	/* A ':' ending the spec (the RFC's examples). */
	spec = parse_ok(test, "keys=a:x=b:");
	KUNIT_EXPECT_EQ(test, spec->n_vars, 1);
	spec = parse_ok(test, "keys=a:x=b : ");
	KUNIT_EXPECT_EQ(test, spec->n_vars, 1);

	/* Nested parens in a variable's expression. */
	spec = parse_ok(test, "keys=a:x=(a + (b,c)):y=z");
	KUNIT_ASSERT_EQ(test, spec->n_vars, 2);
	expect_item(test, &spec->vars[0], "x", "(a + (b,c))", 7);
	expect_item(test, &spec->vars[1], "y", "z", 21);
}

static void spec_test_limits(struct kunit *test)
{
	char *cmd = kunit_kzalloc(test, 4096, GFP_KERNEL);
	char name[IE_MAX_NAME_LEN + 1];
	struct ie_spec *spec;
	unsigned int i, pos = 0;
	size_t n;

	KUNIT_ASSERT_NOT_NULL(test, cmd);

	/* As many variables as allowed, then one more. */
	n = scnprintf(cmd, 4096, "keys=a");
	for (i = 0; i < IE_MAX_VARS; i++)
		n += scnprintf(cmd + n, 4096 - n, ":v%u=%u", i, i);
	spec = parse_ok(test, cmd);
	KUNIT_EXPECT_EQ(test, spec->n_vars, IE_MAX_VARS);
	KUNIT_EXPECT_STREQ(test, spec->vars[IE_MAX_VARS - 1].expr, "15");
	pos = n + 1;
	scnprintf(cmd + n, 4096 - n, ":x=1");
	spec = spec_new(test);
	KUNIT_EXPECT_EQ(test, ie_spec_parse(cmd, spec), -EINVAL);
	KUNIT_EXPECT_EQ(test, spec->err, IE_ERR_TOO_MANY_VARS);
	KUNIT_EXPECT_EQ(test, spec->err_pos, pos);

	/* As many actions as allowed, then one more. */
	n = scnprintf(cmd, 4096, "keys=a");
	for (i = 0; i < IE_MAX_ACTIONS; i++)
		n += scnprintf(cmd + n, 4096 - n, ":onchange($v).s%u()", i);
	spec = parse_ok(test, cmd);
	KUNIT_ASSERT_EQ(test, spec->n_actions, IE_MAX_ACTIONS);
	expect_action(test, &spec->actions[IE_MAX_ACTIONS - 1], "onchange",
		      "$v", "s7", "", n - 17);
	pos = n + 1;
	scnprintf(cmd + n, 4096 - n, ":onmax(x).snapshot()");
	spec = spec_new(test);
	KUNIT_EXPECT_EQ(test, ie_spec_parse(cmd, spec), -EINVAL);
	KUNIT_EXPECT_EQ(test, spec->err, IE_ERR_TOO_MANY_ACTIONS);
	KUNIT_EXPECT_EQ(test, spec->err_pos, pos);

	/* Names: IE_MAX_NAME_LEN - 1 characters at most. */
	memset(name, 'n', IE_MAX_NAME_LEN - 1);
	name[IE_MAX_NAME_LEN - 1] = '\0';
	scnprintf(cmd, 4096, "keys=%s=a:name=%s:onmax(a).%s()", name, name, name);
	spec = parse_ok(test, cmd);
	KUNIT_EXPECT_STREQ(test, spec->keys[0].var, name);
	KUNIT_EXPECT_STREQ(test, spec->name, name);
	KUNIT_EXPECT_STREQ(test, spec->actions[0].action, name);

	strcat(name, "n");
	scnprintf(cmd, 4096, "keys=a:name=%s", name);
	spec = spec_new(test);
	KUNIT_EXPECT_EQ(test, ie_spec_parse(cmd, spec), -EINVAL);
	KUNIT_EXPECT_EQ(test, spec->err, IE_ERR_BAD_NAME);
	KUNIT_EXPECT_EQ(test, spec->err_pos, 7);

	scnprintf(cmd, 4096, "keys=%s=a", name);
	spec = spec_new(test);
	KUNIT_EXPECT_EQ(test, ie_spec_parse(cmd, spec), -EINVAL);
	KUNIT_EXPECT_EQ(test, spec->err, IE_ERR_BAD_NAME);
	KUNIT_EXPECT_EQ(test, spec->err_pos, 5);

	scnprintf(cmd, 4096, "keys=a:onmax(a).%s()", name);
	spec = spec_new(test);
	KUNIT_EXPECT_EQ(test, ie_spec_parse(cmd, spec), -EINVAL);
	KUNIT_EXPECT_EQ(test, spec->err, IE_ERR_BAD_NAME);
	KUNIT_EXPECT_EQ(test, spec->err_pos, 7);
}

struct spec_bad {
	const char	*cmd;
	enum ie_err	err;
	unsigned int	pos;
};

static const struct spec_bad spec_bad_cases[] = {
	{ NULL,					IE_ERR_EMPTY_SPEC,	0 },
	{ "",					IE_ERR_EMPTY_SPEC,	0 },
	{ " \t\\\n \r\n ",			IE_ERR_EMPTY_SPEC,	0 },
	{ "vals=a",				IE_ERR_NO_KEYS,		0 },
	{ "pause if a==1",			IE_ERR_NO_KEYS,		0 },
	{ ":",					IE_ERR_EMPTY_ITEM,	0 },
	{ "keys=a::vals=b",			IE_ERR_EMPTY_ITEM,	7 },
	{ "keys=a::",				IE_ERR_EMPTY_ITEM,	7 },
	{ ":keys=a",				IE_ERR_EMPTY_ITEM,	0 },
	{ "keys=",				IE_ERR_EMPTY_ITEM,	0 },
	{ "keys=,",				IE_ERR_EMPTY_ITEM,	0 },
	{ "keys=a,,b",				IE_ERR_EMPTY_ITEM,	0 },
	{ "keys=a=",				IE_ERR_EMPTY_ITEM,	5 },
	{ "keys=a:x=",				IE_ERR_EMPTY_ITEM,	7 },
	{ "keys=a:sort=",			IE_ERR_EMPTY_ITEM,	7 },
	{ "keys=a,b,c,d",			IE_ERR_TOO_MANY_KEYS,	11 },
	{ "keys=a:vals=b,c,d,e",		IE_ERR_TOO_MANY_VALS,	18 },
	{ "keys=a:sort=a,b,c",			IE_ERR_TOO_MANY_SORT,	7 },
	{ "keys=a:key=b",			IE_ERR_DUP_PARAM,	7 },
	{ "keys=a:vals=b:values=c",		IE_ERR_DUP_PARAM,	14 },
	{ "keys=a:sort=a:sort=b",		IE_ERR_DUP_PARAM,	14 },
	{ "keys=a:name=x:name=y",		IE_ERR_DUP_PARAM,	14 },
	{ "keys=a:size=8:size=8",		IE_ERR_DUP_PARAM,	14 },
	{ "keys=a:size=0",			IE_ERR_BAD_SIZE,	7 },
	{ "keys=a:size=131073",			IE_ERR_BAD_SIZE,	7 },
	{ "keys=a:size=12k",			IE_ERR_BAD_SIZE,	7 },
	{ "keys=a:size=-1",			IE_ERR_BAD_SIZE,	7 },
	{ "keys=a:size=",			IE_ERR_BAD_SIZE,	7 },
	{ "keys=a:name=1x",			IE_ERR_BAD_NAME,	7 },
	{ "keys=a:name=",			IE_ERR_BAD_NAME,	7 },
	{ "keys=a:name=a.b",			IE_ERR_BAD_NAME,	7 },
	{ "keys=a:1x=b",			IE_ERR_BAD_NAME,	7 },
	{ "keys=a:=x",				IE_ERR_BAD_NAME,	7 },
	{ "=",					IE_ERR_BAD_NAME,	0 },
	{ "keys=a-b=c",				IE_ERR_BAD_NAME,	5 },
	{ "keys=a,$x=b",			IE_ERR_BAD_NAME,	7 },
	{ "keys=a:\xc3\xa9t\xc3\xa9=1",		IE_ERR_BAD_NAME,	7 },
	{ "keys=a:sort=.descending",		IE_ERR_BAD_SORT,	12 },
	{ "keys=a:bogus",			IE_ERR_BAD_PARAM,	7 },
	{ "keys=a:\\\n   bogus",		IE_ERR_BAD_PARAM,	7 },
	{ "keys=a\x01:b",			IE_ERR_BAD_PARAM,	8 },
	{ "keys=a onmax(x)",			IE_ERR_BAD_PARAM,	7 },
	{ "keys=a foo",				IE_ERR_BAD_PARAM,	7 },
	{ "keys=a iffy",			IE_ERR_BAD_PARAM,	7 },
	{ "keys=a if",				IE_ERR_BAD_PARAM,	7 },
	{ "keys=a if \t \\\n ",			IE_ERR_BAD_PARAM,	7 },
	{ "keys=a:onmax(x).save(y)z",		IE_ERR_BAD_ACTION,	7 },
	{ "keys=a:onmax(x)save(y)",		IE_ERR_BAD_ACTION,	7 },
	{ "keys=a:onmax(x).(y)",		IE_ERR_BAD_ACTION,	7 },
	{ "keys=a:onmax(x).save",		IE_ERR_BAD_ACTION,	7 },
	{ "keys=a:onmax(x).1save(y)",		IE_ERR_BAD_ACTION,	7 },
	{ "keys=a:onmax(x).save(y).x(z)",	IE_ERR_BAD_ACTION,	7 },
	{ "keys=a:onmatch(x)",			IE_ERR_BAD_ACTION,	7 },
	{ "keys=a:onmax(x",			IE_ERR_UNBALANCED,	12 },
	{ "keys=a:onmatch( if x",		IE_ERR_UNBALANCED,	14 },
	{ "keys=a)",				IE_ERR_UNBALANCED,	6 },
	{ "keys=(a)):x",			IE_ERR_UNBALANCED,	8 },
	{ "((((",				IE_ERR_UNBALANCED,	0 },
	{ "keys=x=a:x=b",			IE_ERR_DUP_VAR,		9 },
	{ "keys=x=a:vals=x=b",			IE_ERR_DUP_VAR,		14 },
	{ "keys=a,x=b,x=c",			IE_ERR_DUP_VAR,		11 },
	{ "keys=a:y=1:vals=y=2",		IE_ERR_DUP_VAR,		16 },
};

static void spec_test_errors(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(spec_bad_cases); i++) {
		const struct spec_bad *c = &spec_bad_cases[i];
		struct ie_spec *spec = spec_new(test);
		int ret = ie_spec_parse(c->cmd, spec);

		KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, spec->err, c->err, "case %u: '%s'",
				    i, spec->buf);
		KUNIT_EXPECT_EQ_MSG(test, spec->err_pos, c->pos, "case %u: '%s'",
				    i, spec->buf);
		if (c->cmd && *c->cmd)
			KUNIT_EXPECT_NOT_NULL(test, spec->buf);
	}
}

/* Deterministic pseudo-random commands: nothing may crash or overrun. */
static void spec_test_garbage(struct kunit *test)
{
	static const char alphabet[] = "keys=vals:sort,()$.ifonmaxtrace \t\n\r\\\"'_1\x01\xff\xa0";
	const size_t big = 65536;
	char *cmd = kunit_kzalloc(test, big + 1, GFP_KERNEL);
	u32 seed = 1;
	unsigned int i, j, len;
	struct ie_spec *spec;

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	spec = spec_new(test);
	for (i = 0; i < 4000; i++) {
		seed = seed * 1103515245 + 12345;
		len = (seed >> 16) % 48;
		for (j = 0; j < len; j++) {
			seed = seed * 1103515245 + 12345;
			cmd[j] = alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
		}
		cmd[len] = '\0';
		if (ie_spec_parse(cmd, spec)) {
			KUNIT_EXPECT_LT(test, spec->err, IE_ERR_MAX);
			if (spec->buf)
				KUNIT_EXPECT_LE(test, spec->err_pos,
						strlen(spec->buf));
		} else {
			KUNIT_EXPECT_GT(test, spec->n_keys, 0);
		}
		ie_spec_free(spec);
	}

	/* Every byte value once. */
	for (i = 0; i < 255; i++)
		cmd[i] = i + 1;
	cmd[255] = '\0';
	KUNIT_EXPECT_EQ(test, ie_spec_parse(cmd, spec), -EINVAL);
	ie_spec_free(spec);

	/* Huge ones. */
	memset(cmd, '(', big);
	cmd[big] = '\0';
	KUNIT_EXPECT_EQ(test, ie_spec_parse(cmd, spec), -EINVAL);
	KUNIT_EXPECT_EQ(test, spec->err, IE_ERR_UNBALANCED);
	KUNIT_EXPECT_EQ(test, spec->err_pos, 0);
	ie_spec_free(spec);

	memset(cmd, ':', big);
	KUNIT_EXPECT_EQ(test, ie_spec_parse(cmd, spec), -EINVAL);
	KUNIT_EXPECT_EQ(test, spec->err, IE_ERR_EMPTY_ITEM);
	ie_spec_free(spec);

	memset(cmd, 'a', big);
	memcpy(cmd, "keys=", 5);
	KUNIT_EXPECT_EQ(test, ie_spec_parse(cmd, spec), 0);
	KUNIT_EXPECT_EQ(test, strlen(spec->keys[0].expr), big - 5);
	ie_spec_free(spec);

	memset(cmd, ' ', big);
	KUNIT_EXPECT_EQ(test, ie_spec_parse(cmd, spec), -EINVAL);
	KUNIT_EXPECT_EQ(test, spec->err, IE_ERR_EMPTY_SPEC);
	ie_spec_free(spec);
}

static void spec_test_free(struct kunit *test)
{
	struct ie_spec *spec = spec_new(test);

	ie_spec_free(spec);
	KUNIT_EXPECT_NULL(test, spec->buf);

	KUNIT_EXPECT_EQ(test, ie_spec_parse("keys=a:bogus", spec), -EINVAL);
	KUNIT_EXPECT_STREQ(test, spec->buf, "keys=a:bogus");
	ie_spec_free(spec);
	KUNIT_EXPECT_NULL(test, spec->buf);
	ie_spec_free(spec);

	KUNIT_EXPECT_EQ(test, ie_spec_parse("keys=a", spec), 0);
	ie_spec_free(spec);
	KUNIT_EXPECT_NULL(test, spec->buf);
}

static struct kunit_case spec_test_cases[] = {
	KUNIT_CASE(spec_test_timestamp),
	KUNIT_CASE(spec_test_wakeup),
	KUNIT_CASE(spec_test_sort),
	KUNIT_CASE(spec_test_onmax_save),
	KUNIT_CASE(spec_test_synth_action),
	KUNIT_CASE(spec_test_options),
	KUNIT_CASE(spec_test_aliases_and_flags),
	KUNIT_CASE(spec_test_blanks),
	KUNIT_CASE(spec_test_limits),
	KUNIT_CASE(spec_test_errors),
	KUNIT_CASE(spec_test_garbage),
	KUNIT_CASE(spec_test_free),
	{}
};

static struct kunit_suite spec_test_suite = {
	.name = "inter_event_spec",
	.test_cases = spec_test_cases,
};

kunit_test_suite(spec_test_suite);
