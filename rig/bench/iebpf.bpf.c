// SPDX-License-Identifier: GPL-2.0
/*
 * The bench's BPF peer (rig/bench.sh): the aggregations of scenarios 2, 3
 * and 4 as a user would write them with BPF, tracepoint programs updating
 * hash maps (libbpf, clang -target bpf).  Each map's value starts with a
 * hit count, which rig/bench/iebpf.c sums into the events processed (as
 * the hist files' Hits and Dropped are summed for the triggers).
 *
 * The tracepoints' records are laid out as in their format files (the
 * bench job checks the offsets used here against them).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* The record of sched_switch, sched_wakeup and sys_enter_write. */
struct switch_rec {
	__u64	common;
	char	prev_comm[16];
	int	prev_pid;
	int	prev_prio;
	long	prev_state;
	char	next_comm[16];
	int	next_pid;	/* offset 56 */
	int	next_prio;
};

struct wakeup_rec {
	__u64	common;
	char	comm[16];
	int	pid;		/* offset 24 */
	int	prio;
	int	target_cpu;
};

struct write_rec {
	__u64		common;
	int		syscall_nr;
	unsigned long	fd;
	unsigned long	buf;
	unsigned long	count;	/* offset 32 */
};

/* Scenario 2: hist:keys=next_pid:vals=prev_prio (default size 2048). */
struct b2_val {
	__u64	hits;
	__u64	prev_prio;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2048);
	__type(key, int);
	__type(value, struct b2_val);
} b2_map SEC(".maps");

/* Add one hit (and @add to the second u64) to @key's value in @map. */
static __always_inline int count_hit(void *map, const void *key, __u64 add)
{
	struct b2_val *v, init = { 1, add };

	v = bpf_map_lookup_elem(map, key);
	if (v) {
		__sync_fetch_and_add(&v->hits, 1);
		if (add)
			__sync_fetch_and_add(&v->prev_prio, add);
		return 0;
	}
	return bpf_map_update_elem(map, key, &init, BPF_NOEXIST);
}

SEC("tracepoint/sched/sched_switch")
int b2_switch(struct switch_rec *ctx)
{
	int pid = ctx->next_pid;

	count_hit(&b2_map, &pid, ctx->prev_prio);
	return 0;
}

/*
 * Scenario 3, the wakeup latency: the wakeup time per pid (with the
 * wakeup's hits), read once at the switch to the pid (whose hits are
 * counted per next_pid), the latency in microseconds counted per
 * (pid, latency), as the synthetic event's hist keys=pid,lat does.
 */
struct b3_wake_val {
	__u64	hits;
	__u64	ts;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2048);
	__type(key, int);
	__type(value, struct b3_wake_val);
} b3_wake SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2048);
	__type(key, int);
	__type(value, struct b2_val);
} b3_switch SEC(".maps");

struct b3_lat_key {
	__u64	pid;
	__u64	lat;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2048);
	__type(key, struct b3_lat_key);
	__type(value, struct b2_val);
} b3_lat SEC(".maps");

SEC("tracepoint/sched/sched_wakeup")
int b3_wakeup(struct wakeup_rec *ctx)
{
	struct b3_wake_val *v, init = { 1, 0 };
	int pid = ctx->pid;
	__u64 now = bpf_ktime_get_ns() / 1000;

	v = bpf_map_lookup_elem(&b3_wake, &pid);
	if (v) {
		__sync_fetch_and_add(&v->hits, 1);
		v->ts = now;
		return 0;
	}
	init.ts = now;
	bpf_map_update_elem(&b3_wake, &pid, &init, BPF_NOEXIST);
	return 0;
}

SEC("tracepoint/sched/sched_switch")
int b3_switch_prog(struct switch_rec *ctx)
{
	struct b3_lat_key lk;
	struct b3_wake_val *w;
	int pid = ctx->next_pid;
	__u64 ts;

	count_hit(&b3_switch, &pid, 0);
	w = bpf_map_lookup_elem(&b3_wake, &pid);
	if (!w)
		return 0;
	ts = __sync_lock_test_and_set(&w->ts, 0);	/* read once */
	if (!ts)
		return 0;
	lk.pid = pid;
	lk.lat = bpf_ktime_get_ns() / 1000 - ts;
	count_hit(&b3_lat, &lk, 0);
	return 0;
}

/* Scenario 4: hist:keys=count:size=128, 400 keys; drops counted. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 128);
	__type(key, __u64);
	__type(value, struct b2_val);
} b4_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, __u64);
} b4_drops SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_write")
int b4_write(struct write_rec *ctx)
{
	__u64 key = ctx->count, *d;
	int zero = 0;

	if (count_hit(&b4_map, &key, 0)) {
		d = bpf_map_lookup_elem(&b4_drops, &zero);
		if (d)
			(*d)++;
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
