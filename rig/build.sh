#!/bin/bash
# Build one kernel (ie, ref or debug) in its cached build directory and
# print the path of its bzImage.  Unchanged sources rebuild in seconds.
set -eu
. "$(dirname "$0")/lib.sh"

kernel=${1:-ie}
heavy_lock
"$RIG/deps.sh"
# IE_TREE_DIR: the caller has brought the tree up to date (rig/check.sh,
# which builds two kernels at once from it).
tree=${IE_TREE_DIR:-$("$RIG/tree.sh")}
out=$(build_dir "$kernel")
# A new config starts from the newest build of the same kernel, so that
# only what the config change touches is rebuilt.
if [ ! -f "$out/.config" ]; then
	seed=$(ls -dt "$IE_CACHE"/build-"$(tree_version)"-"$kernel"-* 2>/dev/null | head -n 1)
	if [ -n "$seed" ] && [ -f "$seed/.config" ]; then
		log "seeding $out from $seed"
		rm -rf "$out"
		cp -a "$seed" "$out"
	fi
fi
mkdir -p "$out"
exec 9>"$out/.build.lock"
flock 9

# Later fragments override earlier ones: keep the last line per symbol.
# shellcheck disable=SC2046
cat $(config_files "$kernel") | awk '
	{ sym = "" }
	/^CONFIG_[A-Za-z0-9_]+=/ { sym = $0; sub(/=.*/, "", sym) }
	/^# CONFIG_[A-Za-z0-9_]+ is not set/ { sym = $2 }
	{ line[NR] = $0; key[NR] = sym; if (sym != "") last[sym] = NR }
	END { for (i = 1; i <= NR; i++) if (key[i] == "" || last[key[i]] == i) print line[i] }
' >"$out/fragment.config"
start=$(date +%s)
kmake -s KCONFIG_ALLCONFIG="$out/fragment.config" allnoconfig >"$out/config.log" 2>&1 ||
	{ cat "$out/config.log" >&2; die "config failed"; }

# Every option the fragment asks for must have survived Kconfig.
bad=0
while read -r line; do
	case $line in
	CONFIG_*=*) grep -qxF "$line" "$out/.config" || { log "$kernel: $line did not stick"; bad=1; } ;;
	"# CONFIG_"*" is not set")
		sym=${line#\# }
		sym=${sym%% *}
		! grep -q "^$sym=" "$out/.config" || { log "$kernel: $sym is set"; bad=1; } ;;
	esac
done <"$out/fragment.config"
[ $bad = 0 ] || die "$kernel: config fragment not satisfied (see $out/.config)"

log "building $kernel in $out"
if ! kmake -j"$(nproc)" bzImage >"$out/build.log" 2>&1; then
	grep -E 'error|Error' "$out/build.log" | head -40 >&2
	die "$kernel: build failed (log: $out/build.log)"
fi
# The modules the config asks for (a few: the guest's test modules).
if grep -q '=m$' "$out/.config" &&
	! kmake -j"$(nproc)" modules >>"$out/build.log" 2>&1; then
	grep -E 'error|Error' "$out/build.log" | head -40 >&2
	die "$kernel: modules build failed (log: $out/build.log)"
fi
log "$kernel built in $(($(date +%s) - start)) s"
echo "$out/arch/x86/boot/bzImage"
