#!/usr/bin/env python3
"""KCSAN reports in a guest's console log, told apart: ours or elsewhere.

usage: kcsan.py symbols BUILD_DIR > FILE   (the functions of our objects)
       kcsan.py show FILE CONSOLE...       (the reports, by test or case)

A KCSAN report opens with a line of '=' signs and "BUG: KCSAN: ..." and
ends with the next line of '=' signs (or, cut short, at MAXLINES lines,
a test or case marker, or the start of another splat).  It is "ours"
when the first frame of either access, the function that made it, is
one of kernel/trace/inter_event/: the names nm lists in the objects of
that folder of the build.  Such a report fails a run; the others are
listed, those with a frame of ours further down marked "via ours" (a
race inside a function our code called: the clock read by
synchronize_srcu(), say, whose reports are for us to read).
Each report is attributed to the last marker before it: "ie-test:
START SUITE FILE" (rig/guest/jobs/tests.sh) or "fuzz: case N"
(rig/guest/jobs/fuzz.sh).
"""
import os
import re
import subprocess
import sys

TS = re.compile(r"^\[\s*\d+\.\d+\]\s?")
MARK = re.compile(r"ie-test: START \S+ (\S+)|fuzz: case (\d+)")
FRAME = re.compile(r"^\s*([A-Za-z_][\w.]*)\+0x[0-9a-f]+/0x[0-9a-f]+")
RULE = re.compile(r"^={20,}$")
# A report's own lines end at its closing rule; these never belong to it.
OTHER = re.compile(r"BUG: (?!KCSAN)|WARNING: |Oops: |Kernel panic|Call Trace:|"
                   r"ie-test: START|fuzz: case \d+")
ACCESS = re.compile(r"^(read|write|read-write)( \(marked\))? to |^race at unknown origin")
MAXLINES = 400


def symbols_of(build_dir):
    """-> the text symbols defined in our objects of build_dir."""
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
            j = block_end(lines, i)
            text = [TS.sub("", l.rstrip("\r")) for l in lines[i:j]]
            frames = []
            tops = []
            top_next = False
            for t in text:
                if ACCESS.match(t):
                    top_next = True
                    continue
                fm = FRAME.match(t)
                if fm:
                    frames.append(fm.group(1))
                    if top_next:
                        tops.append(fm.group(1))
                    top_next = False
            mine = sorted({f for f in frames if f in ours_syms})
            found.append({
                "where": where,
                "title": line[len("BUG: KCSAN: "):].strip(),
                "ours": any(f in ours_syms for f in tops),
                "via_ours": bool(mine),
                "our_frames": mine,
                "frames": frames,
                "text": text,
            })
            i = j - 1
        i += 1
    return found


def block_end(lines, i):
    """-> the index after the report that starts at lines[i]."""
    j = i + 1
    while j < len(lines) and j < i + MAXLINES:
        t = TS.sub("", lines[j].rstrip("\r"))
        if RULE.match(t.strip()):
            return j + 1
        if OTHER.search(t) or t.startswith("BUG: KCSAN:"):
            return j
        j += 1
    return j


def in_report(lines):
    """-> a list of booleans: is line k part of a KCSAN report?"""
    inside = [False] * len(lines)
    k = 0
    while k < len(lines):
        if TS.sub("", lines[k].rstrip("\r")).startswith("BUG: KCSAN:"):
            j = block_end(lines, k)
            for m in range(k, j):
                inside[m] = True
            k = j
            continue
        k += 1
    return inside


def summary(found):
    """-> lines: per place, each report's title, ours first."""
    out = []
    for r in sorted(found, key=lambda r: (not r["ours"], str(r["where"]))):
        tag = "OURS" if r["ours"] else "via ours" if r["via_ours"] else "elsewhere"
        extra = " (frames of ours: %s)" % ", ".join(r["our_frames"]) if r["via_ours"] else ""
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
