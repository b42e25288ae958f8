#!/bin/bash
# make check: build the ie kernel, boot it, run our ftracetest suite (plus
# TESTS_EXTRA), the peer suite and KUnit, and report.  Exit 1 on failure.
# DEBUG=1 (or KERNEL=debug): the same on the debug kernel (KASAN, kmemleak,
# lockdep, fault injection), with longer timeouts and a kmemleak scan at the
# end; the side-by-side step is skipped unless SXS=1.
set -u
. "$(dirname "$0")/lib.sh"

kernel=${KERNEL:-ie}
[ "${DEBUG:-0}" = 0 ] || kernel=debug
out=${OUT:-$TOP/out}/check-$kernel
if [ "$kernel" = debug ]; then
	# KASAN, kmemleak and lockdep under TCG: about a minute per test, and
	# the reliability stress test runs its full 60 s.  Variables on the
	# kernel command line reach the guest's init, hence tests.sh and the
	# tests, as environment.
	export IE_BOOT_TIMEOUT=${IE_BOOT_TIMEOUT:-7200}
	IE_APPEND="${IE_APPEND:-} IE_TEST_TIMEOUT=${IE_TEST_TIMEOUT:-1200}"
	IE_APPEND="$IE_APPEND IE_STRESS_SECONDS=${IE_STRESS_SECONDS:-60}"
	export IE_APPEND
fi
extra=${TESTS_EXTRA:-}
mkdir -p "$out"
[ -z "$extra" ] || extra=$(cd "$extra" && pwd)
suites=$out/suites
{
	echo "own test.d/inter_event"
	[ -z "$extra" ] || echo "extra test.d/extra"
	echo "peer test.d/trigger"
} >"$suites"
t0=$(date +%s)
"$RIG/run.sh" "$kernel" tests "$out" "$suites" "$extra"
rm -f "$out/host-results.log"
# The side-by-side comparison boots the ref and ie kernels, not this one:
# on the debug kernel it would only repeat the plain run's comparison.
case $kernel in
ref) ;;
debug) [ "${SXS:-0}" = 0 ] || OUT=$out "$RIG/sxs.sh" "$out/host-results.log" ;;
*) OUT=$out "$RIG/sxs.sh" "$out/host-results.log" ;;
esac
# Random differential tests, a fixed small seed set (make fuzz runs more):
# every difference from the stock kernel fixed or listed as known.
case $kernel in
ref) ;;
*)
	t1=$(date +%s)
	st=PASS
	IE_FUZZ_NOLOCK=1 OUT=$out "$RIG/fuzz.sh" 1,2,3 20 "ref $kernel" \
		>"$out/fuzz.log" 2>&1 || st=FAIL
	grep '^fuzz: \(PASS\|FAIL\)' "$out/fuzz.log" >&2
	echo "IE-RESULT own rig/fuzz(seeds-1,2,3x20) $st $(($(date +%s) - t1))" >>"$out/host-results.log"
	;;
esac
# Fault injection needs the debug kernel's failslab: elsewhere it may skip.
skip=()
[ "$kernel" = debug ] || skip=(--may-skip reliability-failslab.tc)
python3 "$RIG/report.py" "$out" --required "$RIG/peer-required.txt" "${skip[@]}"
rc=$?
log "make check took $(($(date +%s) - t0)) s (logs: $out)"
exit $rc
