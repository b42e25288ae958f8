#!/bin/bash
# Compile single objects of a kernel's build (for quick checks while
# editing), e.g.: rig/obj.sh ie kernel/trace/inter_event/spec.o
set -eu
. "$(dirname "$0")/lib.sh"

kernel=$1
shift
tree=$("$RIG/tree.sh")
out=$(build_dir "$kernel")
[ -f "$out/.config" ] || die "build $kernel once first: rig/build.sh $kernel"
exec 9>"$out/.build.lock"
flock 9
kmake -j"$(nproc)" W=1 "$@"
