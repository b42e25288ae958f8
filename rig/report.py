#!/usr/bin/env python3
"""Turn a guest run's results.log and console.log into tables and counts.

usage: report.py OUTDIR [--required FILE] [--peer-only] [--reference FILE]
                 [--expect FILE] [--kunit-src DIR] [--record FILE]

OUTDIR holds one guest run (results.log, console.log), or several, named
in OUTDIR/guests (one folder a line, relative to OUTDIR).  Own tests
(suite "own" and "extra") must PASS (or XFAIL).  Peer tests (suite "peer")
named in the required file must PASS; the others are shown for
information only.  KUnit cases from the kernel log must pass, and the
kernel logs must be free of splats.  Every guest job must end with rc=0.

Nothing expected may be missing: each test of the --expect file ("suite
path" lines), each required peer test, and every case of every KUnit suite
defined in the --kunit-src folder's *_test.c files must have a result.
--record writes each test's seconds ("path seconds" lines, merged into the
file's earlier contents) for rig/split.py.  The last line is "N passed, N
failed"; the exit status is 1 when anything failed.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kcsan  # noqa: E402
import histjson  # noqa: E402

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


def in_task_dump(lines):
    """Which lines belong to a hung test's task dump (its stack traces are
    asked for, not splats: the test counts as HUNG).  A dump runs from the
    guest's begin marker to its end marker, or to the next test's start if
    the end never came."""
    inside, dump = [], False
    for line in lines:
        if "ie-rig: task dump begin" in line:
            dump = True
        elif "ie-rig: task dump end" in line or "ie-test: START " in line:
            dump = False
        inside.append(dump)
    return inside


ALLOC_FAIL = re.compile(r"(vmalloc error|page allocation failure): ")


def asked_traces(lines, window, header, within):
    """Which lines are the "Call Trace:" of a report a test asked for:
    from the guest's "ie-rig: WINDOW begin" marker to its end marker or
    the next test's start, the first trace within WITHIN lines after a
    line matching HEADER, with no other report between.  Any other report
    there still is a splat, its trace included."""
    out, inside, since = [], False, None
    for i, line in enumerate(lines):
        if "ie-rig: %s begin" % window in line:
            inside, since = True, None
        elif "ie-rig: %s end" % window in line or "ie-test: START " in line:
            inside = False
        if inside and header.search(line):
            since = i
        elif "Call Trace:" not in line and any(re.search(p, line) for p in SPLATS):
            # Another report began: its trace is its own.
            since = None
        out.append(inside and since is not None and i - since <= within and
                   "Call Trace:" in line)
        if out[-1]:
            since = None
    return out


def injected_alloc_warnings(lines):
    """An allocation failure's warning (warn_alloc()) while a test injects
    faults: the failure was asked for; the allocator's report of it is no
    splat.  Its trace follows the message, CPU, taint and hardware lines."""
    return asked_traces(lines, "fault injection", ALLOC_FAIL, 6)


def asked_backtraces(lines):
    """The backtraces a test asked for (sysrq 'l', as hist-nmi.tc does,
    for its NMIs), each after its "NMI backtrace for cpu N" line and the
    registers ("... skipped: idling at" has no trace: it lets none
    through)."""
    return asked_traces(lines, "backtraces",
                        re.compile(r"NMI backtrace for cpu \d+\s*$"), 40)


def find_splats(text, skip_kcsan=False):
    found = []
    lines = text.splitlines()
    inside = kcsan.in_report(lines) if skip_kcsan else [False] * len(lines)
    dump = in_task_dump(lines)
    alloc = injected_alloc_warnings(lines)
    bt = asked_backtraces(lines)
    for line, skip, asked, injected, trace in zip(lines, inside, dump,
                                                  alloc, bt):
        if skip or asked or injected or trace:
            continue
        for pat in SPLATS:
            if re.search(pat, line):
                found.append(TS.sub("", line).strip())
                break
    return found


def kunit_expected(folder):
    """Return {suite: number of cases} from the KUnit sources in folder."""
    want = {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith("_test.c"):
            continue
        src = read(os.path.join(folder, name))
        cases = len(re.findall(r"^\s*KUNIT_CASE\w*\(", src, re.M))
        for m in re.finditer(r"struct kunit_suite \w+ = \{[^}]*?\.name = \"([^\"]+)\"",
                             src, re.S):
            want[m.group(1)] = cases
    return want


def record(path, results):
    secs = {}
    for line in read(path).splitlines():
        parts = line.split()
        if len(parts) == 2:
            secs[parts[0]] = parts[1]
    for suite, tc, st, t in results:
        if st in OK_STATUS or st == "FAIL":
            secs[tc] = str(t)
    with open(path + ".tmp", "w") as f:
        for tc in sorted(secs):
            f.write(f"{tc} {secs[tc]}\n")
    os.replace(path + ".tmp", path)


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
    ap.add_argument("--expect", default="",
                    help="tests that must have a result (suite path lines)")
    ap.add_argument("--kunit-src", default="",
                    help="folder of *_test.c files: their cases must run")
    ap.add_argument("--record", default="",
                    help="file of test durations to update")
    ap.add_argument("--kcsan", default="",
                    help="file of our functions' names: KCSAN reports are "
                    "shown per test, and fail the run only when ours")
    args = ap.parse_args()

    guests = [g for g in read(os.path.join(args.outdir, "guests")).split() if g]
    many = bool(guests)
    gdirs = [os.path.join(args.outdir, g) for g in guests] or [args.outdir]
    guests = guests or ["guest"]
    gtxt = [read(os.path.join(d, "results.log")) for d in gdirs]
    gcon = [read(os.path.join(d, "console.log")) for d in gdirs]
    results_txt = "\n".join(gtxt)
    results = []
    for d, txt in zip(gdirs, gtxt):
        results += parse_results(txt)
        results += parse_results(read(os.path.join(d, "host-results.log")))
    if many:
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

    for name, txt in zip(guests, gtxt):
        end = re.findall(r"^IE-JOB-END rc=(\d+)", txt, re.M)
        if not end:
            count(False, f"{name}: the guest job did not finish")
        else:
            count(end[-1] == "0", f"{name}: guest job ended with rc={end[-1]}")
    seen = {(r[0], r[1]) for r in results}
    if args.expect:
        for line in read(args.expect).splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] != "peer" and tuple(parts) not in seen:
                count(False, f"{short(parts[1])}: no result (missing)")
    peer_seen = {short(r[1]) for r in results if r[0] == "peer"}
    for name in sorted(required - peer_seen):
        count(False, f"peer {name}: no result (missing)")

    own = sorted((r for r in results if r[0] != "peer"),
                 key=lambda r: (r[0] != "own", r[1]))
    peer = sorted((r for r in results if r[0] == "peer"), key=lambda r: r[1])

    if not args.peer_only:
        print("== own tests ==")
        for suite, tc, st, secs in own:
            print(f"  {st:<12} {secs:>4}s  {short(tc)}")
            skip_ok = st == "UNSUPPORTED" and os.path.basename(tc) in args.may_skip
            count(st in OK_STATUS or skip_ok, f"{short(tc)}: {st}")
        kunit = []
        for txt, con in zip(gtxt, gcon):
            dm = txt.split("IE-DMESG-BEGIN", 1)
            kunit += parse_kunit(dm[1] if len(dm) > 1 else con)
        if kunit:
            kpass = sum(1 for _, ok, _ in kunit if ok)
            print(f"== KUnit: {kpass}/{len(kunit)} cases ok ==")
            for name, ok, skipped in kunit:
                if not ok:
                    print(f"  FAIL {name}")
                count(ok, f"kunit {name}")
        if args.kunit_src:
            for suite, n in sorted(kunit_expected(args.kunit_src).items()):
                got = sum(1 for name, _, _ in kunit if name.startswith(suite + "."))
                if got != n:
                    count(False, f"kunit {suite}: {got} of its {n} cases ran")

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

    njson, bad = histjson.check(results_txt)
    # A passing hist-json.tc printed its documents: none is a problem.
    if re.search(r"^IE-RESULT \S+ \S*/hist-json\.tc PASS ", results_txt, re.M) and njson < 3:
        bad.append(f"hist-json.tc passed with {njson} document(s) printed, not 3 or more")
    if njson or bad:
        print(f"== hist_json: {njson} document(s) checked against their hist files ==")
        for line in bad[:20]:
            print(f"  {line}")
        count(not bad, f"hist_json agrees with hist ({len(bad)} problem(s))")

    # Every hist file a test read (through a tool) with its hist_json,
    # by rig/guest/iehistaudit.c, each record naming its test.  (Bytes
    # as they came: the JSON gives a string's bytes from 0x80 as
    # \u0080-\u00ff.)
    nread, nbusy, rbad, kv = 0, 0, [], 0
    for d in gdirs:
        try:
            with open(os.path.join(d, "results.log"), encoding="latin-1") as f:
                lines = f.read().split("\n")
        except OSError:
            continue
        c, b, p = histjson.pairs(lines)
        nread, nbusy, rbad = nread + c, nbusy + b, rbad + p
        tag = ""
        for line in lines:
            if line.startswith("IE-JSONBEGIN "):
                tag = line.split(" ")[1]
            elif line.rstrip("\r") == "IE-JSONEND quiet" and tag == "hist-keys-vals.tc":
                kv += 1
    # hist-keys-vals.tc greps quiet hist files: a pass without such a
    # record of it means the audit broke.
    audited = re.search(r"^IE-RESULT own \S*/hist-keys-vals\.tc PASS ",
                        results_txt, re.M)
    if nread or nbusy or audited:
        print(f"== hist_json of the hist files tests read: {nread} quiet "
              f"read(s) checked, {nbusy} busy ==")
        for line in rbad[:20]:
            print(f"  {line}")
        count(not rbad and (kv or not audited),
              f"hist_json agrees with the hist files tests read ({nread} "
              f"checked, {kv} of hist-keys-vals.tc, {len(rbad)} problem(s))")

    # A test that left what ftracetest's one-pass reset can't remove made
    # the next test's reset fail (rig/guest/jobs/tests.sh).
    for culprit, victim in re.findall(r"^IE-RESETFAIL (\S+) (\S+)$", results_txt, re.M):
        count(False, f"{culprit} left what ftracetest's reset can't remove "
              f"(the reset of {victim}, which ran next, failed)")

    if args.kcsan:
        syms = kcsan.read_symbols(args.kcsan)
        found = []
        for con in gcon:
            found += kcsan.reports(con.splitlines(), syms)
        ours = [r for r in found if r["ours"]]
        print(f"== KCSAN: {len(found)} report(s), {len(ours)} on our code ==")
        for line in kcsan.summary(found):
            print(f"  {line}")
        for r in ours:
            count(False, f"KCSAN on our code in {r['where'] or 'boot'}: {r['title']}")
        # A guest where KCSAN set up no watchpoint checked nothing.
        for name, txt in zip(guests, gtxt):
            m = re.search(r"^IE-SUMMARY kcsan: .*\bsetup_watchpoints (\d+)", txt, re.M)
            count(bool(m) and int(m.group(1)) > 0,
                  f"{name}: KCSAN set up no watchpoint (or said nothing)")
    # Per guest: a report cut short in one log hides nothing in another.
    splats = []
    for con in gcon:
        splats += find_splats(con, skip_kcsan=bool(args.kcsan))
    if splats:
        print("== kernel log splats ==")
        for s in splats[:20]:
            print(f"  {s}")
    count(not splats, "kernel log free of splats")

    if failures:
        print("== failures ==")
        for f in failures:
            print(f"  {f}")
    for name, d in zip(guests, gdirs):
        boot = read(os.path.join(d, "boot-seconds")).strip()
        if boot:
            print(f"{name} run: {boot} s wall")
    if args.record:
        record(args.record, results)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
