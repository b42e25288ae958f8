# gdb script (rig/bench/steps.sh): single-step one call of a function in a
# guest and count the instructions it executed, by function.
#
# Parameters come from the environment:
#   IE_STEP_PORT   the guest's gdb stub port
#   IE_STEP_FUNC   the function whose calls are stepped
#   IE_STEP_SKIP   calls let go by first (cold caches, first inserts)
#   IE_STEP_CALLS  calls stepped (the per-function counts are summed)
#   IE_STEP_OUT    step from the stop at FUNCTION until this caller of it
#                  returns (the rest of the caller's path after FUNCTION)
#   IE_STEP_WINDOW step this many instructions from the stop at FUNCTION,
#                  whatever runs: a profile of the whole workload
#   IE_STEP_WANT   only count calls that run this function (others are
#                  stepped and dropped, up to IE_STEP_TRIES of them,
#                  default 500): a path that the first calls after the
#                  skip may not take
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
want = os.environ.get("IE_STEP_WANT", "")
out = os.environ.get("IE_STEP_OUT", "")
window = int(os.environ.get("IE_STEP_WINDOW", "0"))
tries_max = int(os.environ.get("IE_STEP_TRIES", "500"))
limit = window or 200000

gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute(f"target remote :{port}")
gdb.execute(f"hbreak {func}")
bp = gdb.breakpoints()[-1]
bp.ignore_count = skip

inf = gdb.selected_inferior()
counts = collections.Counter()
entries = collections.Counter()
total = 0

def fname(pc):
    """The function of @pc, and whether @pc is its entry."""
    blk = gdb.block_for_pc(pc)
    while blk is not None and blk.function is None:
        blk = blk.superblock
    name = blk.function.name if blk is not None else None
    if name is None:
        sym = gdb.execute(f"info symbol {pc:#x}", to_string=True).split()
        return sym[0], len(sym) > 1 and sym[1] == "in"
    return name, blk.start == pc


def step_call():
    gdb.execute("continue", to_string=True)
    rsp0 = int(gdb.parse_and_eval("$rsp"))
    ret = int.from_bytes(bytes(inf.read_memory(rsp0, 8)), "little")
    if out:
        frame = gdb.newest_frame()
        while frame is not None and frame.name() != out:
            frame = frame.older()
        if frame is None or frame.older() is None:
            print(f"STEP-ERROR {out} is not a caller")
            return 0, collections.Counter(), []
        ret = frame.older().pc()
        rsp0 = int(frame.older().read_register("rsp")) - 8
    pcs = collections.Counter()
    insns = []
    n = 0
    while n < limit:
        pc = int(gdb.parse_and_eval("$pc"))
        if not window and pc == ret and int(gdb.parse_and_eval("$rsp")) > rsp0:
            break
        pcs[pc] += 1
        n += 1
        if trace:
            insn = gdb.execute("x/i $pc", to_string=True).strip().lstrip("=> ")
            insns.append(insn)
        gdb.execute("stepi", to_string=True)
    else:
        if not window:
            print(f"STEP-ERROR no return after {limit} instructions")
    byname = collections.Counter()
    for pc, k in pcs.items():
        name, entry = fname(pc)
        byname[name] += k
        if entry:
            entries[name] += k
    return n, byname, insns


c = 0
tries = 0
while c < calls:
    n, byname, insns = step_call()
    if want and want not in byname:
        print(f"STEP-DROPPED {n} " + " ".join(f"{k}:{v}" for k, v in byname.most_common(6)))
        tries += 1
        if tries > tries_max:
            print(f"STEP-ERROR no call ran {want}")
            break
        continue
    for insn in insns:
        print(f"TRACE {insn}")
    counts.update(byname)
    total += n
    c += 1
for name, k in counts.most_common():
    print(f"STEP {name} {k / calls:.1f}")
# Calls: how often a function's first instruction ran (a window's).
for name, k in entries.most_common():
    print(f"STEP-CALLS {name} {k / calls:.1f}")
print(f"STEP-TOTAL {total / calls:.1f} instructions per call of {func}, {calls} calls")
gdb.execute("kill")
