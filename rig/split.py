#!/usr/bin/env python3
"""Share tests out over N guests, longest first, by recorded duration.

usage: split.py TESTS N OUTPREFIX [SECONDS_FILE...]

TESTS has one "suite path" line per test (path relative to the guest's
/ftrace).  SECONDS_FILE lines are "path seconds"; a later file overrides an
earlier one, and a test with no recorded duration counts as DEFAULT
seconds.  Writes OUTPREFIX1 .. OUTPREFIXN, each a suites file for
rig/guest/jobs/tests.sh (longest test first), and prints the expected
seconds per guest.
"""
import sys

DEFAULT = 5


def main():
    tests_file, n, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    secs = {}
    for path in sys.argv[4:]:
        try:
            with open(path) as f:
                for line in f:
                    parts = line.split()
                    if len(parts) == 2 and not line.startswith("#"):
                        secs[parts[0]] = float(parts[1])
        except OSError:
            pass
    with open(tests_file) as f:
        tests = [line.split() for line in f if line.strip()]
    # Longest processing time first: each test goes to the least loaded guest.
    tests.sort(key=lambda t: (-secs.get(t[1], DEFAULT), t[1]))
    load = [0.0] * n
    share = [[] for _ in range(n)]
    for suite, path in tests:
        g = load.index(min(load))
        share[g].append((suite, path))
        load[g] += secs.get(path, DEFAULT)
    for g in range(n):
        with open(f"{prefix}{g + 1}", "w") as f:
            for suite, path in share[g]:
                f.write(f"{suite} {path}\n")
    print(" ".join(f"g{g + 1}:{len(share[g])}/{load[g]:.0f}s" for g in range(n)))


if __name__ == "__main__":
    main()
