#!/bin/sh
# Benchmark job: for each scenario, time a fixed workload without and with
# the scenario's triggers, in alternation, and report the event count the
# histograms saw.  One line per measurement:
#   BENCH <scenario> <rep> <base_ns> <trig_ns> <events>
# Guest time is a count of instructions under -icount (rig/bench.sh).
# The scheduler scenarios run a pipe ping-pong between two tasks (two
# wakeups and two switches per round): under one emulated CPU hackbench
# switches only about once per 150000 instructions, too sparse for the
# triggers' cost to stand out of the run-to-run variation.
T=/sys/kernel/tracing
cd $T || exit 1
reps=3
markers=${IE_BENCH_MARKERS:-40000}
rounds=${IE_BENCH_ROUNDS:-10000}
only=
prof=
for arg in $(cat /proc/cmdline); do
	case $arg in
	ie.reps=*) reps=${arg#ie.reps=} ;;
	ie.only=*) only=${arg#ie.only=} ;;
	ie.prof=*) prof=${arg#ie.prof=} ;;
	esac
done
echo "kernel $(uname -r), cpus $(nproc)"
# trace_marker writes need the buffer on; no event is enabled in it.
echo 1 >tracing_on
echo 0 >events/enable

# Hits plus drops of the hist files: every event the triggers processed.
events_of() {
	cat "$@" | awk '/^    Hits:/ { n += $2 } /^    Dropped:/ { n += $2 } END { print n }'
}

fail() {
	echo "BENCH-ERROR $*"
	exit 1
}

# scenario: name, workload, then the setup and teardown functions s_<name>_on
# and s_<name>_off; the hist file to count events in is s_<name>_hist.
s1_on() { echo 'hist:keys=common_pid' >events/ftrace/print/trigger; }
s1_off() { echo '!hist:keys=common_pid' >>events/ftrace/print/trigger; }
s1_hist=events/ftrace/print/hist

s2_on() { echo 'hist:keys=next_pid:vals=prev_prio' >events/sched/sched_switch/trigger; }
s2_off() { echo '!hist:keys=next_pid:vals=prev_prio' >>events/sched/sched_switch/trigger; }
s2_hist=events/sched/sched_switch/hist

S3_WAKE='hist:keys=pid:ts0=common_timestamp.usecs'
S3_SWITCH='hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_wakeup).wakeup_latency($wakeup_lat,next_pid,next_prio)'
S3_SYNTH='hist:keys=pid,lat:sort=pid,lat'
s3_on() {
	echo 'wakeup_latency u64 lat; pid_t pid; int prio' >synthetic_events
	echo "$S3_WAKE" >events/sched/sched_wakeup/trigger
	echo "$S3_SWITCH" >events/sched/sched_switch/trigger
	echo "$S3_SYNTH" >events/synthetic/wakeup_latency/trigger
}
s3_off() {
	echo "!$S3_SYNTH" >>events/synthetic/wakeup_latency/trigger
	echo "!$S3_SWITCH" >>events/sched/sched_switch/trigger
	echo "!$S3_WAKE" >>events/sched/sched_wakeup/trigger
	echo '!wakeup_latency u64 lat; pid_t pid; int prio' >>synthetic_events
}
# Events: the wakeups saved, the switches that matched one and the
# synthetic events generated.
s3_hist="events/sched/sched_switch/hist events/sched/sched_wakeup/hist events/synthetic/wakeup_latency/hist"

# 400 distinct write sizes, 128 entries: most events take the drop path.
# (Keys that don't depend on pids, which differ between the kernels.)
s4_on() { echo 'hist:keys=count:size=128' >events/syscalls/sys_enter_write/trigger; }
s4_off() { echo '!hist:keys=count:size=128' >>events/syscalls/sys_enter_write/trigger; }
s4_hist=events/syscalls/sys_enter_write/hist
# The same trigger with 100 write sizes: every event finds its entry (the
# hit path, to set scenario 4's drop path against).
s4h_on() { s4_on; }
s4h_off() { s4_off; }
s4h_hist=$s4_hist

# Profile mode (ie.prof=1): instead of timing, sample the workload with
# the scenario's triggers on (cpu-clock, which under -icount counts
# instructions: a sample every 10000) and print the flat profile by
# symbol, "PROF <scenario> <line>".
profile() { # scenario workload...
	s=$1
	shift
	"${s}_on" || fail "$s: setup failed"
	perf record -q -e cpu-clock -c 10000 -a -o /tmp/$s.data -- "$@" \
		>/dev/null 2>/tmp/$s.err || fail "$s: perf record: $(cat /tmp/$s.err)"
	"${s}_off" || fail "$s: teardown failed"
	perf report -i /tmp/$s.data --stdio --no-children --sort sym \
		--percent-limit 0.3 2>/dev/null | grep -v '^#$' |
		grep -v '^# [^S]' | grep . | sed "s/^/PROF $s /"
	rm -f /tmp/$s.data
}

measure() { # scenario workload...
	s=$1
	shift
	case ",${only:-$s}," in
	*,$s,*) ;;
	*) return 0 ;;
	esac
	if [ -n "$prof" ]; then
		profile "$s" "$@"
		return 0
	fi
	eval "hist=\$${s}_hist"
	# A scenario whose triggers count nothing (paused, or none at
	# all) is divided by the events of the scenario it shadows.
	eval "evof=\${${s}_evof:-}"
	i=0
	while [ $i -le "$reps" ]; do
		base=$("$@") || fail "$s: workload failed"
		"${s}_on" || fail "$s: setup failed"
		trig=$("$@") || fail "$s: workload failed"
		# shellcheck disable=SC2086
		if [ -n "$evof" ]; then
			eval "ev=\${last_ev_$evof:-}"
			[ -n "$ev" ] || fail "$s: measure $evof first (ie.only=$evof,$s)"
		else
			ev=$(events_of $hist)
		fi
		"${s}_off" || fail "$s: teardown failed"
		[ "$(grep -cv '^#' "$(dirname "${hist%% *}")/trigger")" = 0 ] ||
			fail "$s: triggers left behind"
		[ ! -s synthetic_events ] || fail "$s: synthetic events left behind"
		# Round 0 warms caches and the page allocator; it isn't reported.
		[ $i -gt 0 ] && echo "BENCH $s $i $base $trig $ev"
		eval "last_ev_$s=\$ev"
		i=$((i + 1))
	done
}

# Scenario 5, ours only (the stock kernel has no .percentiles): the
# wakeup-latency pipeline whose synthetic event's histogram keeps the
# percentiles of the latency per task (s5), and the same pipeline with
# the latency summed instead (s5n): the ratio is what the sketch costs.
S5_SYNTH='hist:keys=pid:vals=hitcount,lat.percentiles'
S5N_SYNTH='hist:keys=pid:vals=hitcount,lat'
s5_pipeline() { # on|off synth-trigger
	if [ "$1" = on ]; then
		echo 'wakeup_latency u64 lat; pid_t pid; int prio' >synthetic_events
		echo "$S3_WAKE" >events/sched/sched_wakeup/trigger
		echo "$S3_SWITCH" >events/sched/sched_switch/trigger
		echo "$2" >events/synthetic/wakeup_latency/trigger
	else
		echo "!$2" >>events/synthetic/wakeup_latency/trigger
		echo "!$S3_SWITCH" >>events/sched/sched_switch/trigger
		echo "!$S3_WAKE" >>events/sched/sched_wakeup/trigger
		echo '!wakeup_latency u64 lat; pid_t pid; int prio' >>synthetic_events
	fi
}
s5_on() { s5_pipeline on "$S5_SYNTH"; }
s5_off() { s5_pipeline off "$S5_SYNTH"; }
s5_hist=$s3_hist
s5n_on() { s5_pipeline on "$S5N_SYNTH"; }
s5n_off() { s5_pipeline off "$S5N_SYNTH"; }
s5n_hist=$s3_hist

# Eight hist triggers on sched_switch with different keys (numbers,
# pairs, a string): the events counted are the hits of all eight, so the
# cost is per trigger and event.
S6_TRIGGERS='hist:keys=next_pid
hist:keys=prev_pid
hist:keys=next_prio
hist:keys=prev_prio
hist:keys=prev_state
hist:keys=next_pid,prev_pid
hist:keys=prev_pid,prev_prio
hist:keys=next_comm'
s6_on() {
	echo "$S6_TRIGGERS" | while read -r t; do
		echo "$t" >>events/sched/sched_switch/trigger || return 1
	done
}
s6_off() {
	echo "$S6_TRIGGERS" | while read -r t; do
		echo "!$t" >>events/sched/sched_switch/trigger || return 1
	done
}
s6_hist=$s2_hist

# The floor of scenarios 1 to 4 (p1 to p4; after them): the same
# trigger paused.  The event's record is still built and the trigger
# list walked, but no histogram is touched: what every hist trigger
# costs before its own work.  And the cost of recording the event into
# the ring buffer with no trigger (r2,r4; a trace_marker write records
# its event anyway).
p1_on() { echo 'hist:keys=common_pid:pause' >events/ftrace/print/trigger; }
p1_off() { echo '!hist:keys=common_pid' >>events/ftrace/print/trigger; }
p1_hist=$s1_hist
p1_evof=s1
p2_on() { echo 'hist:keys=next_pid:vals=prev_prio:pause' >events/sched/sched_switch/trigger; }
p2_off() { echo '!hist:keys=next_pid:vals=prev_prio' >>events/sched/sched_switch/trigger; }
p2_hist=$s2_hist
p2_evof=s2
# Scenario 3's triggers paused: no synthetic event is generated, so its
# floor is the wakeup's and the switch's only.  Ours includes the event
# state a stateful trigger's event keeps while the trigger is paused
# (ie_event_begin() and ie_event_end()).
p3_on() {
	echo 'wakeup_latency u64 lat; pid_t pid; int prio' >synthetic_events
	echo "$S3_WAKE:pause" >events/sched/sched_wakeup/trigger
	echo "$S3_SWITCH:pause" >events/sched/sched_switch/trigger
	echo "$S3_SYNTH:pause" >events/synthetic/wakeup_latency/trigger
}
p3_off() { s3_off; }
p3_hist=$s3_hist
p3_evof=s3
p4_on() { echo 'hist:keys=count:size=128:pause' >events/syscalls/sys_enter_write/trigger; }
p4_off() { echo '!hist:keys=count:size=128' >>events/syscalls/sys_enter_write/trigger; }
p4_hist=$s4_hist
p4_evof=s4
r2_on() { echo 1 >events/sched/sched_switch/enable; }
r2_off() { echo 0 >events/sched/sched_switch/enable; }
r2_hist=$s2_hist
r2_evof=s2
r4_on() { echo 1 >events/syscalls/sys_enter_write/enable; }
r4_off() { echo 0 >events/syscalls/sys_enter_write/enable; }
r4_hist=$s4_hist
r4_evof=s4
measure s1 iebench marker "$markers"
measure s2 iebench pingpong "$rounds"
measure s3 iebench pingpong "$rounds"
measure s4 iebench writes "$markers" 400
measure s4h iebench writes "$markers" 100
measure s6 iebench pingpong "$rounds"
measure p1 iebench marker "$markers"
measure p2 iebench pingpong "$rounds"
measure p3 iebench pingpong "$rounds"
measure p4 iebench writes "$markers" 400
measure r2 iebench pingpong "$rounds"
measure r4 iebench writes "$markers" 400
# Scenarios 2 and 3 on all CPUs at once (s2p, s3p: rig/bench.sh's boot
# with several vCPUs, ie.only=s2p,s3p): a ping-pong pair pinned to each
# CPU, every CPU hitting the same histograms.
s2p_on() { s2_on; }
s2p_off() { s2_off; }
s2p_hist=$s2_hist
s3p_on() { s3_on; }
s3p_off() { s3_off; }
s3p_hist=$s3_hist
ncpu=$(nproc)
if [ "$ncpu" -gt 1 ]; then
	measure s2p iebench pingpongs "$rounds" "$ncpu"
	measure s3p iebench pingpongs "$rounds" "$ncpu"
fi
if grep -q 'inter-event hist triggers' README; then
	measure s5 iebench pingpong "$rounds"
	measure s5n iebench pingpong "$rounds"
fi
# The BPF peer (b2, b3, b4; ours only, as BPF's cost does not depend on
# the hist triggers): scenarios 2, 3 and 4 as tracepoint programs
# updating hash maps (rig/bench/iebpf.bpf.c), loaded and attached by
# iebpf for the workload's run.  Its events are the maps' hits and the
# drops.  The programs read the records at these offsets:
bpf_layout_ok() {
	grep -q 'field:int prev_prio;.*offset:28;' events/sched/sched_switch/format &&
		grep -q 'field:pid_t next_pid;.*offset:56;' events/sched/sched_switch/format &&
		grep -q 'field:pid_t pid;.*offset:24;' events/sched/sched_wakeup/format &&
		grep -q 'field:size_t count;.*offset:32;' events/syscalls/sys_enter_write/format
}
measure_bpf() { # scenario prefix workload...
	s=$1
	p=$2
	shift 2
	case ",${only:-$s}," in
	*,$s,*) ;;
	*) return 0 ;;
	esac
	bpf_layout_ok || fail "$s: a record's layout is not the BPF programs'"
	i=0
	while [ $i -le "$reps" ]; do
		base=$("$@") || fail "$s: workload failed"
		out=$(iebpf /usr/lib/iebpf.bpf.o "$p" "$@") || fail "$s: iebpf failed"
		[ $i -gt 0 ] && echo "BENCH $s $i $base $out"
		i=$((i + 1))
	done
}
if [ -x /usr/bin/iebpf ] && grep -q 'inter-event hist triggers' README; then
	measure_bpf b2 b2 iebench pingpong "$rounds"
	measure_bpf b3 b3 iebench pingpong "$rounds"
	measure_bpf b4 b4 iebench writes "$markers" 400
fi

# Breakdown of scenario 3 (ie.only=s3a,s3b,s3c): the wakeup trigger
# alone, plus the switch trigger's reference, plus onmatch().
s3a_on() { echo "$S3_WAKE" >events/sched/sched_wakeup/trigger; }
s3a_off() { echo "!$S3_WAKE" >>events/sched/sched_wakeup/trigger; }
s3a_hist=events/sched/sched_wakeup/hist
S3_REF='hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0'
s3b_on() { s3a_on; echo "$S3_REF" >events/sched/sched_switch/trigger; }
s3b_off() { echo "!$S3_REF" >>events/sched/sched_switch/trigger; s3a_off; }
s3b_hist="events/sched/sched_switch/hist events/sched/sched_wakeup/hist"
s3c_on() {
	echo 'wakeup_latency u64 lat; pid_t pid; int prio' >synthetic_events
	s3a_on
	echo "$S3_SWITCH" >events/sched/sched_switch/trigger
}
s3c_off() {
	echo "!$S3_SWITCH" >>events/sched/sched_switch/trigger
	s3a_off
	echo '!wakeup_latency u64 lat; pid_t pid; int prio' >>synthetic_events
}
s3c_hist="events/sched/sched_switch/hist events/sched/sched_wakeup/hist"
# Breakdown of scenario 4 (ie.only=s4b,s4c): the same keys in a map
# large enough, and a single key.
s4b_on() { echo 'hist:keys=count:size=2048' >events/syscalls/sys_enter_write/trigger; }
s4b_off() { echo '!hist:keys=count:size=2048' >>events/syscalls/sys_enter_write/trigger; }
s4b_hist=$s4_hist
s4c_on() { echo 'hist:keys=fd' >events/syscalls/sys_enter_write/trigger; }
s4c_off() { echo '!hist:keys=fd' >>events/syscalls/sys_enter_write/trigger; }
s4c_hist=$s4_hist
if [ -n "$only" ]; then
	measure s3a iebench pingpong "$rounds"
	measure s3b iebench pingpong "$rounds"
	measure s3c iebench pingpong "$rounds"
	measure s4b iebench writes "$markers" 400
	measure s4c iebench writes "$markers" 400
fi
# Reading (r1): one full read of a hist file of about 32768 entries, two
# numeric keys sorted by a value; CPU time of the reading thread, so that
# with a writer running (r1busy: every event a hit of an entry already
# there) the events' own cost is not counted.  "READ <scenario> <rep>
# <ns> <bytes> <entries>".
R1_TRIG='hist:keys=fd,count:vals=hitcount:sort=hitcount:size=65536'
R1_FILE=events/syscalls/sys_enter_write
read_bench() {
	case ",${only:-r1}," in
	*,r1,*) ;;
	*) return 0 ;;
	esac
	echo "$R1_TRIG" >$R1_FILE/trigger || fail "r1: setup failed"
	iebench writes 32768 32768 >/dev/null || fail "r1: workload failed"
	ents=$(awk '/^    Entries:/ { print $2 }' $R1_FILE/hist)
	[ "${ents:-0}" -ge 32768 ] || fail "r1: $ents entries"
	for s in r1 r1busy; do
		w=
		if [ $s = r1busy ]; then
			iebench writes 2000000000 32768 >/dev/null &
			w=$!
		fi
		i=0
		while [ $i -le "$reps" ]; do
			t=$(iebench read $R1_FILE/hist) || fail "$s: read failed"
			[ $i -gt 0 ] && echo "READ $s $i $t $ents"
			i=$((i + 1))
		done
		if [ -n "$w" ]; then
			kill "$w"
			wait "$w" 2>/dev/null
		fi
	done
	echo "!$R1_TRIG" >>$R1_FILE/trigger || fail "r1: teardown failed"
}

# Memory (m1: default size, m2: size=65536) of one idle trigger, in KiB
# before and after it is added: the free pages, counting those kept on
# the per-CPU lists (tracing_map's page arrays show nowhere else), then
# meminfo's Slab (large kmalloc included), VmallocUsed and Percpu:
# "MEM <scenario> <rep> free slab vmalloc percpu (before) ... (after)".
mem_of() {
	echo 1 >/proc/sys/vm/stat_refresh 2>/dev/null
	free=$(awk '/^  pages free/ { f += $3 } /^ *count:/ { c += $2 }
		    END { print (f + c) * 4 }' /proc/zoneinfo)
	awk -v f="$free" '/^Slab:/ { s = $2 } /^VmallocUsed:/ { v = $2 }
	     /^Percpu:/ { p = $2 } END { print f, s, v, p }' /proc/meminfo
}
mem_bench() { # scenario trigger
	case ",${only:-$1}," in
	*,$1,*) ;;
	*) return 0 ;;
	esac
	i=0
	while [ $i -le "$reps" ]; do
		sync
		echo 3 >/proc/sys/vm/drop_caches
		before=$(mem_of)
		echo "$2" >events/ftrace/print/trigger || fail "$1: setup failed"
		after=$(mem_of)
		echo "!$2" >>events/ftrace/print/trigger || fail "$1: teardown failed"
		[ $i -gt 0 ] && echo "MEM $1 $i $before $after"
		i=$((i + 1))
	done
}
read_bench
mem_bench m1 'hist:keys=common_pid'
mem_bench m2 'hist:keys=common_pid:size=65536'
echo "BENCH-DONE"
