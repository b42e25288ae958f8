#!/bin/bash
# Print "kvm" if a short probe boot under KVM reaches user space, else
# "tcg".  The answer is cached per host kernel and QEMU version.
# IE_ACCEL=tcg|kvm overrides the probe.
set -eu
. "$(dirname "$0")/lib.sh"

if [ -n "${IE_ACCEL:-}" ]; then
	echo "$IE_ACCEL"
	exit 0
fi
image=$1
qver=$(qemu-system-x86_64 --version | head -n 1 | tr -c 'A-Za-z0-9.\n' '_')
cache=$IE_CACHE/accel-$(uname -r)-$qver
if [ -f "$cache" ]; then
	cat "$cache"
	exit 0
fi
result=tcg
if [ -w /dev/kvm ]; then
	d=$(mktemp -d)
	"$RIG/initramfs.sh" "$d/initramfs.cpio" >/dev/null 2>&1
	timeout -k 2 30 qemu-system-x86_64 -accel kvm -cpu host -m 512M -smp 1 \
		-nodefaults -display none -no-reboot -kernel "$image" \
		-initrd "$d/initramfs.cpio" -append "console=ttyS0 panic=-1 ie.job=idle" \
		-serial null -serial "file:$d/results.log" </dev/null >/dev/null 2>&1 || true
	grep -q 'guest up' "$d/results.log" 2>/dev/null && result=kvm
	rm -rf "$d"
fi
log "accelerator probe: $result"
echo "$result" >"$cache"
echo "$result"
