#!/bin/bash
# make peer KERNEL=ref|ie: run the tree's own trigger selftests (and
# TESTS_EXTRA) on one kernel and print a per-test table, side by side with
# the other kernel's last run when there is one.
set -u
. "$(dirname "$0")/lib.sh"
heavy_lock

kernel=${KERNEL:-ref}
base=${OUT:-$TOP/out}
out=$base/peer-$kernel
extra=${TESTS_EXTRA:-}
mkdir -p "$out"
[ -z "$extra" ] || extra=$(cd "$extra" && pwd)
{
	[ -z "$extra" ] || echo "extra test.d/extra"
	echo "peer test.d/trigger"
	echo "peer test.d/dynevent"
} >"$out/suites"
"$RIG/run.sh" "$kernel" tests "$out" "$out/suites" "$extra" || true
other=ref
[ "$kernel" = ref ] && other=ie
refargs=()
[ -f "$base/peer-$other/results.log" ] && refargs=(--reference "$base/peer-$other/results.log")
echo "(peer suite on $kernel; second column: last run on $other)"
required=$RIG/peer-required.txt
[ "$kernel" = ref ] && required=
python3 "$RIG/report.py" "$out" --peer-only --required "$required" "${refargs[@]}"
