#!/bin/bash
# Exact instruction counts of one event's triggers, by function.
# usage: rig/bench/steps.sh SCENARIO [FUNCTION]
# Boots refbench and iebench (IE_STEP_KERNELS: those named, in order)
# one after the other with the bench job
# running only SCENARIO (rig/guest/jobs/bench.sh), lets IE_STEP_SKIP
# calls of FUNCTION (default event_triggers_call) go by, then single-steps
# IE_STEP_CALLS of them through QEMU's gdb stub (rig/bench/steps.py) and
# prints each kernel's instructions per call by function.
set -eu
. "$(dirname "$0")/../lib.sh"
heavy_lock

scenario=$1
func=${2:-event_triggers_call}
out=$TOP/out/steps
"$RIG/deps.sh"
bin=$(iebench_bin)
rm -rf "$out"
port=$((20000 + $$ % 10000))
for k in ${IE_STEP_KERNELS:-refbench iebench}; do
	image=$("$RIG/build.sh" "$k")
	IE_IMAGE=$image IE_BENCH_BIN=$bin IE_SMP=1 IE_ICOUNT=0 IE_BOOT_TIMEOUT=900 \
		IE_APPEND="ie.only=$scenario ie.reps=1" IE_QEMU_ARGS="-gdb tcp:127.0.0.1:$port" \
		"$RIG/run.sh" "$k" bench "$out/$k" >"$out-$k.log" 2>&1 &
	qemu=$!
	for _ in $(seq 100); do
		ss -ltn 2>/dev/null | grep -q ":$port " && break
		sleep 0.2
	done
	echo "== $k"
	IE_STEP_PORT=$port IE_STEP_FUNC=$func gdb -q -batch -nx \
		-ex "file ${image%/arch/x86/boot/bzImage}/vmlinux" \
		-x "$RIG/bench/steps.py" 2>&1 | grep '^STEP\|^TRACE' || true
	kill "$qemu" 2>/dev/null || true
	wait "$qemu" 2>/dev/null || true
done
