#!/bin/bash
# Boot a kernel in QEMU with a job and collect its output.
# usage: run.sh KERNEL JOB OUTDIR [SUITES_FILE] [EXTRA_DIR]
# Writes OUTDIR/console.log (kernel console, ttyS0), OUTDIR/results.log
# (the job's report, ttyS1) and OUTDIR/qemu.pid.  Exits 0 when the job
# reported its end.  IE_IMAGE: a bzImage already built for KERNEL (no build
# step); IE_KUNIT=0: skip the built-in KUnit suites at boot.
set -eu
. "$(dirname "$0")/lib.sh"

kernel=$1 job=$2 outdir=$3 suites=${4:-} extra=${5:-}
timeout_s=${IE_BOOT_TIMEOUT:-1500}
mkdir -p "$outdir"
image=${IE_IMAGE:-$("$RIG/build.sh" "$kernel")}
# The kernel's modules go with it (its build folder holds the image).
IE_MODULES_DIR=${image%/arch/x86/boot/bzImage} \
	"$RIG/initramfs.sh" "$outdir/initramfs.cpio" "$suites" "$extra"

# The tests job boots with boot-time tracing set up (rig/guest/boot.bconf,
# checked by inter_event/boot-config.tc): the bootconfig goes at the end
# of the initramfs, where the kernel looks for it.
bootcfg=
if [ "$job" = tests ]; then
	"$(bootconfig_tool)" -a "$RIG/guest/boot.bconf" "$outdir/initramfs.cpio" >/dev/null ||
		die "could not append rig/guest/boot.bconf to the initramfs"
	bootcfg=bootconfig
fi

mem=1G
[ "$kernel" = debug ] && mem=3G
accel=$("$RIG/accel.sh" "$image")
# IE_TCG=multi: one host thread per vCPU, so that the vCPUs really run at
# the same time (races show); the default, single, has them take turns.
tcg=${IE_TCG:-single}
case $tcg in
single | multi) ;;
*) die "IE_TCG=$tcg: single or multi" ;;
esac
case $accel in
kvm) accel_args=(-accel kvm -cpu host) ;;
*)
	accel_args=(-accel "tcg,thread=$tcg")
	accel=tcg-$tcg
	;;
esac
[ -n "${IE_ICOUNT:-}" ] && accel_args=(-accel tcg,thread=single -icount "shift=${IE_ICOUNT},sleep=off") &&
	accel=tcg-icount

# IE_QEMU_ARGS: more QEMU arguments, split at spaces (rig/bench/steps.sh
# adds a gdb stub).
read -ra qemu_extra <<<"${IE_QEMU_ARGS:-}"
rm -f "$outdir/console.log" "$outdir/results.log" "$outdir/qemu.pid"
log "booting $kernel ($accel, job $job, timeout ${timeout_s}s)"
start=$(date +%s.%N)
rc=0
timeout --foreground -k 5 "$timeout_s" qemu-system-x86_64 "${accel_args[@]}" \
	-m "$mem" -smp "${IE_SMP:-4}" -nodefaults -display none -no-reboot \
	-kernel "$image" -initrd "$outdir/initramfs.cpio" \
	-append "console=ttyS0 panic=-1 kunit.enable=${IE_KUNIT:-1} ie.job=$job ie.accel=$accel $bootcfg ${IE_APPEND:-}" \
	-pidfile "$outdir/qemu.pid" "${qemu_extra[@]}" \
	-serial "file:$outdir/console.log" -serial "file:$outdir/results.log" \
	</dev/null >"$outdir/qemu.log" 2>&1 || rc=$?
end=$(date +%s.%N)
printf '%.1f\n' "$(echo "$end - $start" | bc)" >"$outdir/boot-seconds"
if [ $rc = 124 ]; then
	log "$kernel: guest timed out after ${timeout_s}s"
fi
grep -q '^IE-JOB-END' "$outdir/results.log" 2>/dev/null || {
	log "$kernel: job '$job' did not finish (qemu rc $rc); console tail:"
	tail -n 30 "$outdir/console.log" >&2 2>/dev/null || true
	exit 1
}
exit 0
