#!/bin/bash
# make check: build the ie kernel, boot it, run our ftracetest suite (plus
# TESTS_EXTRA), the peer suite and KUnit, and report.  Exit 1 on failure.
set -u
. "$(dirname "$0")/lib.sh"

kernel=${KERNEL:-ie}
out=${OUT:-$TOP/out}/check-$kernel
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
[ "$kernel" = ref ] || OUT=$out "$RIG/sxs.sh" "$out/host-results.log"
python3 "$RIG/report.py" "$out" --required "$RIG/peer-required.txt"
rc=$?
log "make check took $(($(date +%s) - t0)) s (logs: $out)"
exit $rc
