#!/bin/bash
# Install the host packages the rig needs, only those that are missing
# (IE_DEPS_EXTRA: more, for one command: make demo's gnuplot-nox).
set -eu
. "$(dirname "$0")/lib.sh"

PKGS="$TREE_PKG qemu-system-x86 busybox-static rt-tests iputils-ping
      gcc libc6-dev make bc bison flex libelf-dev libssl-dev cpio xz-utils kmod perl
      git patch rsync python3 procps
      trace-cmd linux-perf libtracefs-dev libtraceevent-dev pkg-config
      ${IE_DEPS_EXTRA:-}"

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
log "installing:$missing"
[ "$(id -u)" = 0 ] || die "need root to install:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
