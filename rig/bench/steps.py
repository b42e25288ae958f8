# gdb script (rig/bench/steps.sh): single-step one call of a function in a
# guest and count the instructions it executed, by function.
#
# Parameters come from the environment:
#   IE_STEP_PORT   the guest's gdb stub port
#   IE_STEP_FUNC   the function whose calls are stepped
#   IE_STEP_SKIP   calls let go by first (cold caches, first inserts)
#   IE_STEP_CALLS  calls stepped (the per-function counts are summed)
#
# QEMU steps with interrupts and timers off, so a stepped call is the
# function's own path, nothing that would have interrupted it.  Prints
# "STEP <function> <instructions>" per function, then "STEP-TOTAL".
import collections
import os

import gdb

port = os.environ["IE_STEP_PORT"]
func = os.environ["IE_STEP_FUNC"]
skip = int(os.environ.get("IE_STEP_SKIP", "1000"))
calls = int(os.environ.get("IE_STEP_CALLS", "1"))
# IE_STEP_TRACE=1: also print each instruction stepped, "TRACE <insn>".
trace = os.environ.get("IE_STEP_TRACE", "") == "1"
limit = 200000

gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute(f"target remote :{port}")
gdb.execute(f"hbreak {func}")
bp = gdb.breakpoints()[-1]
bp.ignore_count = skip

inf = gdb.selected_inferior()
counts = collections.Counter()
total = 0
for c in range(calls):
    gdb.execute("continue", to_string=True)
    rsp0 = int(gdb.parse_and_eval("$rsp"))
    ret = int.from_bytes(bytes(inf.read_memory(rsp0, 8)), "little")
    pcs = collections.Counter()
    n = 0
    while n < limit:
        pc = int(gdb.parse_and_eval("$pc"))
        if pc == ret and int(gdb.parse_and_eval("$rsp")) > rsp0:
            break
        pcs[pc] += 1
        n += 1
        if trace:
            insn = gdb.execute("x/i $pc", to_string=True).strip().lstrip("=> ")
            print(f"TRACE {insn}")
        gdb.execute("stepi", to_string=True)
    else:
        print(f"STEP-ERROR no return after {limit} instructions")
    for pc, k in pcs.items():
        blk = gdb.block_for_pc(pc)
        while blk is not None and blk.function is None:
            blk = blk.superblock
        name = blk.function.name if blk is not None else None
        if name is None:
            name = gdb.execute(f"info symbol {pc:#x}", to_string=True).split()[0]
        counts[name] += k
    total += n
for name, k in counts.most_common():
    print(f"STEP {name} {k / calls:.1f}")
print(f"STEP-TOTAL {total / calls:.1f} instructions per call of {func}, {calls} calls")
gdb.execute("kill")
