#!/usr/bin/env python3
"""KCSAN reports in a guest's console log, told apart: ours or elsewhere.

usage: kcsan.py symbols BUILD_DIR > FILE   (the functions of our objects)
       kcsan.py show FILE CONSOLE...       (the reports, by test or case)

A KCSAN report opens with a line of '=' signs and "BUG: KCSAN: ..." and
ends with the next line of '=' signs.  It is "ours" when a stack frame
of either access is a function of kernel/trace/inter_event/ (the names
nm lists in the objects of that folder of the build); such a report
fails a run, the others are listed for information.  Each report is
attributed to the last marker before it: "ie-test: START SUITE FILE"
(rig/guest/jobs/tests.sh) or "fuzz: case N" (rig/guest/jobs/fuzz.sh).
"""
import os
import re
import subprocess
import sys

TS = re.compile(r"^\[\s*\d+\.\d+\]\s?")
MARK = re.compile(r"ie-test: START \S+ (\S+)|fuzz: case (\d+)")
FRAME = re.compile(r"^\s*([A-Za-z_][\w.]*)\+0x[0-9a-f]+/0x[0-9a-f]+")
RULE = re.compile(r"^={20,}$")


def symbols_of(build_dir):
    """-> the text symbols defined in build_dir/kernel/trace/inter_event."""
    d = os.path.join(build_dir, "kernel", "trace", "inter_event")
    objs = sorted(os.path.join(d, f) for f in os.listdir(d)
                  if f.endswith(".o") and f != "built-in.o")
    out = subprocess.run(["nm", "--defined-only"] + objs, check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tT":
            names.add(parts[2])
    return names


def read_symbols(path):
    with open(path) as f:
        return {line.strip() for line in f if line.strip()}


def reports(lines, ours_syms):
    """-> [dict(where, title, ours, frames, text)] for each KCSAN report.

    lines: the console log's lines.  where: the test file or "case N" of
    the last marker before the report (None before any).
    """
    found = []
    where = None
    i = 0
    n = len(lines)
    while i < n:
        line = TS.sub("", lines[i].rstrip("\r"))
        m = MARK.search(line)
        if m:
            where = m.group(1) or ("case " + m.group(2))
        if line.startswith("BUG: KCSAN:"):
            text = [line]
            j = i + 1
            while j < n and j < i + 400:
                nxt = TS.sub("", lines[j].rstrip("\r"))
                if RULE.match(nxt.strip()):
                    break
                text.append(nxt)
                j += 1
            frames = []
            for t in text:
                fm = FRAME.match(t)
                if fm:
                    frames.append(fm.group(1))
            mine = sorted({f for f in frames if f in ours_syms})
            found.append({
                "where": where,
                "title": line[len("BUG: KCSAN: "):].strip(),
                "ours": bool(mine),
                "our_frames": mine,
                "frames": frames,
                "text": text,
            })
            i = j
        i += 1
    return found


def in_report(lines):
    """-> a list of booleans: is line k part of a KCSAN report?"""
    inside = [False] * len(lines)
    k = 0
    while k < len(lines):
        if TS.sub("", lines[k].rstrip("\r")).startswith("BUG: KCSAN:"):
            j = k
            while j < len(lines) and (j == k or not RULE.match(
                    TS.sub("", lines[j].rstrip("\r")).strip())):
                inside[j] = True
                j += 1
            k = j
        k += 1
    return inside


def summary(found):
    """-> lines: per place, each report's title, ours first."""
    out = []
    for r in sorted(found, key=lambda r: (not r["ours"], str(r["where"]))):
        tag = "OURS" if r["ours"] else "elsewhere"
        extra = " (frames of ours: %s)" % ", ".join(r["our_frames"]) if r["ours"] else ""
        out.append("%-9s %s: %s%s" % (tag, r["where"] or "boot", r["title"], extra))
    return out


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "symbols":
        for s in sorted(symbols_of(sys.argv[2])):
            print(s)
        return 0
    if len(sys.argv) >= 4 and sys.argv[1] == "show":
        syms = read_symbols(sys.argv[2])
        found = []
        for path in sys.argv[3:]:
            with open(path, errors="replace") as f:
                found += reports(f.read().splitlines(), syms)
        for line in summary(found):
            print(line)
        for r in found:
            print("\n".join(["", "-- %s" % (r["where"] or "boot")] + r["text"]))
        return 1 if any(r["ours"] for r in found) else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
