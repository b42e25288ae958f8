#!/bin/bash
# make series: write our change, as committed (HEAD), as a git
# format-patch series against the pristine tree into $1 (default
# out/series), in the steps of rig/series/steps: the documentation, the
# code with the tree's hooks as its symbols allow, the selftests.
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

# The steps of the series: rig/series/steps/*.txt, in the order of their
# names, each one commit: "Subject:" (none: the step is one patch of
# patches/, with its own message), "Patches:" (numbers of patches/),
# "Files:" (ours, whole files or folders), "Reduce:" (patches of
# rig/series/reduce/, see below), a blank line, the changelog.
#
# A step's feature may reach into files of earlier steps (the calls of
# the hist command into its actions): its Reduce: patch takes them out of
# our final files, and every step before it has our files with that
# patch applied (the reduce patches of later steps first, each made
# against our files with those of the steps after it applied).  A
# reduce patch changes files of kernel/trace/inter_event/ only, all
# added by one step, with paths a/... and b/...; patch applies it
# without fuzz.  A feature that reaches into the files of two steps has
# a reduce patch for each.
#
# The code comes in the order its symbols need: a step's objects link
# with those of the steps before, and the tree's hooks that call into
# the code come with it or after it (make series-check builds every
# step).  kernel/trace/inter_event/Makefile builds, at each step, the
# objects whose sources are there.
steps=$src/rig/series/steps
ie_dir=kernel/trace/inter_event
field() { # step key: the value of a header line (before the blank line)
	awk -v k="$2: " 'NF == 0 { exit } index($0, k) == 1 { print substr($0, length(k) + 1) }' "$1"
}
# Each reduce patch is named by a step.
for r in "$src"/rig/series/reduce/*.patch; do
	[ -e "$r" ] || continue
	grep -qE "^Reduce:( .*)? ${r##*/}( |\$)" "$steps"/*.txt || die "no step names ${r##*/}"
done
# Each patch of patches/ and each file of ours is in exactly one step.
listed=$(for s in "$steps"/*.txt; do
	for p in $(field "$s" Patches); do echo "patch $p"; done
	for f in $(field "$s" Files); do
		if [ -d "$src/$f" ]; then
			(cd "$src" && find "$f" -type f | sed 's/^/file /')
		else
			echo "file $f"
		fi
	done
done | sort)
have=$({
	(cd "$src/patches" && find . -name '*.patch' | sed 's|^\./\([0-9]*\)-.*|patch \1|')
	(cd "$src" && find Documentation "$ie_dir" tools -type f | sed 's/^/file /')
} | sort)
[ "$listed" = "$(echo "$listed" | sort -u)" ] ||
	die "rig/series/steps lists twice: $(echo "$listed" | uniq -d | tr '\n' ' ')"
[ "$listed" = "$have" ] ||
	die "rig/series/steps and the files differ: $(diff <(echo "$have") <(echo "$listed") | grep '^[<>]' | tr '\n' ' ')"

# The patches in the order of their numbers, the order tree.sh applies
# them in (each applies on those before it).
order=$(for s in "$steps"/*.txt; do field "$s" Patches; done | tr ' ' '\n' | sed '/^$/d')
[ "$order" = "$(echo "$order" | sort)" ] ||
	die "rig/series/steps lists patches out of their order: $(echo "$order" | tr '\n' ' ')"

# The objects of the final Makefile whose sources are in the series so far.
ie_makefile() {
	python3 - "$src/$ie_dir/Makefile" "$work/$ie_dir" >"$work/$ie_dir/Makefile" <<'PY'
import os
import re
import sys

final, folder = sys.argv[1], sys.argv[2]
for line in open(final, encoding="utf-8").read().split("\n")[:-1]:
    m = re.match(r"^(obj-\S+ \+= )(.*)$", line)
    if m:
        objs = [o for o in m.group(2).split()
                if os.path.exists(os.path.join(folder, o[:-2] + ".c"))]
        if not objs:
            continue
        line = m.group(1) + " ".join(objs)
    print(line)
PY
}

# Our files at step $1 (a step file): the final ones, less the features
# of the later steps with a Reduce: patch.
reduce_to() { # step
	local f r later later_step n have
	(cd "$work" && find "$ie_dir" -type f 2>/dev/null) | while read -r f; do
		cp "$src/$f" "$work/$f"
	done
	later=$(for r in "$steps"/*.txt; do [[ "$r" > "$1" ]] && echo "$r"; done | sort -r)
	for later_step in $later; do
		# A step's patches in the order listed (each on different files).
		for r in $(field "$later_step" Reduce); do
			r=$src/rig/series/reduce/$r
			# Its files: ours in $ie_dir (re-copied above), all added
			# by one step: before it, nothing to reduce.
			n=0
			have=0
			for f in $(sed -n 's|^+++ \([^[:space:]]*\).*|\1|p' "$r"); do
				case $f in
				b/"$ie_dir"/*) ;;
				*) die "$r: $f: a reduce patch changes b/$ie_dir/ files only" ;;
				esac
				n=$((n + 1))
				[ ! -e "$work/${f#b/}" ] || have=$((have + 1))
			done
			[ "$n" != 0 ] || die "$r changes no file"
			[ "$have" = 0 ] && continue
			[ "$have" = "$n" ] || die "$(basename "$1"): only some files of $r are there"
			patch -d "$work" -p1 -s -f -r - --no-backup-if-mismatch -F0 <"$r" ||
				die "$r does not apply at $(basename "$1")"
		done
	done
}

for s in "$steps"/*.txt; do
	subj=$(field "$s" Subject)
	body=$(awk 'f { print } /^$/ { f = 1 }' "$s")
	files=$(field "$s" Files)
	for n in $(field "$s" Patches); do
		p=$(ls "$src/patches/$n"-*.patch)
		git -C "$work" apply --whitespace=nowarn "$p"
		if [ -z "$subj" ]; then
			# The message is the patch's Subject and the text before "---".
			subj=$(sed -n 's/^Subject: \(\[PATCH[^]]*\] \)\{0,1\}//p' "$p" | head -n 1)
			body=$(awk 'NR==1,/^$/{next} /^---$/{exit} {print}' "$p")
		fi
	done
	for f in $files; do
		mkdir -p "$work/$(dirname "$f")"
		rm -rf "${work:?}/$f"
		cp -r "$src/$f" "$work/$f"
		case $f in
		# Each file: a step adding files touches MAINTAINERS.
		"$ie_dir"/*) maintain "$f" ;;
		Documentation/trace/inter-event.rst)
			maintain "$f"
			# Listed in the trace documentation's index, after the
			# hist triggers'.
			sed -i 's/^   histogram-design$/&\n   inter-event/' \
				"$work/Documentation/trace/index.rst"
			grep -qx '   inter-event' "$work/Documentation/trace/index.rst" ||
				die "no place for inter-event in Documentation/trace/index.rst"
			;;
		*) if [ -d "$src/$f" ]; then maintain "$f/"; else maintain "$f"; fi ;;
		esac
	done
	reduce_to "$s"
	[ ! -e "$work/$ie_dir/Makefile" ] || ie_makefile
	[ -n "$subj" ] || die "$s: no Subject and no patch"
	git -C "$work" add -A
	git -C "$work" commit -q -s -m "$subj" -m "$body"
done
# The last step has our files, as committed.
(cd "$src" && find Documentation "$ie_dir" tools -type f) | while read -r f; do
	cmp -s "$work/$f" "$src/$f" || die "the last step's $f is not ours"
done

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
