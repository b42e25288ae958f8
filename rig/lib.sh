# Common settings for the test rig; sourced by the other rig scripts.
# shellcheck shell=bash

RIG=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$RIG/.." && pwd)
IE_CACHE=${IE_CACHE:-/var/tmp/ie-cache}
TREE_PKG=linux-source-6.12
TREE_TARBALL=/usr/src/$TREE_PKG.tar.xz
# Our implementation's directories inside the tree.
OUR_DIRS="kernel/trace/inter_event tools/testing/selftests/ftrace/test.d/inter_event"
OUR_FILES="Documentation/trace/inter-event.rst"

log() { printf '[rig] %s\n' "$*" >&2; }
die() { printf '[rig] error: %s\n' "$*" >&2; exit 1; }

tree_version() {
	dpkg-query -W -f='${Version}' "$TREE_PKG" 2>/dev/null | tr -c 'A-Za-z0-9.+\n' '_'
}

# Directory holding the patched source tree for this package version.
tree_dir() { echo "$IE_CACHE/src-$(tree_version)"; }

hash_files() { cat "$@" 2>/dev/null | sha256sum | cut -c1-12; }

# The bench's workload program (rig/bench/iebench.c), built once per
# version of its source; prints its path.
iebench_bin() {
	local src=$RIG/bench/iebench.c bin
	bin=$IE_CACHE/iebench-$(hash_files "$src")
	if [ ! -x "$bin" ]; then
		gcc -static -O2 -Wall -o "$bin.tmp" "$src" >&2 || return 1
		mv "$bin.tmp" "$bin"
	fi
	echo "$bin"
}

# The bench's BPF peer (rig/bench/iebpf.bpf.c and its loader iebpf.c,
# linked statically with libbpf), built once per source: the folder.
iebpf_dir() {
	local d
	d=$IE_CACHE/iebpf-$(hash_files "$RIG/bench/iebpf.bpf.c" "$RIG/bench/iebpf.c" "$RIG/lib.sh")
	if [ ! -f "$d/iebpf" ]; then
		mkdir -p "$d.tmp"
		clang -O2 -g -target bpf -mcpu=v3 -I/usr/include/"$(gcc -print-multiarch)" \
			-c "$RIG/bench/iebpf.bpf.c" -o "$d.tmp/iebpf.bpf.o" >&2 || return 1
		gcc -static -O2 -Wall -o "$d.tmp/iebpf" "$RIG/bench/iebpf.c" \
			-lbpf -lelf -lz >&2 || return 1
		rm -rf "$d"
		mv "$d.tmp" "$d"
	fi
	echo "$d"
}

config_files() { # kernel
	case $1 in
	ie) echo "$RIG/config/base.config $RIG/config/ie.config" ;;
	ref) echo "$RIG/config/base.config $RIG/config/ref.config" ;;
	debug) echo "$RIG/config/base.config $RIG/config/ie.config $RIG/config/debug.config" ;;
	kcsan) echo "$RIG/config/base.config $RIG/config/ie.config $RIG/config/kcsan.config" ;;
	iebench) echo "$RIG/config/base.config $RIG/config/ie.config $RIG/config/bench.config" ;;
	refbench) echo "$RIG/config/base.config $RIG/config/ref.config $RIG/config/bench.config" ;;
	*) die "unknown kernel '$1' (ie, ref, debug, kcsan, iebench or refbench)" ;;
	esac
}

# Build directory, keyed by tree version, kernel name and config hash.
build_dir() { # kernel
	# shellcheck disable=SC2046
	echo "$IE_CACHE/build-$(tree_version)-$1-$(hash_files $(config_files "$1"))"
}

# The machine-wide lock of heavy rig commands (builds and boots): one at a
# time on this 2-core machine.  Re-entrant: when this process or one above
# it (a rig script that called us, or `flock /tmp/heavy.lock make ...`)
# holds the lock, it is not taken again.  A wait on it says at once, and
# every minute, who holds it.
HEAVY_LOCK=${IE_HEAVY_LOCK:-/tmp/heavy.lock}

heavy_fds() { # pid|'[0-9]*': open files holding the lock, as /proc/PID/fd/N
	local f
	# flock records the pid that called flock(2), which may be gone (a
	# flock(1) child): the lock belongs to the open file, whose fdinfo
	# lists it.
	find /proc/$1/fd -maxdepth 1 -lname "$(readlink -f "$HEAVY_LOCK")" 2>/dev/null |
		while read -r f; do
			grep -qE '^lock:.*FLOCK +ADVISORY +(READ|WRITE) ' \
				"${f%/fd/*}/fdinfo/${f##*/}" 2>/dev/null && echo "$f"
		done
}

heavy_holders() { # pids holding $HEAVY_LOCK, not those that inherited it
	local p all
	all=" $(heavy_fds '[0-9]*' | cut -d/ -f3 | sort -u | tr '\n' ' ') "
	for p in $all; do
		case $all in
		*" $(awk '/^PPid:/ { print $2 }' "/proc/$p/status" 2>/dev/null) "*) ;;
		*) echo "$p" ;;
		esac
	done
}

heavy_held_above() { # true when this process or an ancestor holds the lock
	local p=$$
	while [ -n "$p" ] && [ "$p" -gt 1 ]; do
		[ -n "$(heavy_fds "$p")" ] && return 0
		p=$(awk '/^PPid:/ { print $2 }' "/proc/$p/status" 2>/dev/null)
	done
	return 1
}

heavy_lock() { # take the lock on fd 8 for the rest of this process
	local p
	heavy_held_above && return 0
	# Read-only: a lock file made by another user still locks.
	[ -e "$HEAVY_LOCK" ] || : >>"$HEAVY_LOCK" 2>/dev/null
	exec 8<"$HEAVY_LOCK" || die "cannot open $HEAVY_LOCK"
	flock -n 8 && return 0
	while :; do
		for p in $(heavy_holders); do
			log "waiting for $HEAVY_LOCK, held by pid $p:" \
				"$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-200)"
		done
		flock -w 60 8 && return 0
	done
}

# The kernel's make for build directory $out of tree $tree.  Kconfig
# records the versions of the tools it finds on PATH (rustc, pahole), and a
# changed .config rebuilds what depends on it: name tools that do not
# exist, so that the .config, hence the build, does not depend on the
# caller's PATH.  Make's variables in the environment (KERNEL, DEBUG...
# from our Makefile) are not the kernel's: drop them.
kmake() {
	env -u KERNEL -u DEBUG -u TESTS_EXTRA -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
		make -C "$tree" O="$out" RUSTC=ie-no-rustc PAHOLE=ie-no-pahole \
		BINDGEN=ie-no-bindgen "$@"
}

# The tree's bootconfig tool, built once on the host; prints its path.
bootconfig_tool() {
	local d
	d="$IE_CACHE/bootconfig-$(tree_version)"
	if [ ! -x "$d/bootconfig" ]; then
		mkdir -p "$d"
		make -s -C "$(tree_dir)/tools/bootconfig" OUTPUT="$d/" \
			"$d/bootconfig" >"$d/build.log" 2>&1 ||
			die "could not build tools/bootconfig (log: $d/build.log)"
	fi
	echo "$d/bootconfig"
}
