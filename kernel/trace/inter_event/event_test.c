// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the inter-event event marks: the identity of the event
 * whose triggers run (unique across CPUs) and its one time stamp.
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

/* A new event is a new identity; an action's nested event leaves none. */
static void event_test_id_begin_restore(struct kunit *test)
{
	struct ie_event_mark saved;
	u64 a, b, c;

	preempt_disable();
	a = ie_event_id();
	ie_event_save(&saved);
	ie_event_begin();
	b = ie_event_id();
	ie_event_restore(&saved);
	c = ie_event_id();
	preempt_enable();
	KUNIT_EXPECT_NE(test, a, b);
	KUNIT_EXPECT_EQ(test, a, c);
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
	preempt_disable();
	ie_event_begin();
	t1 = ie_event_ts(buffer, NULL);
	udelay(2);
	t2 = ie_event_ts(buffer, NULL);
	ie_event_begin();
	udelay(2);
	t3 = ie_event_ts(buffer, NULL);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, t1, t2);
	KUNIT_EXPECT_GT(test, t3, t1);
}

static struct kunit_case event_test_cases[] = {
	KUNIT_CASE(event_test_id_per_cpu),
	KUNIT_CASE(event_test_id_begin_restore),
	KUNIT_CASE(event_test_one_timestamp),
	{}
};

static struct kunit_suite event_test_suite = {
	.name = "inter_event_event",
	.test_cases = event_test_cases,
};

kunit_test_suite(event_test_suite);
