// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of histograms built from specs against a real event: a
 * synthetic event the test defines, so that its fields are the test's.
 * The histograms are built (ie_hist_create()) but never registered.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "inter_event.h"

#define HIST_TEST_EVENT	"ie_kunit_layout"

struct hist_fixture {
	struct trace_event_file	*file;
};

static void hist_fixture_exit(void *arg)
{
	mutex_lock(&event_mutex);
	ie_synth_delete(HIST_TEST_EVENT);
	mutex_unlock(&event_mutex);
}

/* The event: a char[10], then numbers of several sizes. */
static struct trace_event_file *hist_event(struct kunit *test)
{
	char def[] = HIST_TEST_EVENT " char s[10]; u64 x; u32 y; char t[3]; u16 z";
	struct trace_array *tr = top_trace_array();
	struct trace_event_file *file;
	unsigned int pos;
	int err;

	KUNIT_ASSERT_NOT_NULL(test, tr);
	mutex_lock(&event_mutex);
	err = ie_synth_create(def, &pos);
	mutex_unlock(&event_mutex);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "definition refused at %u", pos);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, hist_fixture_exit,
							NULL), 0);
	file = find_event_file(tr, "synthetic", HIST_TEST_EVENT);
	KUNIT_ASSERT_NOT_NULL(test, file);
	return file;
}

/* Build a histogram of @cmd; NULL and @err, @pos if it is refused. */
static struct ie_hist *hist_build(struct kunit *test,
				  struct trace_event_file *file,
				  const char *cmd, enum ie_err *err,
				  unsigned int *pos)
{
	struct ie_spec *spec = kunit_kzalloc(test, sizeof(*spec), GFP_KERNEL);
	struct ie_hist *hist;

	KUNIT_ASSERT_NOT_NULL(test, spec);
	KUNIT_ASSERT_EQ_MSG(test, ie_spec_parse(cmd, spec), 0, "'%s'", cmd);
	mutex_lock(&event_mutex);
	hist = ie_hist_create(file, spec, pos, err);
	mutex_unlock(&event_mutex);
	ie_spec_free(spec);
	return IS_ERR(hist) ? NULL : hist;
}

static void hist_free(struct ie_hist *hist)
{
	mutex_lock(&event_mutex);
	ie_hist_destroy(hist);
	mutex_unlock(&event_mutex);
}

/* Every key starts at a multiple of 8 bytes, whatever comes before it. */
static void hist_test_key_alignment(struct kunit *test)
{
	struct trace_event_file *file = hist_event(test);
	static const char * const cmds[] = {
		"keys=s,x", "keys=s,y", "keys=t,z,s", "keys=y,t,z",
		"keys=common_pid,s,t",
	};
	struct ie_hist *hist;
	unsigned int i, k, end, pos;
	enum ie_err err;

	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		hist = hist_build(test, file, cmds[i], &err, &pos);
		KUNIT_ASSERT_NOT_NULL_MSG(test, hist, "'%s': error %d at %u",
					  cmds[i], err, pos);
		end = 0;
		for (k = 0; k < hist->n_keys; k++) {
			KUNIT_EXPECT_EQ_MSG(test, hist->keys[k].key_off % 8, 0,
					    "'%s' key %u", cmds[i], k);
			/* After the previous key, not overlapping it. */
			KUNIT_EXPECT_GE_MSG(test, hist->keys[k].key_off, end,
					    "'%s' key %u", cmds[i], k);
			end = hist->keys[k].key_off + hist->keys[k].size;
		}
		KUNIT_EXPECT_EQ_MSG(test, hist->key_size % 8, 0, "'%s'", cmds[i]);
		KUNIT_EXPECT_GE_MSG(test, hist->key_size, end, "'%s'", cmds[i]);
		/* A key smaller than its slot: the slack must be zeroed. */
		KUNIT_EXPECT_TRUE_MSG(test, hist->key_pad, "'%s'", cmds[i]);
		hist_free(hist);
	}
}

/*
 * The trigger's own variables are inlined: the operand and height limits
 * hold for what is evaluated, not only for each text as written.
 */
static void hist_test_inlined_limits(struct kunit *test)
{
	struct trace_event_file *file = hist_event(test);
	unsigned int pos, i, n;
	struct ie_hist *hist;
	enum ie_err err;
	char *cmd, *buf;

	/* 4 x 4 = 16 operands: the most one expression may have. */
	hist = hist_build(test, file, "keys=x:a=x+y+z+x:b=$a+$a+$a+$a",
			  &err, &pos);
	KUNIT_EXPECT_NOT_NULL_MSG(test, hist, "error %d at %u", err, pos);
	hist_free(hist);

	/* 64 operands (and more, chained on) are refused where they start. */
	cmd = "keys=x:a=x+y+z+x:b=$a+$a+$a+$a:c=$b+$b+$b+$b:d=$c+$c+$c+$c";
	hist = hist_build(test, file, cmd, &err, &pos);
	KUNIT_EXPECT_NULL(test, hist);
	hist_free(hist);
	KUNIT_EXPECT_EQ(test, err, IE_ERR_TOO_MANY_OPERANDS);
	KUNIT_EXPECT_EQ(test, pos, (unsigned int)(strstr(cmd, "c=") - cmd + 2));

	/*
	 * Unary minus nested through variables: heights 5, 9, 13, then 17,
	 * each text within the parser's own depth limit.
	 */
	cmd = "keys=x:a=-(-(-(-(x)))):b=-(-(-(-($a)))):c=-(-(-(-($b))))";
	hist = hist_build(test, file, cmd, &err, &pos);
	KUNIT_EXPECT_NOT_NULL_MSG(test, hist, "error %d at %u", err, pos);
	hist_free(hist);
	cmd = "keys=x:a=-(-(-(-(x)))):b=-(-(-(-($a)))):c=-(-(-(-($b)))):d=-(-(-(-($c))))";
	hist = hist_build(test, file, cmd, &err, &pos);
	KUNIT_EXPECT_NULL(test, hist);
	hist_free(hist);
	KUNIT_EXPECT_EQ(test, err, IE_ERR_EXPR_DEPTH);
	KUNIT_EXPECT_EQ(test, pos, (unsigned int)(strstr(cmd, "d=") - cmd + 2));

	/*
	 * All the expressions of a trigger together are bounded too: 4 and
	 * 7 x 16 operands are accepted (116), an 8th 16 more (132) is not.
	 */
	buf = kunit_kzalloc(test, 256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	n = scnprintf(buf, 256, "keys=x:a=x+y+z+x");
	for (i = 0; i < 8; i++)
		n += scnprintf(buf + n, 256 - n, ":%c=$a+$a+$a+$a", 'b' + i);
	hist = hist_build(test, file, buf, &err, &pos);
	KUNIT_EXPECT_NULL(test, hist);
	hist_free(hist);
	KUNIT_EXPECT_EQ(test, err, IE_ERR_TOO_MANY_OPERANDS);
	KUNIT_EXPECT_EQ(test, pos, (unsigned int)(strstr(buf, "i=") - buf + 2));
	*strstr(buf, ":i=") = '\0';
	hist = hist_build(test, file, buf, &err, &pos);
	KUNIT_EXPECT_NOT_NULL_MSG(test, hist, "error %d at %u", err, pos);
	hist_free(hist);
}

/* An inlined variable is listed as written, so the listing reads back. */
static void hist_test_inlined_listing(struct kunit *test)
{
	struct trace_event_file *file = hist_event(test);
	struct ie_hist *hist;
	unsigned int pos;
	enum ie_err err;
	char buf[128];

	hist = hist_build(test, file,
			  "keys=x:a=x+y:b=$a*2-(z+$a):c=$b:vals=$a", &err, &pos);
	KUNIT_ASSERT_NOT_NULL_MSG(test, hist, "error %d at %u", err, pos);
	ie_expr_print(hist->vars[1].expr, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "$a*2-(z+$a)");
	ie_expr_print(hist->vars[2].expr, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "$b");
	/* A value that is a variable shows what it holds (CONFIG_HIST_TRIGGERS'). */
	KUNIT_EXPECT_STREQ(test, hist->vals[1].name, "x+y");
	hist_free(hist);
}

static struct kunit_case hist_test_cases[] = {
	KUNIT_CASE(hist_test_key_alignment),
	KUNIT_CASE(hist_test_inlined_limits),
	KUNIT_CASE(hist_test_inlined_listing),
	{}
};

static struct kunit_suite hist_test_suite = {
	.name = "inter_event_hist",
	.test_cases = hist_test_cases,
};

kunit_test_suite(hist_test_suite);
