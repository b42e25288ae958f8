# Helpers of the reduce scripts (refs.py, vars.py, named.py): each edits
# the copy of kernel/trace/inter_event named by its first argument.
import os
import sys

d = sys.argv[1]


def edit(p, pairs):
    """Replace each old text, found exactly once, by its new text."""
    p = os.path.join(d, p)
    s = open(p).read()
    for old, new in pairs:
        assert s.count(old) == 1, (p, old)
        s = s.replace(old, new)
    open(p, 'w').write(s)


def cut(p, start, end):
    """Remove from the text start up to (not including) the text end."""
    p = os.path.join(d, p)
    s = open(p).read()
    a = s.index(start)
    b = s.index(end)
    assert a < b, (start, end)
    open(p, 'w').write(s[:a] + s[b:])


def cut_to_end(p, start):
    """Remove from the text start to the end of the file."""
    p = os.path.join(d, p)
    s = open(p).read()
    a = s.index(start)
    open(p, 'w').write(s[:a].rstrip('\n') + '\n')
