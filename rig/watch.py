#!/usr/bin/env python3
"""Follow guests while they run: print each result as it arrives, and stop
a guest that has printed nothing for too long.

usage: watch.py T0 STALL_S DIR...

Each DIR is a guest's output folder (rig/run.sh); its name labels the
guest.  Prints "[mm:ss gN] STATUS suite/test N s" for every IE-RESULT
line of DIR/results.log, measured from T0 (epoch seconds).  A guest whose
results.log has not grown for STALL_S seconds is stopped (its QEMU,
DIR/qemu.pid, is killed); the test it was running (its last IE-START
without a result) is recorded in DIR/host-results.log as HUNG and the
console's tail is printed.  Returns when every DIR has a file "done"
(written when its run.sh ended).
"""
import os
import re
import signal
import sys
import time


def elapsed(t0):
    s = int(time.time() - t0)
    return f"{s // 60:02d}:{s % 60:02d}"


def short(tc):
    return re.sub(r"^test\.d/(inter_event/|extra/)?", "", tc)


def main():
    t0, stall = float(sys.argv[1]), float(sys.argv[2])
    dirs = sys.argv[3:]
    pos = {d: 0 for d in dirs}
    grown = {d: time.time() for d in dirs}
    running = {d: None for d in dirs}
    stopped = set()
    begun = set()
    console = {d: -1 for d in dirs}
    turn = time.time()
    while True:
        alldone = True
        # A host that stopped us (suspend, ^Z) stopped the guests too.
        now = time.time()
        if now - turn > 30:
            grown = {d: now for d in dirs}
        turn = now
        for d in dirs:
            # Until the job begins, the boot (and KUnit) show on the console.
            if d not in begun:
                try:
                    size = os.path.getsize(os.path.join(d, "console.log"))
                except OSError:
                    size = -1
                if size != console[d]:
                    console[d] = size
                    grown[d] = time.time()
            name = os.path.basename(d)
            path = os.path.join(d, "results.log")
            try:
                with open(path, "rb") as f:
                    f.seek(pos[d])
                    data = f.read()
            except OSError:
                data = b""
            # Whole lines only; a partial line is read again next time.
            cut = data.rfind(b"\n") + 1
            if cut:
                pos[d] += cut
                grown[d] = time.time()
            for raw in data[:cut].decode(errors="replace").splitlines():
                line = raw.strip("\r")
                if line.startswith("IE-JOB-BEGIN"):
                    begun.add(d)
                m = re.match(r"^IE-START (\S+) (\S+)$", line)
                if m:
                    running[d] = (m.group(1), m.group(2), time.time())
                m = re.match(r"^IE-RESULT (\S+) (\S+) (\S+) (\d+)$", line)
                if m:
                    running[d] = None
                    print(f"[{elapsed(t0)} {name}] {m.group(3):<11} "
                          f"{m.group(1)}/{short(m.group(2))} {m.group(4)} s",
                          flush=True)
                if line.startswith("IE-HUNG "):
                    print(f"[{elapsed(t0)} {name}] {line}", flush=True)
            if os.path.exists(os.path.join(d, "done")):
                continue
            alldone = False
            if d in stopped or time.time() - grown[d] < stall:
                continue
            stopped.add(d)
            test = running[d]
            what = f"{test[0]}/{short(test[1])}" if test else "(between tests)"
            print(f"[{elapsed(t0)} {name}] no output for {stall:.0f} s, "
                  f"stopping the guest; running: {what}", flush=True)
            if test:
                with open(os.path.join(d, "host-results.log"), "a") as f:
                    f.write(f"IE-RESULT {test[0]} {test[1]} HUNG "
                            f"{int(time.time() - test[2])}\n")
            try:
                with open(os.path.join(d, "qemu.pid")) as f:
                    os.kill(int(f.read().split()[0]), signal.SIGKILL)
            except (OSError, ValueError, IndexError):
                pass
            try:
                with open(os.path.join(d, "console.log"), errors="replace") as f:
                    tail = f.read().splitlines()[-40:]
            except OSError:
                tail = []
            for line in tail:
                print(f"    {line}", flush=True)
        if alldone:
            return 0
        time.sleep(2)


if __name__ == "__main__":
    sys.exit(main())
