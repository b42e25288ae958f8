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

# A test that ftracetest runs twice, the second time in an instance.
on_instance() { grep -q "^#[ \t]*flags:.*instance" "$1"; }

# Stall watchdog for the test ftracetest group $tp is running.
wd_start() { # test
	rm -f /tmp/ie-hung
	# Only a test still running is hung.
	setsid sh -c "sleep $STALL
		kill -0 -$tp 2>/dev/null || exit 0
		touch /tmp/ie-hung
		echo 'IE-HUNG $1: no result after ${STALL}s; task dump on the console'
		echo 'ie-rig: task dump begin' >/dev/kmsg
		echo t >/proc/sysrq-trigger; echo w >/proc/sysrq-trigger
		echo 'ie-rig: task dump end' >/dev/kmsg
		kill -TERM -$tp" >&2 &
	wp=$!
}
wd_stop() {
	# The watchdog may not have made its group yet: stop it both ways.
	kill -KILL -$wp $wp 2>/dev/null
	wait $wp 2>/dev/null
}
# Centiseconds since boot, without a fork.
now() { read -r up _ </proc/uptime; t=${up%.*}${up#*.}; }
test_start() { # suite=test
	echo "IE-START ${1%%=*} ${1#*=}"
	# The same in the kernel log: its reports (KCSAN) go by test.
	echo "ie-test: START ${1%%=*} ${1#*=}" >/dev/kmsg 2>/dev/null
	now
	t0=$t
	wd_start "${1#*=}"
}
# Report test $1 (suite=test), status $2, its logs in $3 (files).
test_end() {
	wd_stop
	now
	echo "IE-RESULT ${1%%=*} ${1#*=} $2 $(((t - t0 + 50) / 100))"
	# Counts a test chose to report (reliability tests), and hist_json
	# documents for the host to check (rig/histjson.py).
	# shellcheck disable=SC2086 # $3: globs
	[ -z "$3" ] || grep -h '^IE-\(SUMMARY\|JSON\|JSONTXT\) ' $3 2>/dev/null
	case $2 in
	PASS|UNSUPPORTED|XFAIL) ;;
	*)
		echo "IE-LOG-BEGIN ${1%%=*} ${1#*=}"
		[ -z "$3" ] || for f in $3; do
			[ -e "$f" ] && tail -n 40 "$f" | cut -c1-240
		done
		echo "IE-LOG-END"
		;;
	esac
}
# The status in ftracetest's result line $1, in $st.
status_of() {
	case $1 in
	*'[PASS]') st=PASS ;;
	*'[FAIL]') st=FAIL ;;
	*'[UNRESOLVED]') st=UNRESOLVED ;;
	*'[UNTESTED]') st=UNTESTED ;;
	*'[UNSUPPORTED]') st=UNSUPPORTED ;;
	*'[XFAIL]') st=XFAIL ;;
	*) st=ERROR ;;
	esac
}

# What tests leave behind that ftracetest's reset can't remove in one
# pass (a trigger still referenced from an event listed after it), as
# ftracetest's end and the next start did when each test ran alone.
cleanup() {
	# shellcheck disable=SC1091 # the guest's copy
	(cd /sys/kernel/tracing && . /ftrace/test.d/functions &&
		for _ in 1 2 3; do initialize_ftrace; done) >/dev/null 2>&1
}

# Run tests (suite=file ...) in one ftracetest: its start and end cost
# more than a small test (1-2 s each on TCG, 10 on the debug kernel).
# Results are read as ftracetest prints them, so the watchdog and the
# kernel log's markers go by test.  A test that fails among others runs
# again alone, from a clean state, and that run counts: one that left
# what ftracetest can't reset would fail all that follow it.  What a
# hung or lost ftracetest did not get to runs in a new one.  A test with
# an instance run is given alone, and its result is the worse of its two
# runs.
bn=0
run_batch() {
	solo='' prev=''
	while [ $# -gt 0 ]; do
		bn=$((bn + 1))
		ld=/tmp/logs/b$bn
		mkdir -p $ld
		again=$solo
		if [ -n "$solo" ]; then
			tcs=${1#*=} left=1 solo=
		else
			tcs=
			for x in "$@"; do tcs="$tcs ${x#*=}"; done
			left=$#
		fi
		rm -f /tmp/ie-fifo
		mkfifo /tmp/ie-fifo
		# shellcheck disable=SC2086
		setsid ./ftracetest -k -l $ld $tcs >/tmp/ie-fifo 2>&1 &
		tp=$!
		k=0 first=
		test_start "$1"
		while read -r line; do
			case $line in
			'['[0-9]*']'*) ;;
			*) continue ;;
			esac
			k=$((k + 1))
			status_of "$line"
			if [ -z "$first" ] && on_instance "${1#*=}"; then
				first=$st	# the instance run follows
				continue
			fi
			log="$ld/$k-$(basename "${1#*=}")-log.*"
			if [ -n "$first" ]; then
				[ "$first" = PASS ] || st=$first
				first=
				log="$ld/*-log.*"
			fi
			case $st in
			PASS|UNSUPPORTED|XFAIL) ;;
			*)
				if [ $left -gt 1 ]; then
					echo "IE-SUMMARY batch: ${1#*=} $st after ${prev:-the start}, runs again alone"
					solo=1
					break
				fi
				;;
			esac
			[ -z "$again" ] || echo "IE-SUMMARY batch: ${1#*=} alone: $st"
			test_end "$1" $st "$log"
			prev=${1#*=}
			shift
			left=$((left - 1))
			[ $left -gt 0 ] || break
			test_start "$1"
		done </tmp/ie-fifo
		if [ -n "$solo" ]; then
			# ftracetest has gone on to the next test: stop it.
			wd_stop
			kill -TERM -$tp 2>/dev/null
			sleep 1
			kill -KILL -$tp 2>/dev/null
			wait $tp
			cleanup
			continue
		fi
		wait $tp
		[ $left -gt 0 ] || continue
		# ftracetest ended before test $1 did.
		st=ERROR
		if [ -e /tmp/ie-hung ]; then
			# What TERM left of the test's group goes now.
			sleep 2
			kill -KILL -$tp 2>/dev/null
			st=HUNG
		fi
		test_end "$1" $st "$ld/*-$(basename "${1#*=}")-log.* $ld/ftracetest.log"
		prev=${1#*=}
		shift
		cleanup
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
