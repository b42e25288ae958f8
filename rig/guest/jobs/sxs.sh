#!/bin/sh
# Side-by-side job: the same hist triggers over a deterministic workload,
# printing every hist file and trigger listing.  The host runs it on the
# ref and ie kernels and compares the outputs (rig/sxs.sh).
T=/sys/kernel/tracing
cd $T || exit 1

section() { echo "=== $*"; }

# Workload: fixed writes from busybox dd and fixed trace_marker strings.
workload() {
	for n in 1 2 3; do
		dd if=/dev/zero of=/dev/null bs=$((n * 100 + 7)) count=$((n * 3)) 2>/dev/null
	done
	dd if=/dev/zero of=/dev/null bs=4096 count=5 2>/dev/null
	for s in alpha beta gamma beta alpha alpha; do
		echo "$s" >trace_marker
	done
}

run_case() { # event trigger-spec...
	ev=$1
	shift
	for spec in "$@"; do
		echo "$spec" >>events/$ev/trigger || echo "write failed: $spec"
	done
	workload
	section "$ev: $*"
	echo "--- trigger"
	cat events/$ev/trigger
	echo "--- hist"
	cat events/$ev/hist
	for spec in "$@"; do
		echo "!${spec%% if *}" >>events/$ev/trigger 2>/dev/null
	done
	echo >events/$ev/trigger
}

W='syscalls/sys_enter_write'
run_case $W 'hist:keys=count if comm=="dd"'
run_case $W 'hist:keys=count:vals=hitcount,count:sort=count.descending if comm=="dd"'
run_case $W 'hist:keys=count.hex:vals=count.hex if comm=="dd"'
run_case $W 'hist:keys=count.buckets=500:vals=count if comm=="dd"'
run_case $W 'hist:keys=fd,count:vals=count:sort=fd,count if comm=="dd"'
run_case $W 'hist:keys=count:vals=fd:sort=hitcount.descending,count if comm=="dd"'
run_case $W 'hist:keys=count:size=256 if comm=="dd"'
run_case $W 'hist:keys=count:nohitcount:vals=fd if comm=="dd"' 
run_case $W 'hist:keys=count:vals=count.percent if comm=="dd"'
run_case $W 'hist:keys=count:vals=hitcount.graph,count if comm=="dd"'
run_case $W 'hist:keys=count:pause if comm=="dd"'
run_case $W 'hist:keys=count if comm=="dd"' 'hist:keys=fd:vals=count if count > 300'
run_case raw_syscalls/sys_enter 'hist:keys=id.syscall:sort=id if comm=="dd"'
F='sched/sched_process_fork'
X='sched/sched_process_exec'
run_case $F 'hist:keys=parent_comm,child_comm if parent_comm=="sxs.sh"'
run_case $F 'hist:keys=child_comm:vals=hitcount:sort=child_comm.descending if parent_comm=="sxs.sh"'
run_case $X 'hist:keys=filename if comm=="dd"'
run_case $X 'hist:keys=filename.hex,old_pid.hex:nohitcount:vals=hitcount if comm=="dd"'
run_case $W 'hist:name=shared:keys=count if comm=="dd"'
run_case $W 'hist:keys=count:name=shared2:vals=fd:sort=count if comm=="dd"'
run_case $W 'hist:keys=count.log2 if comm=="dd"'
run_case $W 'hist:keys=count:vals=count.hex if comm=="dd"' 'hist:keys=count:vals=count.hex:clear'
run_case $W 'hist:keys=count:vals=fd:sort=fd.descending,count.descending if comm=="dd"'
run_case $W 'hist:keys=fd.hex,count.hex:vals=count if comm=="dd"'
run_case $W 'hist:keys=count:size=128 if comm=="dd"'
