#!/bin/sh
# The cover letter's three examples, verbatim (paths under
# /sys/kernel/debug/tracing), each with cyclictest for a few seconds, then
# their histograms.  The onmax() maxima are checked against the
# wakeup_latency histogram of the same run.
T=/sys/kernel/debug/tracing
status=0

run() { # shell command, echoed first
	echo "# $1"
	if ! sh -c "$1"; then
		echo "  -> failed"
		status=1
	fi
}

show() { # file
	echo "# cat $1"
	cat "$1" || status=1
}

cyclic() {
	echo "# cyclictest -p 80 -s -t 2 -D 4 -q   (-n dropped: rt-tests 2.4 default)"
	cyclictest -p 80 -s -t 2 -D 4 -q
}

# Remove every trigger (those whose variables others use go last) and
# every synthetic event.
reset() {
	for pass in 1 2 3 4; do
		for f in $T/events/*/*/trigger; do
			grep -v '^#' "$f" 2>/dev/null | sed 's/ \[[a-z]*\]$//' |
			while read -r line; do
				echo "!$line" >> "$f" 2>/dev/null
			done
		done
	done
	: > $T/synthetic_events
	: > $T/error_log 2>/dev/null || echo > $T/error_log
}

errors() {
	if [ -n "$(cat $T/error_log)" ]; then
		echo "# cat /sys/kernel/debug/tracing/error_log"
		cat $T/error_log
		status=1
	fi
}

echo "=== Example - wakeup latency ==="
run "echo 'wakeup_latency lat=sched_switch:wakeup_lat \\
                       pid=sched_switch:woken_pid \\
                       prio=sched_switch:woken_prio' >> \\
        /sys/kernel/debug/tracing/synthetic_events"
run "echo 'hist:keys=pid:ts0=common_timestamp.usecs if \\
         comm==\"cyclictest\"' >> \\
         /sys/kernel/debug/tracing/events/sched/sched_wakeup/trigger"
run "echo 'hist:keys=woken_pid=next_pid:woken_prio=next_prio:\\
   wakeup_lat=common_timestamp.usecs-ts0:onmatch().trace(wakeup_latency) \\
        if next_comm==\"cyclictest\"' >> \\
        /sys/kernel/debug/tracing/events/sched/sched_switch/trigger"
run "echo 'hist:keys=pid,prio,lat:sort=pid,lat' >> \\
        /sys/kernel/debug/tracing/events/synthetic/wakeup_latency/trigger"
cyclic
show $T/events/synthetic/wakeup_latency/hist
errors

echo
echo "=== Example - wakeup latency, .log2 variant ==="
run "echo '!hist:keys=pid,prio,lat:sort=pid,lat' >> \\
        /sys/kernel/debug/tracing/events/synthetic/wakeup_latency/trigger"
run "echo 'hist:keys=pid,prio,lat.log2:sort=pid,lat' >> \\
        /sys/kernel/debug/tracing/events/synthetic/wakeup_latency/trigger"
cyclic
show $T/events/synthetic/wakeup_latency/hist
errors
run "echo '!hist:keys=pid,prio,lat.log2:sort=pid,lat' >> \\
        /sys/kernel/debug/tracing/events/synthetic/wakeup_latency/trigger"
run "echo 'hist:keys=pid,prio,lat:sort=pid,lat' >> \\
        /sys/kernel/debug/tracing/events/synthetic/wakeup_latency/trigger"

echo
echo "=== Example - wakeup latency with onmax() ==="
run "echo 'hist:keys=woken_pid=next_pid:woken_prio=next_prio: \\
        wakeup_lat=common_timestamp.usecs-ts0:\\
        onmax(wakeup_lat).save(next_comm,prev_pid,prev_prio,prev_comm) \\
        if next_comm==\"cyclictest\"' >> \\
        /sys/kernel/debug/tracing/events/sched/sched_switch/trigger"
cyclic
show $T/events/sched/sched_switch/hist
show $T/events/synthetic/wakeup_latency/hist
errors

# The onmax() section is the sched_switch histogram with max: lines.
awk '/^# event histogram/ { sec++ }
	$1 == "{" && $2 == "next_pid:" { pid = $3 }
	$1 == "max:" { print pid, $2 }' $T/events/sched/sched_switch/hist |
	sort > /tmp/onmax
awk '$1 == "{" && $2 == "pid:" {
		pid = $3; sub(/,/, "", pid); lat = $7
		if (!(pid in m) || lat + 0 > m[pid]) m[pid] = lat + 0
	}
	END { for (p in m) print p, m[p] }' \
	$T/events/synthetic/wakeup_latency/hist | sort > /tmp/maxlat
echo "# onmax() per pid:            $(tr '\n' ';' < /tmp/onmax)"
echo "# largest lat per pid (hist): $(tr '\n' ';' < /tmp/maxlat)"
if [ -s /tmp/onmax ] && cmp -s /tmp/onmax /tmp/maxlat; then
	echo "# CHECK: the onmax() maxima equal the largest latencies of the wakeup_latency histogram"
else
	echo "# CHECK FAILED: the onmax() maxima differ from the wakeup_latency histogram"
	status=1
fi

echo
echo "=== Example - combined wakeup and switchtime (wakeupswitch) latency ==="
reset
# Which sleep system call does cyclictest make here?
NS=sys_exit_nanosleep
if [ -d $T/events/syscalls/$NS ]; then
	echo 'hist:keys=common_pid if comm=="cyclictest"' >> $T/events/syscalls/$NS/trigger
	cyclictest -p 80 -s -t 2 -D 1 -q > /dev/null
	grep -q 'Hits: [1-9]' $T/events/syscalls/$NS/hist || NS=
	: > $T/events/syscalls/sys_exit_nanosleep/trigger
fi
if [ -z "$NS" ]; then
	NS=sys_exit_clock_nanosleep
	echo "# (sys_exit_nanosleep replaced by sys_exit_clock_nanosleep: cyclictest sleeps"
	echo "#  with clock_nanosleep(2) here, so sys_exit_nanosleep never fires)"
fi
ex3() { # command with sys_exit_nanosleep
	run "$(echo "$1" | sed "s/sys_exit_nanosleep/$NS/g")"
}
echo "# wakeup latency"
ex3 "echo 'wakeup_latency lat=sched_switch:ss_lat pid=sched_switch:ss_pid' >> /sys/kernel/debug/tracing/synthetic_events"
ex3 "echo 'hist:keys=pid:wakeup_ts=common_timestamp.usecs if comm==\"cyclictest\"' >> /sys/kernel/debug/tracing/events/sched/sched_wakeup/trigger"
ex3 "echo 'hist:keys=ss_pid=next_pid:ss_lat=common_timestamp.usecs-wakeup_ts:onmatch().trace(wakeup_latency) if next_comm==\"cyclictest\"' >> /sys/kernel/debug/tracing/events/sched/sched_switch/trigger"
ex3 "echo 'hist:keys=pid:wakeup_latency=lat:sort=pid' >> /sys/kernel/debug/tracing/events/synthetic/wakeup_latency/trigger"
ex3 "echo 'hist:keys=pid,lat:sort=pid,lat' >> /sys/kernel/debug/tracing/events/synthetic/wakeup_latency/trigger"
echo "# switchtime latency"
ex3 "echo 'switchtime_latency lat=sys_exit_nanosleep:ns_lat pid=sys_exit_nanosleep:ns_pid' >> /sys/kernel/debug/tracing/synthetic_events"
ex3 "echo 'hist:keys=next_pid:ss_ts=common_timestamp.usecs if next_comm==\"cyclictest\"' >> /sys/kernel/debug/tracing/events/sched/sched_switch/trigger"
ex3 "echo 'hist:key=ns_pid=common_pid:ns_lat=common_timestamp.usecs-ss_ts:onmatch().trace(switchtime_latency)' >> /sys/kernel/debug/tracing/events/syscalls/sys_exit_nanosleep/trigger"
ex3 "echo 'hist:keys=pid:switchtime_latency=lat:sort=pid' >> /sys/kernel/debug/tracing/events/synthetic/switchtime_latency/trigger"
ex3 "echo 'hist:keys=pid,lat:sort=pid,lat' >> /sys/kernel/debug/tracing/events/synthetic/switchtime_latency/trigger"
echo "# wakeupswitch latency"
ex3 "echo 'wakeupswitch_latency pid=sys_exit_nanosleep:ns_pid lat=sys_exit_nanosleep:wakeupswitch_lat' >> /sys/kernel/debug/tracing/synthetic_events"
ex3 "echo 'hist:key=common_pid:wakeupswitch_lat=wakeup_latency+switchtime_latency:onmatch().trace(wakeupswitch_latency)' >> /sys/kernel/debug/tracing/events/syscalls/sys_exit_nanosleep/trigger"
ex3 "echo 'hist:keys=pid,lat:sort=pid,lat' >> /sys/kernel/debug/tracing/events/synthetic/wakeupswitch_latency/trigger"
cyclic
for e in wakeup_latency switchtime_latency wakeupswitch_latency; do
	show $T/events/synthetic/$e/hist
done
errors

# tools/tracing/ielat on the same workload: per-interval p50/p99/p99.9
# per task, through hist_json's lossless take; its JSON goes to the host
# (IE-IELAT-JSON, base64), which draws the distribution.
echo "=== ielat: wakeup latency per interval (tools/tracing/ielat) ==="
reset
echo "# cyclictest -p 80 -s -t 2 -D 7 -q &"
cyclictest -p 80 -s -t 2 -D 7 -q > /dev/null &
cpid=$!
echo "# ielat -i 1 -n 5 -c cyclictest -j /tmp/ielat.json"
ielat -i 1 -n 5 -c cyclictest -j /tmp/ielat.json || status=1
wait $cpid
left=$(grep -v '^#' $T/synthetic_events $T/events/sched/sched_waking/trigger \
	$T/events/sched/sched_switch/trigger)
if [ -n "$left" ]; then
	echo "# ielat left behind: $left"
	status=1
fi
echo "IE-IELAT-JSON $(base64 < /tmp/ielat.json | tr -d '\n')"
errors
exit $status
