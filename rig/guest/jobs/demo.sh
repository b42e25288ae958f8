#!/bin/sh
# The cover letter's first example, "Example - wakeup latency", verbatim
# (paths under /sys/kernel/debug/tracing), with cyclictest for a few
# seconds, then the synthetic event's histogram.
T=/sys/kernel/debug/tracing
status=0

run() { # shell command, echoed first
	echo "# $1"
	if ! sh -c "$1"; then
		echo "  -> failed"
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

echo "# cyclictest -p 80 -s -t 2 -D 4 -q   (-n dropped: rt-tests 2.4 default)"
cyclictest -p 80 -s -t 2 -D 4 -q

echo "# cat /sys/kernel/debug/tracing/events/synthetic/wakeup_latency/hist"
cat $T/events/synthetic/wakeup_latency/hist || status=1
if [ -n "$(cat $T/error_log)" ]; then
	echo "# cat /sys/kernel/debug/tracing/error_log"
	cat $T/error_log
fi
exit $status
