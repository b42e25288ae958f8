#!/bin/sh
# Run ftracetest suites listed in /ie/suites ("NAME DIR" per line, DIR a
# folder or one .tc file), the tests in a few ftracetest invocations (see
# run_batch).  Prints "IE-START suite file" before a test and
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
FIFO=/tmp/ie-fifo

# A test that ftracetest runs twice, the second time in an instance.
on_instance() { grep -q "^#[ \t]*flags:.*instance" "$1"; }

# Stall watchdog: after $STALL s, what $1 names is hung: a task dump, and
# process group $2 is killed.  With $3, the reader of the FIFO is told
# so, on a line of its own (a task in D state may hold the FIFO open, and
# EOF never come; ftracetest's "[N] description" waits for its status).
wd_start() { # what pgid [fifo]
	rm -f /tmp/ie-hung
	# shellcheck disable=SC2016 # the script's own parameters
	setsid sh -c 'sleep "$1"
		kill -0 -"$3" 2>/dev/null || exit 0
		touch /tmp/ie-hung
		echo "IE-HUNG $2: no result after $1 s; task dump on the console"
		echo "ie-rig: task dump begin" >/dev/kmsg
		echo t >/proc/sysrq-trigger; echo w >/proc/sysrq-trigger
		echo "ie-rig: task dump end" >/dev/kmsg
		kill -TERM -"$3"
		sleep 2
		kill -KILL -"$3"
		[ -z "$4" ] || printf "\nIE-WATCHDOG\n" >"$4"' \
		wd "$STALL" "$1" "$2" "${3:+$FIFO}" >&2 &
	wp=$!
}
wd_stop() {
	# The watchdog may not have made its group yet: stop it both ways.
	kill -KILL -$wp $wp 2>/dev/null
	wait $wp 2>/dev/null
}
# Wait for process $1; once the watchdog has fired, 10 s at most: a task
# in D state can't be killed, and the kernel is then wedged.
reap() {
	if [ ! -e /tmp/ie-hung ]; then
		wait "$1"
		return 0
	fi
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		kill -0 "$1" 2>/dev/null || { wait "$1"; return 0; }
		sleep 1
	done
	wedged=1
	return 1
}
# Centiseconds since boot, without a fork.
now() { read -r up _ </proc/uptime; t=${up%.*}${up#*.}; }
test_start() { # suite=test
	echo "IE-START ${1%%=*} ${1#*=}"
	# The same in the kernel log: its reports (KCSAN) go by test.
	echo "ie-test: START ${1%%=*} ${1#*=}" >/dev/kmsg 2>/dev/null
	now
	t0=$t
	late=''
	wd_start "${1#*=}" "$tp" fifo
}
# The records of hist reads made so far (rig/guest/iehistaudit.c).
audit_records() {
	recs=
	for r in /tmp/ie-audit/r.*[0-9]; do
		[ -e "$r" ] && recs="$recs $r"
	done
	# shellcheck disable=SC2086 # a list of files
	[ -z "$recs" ] || { cat $recs; rm -f $recs; }
}
# Print the last lines of log files $2 (globs) of test $1 (suite=test),
# as a failed test's log.
print_log() {
	echo "IE-LOG-BEGIN ${1%%=*} ${1#*=}"
	for f in $2; do
		[ -e "$f" ] && tail -n 40 "$f" | cut -c1-240
	done
	echo "IE-LOG-END"
}
# Report test $1 (suite=test), status $2, its logs in $3 (files).
test_end() {
	wd_stop
	now
	# The watchdog fired as the result came: it killed ftracetest.
	if [ -e /tmp/ie-hung ] && [ "$2" != HUNG ]; then
		set -- "$1" HUNG "$3"
		late=1
	fi
	echo "IE-RESULT ${1%%=*} ${1#*=} $2 $(((t - t0 + 50) / 100))"
	audit_records
	# Counts a test chose to report (reliability tests), and hist_json
	# documents for the host to check (rig/histjson.py).
	# shellcheck disable=SC2086 # $3: globs
	[ -z "$3" ] || grep -h '^IE-\(SUMMARY\|JSON\|JSONTXT\) ' $3 2>/dev/null
	case $2 in
	PASS|UNSUPPORTED|XFAIL) ;;
	*) print_log "$1" "$3" ;;
	esac
}
# The status in ftracetest's result line $1, in $st (empty if none).
status_of() {
	case $1 in
	*'[PASS]') st=PASS ;;
	*'[FAIL]') st=FAIL ;;
	*'[UNRESOLVED]') st=UNRESOLVED ;;
	*'[UNTESTED]') st=UNTESTED ;;
	*'[UNSUPPORTED]') st=UNSUPPORTED ;;
	*'[XFAIL]') st=XFAIL ;;
	*'[UNDEFINED]') st=ERROR ;;
	*) st= ;;
	esac
}
# The worse of statuses $1 and $2, in $st.
worse() {
	for st in HUNG ERROR FAIL UNRESOLVED UNTESTED UNSUPPORTED XFAIL PASS; do
		[ "$1" != $st ] && [ "$2" != $st ] || return 0
	done
}

# What tests leave behind that ftracetest's reset can't remove in one
# pass (a trigger still referenced from an event listed after it), as
# ftracetest's end and the next start did when each test ran alone, and
# instances, which it does not reset.  Under the watchdog: a hang here
# counts as rig/reset HUNG; triggers, synthetic or dynamic events left
# after three passes as rig/reset FAIL.
cleanup() {
	# shellcheck disable=SC1091,SC2016 # the guest's copy; its own script
	setsid sh -c 'cd /sys/kernel/tracing && . /ftrace/test.d/functions &&
		for _ in 1 2 3; do
			for i in instances/*; do
				[ -d "$i" ] || continue
				(cd "$i" && initialize_ftrace)
				rmdir "$i"
			done
			initialize_ftrace
		done >/dev/null 2>&1
		grep -Hv "^#" events/*/*/trigger synthetic_events dynamic_events
		ls -d instances/* 2>/dev/null
		exit 0' >/tmp/ie-left 2>&1 &
	cp=$!
	wd_start "reset after $prev" $cp
	reap $cp
	wd_stop
	if [ -e /tmp/ie-hung ]; then
		echo "IE-RESULT own rig/reset HUNG $STALL"
		rm -f /tmp/ie-hung
	elif [ -s /tmp/ie-left ]; then
		echo "IE-RESULT own rig/reset FAIL 0"
		echo "IE-LOG-BEGIN own rig/reset"
		echo "left after three resets, after $prev:"
		head -n 20 /tmp/ie-left
		echo "IE-LOG-END"
	fi
}

# Run tests (suite=file ...) in one ftracetest: its start and end cost
# more than a small test (1-2 s each on TCG, 10 on the debug kernel).
# Results are read as ftracetest prints them, so the watchdog and the
# kernel log's markers go by test (a test's leftovers are removed by the
# next one's reset, though, and a hang there is the next one's).
#
# ftracetest stops at a failure (--stop-fail); the rest run in a new one,
# after a reset in three passes.  A test whose reset failed, before its
# own lines ran, after another test in the same ftracetest runs again
# alone: that test left what a one-pass reset can't remove (a trigger
# referenced from an event listed after it); the "IE-RESETFAIL" line
# names both, and the host fails the run on it.  A test with an instance run is given alone; the worse of
# its two runs counts.
bn=0 late='' wedged=''
mkdir -p /tmp/ie-audit
run_batch() {
	solo='' prev=''
	while [ $# -gt 0 ]; do
		if [ -n "$wedged" ]; then
			# A hung task could not be killed: the rest would hang.
			echo "IE-RESULT ${1%%=*} ${1#*=} ERROR 0"
			echo "IE-LOG-BEGIN ${1%%=*} ${1#*=}"
			echo "not run: a hung task could not be killed"
			echo "IE-LOG-END"
			shift
			continue
		fi
		bn=$((bn + 1))
		ld=/tmp/logs/b$bn
		mkdir -p $ld
		stop=--stop-fail
		if [ -n "$solo" ]; then
			tcs=${1#*=} left=1 solo=''
		else
			tcs=
			for x in "$@"; do tcs="$tcs ${x#*=}"; done
			left=$#
		fi
		# Alone: no test after it to stop for (and the instance run).
		[ $left -gt 1 ] || stop=''
		rm -f $FIFO
		mkfifo $FIFO
		# shellcheck disable=SC2086
		PATH=/ie/audit:$PATH setsid ./ftracetest -k $stop --fail-unresolved \
			-l $ld $tcs >$FIFO 2>&1 &
		tp=$!
		k=0 ran=0 first='' stopped=''
		test_start "$1"
		while read -r line <&3; do
			case $line in
			*IE-WATCHDOG) break ;;
			esac
			# A result: "[N] description<TAB>[STATUS]", N the next.
			case $line in
			"[$((k + 1))]"*) ;;
			*) continue ;;
			esac
			status_of "$line"
			[ -n "$st" ] || continue
			k=$((k + 1))
			if [ $left -eq 0 ] || [ -n "$stopped" ]; then
				continue
			fi
			if [ -z "$first" ] && on_instance "${1#*=}"; then
				first=$st	# the instance run follows
				continue
			fi
			log="$ld/$k-$(basename "${1#*=}")-log.*"
			if [ -n "$first" ]; then
				worse "$first" "$st"
				first=''
				log="$ld/*-log.*"
			fi
			case $st$stop in
			FAIL--stop-fail | UNRESOLVED--stop-fail | ERROR--stop-fail)
				# Its reset ran and its own lines did not.
				# shellcheck disable=SC2086 # $log: a glob
				if [ $ran -gt 0 ] && grep -q '^+ initialize_ftrace$' $log &&
					! grep -q '^+ \. /' $log; then
					echo "IE-SUMMARY batch: ${1#*=}: ftracetest's reset failed after $prev; runs again alone"
					echo "IE-RESETFAIL $prev ${1#*=}"
					print_log "$1" "$log"
					solo=1
					wd_stop
				else
					test_end "$1" $st "$log"
					prev=${1#*=}
					shift
					left=$((left - 1))
				fi
				stopped=1
				wd_start "ftracetest's end after $prev" "$tp" fifo
				continue
				;;
			esac
			test_end "$1" $st "$log"
			ran=$((ran + 1))
			prev=${1#*=}
			shift
			left=$((left - 1))
			if [ -n "$late" ]; then
				late=''
				stopped=1
			elif [ $left -gt 0 ]; then
				test_start "$1"
			else
				wd_start "ftracetest's end after $prev" "$tp" fifo
			fi
		done 3<$FIFO
		wd_stop
		hung=''
		if [ -e /tmp/ie-hung ]; then
			hung=1
			rm -f /tmp/ie-hung
			kill -KILL -$tp 2>/dev/null
		fi
		reap $tp
		audit_records
		rm -f /tmp/ie-audit/r.*.tmp
		if [ $left -gt 0 ] && [ -z "$stopped" ]; then
			# ftracetest ended before test $1 did.
			st=ERROR
			[ -z "$hung" ] || st=HUNG
			[ -z "$first" ] || worse "$first" $st
			test_end "$1" $st "$ld/*-$(basename "${1#*=}")-log.* $ld/ftracetest.log"
			prev=${1#*=}
			shift
			stopped=1
		elif [ -n "$hung" ]; then
			echo "IE-RESULT own rig/reset HUNG $STALL"
			stopped=1
		fi
		if [ -n "$stopped" ] && [ -z "$wedged" ]; then
			cleanup
		fi
	done
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
batch=
while read -r suite dir; do
	[ -n "$suite" ] || continue
	for tc in $(find "$dir" -name '*.tc' | sort); do
		if on_instance "$tc"; then
			# shellcheck disable=SC2086
			run_batch $batch
			batch=
			run_batch "$suite=$tc"
		else
			batch="$batch $suite=$tc"
		fi
	done
done </ie/suites
# shellcheck disable=SC2086
run_batch $batch

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
