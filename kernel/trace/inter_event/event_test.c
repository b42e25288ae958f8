// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the inter-event event marks: the identity of the event
 * whose triggers run (unique across CPUs and over time, nested events
 * apart) and its one time stamp.
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/workqueue.h>

#include "inter_event.h"

static long event_test_id_here(void *arg)
{
	u64 *id = arg;

	preempt_disable();
	*id = ie_event_id();
	preempt_enable();
	return 0;
}

/*
 * Every CPU's current event has an identity of its own, even when the
 * CPUs have counted the same number of events (as at boot, none).
 */
static void event_test_id_per_cpu(struct kunit *test)
{
	unsigned int cpu, other, n = 0;
	u64 *ids;

	ids = kunit_kcalloc(test, nr_cpu_ids, sizeof(*ids), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ids);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		KUNIT_ASSERT_EQ(test, work_on_cpu(cpu, event_test_id_here,
						  &ids[cpu]), 0);
		n++;
	}
	for_each_online_cpu(cpu) {
		for_each_online_cpu(other) {
			if (other != cpu)
				KUNIT_EXPECT_NE_MSG(test, ids[cpu], ids[other],
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
	u64 outer, inner, back, next;

	preempt_disable();
	ie_event_begin();
	outer = ie_event_id();
	ie_event_begin();
	inner = ie_event_id();
	ie_event_end();
	back = ie_event_id();
	ie_event_end();
	ie_event_begin();
	next = ie_event_id();
	ie_event_end();
	preempt_enable();
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
	u64 t1, t2, t3;

	KUNIT_ASSERT_NOT_NULL(test, tr);
	buffer = tr->array_buffer.buffer;
	KUNIT_ASSERT_NOT_NULL(test, buffer);
	u64 t4;

	preempt_disable();
	ie_event_begin();
	t1 = ie_event_ts(buffer, NULL);
	udelay(2);
	t2 = ie_event_ts(buffer, NULL);
	/* An event nested in this one's triggers has its own time... */
	ie_event_begin();
	udelay(2);
	t3 = ie_event_ts(buffer, NULL);
	ie_event_end();
	/* ...and leaves this one's as it was. */
	t4 = ie_event_ts(buffer, NULL);
	ie_event_end();
	preempt_enable();
	KUNIT_EXPECT_EQ(test, t1, t2);
	KUNIT_EXPECT_GT(test, t3, t1);
	KUNIT_EXPECT_EQ(test, t4, t1);
}

static struct kunit_case event_test_cases[] = {
	KUNIT_CASE(event_test_id_per_cpu),
	KUNIT_CASE(event_test_id_nesting),
	KUNIT_CASE(event_test_one_timestamp),
	{}
};

static struct kunit_suite event_test_suite = {
	.name = "inter_event_event",
	.test_cases = event_test_cases,
};

kunit_test_suite(event_test_suite);
