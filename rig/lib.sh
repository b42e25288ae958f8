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

config_files() { # kernel
	case $1 in
	ie) echo "$RIG/config/base.config $RIG/config/ie.config" ;;
	ref) echo "$RIG/config/base.config $RIG/config/ref.config" ;;
	debug) echo "$RIG/config/base.config $RIG/config/ie.config $RIG/config/debug.config" ;;
	iebench) echo "$RIG/config/base.config $RIG/config/ie.config $RIG/config/bench.config" ;;
	refbench) echo "$RIG/config/base.config $RIG/config/ref.config $RIG/config/bench.config" ;;
	*) die "unknown kernel '$1' (ie, ref, debug, iebench or refbench)" ;;
	esac
}

# Build directory, keyed by tree version, kernel name and config hash.
build_dir() { # kernel
	# shellcheck disable=SC2046
	echo "$IE_CACHE/build-$(tree_version)-$1-$(hash_files $(config_files "$1"))"
}
