#!/usr/bin/env python3
"""Turn a guest run's results.log and console.log into tables and counts.

usage: report.py OUTDIR [--required FILE] [--peer-only] [--reference FILE]

Own tests (suite "own" and "extra") must PASS (or XFAIL).  Peer tests
(suite "peer") named in the required file must PASS; the others are shown
for information only.  KUnit cases from the kernel log must pass, and the
kernel log must be free of splats.  The last line is "N passed, N failed";
the exit status is 1 when anything failed.
"""
import argparse
import os
import re
import sys

SPLATS = [
    r"BUG: ", r"WARNING: ", r"Kernel panic", r"KASAN: ", r"UBSAN: ",
    r"kmemleak: .*new suspected memory leaks", r"unreferenced object 0x",
    r"possible circular locking dependency", r"possible recursive locking",
    r"inconsistent lock state", r"INFO: rcu_.* detected stalls",
    r"general protection fault", r"Oops: ", r"Call Trace:",
    r"sleeping function called from invalid context",
]
OK_STATUS = {"PASS", "XFAIL"}
TS = re.compile(r"^\[\s*\d+\.\d+\]\s?")


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read().replace("\r", "")
    except OSError:
        return ""


def parse_results(text):
    results = []
    for m in re.finditer(r"^IE-RESULT (\S+) (\S+) (\S+) (\d+)$", text, re.M):
        results.append((m.group(1), m.group(2), m.group(3), int(m.group(4))))
    return results


def parse_kunit(dmesg):
    """Return [(suite.case, ok)] for KUnit test cases in a kernel log."""
    cases = []
    suite = None
    for raw in dmesg.splitlines():
        line = TS.sub("", raw)
        m = re.match(r"^\s+# Subtest: (\S+)", line)
        if m:
            suite = m.group(1)
            continue
        m = re.match(r"^(\s+)(not ok|ok) \d+ (\S+)(.*)$", line)
        if m and suite and len(m.group(1)) == 4:
            skipped = "# SKIP" in m.group(4)
            cases.append((f"{suite}.{m.group(3)}", m.group(2) == "ok", skipped))
    return cases


def find_splats(text):
    found = []
    for line in text.splitlines():
        for pat in SPLATS:
            if re.search(pat, line):
                found.append(TS.sub("", line).strip())
                break
    return found


def short(path):
    return re.sub(r"^test\.d/", "", path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--required", default="")
    ap.add_argument("--may-skip", action="append", default=[],
                    help="own test (file name) that may be UNSUPPORTED here")
    ap.add_argument("--peer-only", action="store_true")
    ap.add_argument("--reference", default="",
                    help="another run's results.log to show side by side")
    args = ap.parse_args()

    results_txt = read(os.path.join(args.outdir, "results.log"))
    console_txt = read(os.path.join(args.outdir, "console.log"))
    results = parse_results(results_txt)
    results += parse_results(read(os.path.join(args.outdir, "host-results.log")))
    required = set()
    if args.required:
        for line in read(args.required).splitlines():
            line = line.split("#")[0].strip()
            if line:
                required.add(line)

    passed = failed = 0
    failures = []

    def count(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            failures.append(what)

    finished = "IE-JOB-END" in results_txt
    count(finished, "guest job finished")

    own = [r for r in results if r[0] != "peer"]
    peer = [r for r in results if r[0] == "peer"]

    if not args.peer_only:
        print("== own tests ==")
        for suite, tc, st, secs in own:
            print(f"  {st:<12} {secs:>4}s  {short(tc)}")
            skip_ok = st == "UNSUPPORTED" and os.path.basename(tc) in args.may_skip
            count(st in OK_STATUS or skip_ok, f"{short(tc)}: {st}")
        dm = results_txt.split("IE-DMESG-BEGIN", 1)
        kunit = parse_kunit(dm[1] if len(dm) > 1 else console_txt)
        if kunit:
            kpass = sum(1 for _, ok, _ in kunit if ok)
            print(f"== KUnit: {kpass}/{len(kunit)} cases ok ==")
            for name, ok, skipped in kunit:
                if not ok:
                    print(f"  FAIL {name}")
                count(ok, f"kunit {name}")

    ref = {}
    if args.reference:
        for suite, tc, st, _ in parse_results(read(args.reference)):
            if suite == "peer":
                ref[tc] = st
    if peer:
        print("== peer suite (the tree's trigger selftests) ==")
        hdr = f"  {'this kernel':<12} {'reference':<12} test" if ref else \
              f"  {'status':<12} test"
        print(hdr)
        info = {}
        for suite, tc, st, secs in peer:
            name = short(tc)
            req = name in required
            mark = " (required)" if req else ""
            col = f"{ref.get(tc, '-'):<12} " if ref else ""
            print(f"  {st:<12} {col}{name}{mark}")
            if req:
                count(st in OK_STATUS, f"peer {name}: {st}")
            else:
                info[st] = info.get(st, 0) + 1
        if info:
            desc = ", ".join(f"{v} {k}" for k, v in sorted(info.items()))
            print(f"  not yet required: {desc}")

    summaries = re.findall(r"^IE-SUMMARY (.*)$", results_txt, re.M)
    if summaries:
        print("== counts reported by tests ==")
        for line in summaries:
            print(f"  {line}")

    splats = find_splats(console_txt)
    if splats:
        print("== kernel log splats ==")
        for s in splats[:20]:
            print(f"  {s}")
    count(not splats, "kernel log free of splats")

    if failures:
        print("== failures ==")
        for f in failures:
            print(f"  {f}")
    boot = read(os.path.join(args.outdir, "boot-seconds")).strip()
    if boot:
        print(f"guest run: {boot} s wall")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
