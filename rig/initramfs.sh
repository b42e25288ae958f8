#!/bin/bash
# Build the guest initramfs (uncompressed cpio) into $1.
# Contents: busybox, dash as /bin/sh, cyclictest, hackbench, ping, nice,
# trace-cmd and perf with their libraries, iepoll (rig/guest/iepoll.c),
# ietracefs (rig/guest/ietracefs.c), ielat (tools/tracing/ielat),
# the tree's ftracetest with our tests, the jobs, and $2 = suites file.
# Optional $3: a folder of further .tc files (TESTS_EXTRA).
set -eu
. "$(dirname "$0")/lib.sh"

out=$1
suites=${2:-}
extra=${3:-}
tree=$(tree_dir)
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,etc,proc,sys,dev,tmp,root,ie,jobs}
cp /bin/busybox "$root/bin/busybox"

copy_bin() { # program: copy it and the shared libraries it needs
	local p
	p=$(command -v "$1") || die "$1 not found on the host"
	cp -L "$p" "$root/usr/bin/"
	ldd "$p" 2>/dev/null | grep -o '/[^ ]*' | while read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
# The real clients of the tracing files (client-*.tc): trace-cmd, perf.
for p in cyclictest hackbench ping nice dash trace-cmd perf; do
	copy_bin "$p"
done

# The kernel's modules, if any (IE_MODULES_DIR: its build folder).
mkdir -p "$root/lib/ie-modules"
# Only those its last build made (modules.order), not older ones there.
if [ -n "${IE_MODULES_DIR:-}" ] && [ -f "$IE_MODULES_DIR/modules.order" ]; then
	sed 's/\.o$/.ko/' "$IE_MODULES_DIR/modules.order" | while read -r ko; do
		cp "$IE_MODULES_DIR/$ko" "$root/lib/ie-modules/"
	done
fi
# A poll() client for the hist file tests, linked statically.
gcc -static -O2 -o "$root/usr/bin/iepoll" "$RIG/guest/iepoll.c" ||
	die "could not build iepoll (gcc and libc6-dev are needed)"
# The latency tool we ship (tools/tracing/ielat), linked statically.
gcc -static -O2 -Wall -o "$root/usr/bin/ielat" "$TOP/tools/tracing/ielat/ielat.c" ||
	die "could not build tools/tracing/ielat"
# A libtracefs client (sqlhist's and rtla's calls), linked statically
# with Debian's libtracefs and libtraceevent.
# (The linker warns about dlopen() in a static program: libtraceevent's
# plugins, which the client does without.)
# shellcheck disable=SC2046
msg=$(gcc -static -O2 -o "$root/usr/bin/ietracefs" "$RIG/guest/ietracefs.c" \
	$(pkg-config --cflags libtracefs libtraceevent) -ltracefs -ltraceevent 2>&1) ||
	die "could not build ietracefs (libtracefs-dev, libtraceevent-dev and pkg-config are needed): $msg"
# The tests job's hist reader audit: first on ftracetest's PATH as the
# tools tests read files with (rig/guest/iehistfront.c, which hands a
# hist file's reads to rig/guest/iehistaudit.c).
gcc -static -O2 -Wall -o "$root/usr/bin/iehistaudit" "$RIG/guest/iehistaudit.c" ||
	die "could not build iehistaudit"
gcc -static -nostdlib -ffreestanding -fno-tree-loop-distribute-patterns \
	-fno-stack-protector -fno-builtin -O2 -Wall \
	-o "$root/usr/bin/iehistfront" "$RIG/guest/iehistfront.c" ||
	die "could not build iehistfront"
mkdir -p "$root/ie/audit"
for t in cat grep awk sed head tail wc cut sort cmp diff od; do
	ln -s /usr/bin/iehistfront "$root/ie/audit/$t"
done
# The bench's workload driver, linked statically (rig/bench.sh).
[ -n "${IE_BENCH_BIN:-}" ] && cp "$IE_BENCH_BIN" "$root/usr/bin/iebench"
# Its BPF peer: the loader and the object (rig/lib.sh iebpf_dir).
if [ -n "${IE_BENCH_BPF:-}" ]; then
	cp "$IE_BENCH_BPF/iebpf" "$root/usr/bin/iebpf"
	mkdir -p "$root/usr/lib"
	cp "$IE_BENCH_BPF/iebpf.bpf.o" "$root/usr/lib/iebpf.bpf.o"
fi
cp "$RIG/guest/init" "$root/init"
# Debian's /bin/sh: dash; busybox fills in the other tools at boot.
ln -s /usr/bin/dash "$root/bin/sh"
cp "$RIG"/guest/jobs/*.sh "$root/jobs/"
cp -r "$tree/tools/testing/selftests/ftrace" "$root/ftrace"
rm -rf "$root/ftrace/logs"
# The documentation, where a test finds it relative to ftracetest as in
# a kernel tree (docs-examples.tc runs its examples).
mkdir -p "$root/Documentation/trace"
cp "$TOP/Documentation/trace/inter-event.rst" "$root/Documentation/trace/"
if [ -n "$extra" ]; then
	[ -d "$extra" ] || die "TESTS_EXTRA=$extra is not a folder"
	mkdir -p "$root/ftrace/test.d/extra"
	cp -r "$extra"/. "$root/ftrace/test.d/extra/"
fi
[ -n "$suites" ] && cp "$suites" "$root/ie/suites"
# The differential fuzzer's cases (rig/fuzz.sh).
[ -n "${IE_FUZZ_CASES:-}" ] && cp "$IE_FUZZ_CASES" "$root/ie/fuzz-cases"
touch "$root/ie/suites"
# nobody: an unprivileged user for permission tests (busybox su -s /bin/sh nobody).
printf '%s\n' "root:x:0:0:root:/root:/bin/sh" \
	"nobody:x:65534:65534:nobody:/nonexistent:/bin/false" >"$root/etc/passwd"
printf '%s\n' "root:x:0:" "nogroup:x:65534:" >"$root/etc/group"
chmod 0755 "$root" # mktemp -d made it 0700: / must be searchable by nobody too

(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) >"$out"
