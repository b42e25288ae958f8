# SPDX-License-Identifier: GPL-2.0
#
# Checks the records of a wakeup-latency synthetic event (fields pid and
# lat, microseconds) in a trace as the kernel's "trace" file or
# "trace-cmd report" prints it, against the sched_waking and
# sched_switch records of the same trace:
#   awk -v rec=EVENT -v out=DIR -f lat-check.awk TRACE
# Each record's sched_switch, just before it on its CPU, switched to its
# pid, and its latency is that record's time less the time of the pid's
# last sched_waking record before the switch (or one between the switch
# and the record: see below), both in microseconds as printed; each
# waking and each switch makes one record at most.
# A pid's first record may come from a waking before the trace began
# (setting the trace clock empties the buffer, and triggers may predate
# the recording): with no waking of the pid in the trace, it is counted
# as unchecked, and only then.  Writes DIR/records ("pid lat count" per
# pair) and DIR/max ("pid max"), prints a summary, and exits 0 when there
# were records, more checked than unchecked, and none wrong.
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
	rest = substr($0, RSTART + RLENGTH)
}
ev == "sched_waking" {
	pid = field(rest, "pid")
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
	swpid[cpu] = pid
	swt[cpu] = t
	if (pid in wake)
		pre[cpu] = wake[pid]
	else
		delete pre[cpu]
	next
}
ev == rec {
	pid = field(rest, "pid"); lat = field(rest, "lat") + 0
	n++
	cnt[pid " " lat]++
	if (!(pid in max) || lat > max[pid])
		max[pid] = lat
	if (swpid[cpu] != pid) {
		print "record " NR " (" $0 "): the switch before it is to " swpid[cpu]
		bad++
	} else if ((cpu in pre) && swt[cpu] - pre[cpu] == lat) {
		# Read once: that waking makes no other record.
		if (wake[pid] == pre[cpu])
			delete wake[pid]
		ok++
	} else if ((pid in wake) && (!(cpu in pre) || wake[pid] != pre[cpu]) &&
		   (swt[cpu] - wake[pid] == lat ||
		    (wake[pid] > swt[cpu] && lat >= 2 ^ 63))) {
		# A waking on another CPU, recorded after the switch but
		# seen by it: the trace orders records by the time they
		# were reserved, the variable is set after.  Its time may
		# even be later than the switch's (a negative latency).
		delete wake[pid]
		ok++
	} else if (!(pid in seen) && !(cpu in pre)) {
		unchecked++
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
	for (k in cnt)
		print k, cnt[k] > (out "/records")
	for (k in max)
		print k, max[k] > (out "/max")
	print "records " n + 0 ", checked " ok + 0 ", unchecked " unchecked + 0 ", wrong " bad + 0
	exit !(n > 0 && ok > unchecked && bad == 0)
}
