#!/bin/bash
# make demo: boot the ie kernel and run the cover letter's examples, then
# tools/tracing/ielat on the same workload; its picture is drawn here.
set -u
. "$(dirname "$0")/lib.sh"
heavy_lock

kernel=${KERNEL:-ie}
out=${OUT:-$TOP/out}/demo-$kernel
mkdir -p "$out"
IE_BOOT_TIMEOUT=${IE_BOOT_TIMEOUT:-600} "$RIG/run.sh" "$kernel" demo "$out" || exit 1
tr -d '\r' <"$out/results.log" | sed -n '/^IE-JOB-BEGIN/,/^IE-JOB-END/p' |
	sed '1d;$d' | grep -v '^IE-IELAT-JSON' | tee "$out/demo.txt"
grep -q '^IE-JOB-END rc=0' "$out/results.log" || exit 1
# ielat's intervals, drawn next to the text (tools/tracing/ielat).
tr -d '\r' <"$out/results.log" | sed -n 's/^IE-IELAT-JSON //p' | base64 -d >"$out/ielat.json"
[ -s "$out/ielat.json" ] || die "no ielat JSON from the guest"
IE_DEPS_EXTRA=gnuplot-nox "$RIG/deps.sh" || exit 1
python3 "$TOP/tools/tracing/ielat/ielat-plot.py" "$out/ielat.json" "$out/ielat" \
	"cyclictest wakeup latency (ielat)" || exit 1
echo "[rig] demo: text in $out/demo.txt, picture in $out/ielat.png"

