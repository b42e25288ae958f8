#!/bin/bash
# Side by side: run the sxs job (rig/guest/jobs/sxs.sh) on the ref and ie
# kernels and compare what the hist and trigger files showed.  Appends an
# IE-RESULT line to $1 (a host results file) and prints the diff if any.
set -u
. "$(dirname "$0")/lib.sh"

results=${1:-/dev/null}
base=${OUT:-$TOP/out}
t0=$(date +%s)
status=PASS
declare -A pid
# Both kernels boot at the same time, each in its own guest.
for k in ref ie; do
	"$RIG/run.sh" "$k" sxs "$base/sxs-$k" >"$base/sxs-$k.log" 2>&1 &
	pid[$k]=$!
done
for k in ref ie; do
	if ! wait "${pid[$k]}"; then
		log "sxs: the $k run did not finish (see $base/sxs-$k.log)"
		status=FAIL
	fi
	# The hist and trigger files; error_log wording is ours to choose.
	sed -n '/^IE-JOB-BEGIN/,/^IE-JOB-END/p' "$base/sxs-$k/results.log" \
		2>/dev/null | grep -v '^IE-JOB' >"$base/sxs-$k.txt"
done
if [ ! -s "$base/sxs-ref.txt" ] || ! diff -u "$base/sxs-ref.txt" "$base/sxs-ie.txt" \
	>"$base/sxs.diff"; then
	status=FAIL
	echo "== side by side: ref and ie differ =="
	head -n 60 "$base/sxs.diff"
else
	echo "== side by side: ref and ie agree on $(grep -c '^=== ' "$base/sxs-ie.txt") hist trigger cases =="
fi
echo "IE-RESULT own rig/sxs(ref-vs-ie) $status $(($(date +%s) - t0))" >>"$results"
[ $status = PASS ]
