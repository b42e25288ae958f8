// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the inter-event event marks: the identity of the event
 * whose triggers run (unique across CPUs and over time, nested events
 * apart) and its one time stamp; of the reading of variables by
 * references, once per event; and of the tags of variables' writes
 * (unique across CPUs, context levels and time).
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "inter_event.h"

/*
 * The tests' events nest as event_triggers_call()'s do: each end gets
 * what its begin returned.  (One test runs at a time.)
 */
static struct ie_event_level *test_outer[2 * IE_EVENT_NEST + 2];
static unsigned int test_depth;

static void test_event_begin(void)
{
	if (!WARN_ON_ONCE(test_depth == ARRAY_SIZE(test_outer)))
		test_outer[test_depth++] = ie_event_begin();
}

static void test_event_end(void)
{
	if (!WARN_ON_ONCE(!test_depth))
		ie_event_end(test_outer[--test_depth]);
}

/* The event path's scratch space, as the first hist trigger makes it. */
static void test_scratch_init(struct kunit *test)
{
	int ret;

	mutex_lock(&event_mutex);
	ret = ie_scratch_init();
	mutex_unlock(&event_mutex);
	KUNIT_ASSERT_EQ(test, ret, 0);
}

/* An event's identity on one CPU, and a write tag taken there. */
struct id_here {
	u64	id;
	u64	tag;
};

static long event_test_id_here(void *arg)
{
	struct id_here *here = arg;

	preempt_disable();
	here->id = ie_event_id();
	here->tag = ie_event_write_tag();
	preempt_enable();
	return 0;
}

/*
 * Every CPU's current event has an identity of its own, and every CPU's
 * writes tags of their own, even when the CPUs have counted the same
 * number of events and writes (as at boot, none).
 */
static void event_test_id_per_cpu(struct kunit *test)
{
	unsigned int cpu, other, n = 0;
	struct id_here *ids;

	if (num_online_cpus() < 2)
		kunit_skip(test, "one CPU online: no other CPU to compare with");
	ids = kunit_kcalloc(test, nr_cpu_ids, sizeof(*ids), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ids);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		/* Not an assertion: it would leave the hotplug lock held. */
		KUNIT_EXPECT_EQ_MSG(test, work_on_cpu(cpu, event_test_id_here,
						      &ids[cpu]), 0,
				    "CPU %u", cpu);
		n++;
	}
	for_each_online_cpu(cpu) {
		KUNIT_EXPECT_NE_MSG(test, ids[cpu].tag, 0, "CPU %u", cpu);
		KUNIT_EXPECT_EQ_MSG(test, ids[cpu].tag & IE_TAG_BUSY, 0,
				    "CPU %u", cpu);
		for_each_online_cpu(other) {
			if (other == cpu)
				continue;
			KUNIT_EXPECT_NE_MSG(test, ids[cpu].id, ids[other].id,
					    "CPUs %u and %u", cpu, other);
			/* Whatever each CPU counted before. */
			KUNIT_EXPECT_NE_MSG(test, IE_TAG_BASE(ids[cpu].tag),
					    IE_TAG_BASE(ids[other].tag),
					    "CPUs %u and %u", cpu, other);
		}
	}
	cpus_read_unlock();
	kunit_info(test, "%u CPUs online\n", n);
}

/*
 * A new event is a new identity, never one given before; an event nested
 * in another one's triggers leaves the outer event as it was.
 */
static void event_test_id_nesting(struct kunit *test)
{
	struct ie_event_level *after;
	u64 outer, inner, back, next;

	preempt_disable();
	test_event_begin();
	outer = ie_event_id();
	test_event_begin();
	inner = ie_event_id();
	test_event_end();
	back = ie_event_id();
	test_event_end();
	test_event_begin();
	next = ie_event_id();
	test_event_end();
	/* Outside any event again: no current level. */
	after = __this_cpu_read(ie_cur_level);
	preempt_enable();
	KUNIT_EXPECT_NULL(test, after);
	KUNIT_EXPECT_NE(test, outer, inner);
	KUNIT_EXPECT_EQ(test, outer, back);
	KUNIT_EXPECT_NE(test, next, inner);
	KUNIT_EXPECT_NE(test, next, outer);
}

/* All triggers of one event see one time; the next event another read. */
static void event_test_one_timestamp(struct kunit *test)
{
	struct trace_array *tr = top_trace_array();
	struct trace_buffer *buffer;
	u64 t1, t2, t3, t4, t5, t6, t7;

	KUNIT_ASSERT_NOT_NULL(test, tr);
	buffer = tr->array_buffer.buffer;
	KUNIT_ASSERT_NOT_NULL(test, buffer);

	preempt_disable();
	test_event_begin();
	t1 = ie_event_ts(buffer, NULL);
	udelay(2);
	t2 = ie_event_ts(buffer, NULL);
	/* An event nested in this one's triggers has its own time... */
	test_event_begin();
	udelay(2);
	t3 = ie_event_ts(buffer, NULL);
	test_event_end();
	/* ...and leaves this one's as it was. */
	t4 = ie_event_ts(buffer, NULL);
	test_event_end();
	/* The next event reads the clock again, at either depth. */
	udelay(2);
	test_event_begin();
	t5 = ie_event_ts(buffer, NULL);
	udelay(2);
	test_event_begin();
	t6 = ie_event_ts(buffer, NULL);
	test_event_end();
	test_event_end();
	udelay(2);
	test_event_begin();
	test_event_begin();
	t7 = ie_event_ts(buffer, NULL);
	test_event_end();
	test_event_end();
	preempt_enable();
	KUNIT_EXPECT_EQ(test, t1, t2);
	KUNIT_EXPECT_GT(test, t3, t1);
	KUNIT_EXPECT_EQ(test, t4, t1);
	KUNIT_EXPECT_GT(test, t5, t3);
	KUNIT_EXPECT_GT(test, t6, t5);
	KUNIT_EXPECT_GT(test, t7, t6);
}

/*
 * Events nested deeper than the marks go: each still gets an identity of
 * its own and its own time stamp, and the events up to the bound get
 * theirs back when the deeper ones end.
 */
#define DEEP	(IE_EVENT_NEST + 3)

static void event_test_deep_nesting(struct kunit *test)
{
	struct trace_array *tr = top_trace_array();
	u64 id_in[DEEP], id_back[DEEP], ts_in[DEEP], ts_back[DEEP];
	struct trace_buffer *buffer;
	unsigned int i, j;

	KUNIT_ASSERT_NOT_NULL(test, tr);
	buffer = tr->array_buffer.buffer;
	KUNIT_ASSERT_NOT_NULL(test, buffer);

	preempt_disable();
	for (i = 0; i < DEEP; i++) {
		test_event_begin();
		udelay(2);
		id_in[i] = ie_event_id();
		ts_in[i] = ie_event_ts(buffer, NULL);
	}
	for (i = DEEP; i-- > 0; ) {
		id_back[i] = ie_event_id();
		ts_back[i] = ie_event_ts(buffer, NULL);
		test_event_end();
	}
	preempt_enable();

	for (i = 0; i < DEEP; i++) {
		for (j = 0; j < i; j++) {
			KUNIT_EXPECT_NE_MSG(test, id_in[i], id_in[j],
					    "depths %u and %u", i + 1, j + 1);
			/* A nested event's time is its own, later one. */
			KUNIT_EXPECT_GT_MSG(test, ts_in[i], ts_in[j],
					    "depths %u and %u", i + 1, j + 1);
		}
		if (i < IE_EVENT_NEST) {
			KUNIT_EXPECT_EQ_MSG(test, id_back[i], id_in[i],
					    "depth %u", i + 1);
			KUNIT_EXPECT_EQ_MSG(test, ts_back[i], ts_in[i],
					    "depth %u", i + 1);
		}
		/* Past the bound: never the identity of a deeper event. */
		for (j = i + 1; j < DEEP; j++)
			KUNIT_EXPECT_NE_MSG(test, id_back[i], id_in[j],
					    "depths %u and %u", i + 1, j + 1);
	}
}

/*
 * ie_refs_read(), the read-once reading of variables by references,
 * without a trace event: the defining histogram is built by hand with a
 * map of its own, keyed by a u64 at the start of a record the test
 * makes, with two variables whose expressions are constants the test
 * sets.  ie_hist_event() saves them, as at an event on that histogram.
 * The readers are histograms holding references only, and read with
 * ie_refs_read() as ie_hist_event() does, inside events the test begins
 * and ends as event_triggers_call() does.  Preemption is off inside an
 * event: the event's mark is its CPU's.
 *
 * The layout of the entry data (the tags of the variables at tags_off)
 * is ie_hist_create()'s.
 */
#define REFS_KEY	42
#define REFS_NVARS	2
#define REFS_VAR	1	/* the variable the readers read */
#define REFS_DATA_OFF	16	/* entry data before the tags */

enum {
	REFS_TRIGGER_1,		/* two triggers reading REFS_VAR */
	REFS_TRIGGER_2,
	REFS_TRIGGER_BOTH,	/* one reading both variables */
	REFS_TRIGGER_OTHER,	/* one reading variable 0 */
	REFS_NREADERS,
};

struct refs_fixture {
	struct ie_map			m;
	struct ie_hist			*def;
	struct ie_hist			*readers[REFS_NREADERS];
	struct ie_expr			vals[REFS_NVARS];
	struct ftrace_event_field	key_field;
	u64				rec[1];		/* the key */
};

KUNIT_DEFINE_ACTION_WRAPPER(refs_map_free, ie_map_free, struct ie_map *);

static void refs_counts_free(void *arg)
{
	struct ie_map *m = arg;

	free_percpu(m->cpu);
}

static struct ie_hist *refs_reader(struct kunit *test, struct ie_hist *def,
				   unsigned int first, unsigned int n)
{
	struct ie_hist *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, h);
	/* Keyed as the defining histogram, which ie_ref_add() checks. */
	h->keys[0].type = IE_FT_NUM;
	h->keys[0].size = sizeof(u64);
	h->n_keys = 1;
	h->key_size = sizeof(u64);
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, ie_ref_add(h, def, first + i), i);
	return h;
}

static struct refs_fixture *refs_fixture(struct kunit *test)
{
	struct refs_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct ie_hist *def;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	/* ie_hist_event() works in the scratch space triggers allocate. */
	test_scratch_init(test);
	def = kunit_kzalloc(test, sizeof(*def), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, def);
	f->def = def;

	def->tags_off = REFS_DATA_OFF;
	def->elt_data_size = REFS_DATA_OFF + REFS_NVARS * sizeof(atomic64_t);
	f->m.ref = 1;
	f->m.ready = true;
	f->m.cpu = alloc_percpu(struct ie_cpu_counts);
	KUNIT_ASSERT_NOT_NULL(test, f->m.cpu);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, refs_counts_free,
							&f->m), 0);
	def->m = &f->m;

	f->key_field.name = "key";
	f->key_field.type = "u64";
	f->key_field.size = sizeof(u64);
	def->keys[0].type = IE_FT_NUM;
	def->keys[0].ev = &f->key_field;
	def->keys[0].size = sizeof(u64);
	def->keys[0].map_idx = 1;	/* after the hit count's sum */
	def->n_keys = 1;
	def->key_size = sizeof(u64);

	def->vals[0].type = IE_FT_HITCOUNT;
	def->vals[0].map_idx = 0;
	def->n_vals = 1;

	for (i = 0; i < REFS_NVARS; i++) {
		f->vals[i].kind = IE_EX_CONST;
		def->vars[i].expr = &f->vals[i];
		def->vars[i].map_idx = i;
	}
	def->n_vars = REFS_NVARS;
	KUNIT_ASSERT_EQ(test, ie_map_layout(&f->m, sizeof(u64), 1, REFS_NVARS,
					    def->elt_data_size), 0);
	KUNIT_ASSERT_EQ(test, ie_map_alloc(&f->m, IE_MAP_BITS_MIN), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, refs_map_free,
							&f->m), 0);

	f->readers[REFS_TRIGGER_1] = refs_reader(test, def, REFS_VAR, 1);
	f->readers[REFS_TRIGGER_2] = refs_reader(test, def, REFS_VAR, 1);
	f->readers[REFS_TRIGGER_BOTH] = refs_reader(test, def, 0, 2);
	f->readers[REFS_TRIGGER_OTHER] = refs_reader(test, def, 0, 1);
	f->rec[0] = REFS_KEY;
	return f;
}

/* An event of the defining histogram: REFS_VAR = @val, variable 0 = ~@val. */
static void refs_save(struct refs_fixture *f, u64 val)
{
	f->vals[REFS_VAR].konst = val;
	f->vals[0].konst = ~val;
	/* The event path's per-CPU state: preemption off, as at an event. */
	preempt_disable();
	ie_hist_event(f->def, f->rec, NULL, NULL);
	preempt_enable();
}

/*
 * The triggers of one event run between these two, with preemption off
 * as at a real event: no expectation (which may sleep) in between.
 */
static void refs_begin(void)
{
	preempt_disable();
	test_event_begin();
}

static void refs_end(void)
{
	test_event_end();
	preempt_enable();
}

/* Trigger @trigger of the current event reads; false if it reads nothing. */
static bool refs_read(struct refs_fixture *f, unsigned int trigger, u64 *vals)
{
	struct ie_elt *elts[IE_MAX_REFS];
	u64 key = REFS_KEY;

	return ie_refs_read(f->readers[trigger], &key, vals, elts, NULL);
}

/* A whole event with one trigger reading. */
static bool refs_event(struct refs_fixture *f, unsigned int trigger, u64 *vals)
{
	bool ret;

	refs_begin();
	ret = refs_read(f, trigger, vals);
	refs_end();
	return ret;
}

/* The tag and value slots of REFS_VAR in the entry of REFS_KEY. */
static void refs_slots(struct kunit *test, struct refs_fixture *f,
		       atomic64_t **tag, atomic64_t **val)
{
	u64 key = REFS_KEY;
	struct ie_elt *elt = ie_index_find(&f->def->m->index, &key);

	KUNIT_ASSERT_NOT_NULL(test, elt);
	*tag = ie_var_tag(f->def, elt, REFS_VAR);
	*val = ie_elt_var(f->def->m, elt, f->def->vars[REFS_VAR].map_idx);
}

/* One saved value is read by one event; later events find nothing. */
static void event_test_refs_read_once(struct kunit *test)
{
	struct refs_fixture *f = refs_fixture(test);
	struct ie_elt *elts[IE_MAX_REFS];
	u64 key = REFS_KEY + 1, val;
	bool ok;

	/* Nothing saved yet. */
	KUNIT_EXPECT_FALSE(test, refs_event(f, REFS_TRIGGER_1, &val));

	refs_save(f, 100);
	/* Another key's entry holds nothing. */
	refs_begin();
	ok = ie_refs_read(f->readers[REFS_TRIGGER_1], &key, &val, elts, NULL);
	refs_end();
	KUNIT_EXPECT_FALSE(test, ok);
	val = 0;
	KUNIT_EXPECT_TRUE(test, refs_event(f, REFS_TRIGGER_1, &val));
	KUNIT_EXPECT_EQ(test, val, 100);
	/* Consumed: not for a later event, through any trigger. */
	KUNIT_EXPECT_FALSE(test, refs_event(f, REFS_TRIGGER_1, &val));
	KUNIT_EXPECT_FALSE(test, refs_event(f, REFS_TRIGGER_2, &val));

	/* Saved twice before a read: the last value, read once. */
	refs_save(f, 200);
	refs_save(f, 300);
	val = 0;
	KUNIT_EXPECT_TRUE(test, refs_event(f, REFS_TRIGGER_2, &val));
	KUNIT_EXPECT_EQ(test, val, 300);
	KUNIT_EXPECT_FALSE(test, refs_event(f, REFS_TRIGGER_1, &val));

	/* A map being cleared is not looked into, and nothing is consumed. */
	refs_save(f, 400);
	f->m.clearing = true;
	KUNIT_EXPECT_FALSE(test, refs_event(f, REFS_TRIGGER_1, &val));
	f->m.clearing = false;
	val = 0;
	KUNIT_EXPECT_TRUE(test, refs_event(f, REFS_TRIGGER_1, &val));
	KUNIT_EXPECT_EQ(test, val, 400);
}

/* All the triggers of one event read the one value; then it is gone. */
static void event_test_refs_read_same_event(struct kunit *test)
{
	struct refs_fixture *f = refs_fixture(test);
	u64 v[3] = { };
	bool ok[3];

	refs_save(f, 100);
	refs_begin();
	ok[0] = refs_read(f, REFS_TRIGGER_1, &v[0]);
	ok[1] = refs_read(f, REFS_TRIGGER_2, &v[1]);
	/* A trigger may read it again in the same event. */
	ok[2] = refs_read(f, REFS_TRIGGER_1, &v[2]);
	refs_end();
	KUNIT_EXPECT_TRUE(test, ok[0] && ok[1] && ok[2]);
	KUNIT_EXPECT_EQ(test, v[0], 100);
	KUNIT_EXPECT_EQ(test, v[1], 100);
	KUNIT_EXPECT_EQ(test, v[2], 100);
	KUNIT_EXPECT_FALSE(test, refs_event(f, REFS_TRIGGER_1, &v[0]));
	KUNIT_EXPECT_FALSE(test, refs_event(f, REFS_TRIGGER_2, &v[0]));

	/* The other order, and the next saved value. */
	refs_save(f, 200);
	memset(v, 0, sizeof(v));
	refs_begin();
	ok[0] = refs_read(f, REFS_TRIGGER_2, &v[0]);
	ok[1] = refs_read(f, REFS_TRIGGER_1, &v[1]);
	refs_end();
	KUNIT_EXPECT_TRUE(test, ok[0] && ok[1]);
	KUNIT_EXPECT_EQ(test, v[0], 200);
	KUNIT_EXPECT_EQ(test, v[1], 200);
	KUNIT_EXPECT_FALSE(test, refs_event(f, REFS_TRIGGER_1, &v[0]));
}

/*
 * A value saved (on another CPU, or by the event itself) after the first
 * trigger of an event consumed the one before: the event's second
 * trigger reads what the first consumed, and the new value is left for
 * the next event.
 */
static void event_test_refs_save_between_triggers(struct kunit *test)
{
	struct refs_fixture *f = refs_fixture(test);
	u64 v[2] = { }, val;
	bool ok[2];

	refs_save(f, 100);
	refs_begin();
	ok[0] = refs_read(f, REFS_TRIGGER_1, &v[0]);
	/* As the event itself would save it (preemption stays off). */
	f->vals[REFS_VAR].konst = 200;
	f->vals[0].konst = ~200ULL;
	ie_hist_event(f->def, f->rec, NULL, NULL);
	ok[1] = refs_read(f, REFS_TRIGGER_2, &v[1]);
	refs_end();
	KUNIT_EXPECT_TRUE(test, ok[0] && ok[1]);
	KUNIT_EXPECT_EQ(test, v[0], 100);
	KUNIT_EXPECT_EQ(test, v[1], 100);
	val = 0;
	KUNIT_EXPECT_TRUE(test, refs_event(f, REFS_TRIGGER_2, &val));
	KUNIT_EXPECT_EQ(test, val, 200);
	KUNIT_EXPECT_FALSE(test, refs_event(f, REFS_TRIGGER_1, &val));
}

/*
 * A save between a reader's look at the tag and value and its taking of
 * the tag: the reader must not consume the new value under the old tag
 * (the new one would then be consumed a second time by the next reader).
 * It consumes the new value on its retry, once.
 */
static void event_test_refs_save_inside_take(struct kunit *test)
{
	struct refs_fixture *f = refs_fixture(test);
	atomic64_t *tag, *slot;
	u64 v = 0, val;
	s64 t = 0;

	refs_save(f, 100);
	refs_slots(test, f, &tag, &slot);
	KUNIT_EXPECT_TRUE(test, ie_var_peek(tag, slot, &t, &v));
	KUNIT_EXPECT_EQ(test, v, 100);
	refs_save(f, 200);
	/* The tag changed: this take fails, nothing is consumed. */
	KUNIT_EXPECT_FALSE(test, ie_var_confirm(tag, t));
	val = 0;
	KUNIT_EXPECT_TRUE(test, ie_var_take(tag, slot, &val));
	KUNIT_EXPECT_EQ(test, val, 200);
	KUNIT_EXPECT_FALSE(test, ie_var_take(tag, slot, &val));
	KUNIT_EXPECT_FALSE(test, refs_event(f, REFS_TRIGGER_1, &val));

	/* Peeked, then the value changed with the tag still odd: no take. */
	refs_save(f, 300);
	KUNIT_EXPECT_TRUE(test, ie_var_peek(tag, slot, &t, &v));
	atomic64_set(tag, IE_TAG_BUSY);
	atomic64_set(slot, 400);
	KUNIT_EXPECT_FALSE(test, ie_var_confirm(tag, t));
	KUNIT_EXPECT_FALSE(test, ie_var_take(tag, slot, &val));
	/* A writer finding the tag odd leaves the slot to the other one. */
	refs_save(f, 500);
	KUNIT_EXPECT_EQ(test, atomic64_read(slot), 400);
	KUNIT_EXPECT_EQ(test, atomic64_read(tag), IE_TAG_BUSY);
	atomic64_set(tag, 0);
	refs_save(f, 600);
	val = 0;
	KUNIT_EXPECT_TRUE(test, refs_event(f, REFS_TRIGGER_1, &val));
	KUNIT_EXPECT_EQ(test, val, 600);
}

/* Two writes never share a tag; none is 0 or odd. */
static void event_test_write_tags(struct kunit *test)
{
	u64 tags[4];
	unsigned int i, j;

	preempt_disable();
	test_event_begin();
	tags[0] = ie_event_write_tag();
	tags[1] = ie_event_write_tag();
	test_event_begin();
	tags[2] = ie_event_write_tag();
	test_event_end();
	test_event_end();
	test_event_begin();
	tags[3] = ie_event_write_tag();
	test_event_end();
	preempt_enable();
	for (i = 0; i < ARRAY_SIZE(tags); i++) {
		KUNIT_EXPECT_NE(test, tags[i], 0);
		KUNIT_EXPECT_EQ(test, tags[i] & IE_TAG_BUSY, 0);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE_MSG(test, tags[i], tags[j], "%u, %u", i, j);
	}
}

/*
 * A trigger with several references reads all of them or none: one of
 * them unread is not consumed when another has no value.
 */
static void event_test_refs_read_all_or_none(struct kunit *test)
{
	struct refs_fixture *f = refs_fixture(test);
	u64 vals[REFS_NVARS] = { };

	refs_save(f, 100);
	KUNIT_EXPECT_TRUE(test, refs_event(f, REFS_TRIGGER_1, vals));
	/* REFS_VAR read by an event: the next reads nothing, variable 0 stays. */
	KUNIT_EXPECT_FALSE(test, refs_event(f, REFS_TRIGGER_BOTH, vals));
	vals[0] = 0;
	KUNIT_EXPECT_TRUE(test, refs_event(f, REFS_TRIGGER_OTHER, vals));
	KUNIT_EXPECT_EQ(test, vals[0], ~100ULL);

	refs_save(f, 200);
	memset(vals, 0, sizeof(vals));
	KUNIT_EXPECT_TRUE(test, refs_event(f, REFS_TRIGGER_BOTH, vals));
	KUNIT_EXPECT_EQ(test, vals[0], ~200ULL);
	KUNIT_EXPECT_EQ(test, vals[1], 200);
	KUNIT_EXPECT_FALSE(test, refs_event(f, REFS_TRIGGER_OTHER, vals));
	KUNIT_EXPECT_FALSE(test, refs_event(f, REFS_TRIGGER_1, vals));
}

/*
 * An event of a hard interrupt, on a timer, nested in an event of the
 * task (preemption off, interrupts on): it has a level, an identity and
 * a scratch slot of its own, and gives the task's event back as it was.
 */
struct irq_nest {
	struct hrtimer		timer;
	struct ie_event_level	*in, *back;
	struct ie_scratch	*scratch;
	u64			id;
	u64			tags[2];
	bool			done;
};

static enum hrtimer_restart event_test_irq_event(struct hrtimer *timer)
{
	struct irq_nest *n = container_of(timer, struct irq_nest, timer);
	struct ie_event_level *outer = ie_event_begin();

	n->in = __this_cpu_read(ie_cur_level);
	n->id = ie_event_id();
	n->scratch = ie_event_scratch();
	n->tags[0] = ie_event_write_tag();
	n->tags[1] = ie_event_write_tag();
	ie_event_end(outer);
	n->back = __this_cpu_read(ie_cur_level);
	WRITE_ONCE(n->done, true);
	return HRTIMER_NORESTART;
}

static void event_test_irq_nesting(struct kunit *test)
{
	struct irq_nest *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	struct ie_event_level *task, *task_back, *after;
	struct ie_scratch *sc, *sc_back;
	u64 id, id_back, until, tags[2];
	unsigned int i, j;

	KUNIT_ASSERT_NOT_NULL(test, n);
	test_scratch_init(test);
	hrtimer_init(&n->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	n->timer.function = event_test_irq_event;

	preempt_disable();
	test_event_begin();
	task = __this_cpu_read(ie_cur_level);
	id = ie_event_id();
	sc = ie_event_scratch();
	tags[0] = ie_event_write_tag();
	hrtimer_start(&n->timer, ns_to_ktime(1000), HRTIMER_MODE_REL_PINNED_HARD);
	until = ktime_get_ns() + NSEC_PER_SEC;
	while (!READ_ONCE(n->done) && ktime_get_ns() < until)
		cpu_relax();
	task_back = __this_cpu_read(ie_cur_level);
	id_back = ie_event_id();
	sc_back = ie_event_scratch();
	tags[1] = ie_event_write_tag();
	test_event_end();
	after = __this_cpu_read(ie_cur_level);
	preempt_enable();
	hrtimer_cancel(&n->timer);

	KUNIT_ASSERT_TRUE_MSG(test, READ_ONCE(n->done), "the timer did not fire");
	KUNIT_EXPECT_NOT_NULL(test, task);
	KUNIT_EXPECT_NOT_NULL(test, n->in);
	KUNIT_EXPECT_PTR_NE(test, n->in, task);
	KUNIT_EXPECT_PTR_EQ(test, n->back, task);
	KUNIT_EXPECT_PTR_EQ(test, task_back, task);
	KUNIT_EXPECT_NE(test, n->id, id);
	KUNIT_EXPECT_EQ(test, id_back, id);
	KUNIT_EXPECT_NOT_NULL(test, sc);
	KUNIT_EXPECT_NOT_NULL(test, n->scratch);
	KUNIT_EXPECT_PTR_NE(test, n->scratch, sc);
	KUNIT_EXPECT_PTR_EQ(test, sc_back, sc);
	KUNIT_EXPECT_NULL(test, after);
	/*
	 * The task's and the interrupt's writes never share a tag, whatever
	 * each level counted before: their bases differ.
	 */
	KUNIT_EXPECT_NE(test, tags[0], tags[1]);
	KUNIT_EXPECT_NE(test, n->tags[0], n->tags[1]);
	for (i = 0; i < 2; i++) {
		for (j = 0; j < 2; j++)
			KUNIT_EXPECT_NE_MSG(test, IE_TAG_BASE(tags[i]),
					    IE_TAG_BASE(n->tags[j]), "%u, %u",
					    i, j);
	}
}

static struct kunit_case event_test_cases[] = {
	KUNIT_CASE(event_test_id_per_cpu),
	KUNIT_CASE(event_test_id_nesting),
	KUNIT_CASE(event_test_one_timestamp),
	KUNIT_CASE(event_test_refs_read_once),
	KUNIT_CASE(event_test_refs_read_same_event),
	KUNIT_CASE(event_test_refs_read_all_or_none),
	KUNIT_CASE(event_test_refs_save_between_triggers),
	KUNIT_CASE(event_test_refs_save_inside_take),
	KUNIT_CASE(event_test_write_tags),
	KUNIT_CASE(event_test_deep_nesting),
	KUNIT_CASE(event_test_irq_nesting),
	{}
};

static struct kunit_suite event_test_suite = {
	.name = "inter_event_event",
	.test_cases = event_test_cases,
};

kunit_test_suite(event_test_suite);
