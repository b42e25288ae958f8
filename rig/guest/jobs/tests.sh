#!/bin/sh
# Run ftracetest suites listed in /ie/suites ("NAME DIR" per line), one
# ftracetest invocation per .tc file, so each result maps to its file.
# Prints "IE-RESULT suite file status seconds" lines, the logs of failed
# tests, and the kernel log (KUnit results, splats) at the end.
cd /ftrace || exit 1
ver=$(uname -r)
echo "kernel $ver, cpus $(nproc)"
TMO=${IE_TEST_TIMEOUT:-300}
while read -r suite dir; do
	[ -n "$suite" ] || continue
	for tc in $(find "$dir" -name '*.tc' | sort); do
		logdir=/tmp/logs/$suite/$(basename "$tc" .tc)
		mkdir -p "$logdir"
		t0=$(date +%s)
		timeout "$TMO" ./ftracetest -k -l "$logdir" "$tc" >"$logdir/out" 2>&1
		rc=$?
		t1=$(date +%s)
		st=$(sed -n 's/.*\[\(PASS\|FAIL\|UNRESOLVED\|UNTESTED\|UNSUPPORTED\|XFAIL\)\].*/\1/p' \
			"$logdir/out" | head -n 1)
		[ -n "$st" ] || { [ $rc = 124 ] && st=TIMEOUT || st=ERROR; }
		echo "IE-RESULT $suite $tc $st $((t1 - t0))"
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
echo "IE-DMESG-BEGIN"
dmesg
echo "IE-DMESG-END"
