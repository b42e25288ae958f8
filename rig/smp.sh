#!/bin/bash
# The SMP tests on vCPUs that run at the same time, several boots over.
# usage: smp.sh [RUNS] [KERNEL]   (RUNS default 5, KERNEL default ie)
#
# Under single-threaded TCG (make check's default) the guest's vCPUs take
# turns on one host thread, and a race a few instructions wide is never
# hit.  This boots KERNEL RUNS times under multi-threaded TCG (IE_TCG,
# default multi: one host thread per vCPU) with the tests that race
# CPUs against each other, and reports per boot each test's result and
# any oops, BUG or WARNING on the console.  Exits non-zero if any test
# failed or the kernel complained in any boot.  Output in $OUT/smp
# (default out/smp).
set -u
. "$(dirname "$0")/lib.sh"
heavy_lock

runs=${1:-5}
kernel=${2:-ie}
export IE_TCG=${IE_TCG:-multi}
out=${OUT:-$TOP/out}/smp
rm -rf "$out"
mkdir -p "$out"
SMP_TESTS="ie-config synth-onmax-smp vars-read-once-smp hist-clear-complete
hist-instance-remove reliability-stress hist-smp-one-entry"
for t in $SMP_TESTS; do
	echo "own test.d/inter_event/$t.tc"
done >"$out/suites"

image=$("$RIG/build.sh" "$kernel") || die "$kernel: build failed"
t0=$(date +%s)
bad=0
for i in $(seq 1 "$runs"); do
	d=$out/boot-$i
	IE_IMAGE=$image IE_KUNIT=0 IE_BOOT_TIMEOUT=${IE_BOOT_TIMEOUT:-900} \
		"$RIG/run.sh" "$kernel" tests "$d" "$out/suites" >"$d.log" 2>&1
	res=$(tr -d '\r' <"$d/results.log" 2>/dev/null |
		sed -n 's/^IE-RESULT own test.d\/inter_event\/\(.*\)\.tc \([A-Z]*\) .*/\1:\2/p' |
		tr '\n' ' ')
	splat=$(tr -d '\r' <"$d/console.log" 2>/dev/null |
		grep -m 1 -E 'Oops|BUG:|WARNING:|Kernel panic|int3|general protection' || :)
	n=$(echo "$res" | wc -w)
	state=ok
	case " $res" in
	*:FAIL* | *:HUNG*) state=FAIL ;;
	esac
	[ "$n" -eq "$(echo $SMP_TESTS | wc -w)" ] || state=FAIL
	[ -z "$splat" ] || state=FAIL
	[ $state = ok ] || bad=$((bad + 1))
	log "smp: boot $i of $runs ($IE_TCG): $state: $res${splat:+ console: $splat}"
done
log "smp: $((runs - bad)) of $runs boots clean, $(($(date +%s) - t0)) s (logs: $out)"
[ "$bad" = 0 ]
