#!/bin/sh
# Differential fuzz job: run the cases of /ie/fuzz-cases (made by
# rig/fuzz/gen.py, format described there) from case $IE_FUZZ_START on,
# over a deterministic workload, printing each command's result and the
# trigger, hist and synthetic event files it leaves; clean up after each
# case.  rig/fuzz.sh runs it on the ref and ie kernels and compares.
#
# Dumps and cleanup use shell builtins only (no cat, no grep): forks and
# execs while triggers are active would count in them.  A write that may
# fail uses "true", not ":": a special builtin's failed redirection ends
# the shell.
T=/sys/kernel/tracing
CASES=/ie/fuzz-cases
MODKO=/lib/ie-modules/trace-events-sample.ko
MOD=trace_events_sample
START=${IE_FUZZ_START:-0}
cd $T || exit 1
[ -f $CASES ] || { echo "no case file $CASES"; exit 1; }
set -f

# Print a file through builtins; comment lines too unless $2 = nocomment.
show() { # file [nocomment]
	[ -e "$1" ] || { echo "(no $1)"; return; }
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in
		'#'*) [ "${2:-}" = nocomment ] && continue ;;
		esac
		printf '%s\n' "$l"
	done <"$1"
}

# The workload: fixed reads and writes by head, fixed trace_marker
# writes, a fixed number of forks and execs by a child sh.
workload() {
	head -c 300 /dev/zero >/dev/null
	head -c 10000 /dev/zero >/dev/null
	head -c 5 /dev/zero >/dev/null
	head -c 300 /dev/zero >/dev/null
	for s in alpha beta gamma beta alpha alpha 12345; do
		printf '%s\n' "$s" >trace_marker
	done
	/bin/sh -c '/bin/true; /bin/true x; /bin/false; /bin/true'
	worked=1
}

# The directory of event "[INST@]SYS/EVENT", in $D (no forks).
evdir() { # event
	case $1 in
	*@*) D=instances/${1%%@*}/events/${1#*@} ;;
	*) D=events/$1 ;;
	esac
}

touch_ev() { # event: remember it, first touched first
	case " $evs " in
	*" $1 "*) ;;
	*) evs="$evs $1" revs="$1 $revs" ;;
	esac
}

# The messages error_log (of the top level, and of the instance $1 if
# given) holds for command $k, as "err K: MESSAGE" lines: the host
# matches them against rig/fuzz/known-differences.txt, never compares
# them.
show_err() { # [instance]
	for el in error_log ${1:+instances/$1/error_log}; do
		[ -e "$el" ] || continue
		while IFS= read -r l; do
			case $l in
			*' error: '*) echo "err $k: ${l#* error: }" ;;
			esac
		done <"$el"
		true 2>/dev/null >"$el"
	done
}

run_cmd() { # line
	op=${1%% *}
	rest=${1#* }
	k=$((k + 1))
	true 2>/dev/null >error_log
	inst=
	case $rest in
	*@*/*) inst=${rest%%@*} ;;
	esac
	case $inst in
	*' '*) inst= ;;
	esac
	[ -z "$inst" ] || [ ! -d "instances/$inst" ] ||
		true 2>/dev/null >"instances/$inst/error_log"
	case $op in
	s) printf '%s\n' "$rest" 2>/dev/null >>synthetic_events ;;
	S) printf '%s\n' "$rest" 2>/dev/null >synthetic_events ;;
	t | T)
		ev=${rest%% *}
		spec=${rest#* }
		touch_ev "$ev"
		evdir "$ev"
		f=$D/trigger
		if [ ! -e "$f" ]; then
			echo "cmd $k nofile"
			return
		fi
		if [ "$op" = t ]; then
			printf '%s\n' "$spec" 2>/dev/null >>"$f"
		else
			printf '%s\n' "$spec" 2>/dev/null >"$f"
		fi
		;;
	e)
		touch_ev "$rest"
		enabled="$enabled $rest"
		evdir "$rest"
		echo 1 2>/dev/null >"$D/enable"
		;;
	i)
		insts="$insts $rest"
		mkdir "instances/$rest" 2>/dev/null
		;;
	I) rmdir "instances/$rest" 2>/dev/null ;;
	d) printf '%s\n' "$rest" 2>/dev/null >>dynamic_events ;;
	k) printf '%s\n' "$rest" 2>/dev/null >>kprobe_events ;;
	m)
		# The sample module: its events, and a load and unload.
		mods=1
		if [ "$rest" = load ]; then
			insmod $MODKO 2>/dev/null
		else
			rmmod $MOD 2>/dev/null
		fi
		;;
	w)
		workload </dev/null
		echo "cmd $k workload"
		return
		;;
	*) return ;;
	esac
	rc=$?
	if [ $rc = 0 ]; then
		echo "cmd $k ok"
	else
		echo "cmd $k fail"
		show_err "$inst"
	fi
}

synth_names() {
	names=
	while read -r l; do
		# shellcheck disable=SC2086 # split the line into words
		set -- $l
		[ $# -gt 0 ] && names="$names $1"
	done <synthetic_events
}

# The probes of dynamic_events (not its synthetic events), as
# "GROUP/NAME" in $probes, the lines themselves in $probe_lines.
list_probes() {
	probes= probe_lines=
	while IFS= read -r l; do
		case $l in
		[pre]:* | r[0-9]*:*)
			name=${l#*:}
			name=${name%% *}
			probes="$name $probes"
			probe_lines="$probe_lines
$l"
			;;
		esac
	done <dynamic_events
}

dump() {
	for ev in $evs; do
		echo "--- trigger $ev"
		evdir "$ev"
		show "$D/trigger" nocomment
	done
	for ev in $evs; do
		echo "--- hist $ev"
		evdir "$ev"
		show "$D/hist"
	done
	list_probes
	if [ -n "$probes" ]; then
		echo "--- probes$probe_lines"
	fi
	echo "--- synthetic_events"
	show synthetic_events
	synth_names
	for n in $names; do
		echo "--- format $n"
		show "events/synthetic/$n/format"
	done
	if [ -n "$enabled" ]; then
		echo "--- trace"
		show trace nocomment
		for i in $insts; do
			echo "--- trace $i"
			show "instances/$i/trace" nocomment
		done
	fi
}

# Our kernel's hist_json of each histogram, after the dump (nothing the
# host compares comes later), between hist read before and after it:
# "IE-JSONBEGIN case event", the JSON's lines as "IE-J line", the hist's
# as "IE-T line", then "IE-JSONEND quiet" when the two hist reads were the
# same (else "IE-JSONEND busy").  Builtins only, as the dump (a fork would
# be an event of some cases' histograms), and linear in the size: a
# histogram can be large (kmalloc by stack trace grows as it is read).
# The host checks the quiet pairs (rig/histjson.py, from rig/fuzz/compare.py).
JP_MAX=20000	# lines of a document
# Copy file $1 to $2 by lines; 1 when it has more than JP_MAX.
jp_copy() {
	n=0
	while IFS= read -r l || [ -n "$l" ]; do
		n=$((n + 1))
		[ $n -le $JP_MAX ] || return 1
		printf '%s\n' "$l"
	done <"$1" >"$2" 2>/dev/null
}
# Whether files $1 and $2 have the same lines.
jp_same() {
	exec 5<"$1" 6<"$2"
	while :; do
		e1=0 e2=0
		IFS= read -r x <&5 || e1=1
		IFS= read -r y <&6 || e2=1
		if [ $e1 != $e2 ] || [ "$x" != "$y" ]; then
			exec 5<&- 6<&-
			return 1
		fi
		[ $e1 = 0 ] || break
	done
	exec 5<&- 6<&-
}
jp_print() { # prefix file
	while IFS= read -r l; do
		printf '%s %s\n' "$1" "$l"
	done <"$2"
}
json_pairs() {
	for ev in $evs; do
		evdir "$ev"
		[ -e "$D/hist_json" ] || continue
		echo "IE-JSONBEGIN $cn $ev"
		if jp_copy "$D/hist" /tmp/ie-ja && jp_copy "$D/hist_json" /tmp/ie-jj &&
			jp_copy "$D/hist" /tmp/ie-jb; then
			jp_print IE-J /tmp/ie-jj
			jp_print IE-T /tmp/ie-ja
			if jp_same /tmp/ie-ja /tmp/ie-jb; then
				echo "IE-JSONEND quiet"
				continue
			fi
		fi
		echo "IE-JSONEND busy"
	done
}

# Every trigger must go by the line its trigger file lists (referring
# triggers go before those they refer to, so a refusal may only mean
# "not yet" until the last pass); what stays is reported below.
remove_triggers() { # event
	evdir "$1"
	f=$D/trigger
	[ -e "$f" ] || return
	list=
	while IFS= read -r l; do
		case $l in
		'#'* | '') continue ;;
		esac
		l=${l% \[active\]}
		l=${l% \[paused\]}
		list="$l
$list"
	done <"$f"
	while IFS= read -r l; do
		[ -n "$l" ] || continue
		printf '!%s\n' "$l" 2>/dev/null >>"$f" || :
	done <<EOF
$list
EOF
}

left_triggers() { # -> $left: the triggers still on the touched events
	left=
	for ev in $revs; do
		evdir "$ev"
		f=$D/trigger
		[ -e "$f" ] || continue
		while IFS= read -r l; do
			case $l in
			'#'* | '') ;;
			*) left="$left [$ev: $l]" ;;
			esac
		done <"$f"
	done
}

cleanup() {
	for ev in $enabled; do
		evdir "$ev"
		echo 0 2>/dev/null >"$D/enable"
	done
	# Referring triggers go first: reverse order, and a few passes.
	for _ in 1 2 3; do
		for ev in $revs; do
			remove_triggers "$ev"
		done
	done
	left_triggers
	[ -z "$left" ] || echo "!!! removal by the listed spec refused:$left"
	for ev in $revs; do
		evdir "$ev"
		[ -e "$D/trigger" ] && true 2>/dev/null >"$D/trigger"
	done
	left_triggers
	[ -z "$left" ] || echo "!!! triggers left after truncation:$left"
	# Probes before the synthetic events an eprobe may hold.
	list_probes
	for pr in $probes; do
		printf -- '-:%s\n' "$pr" 2>/dev/null >>dynamic_events
	done
	list_probes
	[ -z "$probes" ] || echo "!!! probes left:$probes"
	synth_names
	for n in $names; do
		printf '!%s\n' "$n" 2>/dev/null >>synthetic_events
	done
	synth_names
	[ -z "$names" ] || echo "!!! synthetic event removal refused:$names"
	true 2>/dev/null >synthetic_events
	true 2>/dev/null >trace
	synth_names
	[ -z "$names" ] || echo "!!! synthetic events left after truncation:$names"
	for i in $insts; do
		[ -d "instances/$i" ] || continue
		rmdir "instances/$i" 2>/dev/null || echo "!!! instance $i not removed"
	done
	if [ "$mods" = 1 ] && [ -d events/sample-trace ]; then
		rmmod $MOD 2>/dev/null || echo "!!! module $MOD not unloaded"
	fi
}

echo "fuzz: from case $START, kernel $(uname -r)"
echo 0 >tracing_on
echo 1 >tracing_on
skip=1
while IFS= read -r line; do
	case $line in
	'#'* | '') ;;
	'case '*)
		n=${line#case }
		n=${n%% *}
		if [ "$n" -lt "$START" ]; then
			skip=1
			continue
		fi
		skip=0
		cn=$n	# (dump() uses $n for its own loop)
		echo "=== case $n"
		echo "fuzz: case $n" >/dev/kmsg
		evs='' revs='' enabled='' insts='' k=0 worked=0 mods=0
		;;
	end)
		[ $skip = 0 ] || continue
		[ "$worked" = 1 ] || { workload </dev/null; echo "cmd workload"; }
		dump
		json_pairs
		cleanup
		;;
	tag\ * | mask\ * | nodata) ;;
	*)
		[ $skip = 0 ] || continue
		run_cmd "$line"
		;;
	esac
done <$CASES
echo "=== end"
