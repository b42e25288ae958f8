#!/bin/bash
# Prepare the kernel tree in the cache: unpack Debian's linux-source once,
# bring it to "pristine + patches/*.patch" touching only files whose content
# changes (so rebuilds stay incremental), and place our own files in it.
# Prints the tree's path.
set -eu
. "$(dirname "$0")/lib.sh"

[ -f "$TREE_TARBALL" ] || die "$TREE_TARBALL missing (run rig/deps.sh)"
mkdir -p "$IE_CACHE"
exec 9>"$IE_CACHE/.tree.lock"
flock 9

tree=$(tree_dir)
orig=$IE_CACHE/orig-$(tree_version)
if [ ! -f "$tree/.ie-unpacked" ]; then
	log "unpacking $TREE_TARBALL into $tree"
	rm -rf "$tree" "$orig" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -xJf "$TREE_TARBALL" -C "$tree.tmp" --strip-components=1
	touch "$tree.tmp/.ie-unpacked"
	mv "$tree.tmp" "$tree"
fi
mkdir -p "$orig"
touch "$orig/.absent" "$tree/.ie-touched"

# Files the patches touch now, and files they touched last time.
new_list=$(cat "$TOP"/patches/*.patch 2>/dev/null |
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' | sort -u)
all_list=$(printf '%s\n%s\n' "$new_list" "$(cat "$tree/.ie-touched")" |
	sed '/^$/d' | sort -u)

# Save pristine copies the first time a file is touched.
for f in $all_list; do
	[ -e "$orig/$f" ] && continue
	grep -qxF "$f" "$orig/.absent" && continue
	if [ -e "$tree/$f" ]; then
		mkdir -p "$(dirname "$orig/$f")"
		cp -p "$tree/$f" "$orig/$f"
	else
		echo "$f" >>"$orig/.absent"
	fi
done

# Apply the series to pristine copies in a staging area.
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
for f in $all_list; do
	if [ -e "$orig/$f" ]; then
		mkdir -p "$(dirname "$stage/$f")"
		cp -p "$orig/$f" "$stage/$f"
	fi
done
for p in "$TOP"/patches/*.patch; do
	[ -e "$p" ] || continue
	patch -d "$stage" -p1 -s --no-backup-if-mismatch -f <"$p" >"$stage/.patch.log" 2>&1 ||
		die "patch $(basename "$p") does not apply: $(cat "$stage/.patch.log")"
done

# Bring the tree to the staged state, writing only what differs.
for f in $all_list; do
	if [ -e "$stage/$f" ]; then
		if ! cmp -s "$stage/$f" "$tree/$f"; then
			mkdir -p "$(dirname "$tree/$f")"
			cp "$stage/$f" "$tree/$f"
		fi
	else
		rm -f "$tree/$f"
	fi
done
printf '%s\n' "$new_list" >"$tree/.ie-touched"

# Our own files: copy by content so unchanged files keep their mtime.
for d in $OUR_DIRS; do
	if [ -d "$TOP/$d" ]; then
		mkdir -p "$tree/$d"
		rsync -rc --delete "$TOP/$d/" "$tree/$d/"
	else
		rm -rf "${tree:?}/$d"
	fi
done
for f in $OUR_FILES; do
	if [ -f "$TOP/$f" ]; then
		cmp -s "$TOP/$f" "$tree/$f" || cp "$TOP/$f" "$tree/$f"
	fi
done
echo "$tree"
