#!/bin/sh
# Run ftracetest suites listed in /ie/suites ("NAME DIR" per line, DIR a
# folder or one .tc file), one ftracetest invocation per .tc file, so each
# result maps to its file.  Prints "IE-START suite file" before a test and
# "IE-RESULT suite file status seconds" after it, the logs of failed
# tests, and the kernel log (KUnit results, splats) at the end.
#
# A test still running after IE_STALL_S seconds is hung: the kernel is
# asked for a task dump (sysrq t and w, to the console), the test's
# process group is killed and it counts as HUNG.
cd /ftrace || exit 1
ver=$(uname -r)
echo "kernel $ver, cpus $(nproc)"
STALL=${IE_STALL_S:-600}

# Run test $1 with log folder $2; print its exit status, 999 when hung.
run_tc() { # tc logdir
	setsid ./ftracetest -k -l "$2" "$1" >"$2/out" 2>&1 &
	tp=$!
	rm -f /tmp/ie-hung
	# The watchdog: only a test still running is hung.
	setsid sh -c "sleep $STALL
		kill -0 -$tp 2>/dev/null || exit 0
		touch /tmp/ie-hung
		echo 'IE-HUNG $1: no result after ${STALL}s; task dump on the console'
		echo 'ie-rig: task dump begin' >/dev/kmsg
		echo t >/proc/sysrq-trigger; echo w >/proc/sysrq-trigger
		echo 'ie-rig: task dump end' >/dev/kmsg
		kill -TERM -$tp" >&2 &
	wp=$!
	wait $tp
	rc=$?
	# The watchdog may not have made its group yet: stop it both ways.
	kill -KILL -$wp $wp 2>/dev/null
	wait $wp 2>/dev/null
	if [ -e /tmp/ie-hung ]; then
		# What TERM left of the test's group goes now.
		sleep 2
		kill -KILL -$tp 2>/dev/null
		rc=999
	fi
	echo $rc
}
# Boot-time tracing (rig/guest/boot.bconf, when the rig booted with it):
# save what it set up and recorded, as files for boot-config.tc, before
# any test resets the tracing files, and remove it (triggers before the
# variables they refer to), so that the tests start from a clean state.
boot_capture() (
	d=/tmp/ie-boot
	grep -q ie_boot_lat /proc/bootconfig 2>/dev/null || return 0
	cd /sys/kernel/tracing || return 0
	mkdir -p $d
	cat /proc/bootconfig >$d/bootconfig
	cat synthetic_events >$d/synthetic_events
	# Triggers run on with tracing off (on a scratch record): the
	# synthetic event's histograms and its records agree only if its
	# generation (the sched_switch trigger) stops before the trace does.
	for e in sched/sched_switch sched/sched_waking synthetic/ie_boot_lat; do
		cat events/$e/trigger >$d/${e#*/}.trigger
		cat events/$e/hist >$d/${e#*/}.hist
		grep -v '^#' events/$e/trigger | sed 's/ \[.*\]$//; s/ if .*//' |
			while read -r t; do
				echo "!$t" >>events/$e/trigger ||
					echo "boot-config: could not remove $e: $t"
			done
	done
	echo 0 >tracing_on
	cat trace >$d/trace
	for c in per_cpu/cpu*; do
		echo "${c#per_cpu/} $(grep '^overrun:' $c/stats)"
	done >$d/overrun
	dmesg >$d/dmesg
	echo 0 >events/enable
	echo '!ie_boot_lat' >>synthetic_events ||
		echo "boot-config: could not remove ie_boot_lat"
	# What is left (boot-config.tc requires nothing), and a marker line.
	{
		echo "after removal:"
		cat events/sched/sched_switch/trigger events/sched/sched_waking/trigger \
			synthetic_events
	} >$d/after
	echo >trace
	echo 1 >tracing_on
	echo "boot-config: saved in $d"
)
boot_capture
while read -r suite dir; do
	[ -n "$suite" ] || continue
	for tc in $(find "$dir" -name '*.tc' | sort); do
		logdir=/tmp/logs/$suite/$(basename "$tc" .tc)
		mkdir -p "$logdir"
		echo "IE-START $suite $tc"
		# The same in the kernel log: its reports (KCSAN) go by test.
		echo "ie-test: START $suite $tc" >/dev/kmsg 2>/dev/null
		t0=$(date +%s)
		rc=$(run_tc "$tc" "$logdir")
		t1=$(date +%s)
		st=$(sed -n 's/.*\[\(PASS\|FAIL\|UNRESOLVED\|UNTESTED\|UNSUPPORTED\|XFAIL\)\].*/\1/p' \
			"$logdir/out" | head -n 1)
		[ $rc = 999 ] && st=HUNG
		[ -n "$st" ] || st=ERROR
		echo "IE-RESULT $suite $tc $st $((t1 - t0))"
		# Counts a test chose to report (reliability tests), and
		# hist_json documents for the host to check (rig/histjson.py).
		find "$logdir" -name '*-log.*' -exec grep -h '^IE-\(SUMMARY\|JSON\|JSONTXT\) ' {} + 2>/dev/null
		case $st in
		PASS|UNSUPPORTED|XFAIL) ;;
		*)
			echo "IE-LOG-BEGIN $suite $tc"
			grep -v '^# of ' "$logdir/out" | cut -c1-240
			find "$logdir" -name '*-log.*' \
				-exec tail -n 40 {} \; | cut -c1-240
			echo "IE-LOG-END"
			;;
		esac
	done
done </ie/suites

# Debug kernel: after the suites, ask kmemleak for leaks.  Objects younger
# than 5 s are not reported and the first scan only checksums them, hence
# the pause and the second scan.  A leak allocated by inter_event code
# (ie_* functions) fails the run; the others are listed for information
# (a new leak also shows as a kmemleak splat in the console log).
kml=/sys/kernel/debug/kmemleak
if [ -w $kml ]; then
	t0=$(date +%s)
	st=PASS
	if echo scan >$kml 2>/dev/null; then
		sleep 6
		echo scan >$kml
		cat $kml >/tmp/kmemleak
		ours=$(awk '
			/^unreferenced object/ { if (rec && ours) n++; rec = 1; ours = 0; next }
			/[[:space:]]ie_[a-z_0-9]+\+|inter_event/ { ours = 1 }
			END { if (rec && ours) n++; print n + 0 }' /tmp/kmemleak)
		all=$(grep -c '^unreferenced object' /tmp/kmemleak)
		echo "IE-SUMMARY kmemleak: $all suspected leaks, $ours allocated by inter_event code"
		[ "$ours" = 0 ] || st=FAIL
		if [ "$all" != 0 ]; then
			echo "IE-LOG-BEGIN own rig/kmemleak"
			head -n 200 /tmp/kmemleak
			echo "IE-LOG-END"
		fi
	else
		st=ERROR	# kmemleak disabled itself (see the kernel log)
	fi
	echo "IE-RESULT own rig/kmemleak $st $(($(date +%s) - t0))"
fi
# KCSAN kernel: its counters (watchpoints set up, data races seen), to
# show that it watched.
if [ -r /sys/kernel/debug/kcsan ]; then
	echo "IE-SUMMARY kcsan: $(sed -n 's/^\([a-z_]*\): \([0-9-]*\)$/\1 \2/p' \
		/sys/kernel/debug/kcsan | tr '\n' ',' | sed 's/,$//; s/,/, /g')"
fi
echo "IE-DMESG-BEGIN"
dmesg
echo "IE-DMESG-END"
