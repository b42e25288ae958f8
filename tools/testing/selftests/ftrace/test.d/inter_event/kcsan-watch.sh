# SPDX-License-Identifier: GPL-2.0
# Sourced by the SMP tests.  On a KCSAN kernel (make check KCSAN=1),
# watch more often while the CPUs meet: KCSAN samples, a watchpoint every
# 4000 accesses or so per CPU by default, and the parallel phase of these
# tests is where a race of ours would be.  Elsewhere it does nothing.
#   kcsan_watch N   a watchpoint every N accesses or so
#   kcsan_watch     back to what it was
IE_KW=/sys/module/kcsan/parameters/skip_watch
ie_kw=
kcsan_watch() { # [N]
	test -w $IE_KW || return 0
	if [ -n "${1:-}" ]; then
		test -n "$ie_kw" || ie_kw=$(cat $IE_KW)
		echo "$1" > $IE_KW
	elif [ -n "$ie_kw" ]; then
		echo "$ie_kw" > $IE_KW
	fi
}
