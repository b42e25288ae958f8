# SPDX-License-Identifier: GPL-2.0
#
# Checks the records of a wakeup-latency synthetic event (fields pid and
# lat, microseconds) in a trace as the kernel's "trace" file or
# "trace-cmd report" prints it, against the sched_waking and
# sched_switch records of the same trace:
#   awk -v rec=EVENT -v out=DIR -f lat-check.awk TRACE
#
# Each record's sched_switch, just before it on its CPU, switched to its
# pid, and its latency is that record's time less the time of the pid's
# last sched_waking record before the switch (or one between the switch
# and the record: see below), both in microseconds as printed; each
# waking and each switch makes one record at most.
#
# A record before any switch on its CPU, or a pid's first record when no
# waking of the pid is in the trace and the latency puts its waking no
# later than the time the trace is whole from (the latest of the CPUs'
# first records), may come from before the trace began
# (setting the trace clock empties the buffer; triggers may predate the
# recording): counted as unchecked.
#
# Between the first record and the last (while the trigger making them
# is there), a switch to a pid with a waking recorded and not yet used
# must make a record: one that does not is missed.  A waking recorded on
# another CPU just before the switch may have set its variable just
# after the switch read it (the trace orders records by the time they
# were reserved): a few misses are that race; many are lost events.
#
# The same race, a variable set just after a switch read it, may leave
# an older waking's value for the switch to use, or show a waking in
# the same microsecond nowhere near: the trace does not say when a
# variable was set.  Such records are wrong here, and a few (a hundredth
# of the records, plus two) are that race; a wrong computation makes
# them all wrong.
#
# Writes DIR/records ("pid lat count" per pair) and DIR/max ("pid max"),
# prints a summary, and exits 0 when there were records, more checked
# than unchecked, at most a hundredth wrong and a tenth missed (each plus
# two).  Latencies are kept as printed: a negative one is a u64.

# busybox awk reads "0123" as octal: the microseconds lose their zeros.
function us(s,  a, u) {
	split(s, a, ".")
	u = a[2]
	sub(/^0+/, "", u)
	return a[1] * 1000000 + u
}
function field(s, name,  i, v) {
	i = index(" " s, " " name "=")
	if (!i)
		return ""
	v = substr(s, i + length(name) + 1)
	sub(/[^0-9].*/, "", v)
	return v
}
# Does the printed latency @l (a u64) equal @d microseconds, which may be
# negative (a waking stamped after the switch)?  No floating point: the
# guest's awk has no math support and u64s are past a double's precision.
function is_lat(l, d) {
	if (d >= 0)
		return l == d ""
	return l == "1844674407" sprintf("%010.0f", 3709551616 + d)
}
# @a > @b, both unsigned decimal strings.
function gt(a, b) {
	if (length(a) != length(b))
		return length(a) > length(b)
	return a > b
}
# A switch that made no record: its waking is expected no more (a later
# switch may still use it, if it set its variable late: stale).
function miss(c,  q) {
	if (expect[c] != "") {
		nm++
		mnr[nm] = NR
		mtxt[nm] = "missed: the switch at " expt[c] " to " expect[c] " on cpu " c " made no record"
		q = expect[c]
		if ((q in wake) && wake[q] == pre[c]) {
			stale[q] = wake[q]
			delete wake[q]
		}
		expect[c] = ""
	}
}
/^#/ { next }
# Only just after: a waking further on is not the one the record saw.
{
	for (p in pend)
		if (NR - pend[p] > 20) {
			print "record " pend[p] " (" pendl[p] "): the trace gives no waking"
			bad++
			delete pend[p]
		}
}
{
	if (!match($0, /\[[0-9]+\]/))
		next
	cpu = substr($0, RSTART + 1, RLENGTH - 2)
	sub(/^0+/, "", cpu)
	if (!match($0, / [0-9]+\.[0-9]+: [a-z_]+: /))
		next
	split(substr($0, RSTART + 1, RLENGTH - 3), p, ": ")
	t = us(p[1])
	ev = p[2]
	# Each CPU's buffer starts on its own: the trace is whole from the
	# latest of their first records on.
	if (!(cpu in first)) {
		first[cpu] = t
		if (t > whole)
			whole = t
	}
	rest = substr($0, RSTART + RLENGTH)
}
ev == "sched_waking" {
	pid = field(rest, "pid")
	delete stale[pid]
	# A record waiting for this waking (see below) takes it.
	if ((pid in pend) && pendt[pid] == t) {
		delete pend[pid]
		ok++
		next
	}
	wake[pid] = t
	next
}
# The pid's last waking before the switch, as the switch saw it.
ev == "sched_switch" {
	pid = field(rest, "next_pid")
	miss(cpu)
	swpid[cpu] = pid
	swt[cpu] = t
	if (pid in wake) {
		pre[cpu] = wake[pid]
		expect[cpu] = pid
		expt[cpu] = t
	} else
		delete pre[cpu]
	next
}
ev == rec {
	pid = field(rest, "pid")
	lat = field(rest, "lat")
	if (!n)
		firstrec = NR
	lastrec = NR
	n++
	cnt[pid " " lat]++
	if (!(pid in max) || gt(lat, max[pid]))
		max[pid] = lat
	if (expect[cpu] == pid)
		expect[cpu] = ""
	if (!(cpu in swt)) {
		unchecked++
	} else if (swpid[cpu] != pid) {
		print "record " NR " (" $0 "): the switch before it is to " swpid[cpu]
		bad++
	} else if ((cpu in pre) && is_lat(lat, swt[cpu] - pre[cpu])) {
		# Read once: that waking makes no other record.
		if (wake[pid] == pre[cpu])
			delete wake[pid]
		ok++
	} else if ((pid in wake) && (!(cpu in pre) || wake[pid] != pre[cpu]) &&
		   is_lat(lat, swt[cpu] - wake[pid])) {
		# A waking on another CPU, recorded after the switch but
		# seen by it: the trace orders records by the time they
		# were reserved, the variable is set after.  Its time may
		# even be later than the switch's (a negative latency).
		delete wake[pid]
		ok++
	} else if ((pid in stale) && is_lat(lat, swt[cpu] - stale[pid])) {
		delete stale[pid]
		ok++
	} else if (!(pid in seen) && !(cpu in pre)) {
		# Its waking, if before the trace: decided at the end.
		un[NR] = $0
		unt[NR] = swt[cpu]
		unl[NR] = lat
	} else if (!(cpu in pre) && !(pid in pend)) {
		# Timestamps of different CPUs agree within a clock's skew:
		# a waking on another CPU, in the same microsecond as the
		# switch, may be ordered after the record.  It must come
		# within the next lines, at the time the latency gives.
		pend[pid] = NR
		pendt[pid] = swt[cpu] - lat
		pendl[pid] = $0
	} else {
		print "record " NR " (" $0 "): the trace gives " \
			((cpu in pre) ? swt[cpu] - pre[cpu] : "no waking")
		bad++
	}
	seen[pid] = 1
	# Each switch makes one record at most.
	swpid[cpu] = ""
}
END {
	for (p in pend) {
		print "record " pend[p] " (" pendl[p] "): the trace gives no waking"
		bad++
	}
	# The last switch of each CPU may end the trace before its record.
	for (r in un) {
		if (length(unl[r]) < 15 && unt[r] - unl[r] > whole) {
			print "record " r " (" un[r] "): its waking would be in the trace"
			bad++
		} else
			unchecked++
	}
	# Before the first record and after the last, the trigger making
	# them was not there yet, or no more.
	for (i = 1; i <= nm; i++)
		if (mnr[i] > firstrec && mnr[i] < lastrec && ++missed <= 5)
			print mtxt[i]
	for (k in cnt)
		print k, cnt[k] > (out "/records")
	for (k in max)
		print k, max[k] > (out "/max")
	print "records " n + 0 ", checked " ok + 0 ", unchecked " unchecked + 0 \
		", wrong " bad + 0 ", missed " missed + 0
	exit !(n > 0 && ok > unchecked && bad <= n / 100 + 2 && missed <= n / 10 + 2)
}
