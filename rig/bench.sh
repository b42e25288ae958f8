#!/bin/bash
# make bench: per-event cost of the hist triggers, ours (iebench) against
# the tree's (refbench), same tree and config apart from the choice.
#
# Each kernel boots IE_BENCH_BOOTS times (default 3) on one vCPU under
# QEMU's instruction counting (-icount shift=0,sleep=off: one guest
# nanosecond per instruction, idle time skipped), so guest times are
# deterministic counts of work however busy the host is.  The guest job
# (rig/guest/jobs/bench.sh) times each workload without and with the
# scenario's triggers; rig/bench/report.py prints the table.
set -eu
. "$(dirname "$0")/lib.sh"
heavy_lock

boots=${IE_BENCH_BOOTS:-3}
# IE_BENCH_PROF=s1,s3: one boot of each kernel profiling those scenarios
# (rig/guest/jobs/bench.sh, ie.prof=1) instead of timing them.
prof=${IE_BENCH_PROF:-}
append=${IE_APPEND:-}
if [ -n "$prof" ]; then
	boots=1
	append="$append ie.only=$prof ie.prof=1"
fi
out=${IE_BENCH_OUT:-$TOP/out/bench}
IE_DEPS_EXTRA="clang libbpf-dev ${IE_DEPS_EXTRA:-}" "$RIG/deps.sh"
for k in refbench iebench; do
	"$RIG/build.sh" "$k" >/dev/null
done

bin=$(iebench_bin)
bpf=$(iebpf_dir)

rm -rf "$out"
mkdir -p "$out"
rc=0
# The two kernels boot at the same time, one guest each: instruction
# counting makes their figures independent of the host's load.
for b in $(seq 1 "$boots"); do
	pids=
	for k in refbench iebench; do
		IE_BENCH_BIN=$bin IE_BENCH_BPF=$bpf IE_SMP=1 IE_ICOUNT=0 IE_BOOT_TIMEOUT=1200 \
			IE_APPEND=$append "$RIG/run.sh" "$k" bench "$out/$k-$b" >&2 &
		pids="$pids $!"
	done
	for p in $pids; do
		wait "$p" || rc=1
	done
done
# Scenarios 2 and 3 on IE_BENCH_SMP vCPUs at once (default 4), one boot
# per kernel: under instruction counting the guest's clock counts the
# instructions of all vCPUs, so the cost per event compares with the
# figure on one vCPU.
smp=${IE_BENCH_SMP:-4}
[ "$rc" = 0 ] || die "a bench boot failed"
if [ -z "$prof" ] && [ "$smp" -gt 1 ]; then
	pids=
	for k in refbench iebench; do
		IE_BENCH_BIN=$bin IE_BENCH_BPF=$bpf IE_SMP=$smp IE_ICOUNT=0 \
			IE_BOOT_TIMEOUT=1200 IE_APPEND="$append ie.only=s2p,s3p" \
			"$RIG/run.sh" "$k" bench "$out/$k-smp" >&2 &
		pids="$pids $!"
	done
	for p in $pids; do
		wait "$p" || rc=1
	done
fi
[ "$rc" = 0 ] || die "a bench boot failed"
if [ -n "$prof" ]; then
	for k in refbench iebench; do
		echo "== $k"
		grep -h '^PROF\|^BENCH-ERROR' "$out/$k-1/results.log" || true
	done
	exit 0
fi
exec python3 "$RIG/bench/report.py" "$out"
