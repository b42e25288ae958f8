#!/bin/bash
# make series: write our change as a git format-patch series against the
# pristine tree into $1 (default out/series).  Patches from patches/ come
# first, one commit each; then one commit per folder of new files.
set -eu
. "$(dirname "$0")/lib.sh"

dest=${1:-$TOP/out/series}
"$RIG/deps.sh"
tree=$("$RIG/tree.sh")
orig=$IE_CACHE/orig-$(tree_version)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$work" init -q
git -C "$work" config user.name "Inter-event tracing developers"
git -C "$work" config user.email "inter-event@localhost"

# Base commit: the pristine versions of the files the patches touch.
for f in $(cat "$tree/.ie-touched"); do
	if [ -e "$orig/$f" ]; then
		mkdir -p "$work/$(dirname "$f")"
		cp "$orig/$f" "$work/$f"
	fi
done
git -C "$work" add -A
git -C "$work" commit -q --allow-empty -m "$TREE_PKG $(tree_version) (pristine files)"
base=$(git -C "$work" rev-parse HEAD)

for p in "$TOP"/patches/*.patch; do
	[ -e "$p" ] || continue
	git -C "$work" apply --whitespace=nowarn "$p"
	git -C "$work" add -A
	# The message is the patch's Subject and the text before "---".
	subj=$(sed -n 's/^Subject: \(\[PATCH[^]]*\] \)\{0,1\}//p' "$p" | head -n 1)
	body=$(awk 'NR==1,/^$/{next} /^---$/{exit} {print}' "$p")
	git -C "$work" commit -q -m "$subj" -m "$body"
done

commit_dir() { # path subject body
	[ -e "$TOP/$1" ] || return 0
	mkdir -p "$work/$(dirname "$1")"
	cp -r "$TOP/$1" "$work/$1"
	git -C "$work" add -A
	git -C "$work" commit -q -m "$2" -m "$3"
}
commit_dir kernel/trace/inter_event "tracing: Add inter-event hist triggers" \
	"The hist trigger command, per-event hist file and synthetic events
of CONFIG_INTER_EVENT_HIST: variables, expressions, variable references
across events, synthetic events and the onmatch()/onmax() actions."
commit_dir Documentation/trace/inter-event.rst \
	"Documentation: trace: Document inter-event hist triggers" \
	"Reference documentation for CONFIG_INTER_EVENT_HIST."
commit_dir tools/testing/selftests/ftrace/test.d/inter_event \
	"selftests/ftrace: Add inter-event hist trigger tests" \
	"End-to-end tests of CONFIG_INTER_EVENT_HIST in ftracetest format."

rm -rf "$dest"
mkdir -p "$dest"
git -C "$work" format-patch -q --cover-letter -o "$dest" "$base"..HEAD
ls "$dest"
