#!/bin/bash
# make series-check: check that the series of make series applies and
# that every step of it builds, then run our own suite on the last step.
#
# - The patches written (into OUT/series-check/series) are applied with
#   git am to the pristine files: they apply as sent.
# - Each step (each commit of the series) is built twice, with the ie
#   config and with the ref config (the stock hist triggers: what most
#   builders of the tree have).  A step fails on a build error or on a
#   warning line that the pristine tree's build (step 0) did not print.
# - The last step's ie kernel boots and runs our own suite, judged by
#   rig/report.py as make check judges it.
#
# The steps are built in the cache's tree, brought to each step's state by
# writing only the files that differ, in build directories of their own
# seeded from the ie and ref builds, so a step rebuilds only what it
# changes.  The tree is locked meanwhile and put back as it was, contents,
# modes and mtimes, whatever happens; the suite runs after that.
set -eu
. "$(dirname "$0")/lib.sh"
heavy_lock

# What the series is made of must be committed: the tree is made from the
# working files, the series from HEAD.
dirty=$(git -C "$TOP" status --porcelain -- patches kernel/trace/inter_event \
	tools/testing/selftests/ftrace/test.d/inter_event Documentation/trace/inter-event.rst)
[ -z "$dirty" ] || die "commit or stash first: $(echo "$dirty" | tr '\n' ' ')"

"$RIG/deps.sh"
tree=$("$RIG/tree.sh")
logs=${OUT:-$TOP/out}/series-check
rm -rf "$logs"
mkdir -p "$logs"
t0=$(date +%s)

# The builds the steps' build directories start from (before the tree
# is locked: build.sh brings the tree up to date).
for k in ie ref; do
	"$RIG/build.sh" "$k" >/dev/null
	cp "$(build_dir "$k")/.config" "$logs/$k.config"
done

repo=$(mktemp -d)
save=$(mktemp -d)
keep_save=0
restore() {
	local f bad=0
	set +e
	trap '' INT TERM HUP
	# Put back every file of the list whose saved copy was taken (list
	# and copies are complete before stepping starts, see below).
	if [ -f "$save/.list" ]; then
		while read -r f; do
			if [ -e "$save/f/$f" ]; then
				cp -p "$save/f/$f" "$tree/$f" || bad=1
			elif [ -e "$tree/$f" ]; then
				rm -f "$tree/$f" || bad=1
			fi
		done <"$save/.list"
	fi
	if [ "$bad" = 0 ] && [ "$keep_save" = 0 ]; then
		rm -rf "$save"
	else
		log "could not put the tree back: its files are in $save"
	fi
	rm -rf "$repo"
}
trap restore EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

IE_SERIES_REPO=$repo "$RIG/series.sh" "$logs/series" >/dev/null
base=$(git -C "$repo" rev-list --max-parents=0 HEAD)
steps=$(git -C "$repo" rev-list --reverse "$base"..HEAD)
[ -n "$steps" ] || die "the series has no patch"

# The patches as sent apply to the pristine files.
am=$(mktemp -d)
git clone -q "$repo" "$am/r"
git -C "$am/r" checkout -q -b check "$base"
# shellcheck disable=SC2046
git -C "$am/r" -c user.name=check -c user.email=check@localhost \
	am -q $(find "$logs/series" -name '*.patch' ! -name '0000-*' | sort) 2>"$logs/am.log" ||
	{ rm -rf "$am"; die "the patches do not apply (see $logs/am.log)"; }
[ -z "$(git -C "$am/r" diff HEAD "$(git -C "$repo" rev-parse HEAD)")" ] ||
	{ rm -rf "$am"; die "the patches applied do not give the series' last commit"; }
rm -rf "$am"

# Every file any step touches; saved (content, mode, mtime) before any
# is written, the list last: restore() trusts both.
git -C "$repo" log --no-renames --name-only --format= "$base"..HEAD | sort -u >"$save/list"
while read -r f; do
	if [ -e "$tree/$f" ]; then
		mkdir -p "$save/f/$(dirname "$f")"
		cp -p "$tree/$f" "$save/f/$f"
	fi
done <"$save/list"
# From here on the tree is ours until restore(): no tree.sh meanwhile.
exec 7>"$IE_CACHE/.tree.lock"
flock 7
mv "$save/list" "$save/.list"

step_to() { # commit: bring the tree's series files to that commit
	local f mode
	while read -r f; do
		mode=$(git -C "$repo" ls-tree "$1" -- "$f" | awk '{ print $1 }')
		if [ -n "$mode" ]; then
			git -C "$repo" show "$1:$f" >"$save/new"
			if ! cmp -s "$save/new" "$tree/$f"; then
				mkdir -p "$(dirname "$tree/$f")"
				cp "$save/new" "$tree/$f"
			fi
			if [ "$mode" = 100755 ]; then chmod +x "$tree/$f"; else chmod -x "$tree/$f"; fi
		else
			rm -f "$tree/$f"
		fi
	done <"$save/.list"
}

# warnings of a build log, without the paths of the build directories
warnings() { # log
	grep -E 'warning:|WARNING:' "$1" | sed "s|$IE_CACHE/[^/]*/||g" | sort -u || true
}

build_step() { # kernel step: build the step with that kernel's config
	local k=$1 n=$2 out
	out=$IE_CACHE/build-$(tree_version)-series-$1
	if [ ! -f "$out/.config" ]; then
		log "seeding $out from $(build_dir "$k")"
		rm -rf "$out"
		cp -a "$(build_dir "$k")" "$out"
	fi
	# The kernel's config each time: options a step doesn't know yet
	# go away with olddefconfig, and come back once a step has them.
	cp "$logs/$k.config" "$out/.config"
	if ! kmake -s olddefconfig >"$logs/$k-$n.log" 2>&1 ||
		! kmake -j"$(nproc)" bzImage >>"$logs/$k-$n.log" 2>&1; then
		return 1
	fi
	if grep -q '=m$' "$out/.config" &&
		! kmake -j"$(nproc)" modules >>"$logs/$k-$n.log" 2>&1; then
		return 1
	fi
	cp "$out/.config" "$logs/$k-$n.config"
}

printf '%-4s %-58s %7s %7s %s\n' step patch ie ref "" | tee "$logs/table.txt"
n=0
fail=0
for c in $base $steps; do
	step_to "$c"
	line=
	times=
	for k in ie ref; do
		t1=$(date +%s)
		st=
		build_step "$k" "$n" || st="$k: build failed ($logs/$k-$n.log)"
		warnings "$logs/$k-$n.log" >"$logs/$k-$n.warnings"
		if [ "$n" = 0 ]; then
			cp "$logs/$k-$n.warnings" "$logs/$k.baseline"
		elif [ -z "$st" ]; then
			new=$(comm -13 "$logs/$k.baseline" "$logs/$k-$n.warnings" | wc -l)
			[ "$new" = 0 ] || st="$k: $new new warning lines ($logs/$k-$n.warnings)"
		fi
		[ -z "$st" ] || { fail=1; line="$line $st"; }
		times="$times $(($(date +%s) - t1))"
	done
	if [ "$n" = 0 ]; then
		subj="(the pristine files)"
	else
		subj=$(git -C "$repo" log -1 --format=%s "$c")
	fi
	# shellcheck disable=SC2086
	printf '%-4s %-58.58s %5s s %5s s%s\n' "$n" "$subj" $times "$line" |
		tee -a "$logs/table.txt"
	n=$((n + 1))
done
grep -qx 'CONFIG_INTER_EVENT_HIST=y' "$logs/ie-$((n - 1)).config" ||
	{ log "the last step's ie config has no CONFIG_INTER_EVENT_HIST=y"; fail=1; }
grep -qx 'CONFIG_HIST_TRIGGERS=y' "$logs/ref-$((n - 1)).config" ||
	{ log "the last step's ref config has no CONFIG_HIST_TRIGGERS=y"; fail=1; }
[ "$fail" = 0 ] || die "series-check: a step failed (table: $logs/table.txt)"
image=$IE_CACHE/build-$(tree_version)-series-ie/arch/x86/boot/bzImage
restore
trap - EXIT
exec 7>&-

# The last step's kernel runs our own suite, in one guest, judged as
# make check judges it (a test may skip only where it does).
for f in "$TOP"/tools/testing/selftests/ftrace/test.d/inter_event/*.tc; do
	echo "own test.d/inter_event/${f##*/}"
done >"$logs/suites"
IE_IMAGE=$image "$RIG/run.sh" ie tests "$logs/guest" "$logs/suites" \
	>"$logs/guest.log" 2>&1 || true
rc=0
python3 "$RIG/report.py" "$logs/guest" --expect "$logs/suites" \
	--may-skip reliability-failslab.tc --may-skip hist-json-take-nomem.tc \
	--kunit-src "$TOP/kernel/trace/inter_event" >"$logs/report.txt" 2>&1 || rc=$?
tail -n 3 "$logs/report.txt"
log "series-check: $n steps (the pristine files and $((n - 1)) patches) built with ie and ref; $(($(date +%s) - t0)) s (logs: $logs)"
exit $rc
