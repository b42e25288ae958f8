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

/* Delete synthetic event @name, the test's (a kunit action). */
static void test_event_delete(void *name)
{
	mutex_lock(&event_mutex);
	ie_synth_delete(name);
	mutex_unlock(&event_mutex);
}

/* Define the synthetic event @def names, for the test only. */
static struct trace_event_file *test_event(struct kunit *test, char *def,
					   const char *name)
{
	struct trace_array *tr = top_trace_array();
	struct trace_event_file *file;
	unsigned int pos;
	int err;

	KUNIT_ASSERT_NOT_NULL(test, tr);
	mutex_lock(&event_mutex);
	err = ie_synth_create(def, &pos);
	mutex_unlock(&event_mutex);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "definition refused at %u", pos);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, test_event_delete,
							(void *)name), 0);
	file = find_event_file(tr, "synthetic", name);
	KUNIT_ASSERT_NOT_NULL(test, file);
	return file;
}

/* The event: a char[10], then numbers of several sizes. */
static struct trace_event_file *hist_event(struct kunit *test)
{
	char def[] = HIST_TEST_EVENT " char s[10]; u64 x; u32 y; char t[3]; u16 z";

	return test_event(test, def, HIST_TEST_EVENT);
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

#define FLAT_TEST_EVENT	"ie_kunit_flat"
/* The fields of the event, named by one letter each. */
#define FLAT_FIELDS	"abcdefgh"
/* Room for its record. */
#define FLAT_REC	128

static void flat_hist_free(void *hist)
{
	hist_free(hist);
}

/* An event of signed and unsigned numbers of every width. */
static struct trace_event_file *flat_event(struct kunit *test)
{
	char def[] = FLAT_TEST_EVENT " s8 a; s16 b; s32 c; u8 d; s64 e; "
		     "u16 f; u32 g; u64 h";

	return test_event(test, def, FLAT_TEST_EVENT);
}

/*
 * Field @name of the test's event @i, whose keys are those of entry @k,
 * as a u64: a signed field's value sign-extended.  Past the signed range
 * of their widths: d, f, g, h.
 */
static u64 flat_value(unsigned int i, unsigned int k, char name)
{
	switch (name) {
	case 'a':
		return (u64)((s64)k - 4);
	case 'b':
		return (u64)(s64)(s16)(i * 2654435761u);
	case 'c':
		return (u64)(s64)(s32)(i * 40503u * 65537u);
	case 'd':
		return 200 + k;
	case 'e':
		return i * 0x9e3779b97f4a7c15ull;
	case 'f':
		return 60000 + k;
	case 'g':
		return 0x80000000u + k;
	default:
		return i * 0xfedcba9876543211ull;
	}
}

/* Write @v into field @name of @rec, at the width the event gives it. */
static void flat_put(struct kunit *test, struct trace_event_file *file,
		     u8 *rec, char name, u64 v)
{
	char field[2] = { name, '\0' };
	struct ftrace_event_field *ev;

	ev = trace_find_event_field(file->event_call, field);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_ASSERT_LE(test, ev->offset + ev->size, FLAT_REC);
	switch (ev->size) {
	case 1:
		*(u8 *)(rec + ev->offset) = v;
		break;
	case 2:
		*(u16 *)(rec + ev->offset) = v;
		break;
	case 4:
		*(u32 *)(rec + ev->offset) = v;
		break;
	default:
		*(u64 *)(rec + ev->offset) = v;
	}
}

/* Which histograms take the flat way: numbers of the record as they are. */
static void hist_test_flat_choice(struct kunit *test)
{
	struct trace_event_file *file = flat_event(test);
	static const struct {
		const char	*cmd;
		bool		flat;
	} cases[] = {
		{ "keys=a:vals=b,c", true },
		{ "keys=d,e,f:vals=hitcount,a", true },
		{ "keys=common_pid:vals=e", true },
		{ "keys=e.hex:vals=b", true },
		{ "keys=a:vals=b:nohitcount", true },
		{ "keys=a.log2", false },
		{ "keys=b.buckets=10:vals=c", false },
		{ "keys=a:vals=b.max", false },
		{ "keys=a:vals=b+c", false },
		{ "keys=common_cpu:vals=b", false },
		{ "keys=a:x=b", false },
		{ "keys=a:vals=common_timestamp", false },
	};
	struct ie_hist *hist;
	unsigned int i, pos;
	enum ie_err err;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		hist = hist_build(test, file, cases[i].cmd, &err, &pos);
		KUNIT_ASSERT_NOT_NULL_MSG(test, hist, "'%s': error %d at %u",
					  cases[i].cmd, err, pos);
		ie_hist_set_simple(hist);
		KUNIT_EXPECT_EQ_MSG(test, hist->flat, cases[i].flat, "'%s'",
				    cases[i].cmd);
		hist_free(hist);
	}
}

/* The entry of @key in @hist: @hits hits, its two sums @s[0] and @s[1]. */
static void flat_expect(struct kunit *test, struct ie_hist *hist,
			const u64 *key, u64 hits, const u64 *s)
{
	u64 sums[IE_MAX_SUMS];
	struct ie_elt *elt;

	elt = ie_index_find(&hist->m->index, key);
	KUNIT_ASSERT_NOT_NULL_MSG(test, elt, "flat %d key %llu", hist->flat,
				  key[0]);
	ie_elt_read_sums(hist->m, elt, sums);
	KUNIT_EXPECT_EQ_MSG(test, sums[hist->vals[0].map_idx], hits,
			    "flat %d key %llu", hist->flat, key[0]);
	KUNIT_EXPECT_EQ_MSG(test, sums[hist->vals[1].map_idx], s[0],
			    "flat %d key %llu", hist->flat, key[0]);
	KUNIT_EXPECT_EQ_MSG(test, sums[hist->vals[2].map_idx], s[1],
			    "flat %d key %llu", hist->flat, key[0]);
}

#define FLAT_EVENTS	300
#define FLAT_KEYS	8

/*
 * The flat way counts what the general way counts, and both what the
 * test adds up itself from the records it writes: signed fields
 * sign-extended, unsigned ones not, in keys and in sums.
 */
static void hist_test_flat_sums(struct kunit *test)
{
	struct trace_event_file *file = flat_event(test);
	static const struct {
		const char	*cmd;
		const char	*keys;	/* the fields of the keys, in order */
		const char	*vals;	/* and of the two sums */
	} cases[] = {
		{ "keys=a:vals=b,c", "a", "bc" },
		{ "keys=d,f,a:vals=c,e", "dfa", "ce" },
		{ "keys=g:vals=h,g", "g", "hg" },
	};
	u64 hits[FLAT_KEYS], sums[FLAT_KEYS][2], key[3];
	unsigned int c, i, j, k, w, pos;
	struct ie_hist *hist[2];
	const char *name;
	enum ie_err err;
	u8 *rec;

	rec = kunit_kzalloc(test, FLAT_REC, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		/* hist[0] the flat way, hist[1] the general one. */
		for (w = 0; w < 2; w++) {
			hist[w] = hist_build(test, file, cases[c].cmd, &err,
					     &pos);
			KUNIT_ASSERT_NOT_NULL_MSG(test, hist[w],
						  "'%s': error %d at %u",
						  cases[c].cmd, err, pos);
			KUNIT_ASSERT_EQ(test,
					kunit_add_action_or_reset(test,
								  flat_hist_free,
								  hist[w]), 0);
			ie_hist_set_simple(hist[w]);
			KUNIT_ASSERT_TRUE(test, hist[w]->flat);
			/* Its entries, as when the trigger is registered. */
			KUNIT_ASSERT_EQ(test, ie_hist_init_map(hist[w]), 0);
		}
		/* The general way, its keys read by ie_field_num(). */
		hist[1]->flat = false;
		hist[1]->keys_loaded = false;
		memset(hits, 0, sizeof(hits));
		memset(sums, 0, sizeof(sums));
		for (i = 0; i < FLAT_EVENTS; i++) {
			k = (i * 5 + i / 7) % FLAT_KEYS;
			memset(rec, 0, FLAT_REC);
			for (name = FLAT_FIELDS; *name; name++)
				flat_put(test, file, rec, *name,
					 flat_value(i, k, *name));
			hits[k]++;
			for (j = 0; j < 2; j++)
				sums[k][j] += flat_value(i, k, cases[c].vals[j]);
			preempt_disable();
			for (w = 0; w < 2; w++)
				ie_hist_event(hist[w], rec, NULL, NULL);
			preempt_enable();
		}
		for (k = 0; k < FLAT_KEYS; k++) {
			for (j = 0; cases[c].keys[j]; j++)
				key[j] = flat_value(0, k, cases[c].keys[j]);
			for (w = 0; w < 2; w++)
				flat_expect(test, hist[w], key, hits[k], sums[k]);
		}
		/* Nothing else was added: a key the records never had. */
		key[0] = 4;
		key[1] = 0;
		key[2] = 0;
		for (w = 0; w < 2; w++)
			KUNIT_EXPECT_NULL(test,
					  ie_index_find(&hist[w]->m->index, key));
	}
}

/* The smallest map, and more keys than it holds. */
#define FULL_SIZE	BIT(IE_MAP_BITS_MIN)
#define FULL_KEYS	(FULL_SIZE + FULL_SIZE / 2)
#define FULL_EVENTS	(4 * FULL_KEYS)

/*
 * A full map, the flat way and the general one: the first FULL_SIZE keys
 * the records bring get entries, an event of any later key is a drop,
 * and the keys in the map still count their hits, as the test counts
 * them from the records it writes.
 */
static void hist_test_flat_full(struct kunit *test)
{
	struct trace_event_file *file = flat_event(test);
	u64 key[1], total, dropped, want_drops = 0;
	unsigned int i, k, w, pos, admitted = 0;
	struct ie_hist *hist[2];
	u64 sums[IE_MAX_SUMS];
	struct ie_elt *elt;
	enum ie_err err;
	u64 *hits;
	u8 *rec;
	bool *in;

	rec = kunit_kzalloc(test, FLAT_REC, GFP_KERNEL);
	hits = kunit_kcalloc(test, FULL_KEYS, sizeof(*hits), GFP_KERNEL);
	in = kunit_kcalloc(test, FULL_KEYS, sizeof(*in), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_ASSERT_NOT_NULL(test, hits);
	KUNIT_ASSERT_NOT_NULL(test, in);
	for (w = 0; w < 2; w++) {
		/* size=FULL_SIZE */
		BUILD_BUG_ON(FULL_SIZE != 128);
		hist[w] = hist_build(test, file, "keys=g:size=128", &err, &pos);
		KUNIT_ASSERT_NOT_NULL_MSG(test, hist[w], "error %d at %u", err,
					  pos);
		KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
								flat_hist_free,
								hist[w]), 0);
		ie_hist_set_simple(hist[w]);
		KUNIT_ASSERT_TRUE(test, hist[w]->flat);
		KUNIT_ASSERT_EQ(test, ie_hist_init_map(hist[w]), 0);
		/* size=128, a power of two: exactly that many entries. */
		KUNIT_ASSERT_EQ(test, hist[w]->m->max_elts, FULL_SIZE);
	}
	hist[1]->flat = false;
	for (i = 0; i < FULL_EVENTS; i++) {
		/* Every key, in a scattered order, and again. */
		k = (i * 7 + i / FULL_KEYS) % FULL_KEYS;
		if (!in[k] && admitted < FULL_SIZE) {
			in[k] = true;
			admitted++;
		}
		if (in[k])
			hits[k]++;
		else
			want_drops++;
		memset(rec, 0, FLAT_REC);
		flat_put(test, file, rec, 'g', flat_value(i, k, 'g'));
		preempt_disable();
		for (w = 0; w < 2; w++)
			ie_hist_event(hist[w], rec, NULL, NULL);
		preempt_enable();
	}
	KUNIT_ASSERT_EQ(test, admitted, FULL_SIZE);
	KUNIT_ASSERT_GT(test, want_drops, 0);
	for (w = 0; w < 2; w++) {
		ie_map_totals(hist[w]->m, &total, &dropped);
		KUNIT_EXPECT_EQ_MSG(test, dropped, want_drops, "flat %d", !w);
		KUNIT_EXPECT_EQ_MSG(test, total, FULL_EVENTS - want_drops,
				    "flat %d", !w);
		for (k = 0; k < FULL_KEYS; k++) {
			key[0] = flat_value(0, k, 'g');
			elt = ie_index_find(&hist[w]->m->index, key);
			KUNIT_EXPECT_EQ_MSG(test, !!elt, in[k],
					    "flat %d key %llu", !w, key[0]);
			if (!elt)
				continue;
			ie_elt_read_sums(hist[w]->m, elt, sums);
			KUNIT_EXPECT_EQ_MSG(test,
					    sums[hist[w]->vals[0].map_idx],
					    hits[k], "flat %d key %llu", !w,
					    key[0]);
		}
	}
}

static struct kunit_case hist_test_cases[] = {
	KUNIT_CASE(hist_test_flat_choice),
	KUNIT_CASE(hist_test_flat_sums),
	KUNIT_CASE(hist_test_flat_full),
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
