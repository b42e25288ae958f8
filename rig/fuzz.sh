#!/bin/bash
# Random differential testing against the stock hist triggers.
# usage: fuzz.sh SEEDS N [KERNELS]   (SEEDS: 4, 1,2,3 or 1-5; KERNELS
#        default "ref ie"; "ref debug" runs ours on the debug kernel,
#        "ref kcsan" on the KCSAN kernel: set IE_KCSAN_SYMS, see
#        rig/kcsan.py, for its reports elsewhere not to fail the run)
#
# Generates N cases from each SEED (rig/fuzz/gen.py), boots each kernel with the
# fuzz job (rig/guest/jobs/fuzz.sh) and, when a boot ends before the last
# case (crash, oops, hang), records the case it ended in and boots again
# from the next one.  The kernels boot at the same time, each in its own
# guest, and print their progress every minute.  Then compares the kernels case by case
# (rig/fuzz/compare.py) and exits non-zero on an unexplained difference or
# on a crash or splat of ie.  Output in $OUT/fuzz-SEED (default out/).
# The run holds /tmp/heavy.lock (rig/lib.sh: heavy_lock): the machine is
# shared.
set -u
. "$(dirname "$0")/lib.sh"
heavy_lock

seed=${1:-1}
case $seed in
*-*) seed=$(seq -s, "${seed%-*}" "${seed#*-}") ;;
esac
n=${2:-300}
nper=$n
kernels=${3:-ref ie}
out=${OUT:-$TOP/out}/fuzz-$seed
# A boot that shows no progress for this long is stopped (a hang).
stall=${IE_FUZZ_STALL:-180}

rm -rf "$out"
mkdir -p "$out"
python3 "$RIG/fuzz/gen.py" "$seed" "$n" >"$out/cases.txt" || die "gen.py failed"
n=$(grep -c '^case ' "$out/cases.txt")
export IE_FUZZ_CASES=$out/cases.txt
t0=$(date +%s)

# Build first, so that a boot's stall clock does not run while it builds
# and the two boots do not compete with a build.
declare -A image
for k in $kernels; do
	image[$k]=$("$RIG/build.sh" "$k") || die "$k: build failed"
done
"$RIG/accel.sh" "${image[${kernels##* }]}" >/dev/null

# Boot kernel $1 from case $2 into $3; stop it if results.log stalls.
boot() { # kernel start dir
	local k=$1 start=$2 dir=$3 pid last now size=-1 seen shown
	mkdir -p "$dir"
	IE_APPEND="${IE_APPEND:-} IE_FUZZ_START=$start" \
		IE_BOOT_TIMEOUT=$((300 + 6 * (n - start))) \
		IE_IMAGE=${image[$k]} setsid -w "$RIG/run.sh" "$k" fuzz "$dir" \
		>"$dir/run.log" 2>&1 &
	pid=$!
	last=$(date +%s)
	shown=$last
	while kill -0 "$pid" 2>/dev/null; do
		sleep 5
		now=$(date +%s)
		seen=$(stat -c %s "$dir/results.log" 2>/dev/null || echo -1)
		if [ $((now - shown)) -ge 60 ]; then
			shown=$now
			progress "$k" "$(tr -d '\r' <"$dir/results.log" 2>/dev/null |
				sed -n 's/^=== case \([0-9]*\)$/\1/p' | tail -n 1)"
		fi
		if [ "$seen" != "$size" ]; then
			size=$seen
			last=$now
		elif [ "$seen" -gt 0 ] && [ $((now - last)) -gt "$stall" ]; then
			log "$k: no progress for ${stall}s, stopping the boot"
			echo "fuzz: stopped after ${stall}s without progress" >>"$dir/console.log"
			kill -TERM -- "-$pid" 2>/dev/null
			sleep 2
			kill -KILL -- "-$pid" 2>/dev/null
			break
		fi
	done
	wait "$pid" 2>/dev/null
}

progress() { # kernel case: which seed, how far
	local c=${2:-0} i
	[ -n "$2" ] || return 0
	i=$((c / nper))
	log "fuzz: [$(elapsed "$t0")] $1: seed $(echo "$seed" | cut -d, -f$((i + 1)))," \
		"case $((c % nper + 1)) of $nper; $((c + 1)) of $n in all"
}

elapsed() { # t0: mm:ss since then
	local s=$(($(date +%s) - $1))
	printf '%02d:%02d' $((s / 60)) $((s % 60))
}

fuzz_kernel() { # kernel
	local k=$1 start=0 b=0 label dir last
	# The debug and KCSAN kernels are ours: compared as ie.
	label=$k
	case $k in debug | kcsan) label=ie ;; esac
	while [ "$start" -lt "$n" ]; do
		dir=$out/$label-$b
		log "fuzz: $k boot $b from case $start"
		boot "$k" "$start" "$dir"
		# The serial port ends lines with CR LF.
		tr -d '\r' <"$dir/results.log" >"$dir/results.txt" 2>/dev/null
		grep -q '^=== end' "$dir/results.txt" && break
		last=$(sed -n 's/^=== case \([0-9]*\)$/\1/p' "$dir/results.txt" | tail -n 1)
		if [ -z "$last" ]; then
			log "$k: boot $b ran no case (see $dir/run.log); giving up on $k"
			break
		fi
		log "$k: boot $b ended in case $last"
		start=$((last + 1))
		b=$((b + 1))
	done
	log "fuzz: [$(elapsed "$t0")] $k: done"
}

for k in $kernels; do
	fuzz_kernel "$k" &
done
wait

python3 "$RIG/fuzz/compare.py" "$out" | tee "$out/summary.txt"
rc=${PIPESTATUS[0]}
log "fuzz: seed $seed, $n cases, took $(($(date +%s) - t0)) s (logs: $out)"
exit "$rc"
