#!/bin/bash
# make check: build the ie kernel, boot it, run our ftracetest suite (plus
# TESTS_EXTRA), the peer suite and KUnit, and report.  Exit 1 on failure.
# DEBUG=1 (or KERNEL=debug): the same on the debug kernel (KASAN, kmemleak,
# lockdep, fault injection), with longer timeouts and a kmemleak scan at the
# end; the side-by-side step is skipped unless SXS=1.
# KCSAN=1 (or KERNEL=kcsan): our tests and the fuzz seed set on the KCSAN
# kernel, on vCPUs that run at the same time (multi-threaded TCG); its
# reports are shown per test (rig/kcsan.py) and fail the run when they
# name our code.  No peer suite, no side-by-side step.
#
# The tests are shared out over IE_JOBS guests (default: one more than
# the host's cores: a guest under TCG idles a quarter of the time, in its
# tests' sleeps and waits; on the debug kernel, which keeps them busy,
# one a core), each its own QEMU, longest tests first by their last recorded
# durations (rig/split.py); KUnit runs in the first guest.  Results are
# printed as they arrive (rig/watch.py).  A test running longer than
# IE_STALL_S (600 s, 1800 s on the debug kernel) gets a task dump and
# counts as hung; a guest that prints nothing for IE_STALL_S + 120 s is
# stopped.
set -u
. "$(dirname "$0")/lib.sh"
heavy_lock

kernel=${KERNEL:-ie}
[ "${DEBUG:-0}" = 0 ] || kernel=debug
if [ "${KCSAN:-0}" != 0 ]; then
	[ "${DEBUG:-0}" = 0 ] || die "KCSAN=1 and DEBUG=1: one kernel at a time (KASAN excludes KCSAN)"
	kernel=kcsan
fi
out=${OUT:-$TOP/out}/check-$kernel
stall=${IE_STALL_S:-600}
if [ "$kernel" = debug ]; then
	# KASAN, kmemleak and lockdep under TCG: about a minute per test, and
	# the reliability stress test runs its full 60 s.  Variables on the
	# kernel command line reach the guest's init, hence tests.sh and the
	# tests, as environment.
	export IE_BOOT_TIMEOUT=${IE_BOOT_TIMEOUT:-7200}
	stall=${IE_STALL_S:-1800}
	IE_APPEND="${IE_APPEND:-} IE_STRESS_SECONDS=${IE_STRESS_SECONDS:-60}"
fi
if [ "$kernel" = kcsan ]; then
	# KCSAN samples (a watchpoint every 4000 accesses or so): the
	# stress and one-entry tests run longer than elsewhere.
	export IE_TCG=${IE_TCG:-multi} IE_BOOT_TIMEOUT=${IE_BOOT_TIMEOUT:-3600}
	stall=${IE_STALL_S:-1200}
	IE_APPEND="${IE_APPEND:-} IE_STRESS_SECONDS=${IE_STRESS_SECONDS:-30}"
	IE_APPEND="$IE_APPEND IE_ONE_ENTRY_WRITES=${IE_ONE_ENTRY_WRITES:-5000}"
fi
export IE_APPEND="${IE_APPEND:-} IE_STALL_S=$stall"
# The debug kernel's guests hardly idle (KASAN, kmemleak): one a core.
if [ "$kernel" = debug ]; then
	jobs=${IE_JOBS:-$(nproc)}
else
	jobs=${IE_JOBS:-$(($(nproc) + 1))}
fi
extra=${TESTS_EXTRA:-}
[ -z "$extra" ] || extra=$(cd "$extra" && pwd)
t0=$(date +%s)

rm -rf "$out"
mkdir -p "$out"
hostres() { # name status seconds: a result of a step run on the host
	echo "IE-RESULT own rig/$1 $2 $3" >>"$out/host-results.log"
}

# Build first: the builds would compete with the guests for the CPUs.
# The tree is brought up to date once; then this kernel (and the check
# that it rebuilds in seconds, below) and ref build side by side.
"$RIG/deps.sh" || exit 1
IE_TREE_DIR=$("$RIG/tree.sh") || exit 1
export IE_TREE_DIR
refpid= post_pid= gpids= chkpid=
# What still runs in the background when this ends early (a failed build,
# Ctrl-C) goes with it, children first (they ignore SIGINT).
kill_tree() { # pid
	local c
	for c in $(pgrep -P "$1" 2>/dev/null); do
		kill_tree "$c"
	done
	kill "$1" 2>/dev/null
}
cleanup_bg() {
	local p
	for p in $refpid $chkpid $post_pid $gpids; do
		kill -0 "$p" 2>/dev/null && kill_tree "$p"
	done
	return 0
}
trap cleanup_bg EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if [ "$kernel" != ref ]; then
	"$RIG/build.sh" ref >"$out/build-ref.out" 2>&1 &
	refpid=$!
fi
image=$("$RIG/build.sh" "$kernel") || exit 1
"$RIG/accel.sh" "$image" >/dev/null
tree=$(tree_dir)
# KCSAN: the functions of our code, which a report must not name.
syms=
if [ "$kernel" = kcsan ]; then
	syms=$out/ie-symbols.txt
	python3 "$RIG/kcsan.py" symbols "$(build_dir kcsan)" >"$syms" || die "no symbols"
fi

# An unchanged tree rebuilds without compiling anything, whoever calls:
# here with a rustc on PATH (whose version Kconfig would record) and our
# Makefile's variables in the environment and in MAKEFLAGS.  Beside the
# ref build; the guests start when both are done (started beside them,
# make check took 333 s rather than 304 s: the guests' split went wrong).
rebuild_check() {
	local t1 st fake
	t1=$(date +%s)
	st=PASS
	fake=$(mktemp -d)
	printf '#!/bin/sh\necho "rustc 1.95.0 (000000000 2026-01-01)"\n' >"$fake/rustc"
	chmod +x "$fake/rustc"
	# (Through tree.sh too, which must find nothing to change.)
	PATH=$fake:$PATH KERNEL=x DEBUG=1 MAKEFLAGS="-- KERNEL=x DEBUG=1" \
		env -u IE_TREE_DIR "$RIG/build.sh" "$kernel" >/dev/null 2>&1 || st=FAIL
	rm -rf "$fake"
	if grep -E '^ +(CC|LD|AR|AS|CHK|UPD)\b' "$(build_dir "$kernel")/build.log" >&2; then
		log "an unchanged $kernel tree was rebuilt (above)"
		st=FAIL
	fi
	hostres incremental-build $st $(($(date +%s) - t1))
}
rebuild_check &
chkpid=$!
wait "$chkpid"
chkpid=
if [ -n "$refpid" ]; then
	wait "$refpid" || { cat "$out/build-ref.out" >&2; exit 1; }
	grep '^\[rig\]' "$out/build-ref.out" >&2
	refpid=
fi

# Pure logic checked on the host: the fuzzer's list of known differences.
t1=$(date +%s)
st=PASS
python3 "$RIG/fuzz/test_compare.py" >"$out/test_compare.log" 2>&1 ||
	{ st=FAIL; tail -n 30 "$out/test_compare.log" >&2; }
hostres fuzz-known-differences $st $(($(date +%s) - t1))
t1=$(date +%s)
st=PASS
python3 "$RIG/test_kcsan.py" >"$out/test_kcsan.log" 2>&1 ||
	{ st=FAIL; tail -n 30 "$out/test_kcsan.log" >&2; }
hostres kcsan-reports $st $(($(date +%s) - t1))

# Every test, as "suite path" with the path under the guest's /ftrace.
{
	for f in "$TOP"/tools/testing/selftests/ftrace/test.d/inter_event/*.tc; do
		echo "own test.d/inter_event/${f##*/}"
	done
	[ -z "$extra" ] || (cd "$extra" && find . -name '*.tc' | sort |
		sed 's|^\./|extra test.d/extra/|')
	[ "$kernel" = kcsan ] ||
		(cd "$tree/tools/testing/selftests/ftrace" && find test.d/trigger test.d/dynevent -name '*.tc' |
			sort | sed 's|^|peer |')
} >"$out/tests"
seconds=$IE_CACHE/test-seconds-$kernel
log "$(wc -l <"$out/tests") tests over $jobs guests:" \
	"$(python3 "$RIG/split.py" "$out/tests" "$jobs" "$out/suites-" \
		"$RIG/test-seconds.txt" "$seconds")"
# The guests' bootconfig tool, built once before they start.
bootconfig_tool >/dev/null || die "no bootconfig tool"
for i in $(seq 1 "$jobs"); do
	g=$out/g$i
	mkdir -p "$g"
	mv "$out/suites-$i" "$g/suites"
	echo "g$i" >>"$out/guests"
	kunit=0
	[ "$i" = 1 ] && kunit=1
	(IE_IMAGE=$image IE_KUNIT=$kunit "$RIG/run.sh" "$kernel" tests "$g" \
		"$g/suites" "$extra" >"$g/run.log" 2>&1
	touch "$g/done") &
	gpids="$gpids $!"
done

# The side-by-side comparison boots the ref and ie kernels, not this one:
# on the debug kernel it would only repeat the plain run's comparison.
# Random differential tests, a fixed small seed set (make fuzz runs more):
# every difference from the stock kernel fixed or listed as known.  Both
# boot ref and ie: the fuzz step as soon as the first guest is done (the
# CPU it leaves would idle until the last one is), the side by side when
# the second is, so that the host is not crowded.
sxs=1
case $kernel in
ref | kcsan) sxs=0 ;;
debug) sxs=${SXS:-0} ;;
esac
post() {
	local sxs_pid= t1 st
	# Guests done: $1 or all of them.
	guests_done() {
		local n
		n=$(find "$out" -maxdepth 2 -name done -path "$out/g*" | wc -l)
		[ "$n" -ge "$1" ] || [ "$n" -ge "$jobs" ]
	}
	until guests_done 1; do
		sleep 2
	done
	if [ "$sxs" != 0 ]; then
		(until guests_done 2; do sleep 2; done
		OUT=$out "$RIG/sxs.sh" "$out/host-results.log" >"$out/sxs.out" 2>&1) &
		sxs_pid=$!
	fi
	if [ "$kernel" != ref ]; then
		t1=$(date +%s)
		st=PASS
		IE_KCSAN_SYMS=$syms OUT=$out "$RIG/fuzz.sh" 1,2,3 20 "ref $kernel" \
			>"$out/fuzz.log" 2>&1 || st=FAIL
		grep '^fuzz: \(PASS\|FAIL\)' "$out/fuzz.log"
		hostres "fuzz(seeds-1,2,3x20)" $st $(($(date +%s) - t1))
	fi
	if [ -n "$sxs_pid" ]; then
		wait "$sxs_pid" || true
		cat "$out/sxs.out"
	fi
}
post >"$out/post.out" 2>&1 &
post_pid=$!

# (Without the heavy lock: a watcher left behind by a killed run must
# not hold it.)
# (In the background, waited for: a signal to this script then stops
# the run at once.)
python3 "$RIG/watch.py" "$t0" $((stall + 120)) "$out"/g[0-9]* 8<&- &
wait $!
# shellcheck disable=SC2086
wait $gpids
gpids=
for i in $(seq 1 "$jobs"); do
	grep -q '^IE-JOB-END' "$out/g$i/results.log" 2>/dev/null || cat "$out/g$i/run.log" >&2
done
log "guests done after $(($(date +%s) - t0)) s"
wait "$post_pid"
post_pid=
cat "$out/post.out"
log "side by side and fuzz done after $(($(date +%s) - t0)) s"


# What must have a result: every test, and every step run on the host.
{
	cat "$out/tests"
	echo "own rig/incremental-build"
	echo "own rig/fuzz-known-differences"
	echo "own rig/kcsan-reports"
	case $kernel in
	ref | kcsan) ;;
	debug)
		echo "own rig/kmemleak"
		[ "${SXS:-0}" = 0 ] || echo "own rig/sxs(ref-vs-ie)"
		;;
	*) echo "own rig/sxs(ref-vs-ie)" ;;
	esac
	[ "$kernel" = ref ] || echo "own rig/fuzz(seeds-1,2,3x20)"
} >"$out/expect"
# Fault injection needs the debug kernel's failslab: elsewhere it may skip.
args=(--expect "$out/expect" --record "$seconds")
[ "$kernel" = kcsan ] || args+=(--required "$RIG/peer-required.txt")
[ "$kernel" = debug ] || args+=(--may-skip reliability-failslab.tc --may-skip hist-json-take-nomem.tc)
[ "$kernel" = ref ] || args+=(--kunit-src "$TOP/kernel/trace/inter_event")
[ -z "$syms" ] || args+=(--kcsan "$syms")
python3 "$RIG/report.py" "$out" "${args[@]}"
rc=$?
log "make check took $(($(date +%s) - t0)) s (logs: $out)"
exit $rc
