#!/bin/bash
# make series: write our change, as committed (HEAD), as a git
# format-patch series against the pristine tree into $1 (default
# out/series): the documentation, the patches of patches/ one commit each
# but the last, the new code, the last patch (which builds it), the
# selftests.
set -eu
. "$(dirname "$0")/lib.sh"

dest=${1:-$TOP/out/series}
"$RIG/deps.sh"
tree=$("$RIG/tree.sh")
orig=$IE_CACHE/orig-$(tree_version)
# IE_SERIES_REPO: an empty folder to keep the series' git repository in
# (make series-check), its first commit the pristine files.
work=${IE_SERIES_REPO:-$(mktemp -d)}
src=$(mktemp -d)
if [ -n "${IE_SERIES_REPO:-}" ]; then
	trap 'rm -rf "$src"' EXIT
else
	trap 'rm -rf "$work" "$src"' EXIT
fi
# What is committed, not what the working tree has besides.
git -C "$TOP" archive HEAD patches rig/series Documentation/trace/inter-event.rst \
	kernel/trace/inter_event tools/testing/selftests/ftrace/test.d/inter_event |
	tar -x -C "$src"
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
# MAINTAINERS and the documentation's index too: the commits adding
# files add them there.
for f in MAINTAINERS Documentation/trace/index.rst; do
	mkdir -p "$work/$(dirname "$f")"
	if [ -e "$orig/$f" ]; then cp "$orig/$f" "$work/$f"; else cp "$tree/$f" "$work/$f"; fi
done
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
lines = open(path, encoding="utf-8").read().split("\n")
if title in lines:
    i = lines.index(title) + 1
    while i < len(lines) and re.match(r"^[A-Z]:\t", lines[i]):
        i += 1
    first = lines.index(title) + 1
    while not lines[first].startswith("F:\t"):
        first += 1
    files = lines[first:i]
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
open(path, "w", encoding="utf-8").write("\n".join(lines))
PY
}
commit_dir() { # path subject body
	[ -e "$src/$1" ] || return 0
	mkdir -p "$work/$(dirname "$1")"
	rm -rf "${work:?}/$1"
	cp -r "$src/$1" "$work/$1"
	if [ -d "$src/$1" ]; then maintain "$1/"; else maintain "$1"; fi
	git -C "$work" add -A
	git -C "$work" commit -q -s -m "$2" -m "$3"
}

# The documentation first (what the Kconfig help and the README cite),
# then the hooks in the tree's files, then the new code, then the last
# patch, which builds it (Kconfig and Makefile): every step builds, and
# the new code builds as a whole.
# (Listed in the trace documentation's index, after the hist triggers'.)
sed -i 's/^   histogram-design$/&\n   inter-event/' "$work/Documentation/trace/index.rst"
grep -qx '   inter-event' "$work/Documentation/trace/index.rst" ||
	die "no place for inter-event in Documentation/trace/index.rst"
commit_dir Documentation/trace/inter-event.rst \
	"Documentation: trace: Document inter-event hist triggers" \
	"Reference documentation for CONFIG_INTER_EVENT_HIST, which the rest
of the series adds: the syntax, variables and references, synthetic
events, actions, statistics, output and its JSON form, limits and
errors."
last=$(find "$src/patches" -name '*.patch' | sort | tail -n 1)
[ -n "$last" ] && grep -q '^+obj-$(CONFIG_INTER_EVENT_HIST)' "$last" ||
	die "the last patch of patches/ must be the one that builds kernel/trace/inter_event/"
for p in "$src"/patches/*.patch; do
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
	tail -n +3 "$src/rig/series/cover.txt"
	echo
	cat "$src/rig/series/differences.txt"
	echo
	bench=${IE_BENCH_OUT:-$TOP/out/bench}
	if [ -d "$bench" ] && table=$(python3 "$RIG/bench/report.py" "$bench" 2>&1); then
		echo "Cost per event against the stock hist triggers (make bench,"
		echo "$(date -r "$bench" +%F)):"
		echo
		printf '%s\n' "$table"
	else
		echo "(make bench, run before make series, puts its table here.)"
		[ ! -d "$bench" ] || log "no bench table in the cover letter: $table"
	fi
} >"$blurb"
subject=$(head -n 1 "$src/rig/series/cover.txt")
awk -v subj="$subject" -v blurb="$blurb" '
	/\*\*\* SUBJECT HERE \*\*\*/ {
		i = index($0, "*** SUBJECT HERE ***")
		$0 = substr($0, 1, i - 1) subj substr($0, i + 20)
	}
	/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < blurb) > 0) print l; next }
	{ print }
' "$cover" >"$cover.tmp"
mv "$cover.tmp" "$cover"
ls "$dest"
