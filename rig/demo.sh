#!/bin/bash
# make demo: boot the ie kernel and run the cover letter's first example.
set -u
. "$(dirname "$0")/lib.sh"
heavy_lock

kernel=${KERNEL:-ie}
out=${OUT:-$TOP/out}/demo-$kernel
mkdir -p "$out"
IE_BOOT_TIMEOUT=${IE_BOOT_TIMEOUT:-600} "$RIG/run.sh" "$kernel" demo "$out" || exit 1
sed -n '/^IE-JOB-BEGIN/,/^IE-JOB-END/p' "$out/results.log" | sed '1d;$d'
grep -q '^IE-JOB-END rc=0' "$out/results.log"
