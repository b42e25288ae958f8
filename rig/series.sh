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
# The patches are from, and signed off by, the maintainers: the author
# of the project's newest commit.
name=$(git -C "$TOP" log -1 --format=%an)
email=$(git -C "$TOP" log -1 --format=%ae)
git -C "$work" config user.name "$name"
git -C "$work" config user.email "$email"

# Base commit: the pristine versions of the files the patches touch.
for f in $(cat "$tree/.ie-touched"); do
	if [ -e "$orig/$f" ]; then
		mkdir -p "$work/$(dirname "$f")"
		cp "$orig/$f" "$work/$f"
	fi
done
# MAINTAINERS too: each commit that adds files adds them to our entry.
cp "$tree/MAINTAINERS" "$work/MAINTAINERS"
git -C "$work" add -A
git -C "$work" commit -q --allow-empty -m "$TREE_PKG $(tree_version) (pristine files)"
base=$(git -C "$work" rev-parse HEAD)

apply_patch() { # patch
	git -C "$work" apply --whitespace=nowarn "$1"
	git -C "$work" add -A
	# The message is the patch's Subject and the text before "---".
	subj=$(sed -n 's/^Subject: \(\[PATCH[^]]*\] \)\{0,1\}//p' "$1" | head -n 1)
	body=$(awk 'NR==1,/^$/{next} /^---$/{exit} {print}' "$1")
	git -C "$work" commit -q -s -m "$subj" -m "$body"
}
# Add path $1 to the MAINTAINERS entry, made at the first call where the
# sorted section headers put it.
maintain() { # path
	python3 - "$work/MAINTAINERS" "$1" "$name <$email>" <<'PY'
import re
import sys

path, new, who = sys.argv[1], sys.argv[2], sys.argv[3]
title = "INTER-EVENT HIST TRIGGERS"
lines = open(path).read().split("\n")
if title in lines:
    i = lines.index(title) + 1
    while i < len(lines) and re.match(r"^[A-Z]:\t", lines[i]):
        i += 1
    files = [x for x in lines[lines.index(title):i] if x.startswith("F:\t")]
    first = lines.index(files[0])
    files = sorted(set(files + ["F:\t" + new]))
    lines[first:i] = files
else:
    # Sections start after the "Maintainers List" heading's text: a
    # header line followed by "X:<tab>" lines.  They are sorted but for
    # a few: go before the last header that follows one sorting first.
    start = lines.index("Maintainers List")
    heads = [i for i in range(start, len(lines) - 1)
             if lines[i] and not re.match(r"^[A-Z]:\t", lines[i]) and
             re.match(r"^[A-Z]:\t", lines[i + 1])]
    i = [b for a, b in zip(heads, heads[1:])
         if lines[a] < title < lines[b]][-1]
    lines[i:i] = [title, "M:\t" + who, "L:\tlinux-trace-kernel@vger.kernel.org",
                  "S:\tMaintained", "F:\t" + new, ""]
open(path, "w").write("\n".join(lines))
PY
}
commit_dir() { # path subject body
	[ -e "$TOP/$1" ] || return 0
	mkdir -p "$work/$(dirname "$1")"
	cp -r "$TOP/$1" "$work/$1"
	if [ -d "$TOP/$1" ]; then maintain "$1/"; else maintain "$1"; fi
	git -C "$work" add -A
	git -C "$work" commit -q -s -m "$2" -m "$3"
}

# The hooks in the tree's files first, then the new code, then the last
# patch, which builds it (Kconfig and Makefile): every step builds, and
# the new code builds as a whole.
last=$(ls "$TOP"/patches/*.patch | tail -n 1)
grep -q 'inter_event/' "$last" ||
	die "$(basename "$last"), the last patch, must be the one that builds kernel/trace/inter_event/"
for p in "$TOP"/patches/*.patch; do
	[ "$p" = "$last" ] || apply_patch "$p"
done
commit_dir kernel/trace/inter_event "tracing: Add inter-event hist triggers" \
	"The hist trigger command, the per-event hist and hist_json files and
synthetic events of CONFIG_INTER_EVENT_HIST: keys and values with their
modifiers, statistics and percentiles, variables, expressions,
references to other events' variables, read once, synthetic events,
and the onmatch(), onmax() and onchange() handlers with their trace(),
save() and snapshot() actions.  inter_event.h opens with the design:
objects, ownership, locking and the event path.

Nothing builds it yet: the next patch does."
apply_patch "$last"
commit_dir Documentation/trace/inter-event.rst \
	"Documentation: trace: Document inter-event hist triggers" \
	"Reference documentation for CONFIG_INTER_EVENT_HIST: the syntax,
variables and references, synthetic events, actions, statistics,
output and its JSON form, limits and errors."
commit_dir tools/testing/selftests/ftrace/test.d/inter_event \
	"selftests/ftrace: Add inter-event hist trigger tests" \
	"End-to-end tests of CONFIG_INTER_EVENT_HIST in ftracetest format."

rm -rf "$dest"
mkdir -p "$dest"
git -C "$work" format-patch -q --cover-letter -o "$dest" "$base"..HEAD

# The cover letter: rig/series/cover.txt (its first line the subject),
# the differences from the stock hist triggers, and the bench table of
# the last make bench, if there is one.
cover=$dest/0000-cover-letter.patch
blurb=$work/.blurb
{
	tail -n +3 "$RIG/series/cover.txt"
	echo
	cat "$RIG/series/differences.txt"
	echo
	if [ -d "$TOP/out/bench" ] &&
		table=$(python3 "$RIG/bench/report.py" "$TOP/out/bench" 2>/dev/null); then
		echo "Cost per event against the stock hist triggers (make bench):"
		echo
		printf '%s\n' "$table"
	else
		echo "(make bench, run before make series, puts its table here.)"
	fi
} >"$blurb"
subject=$(head -n 1 "$RIG/series/cover.txt")
awk -v subj="$subject" -v blurb="$blurb" '
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subj) }
	/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < blurb) > 0) print l; next }
	{ print }
' "$cover" >"$cover.tmp"
mv "$cover.tmp" "$cover"
ls "$dest"
