#!/usr/bin/env python3
"""Checks of rig/kcsan.py on console excerpts shaped as the kernel prints
KCSAN reports (kernel/kcsan/report.c: print_report()), and of
rig/report.py's splat scan around a hung test's task dump."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kcsan  # noqa: E402

CONSOLE = """\
[    1.000000] ie-test: START own test.d/inter_event/synth-onmax-smp.tc
[    2.000000] ==================================================================
[    2.000001] BUG: KCSAN: data-race in ie_onmax_update / ie_onmax_update
[    2.000002]
[    2.000003] write to 0xffff888004a1c0d8 of 8 bytes by task 201 on cpu 2:
[    2.000004]  ie_onmax_update+0x4e/0x90
[    2.000005]  ie_actions_run+0x1a2/0x300
[    2.000006]  event_triggers_call+0x8b/0x120
[    2.000007]
[    2.000008] read to 0xffff888004a1c0d8 of 8 bytes by task 202 on cpu 0:
[    2.000009]  ie_onmax_update+0x21/0x90
[    2.000010]  ie_actions_run+0x1a2/0x300
[    2.000011]
[    2.000012] value changed: 0x0000000000000010 -> 0x0000000000000020
[    2.000013]
[    2.000014] Reported by Kernel Concurrency Sanitizer on:
[    2.000015] CPU: 0 UID: 0 PID: 202 Comm: hackbench Not tainted 6.12.118 #1
[    2.000016] ==================================================================
[    3.000000] ie-test: START own test.d/inter_event/hist-keys-vals.tc
[    4.000000] ==================================================================
[    4.000001] BUG: KCSAN: data-race in rcu_sched_clock_irq / tick_sched_do_timer
[    4.000002]
[    4.000003] read to 0xffffffff82a0c3c0 of 8 bytes by interrupt on cpu 1:
[    4.000004]  rcu_sched_clock_irq+0x12/0x400
[    4.000005]  update_process_times+0x9a/0xd0
[    4.000006]
[    4.000007] write to 0xffffffff82a0c3c0 of 8 bytes by interrupt on cpu 3:
[    4.000008]  tick_sched_do_timer+0x20/0x90
[    4.000009]
[    4.000010] Reported by Kernel Concurrency Sanitizer on:
[    4.000011] ==================================================================
[    5.000000] fuzz: case 17
[    5.000001] ==================================================================
[    5.000002] BUG: KCSAN: data-race in ring_buffer_lock_reserve+0x33/0x120
[    5.000003]
[    5.000004] race at unknown origin, with read to 0xffff888 of 8 bytes by task 9 on cpu 1:
[    5.000005]  ring_buffer_lock_reserve+0x33/0x120
[    5.000006]  ie_trace_action+0x70/0x200
[    5.000007] ==================================================================
[    6.000000] BUG: kernel NULL pointer dereference, address: 0000000000000000
"""

SYMS = {"ie_onmax_update", "ie_actions_run", "ie_trace_action"}


class Reports(unittest.TestCase):
    def setUp(self):
        self.lines = CONSOLE.splitlines()
        self.found = kcsan.reports(self.lines, SYMS)

    def test_three_reports(self):
        self.assertEqual(len(self.found), 3)

    def test_ours_by_the_accessing_function(self):
        self.assertEqual([r["ours"] for r in self.found], [True, False, False])
        # A frame of ours below another function's access: listed as such.
        self.assertEqual([r["via_ours"] for r in self.found], [True, False, True])
        self.assertEqual(self.found[2]["our_frames"], ["ie_trace_action"])

    def test_attributed_to_the_last_marker(self):
        self.assertEqual([r["where"] for r in self.found],
                         ["test.d/inter_event/synth-onmax-smp.tc",
                          "test.d/inter_event/hist-keys-vals.tc", "case 17"])

    def test_title(self):
        self.assertEqual(self.found[1]["title"],
                         "data-race in rcu_sched_clock_irq / tick_sched_do_timer")

    def test_in_report_leaves_other_splats(self):
        inside = kcsan.in_report(self.lines)
        kept = [l for l, i in zip(self.lines, inside) if not i and "BUG:" in l]
        self.assertEqual(len(kept), 1)
        self.assertIn("NULL pointer", kept[0])

    def test_cut_short_report_hides_no_later_splat(self):
        lines = [
            "[ 1.0] BUG: KCSAN: data-race in a / b",
            "[ 1.1] read to 0xffff of 8 bytes by task 1 on cpu 0:",
            "[ 1.2]  ie_x+0x1/0x2 [ie_mod]",
            "[ 1.3] ie-test: START own test.d/inter_event/next.tc",
            "[ 1.4] BUG: kernel NULL pointer dereference, address: 0",
            "[ 1.5] Oops: 0000 [#1] PREEMPT SMP",
        ]
        inside = kcsan.in_report(lines)
        self.assertEqual(inside, [True, True, True, False, False, False])
        found = kcsan.reports(lines, {"ie_x"})
        self.assertEqual(len(found), 1)
        self.assertTrue(found[0]["ours"])
        self.assertEqual(found[0]["where"], None)

    def test_report_bounded(self):
        lines = ["BUG: KCSAN: data-race in a / b"] + ["x"] * 1000 + ["WARNING: at y"]
        inside = kcsan.in_report(lines)
        self.assertEqual(sum(inside), kcsan.MAXLINES)
        self.assertFalse(inside[-1])

    def test_summary_ours_first(self):
        s = kcsan.summary(self.found)
        self.assertTrue(s[0].startswith("OURS"))
        self.assertTrue(s[-1].startswith("elsewhere"))



class TaskDump(unittest.TestCase):
    """A hung test's task dump is no splat; what follows it may be."""

    def test_dump_skipped_later_splat_found(self):
        import report
        text = "\n".join([
            "[ 1.0] ie-test: START extra test.d/extra/hang-forever.tc",
            "[ 2.0] ie-rig: task dump begin",
            "[ 2.1] sysrq: Show State",
            "[ 2.2] Call Trace:",
            "[ 2.3] ie-rig: task dump end",
            "[ 2.4] WARNING: CPU: 0 PID: 1 at kernel/trace/x.c:1",
            "[ 3.0] ie-rig: task dump begin",
            "[ 3.1] Call Trace:",
            "[ 4.0] ie-test: START own test.d/inter_event/next.tc",
            "[ 4.1] Call Trace:",
        ])
        found = report.find_splats(text)
        self.assertEqual(len(found), 2)
        self.assertTrue(found[0].startswith("WARNING: "))
        self.assertEqual(found[1], "Call Trace:")

class InjectedAllocFailure(unittest.TestCase):
    """An injected allocation failure's warning is no splat, only there."""

    def test_warn_alloc_skipped_in_window_only(self):
        import report
        text = "\n".join([
            "[ 1.0] ie-test: START own test.d/inter_event/hist-json-take-nomem.tc",
            "[ 1.1] ie-rig: fault injection begin",
            "[ 1.2] busybox: vmalloc error: size 16384, vm_struct allocation failed",
            "[ 1.3] CPU: 0 UID: 0 PID: 13711 Comm: busybox",
            "[ 1.4] Tainted: [N]=TEST",
            "[ 1.5] Hardware name: QEMU Standard PC",
            "[ 1.6] Call Trace:",
            "[ 1.7] BUG: KASAN: slab-out-of-bounds in ie_take_event",
            "[ 1.8] Call Trace:",
            "[ 1.9] ie-rig: fault injection end",
            "[ 2.0] busybox: vmalloc error: size 16384, vm_struct allocation failed",
            "[ 2.1] Call Trace:",
        ])
        found = report.find_splats(text)
        self.assertEqual(found, ["BUG: KASAN: slab-out-of-bounds in ie_take_event",
                                 "Call Trace:", "Call Trace:"])


if __name__ == "__main__":
    unittest.main()
