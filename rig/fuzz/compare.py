#!/usr/bin/env python3
"""Compare the fuzz job's output on the ref and ie kernels, case by case.

usage: compare.py OUTDIR

OUTDIR (made by rig/fuzz.sh) holds cases.txt and, per kernel K and boot
number B, a folder K-B with the results.log and console.log of that boot.
Boots after the first continue after the case the previous one ended in.

Prints a summary: cases run, identical, known differences (matching
rig/fuzz/known-differences.txt; how many cases each entry excused, each
entry listed), other differences with the case's commands and a short
diff, crashes and kernel splats per kernel.
Exit status 1 on any unexplained difference, or any crash or splat on ie.
"""

import difflib
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import histjson  # noqa: E402
import kcsan  # noqa: E402

KNOWN = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'known-differences.txt')
SPLATS = re.compile(r'BUG: |WARNING: |KASAN|Oops|Call Trace:|Kernel panic|'
                    r'general protection fault|UBSAN|refcount_t:')


def read_cases(path):
    cases = {}
    cur = None
    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('case '):
            cur = int(line.split()[1])
            cases[cur] = []
        elif line == 'end':
            cur = None
        elif cur is not None:
            cases[cur].append(line)
    return cases


EXAMPLE_KEYS = ('must-match', 'must-not-match', 'must-match-diff', 'must-not-match-diff',
                'must-require')


def read_known(path):
    """Blocks of [name], match:, require: and diff: (regexes), scope:
    (any|output), reason:.

    The example lines (must-match:, must-not-match: and their -diff forms)
    are kept for rig/fuzz/test_compare.py and play no part in matching.
    Raises ValueError on a line that is none of these, or a bad regex.
    """
    entries = []
    cur = None
    if not os.path.exists(path):
        return entries
    with open(path, encoding='utf-8') as f:
        lines = f.read().splitlines()
    for no, line in enumerate(lines, 1):
        line = line.rstrip('\n')
        if not line.strip() or line.startswith('#'):
            continue
        m = re.match(r'\[(.+)\]$', line)
        if m:
            cur = {'name': m.group(1), 'match': [], 'require': [], 'diff': [],
                   'scope': 'any', 'reason': ''}
            for k in EXAMPLE_KEYS:
                cur[k] = []
            entries.append(cur)
            continue
        key, _, val = line.partition(':')
        val = val.strip()
        if cur is None:
            raise ValueError('%s:%d: outside an entry: %s' % (path, no, line))
        if key in ('match', 'require', 'diff'):
            try:
                cur[key].append(re.compile(val))
            except re.error as err:
                raise ValueError('%s:%d: bad regex: %s' % (path, no, err))
        elif key == 'scope':
            if val not in ('any', 'output'):
                raise ValueError('%s:%d: bad scope %r' % (path, no, val))
            cur['scope'] = val
        elif key == 'reason':
            cur['reason'] = (cur['reason'] + ' ' + val).strip()
        elif key in EXAMPLE_KEYS:
            cur[key].append(val)
        else:
            raise ValueError('%s:%d: unknown key %r' % (path, no, key))
    return entries


def boots(outdir, kernel):
    dirs = glob.glob(os.path.join(outdir, '%s-[0-9]*' % kernel))
    return sorted(dirs, key=lambda d: int(d.rsplit('-', 1)[1]))


def read_boot(d):
    """-> (cases {n: lines}, finished, last case, console lines)."""
    out = {}
    cur = None
    finished = False
    try:
        lines = open(os.path.join(d, 'results.log'), encoding='utf-8',
                     errors='replace').read().split('\n')
    except OSError:
        lines = []
    for line in lines:
        line = line.rstrip('\r')
        m = re.match(r'=== case (\d+)$', line)
        if m:
            cur = int(m.group(1))
            out[cur] = []
        elif line == '=== end':
            finished = True
            cur = None
        elif line.startswith('IE-JOB-'):
            cur = None
        elif line.startswith(('IE-JSONBEGIN ', 'IE-J ', 'IE-T ', 'IE-JSONEND ')):
            # ie's hist_json pairs: checked apart (json_pairs()).
            continue
        elif cur is not None:
            out[cur].append(line)
    try:
        console = open(os.path.join(d, 'console.log'), encoding='utf-8',
                       errors='replace').read().splitlines()
    except OSError:
        console = []
    return out, finished, cur if not finished else None, console


def splats(console, reps=None):
    """-> [(case or None, first line, excerpt)] for each splat in a console log.

    reps: the log's KCSAN reports (rig/kcsan.py), when our functions are
    known: those on our code count as splats, the others are left out.
    Without, every KCSAN report counts.
    """
    found = []
    case = None
    inside = kcsan.in_report(console)
    if reps is not None:
        for r in reps:
            if r['ours']:
                c = int(r['where'].split()[1]) if r['where'] and r['where'].startswith('case ') else None
                found.append((c, 'BUG: KCSAN: ' + r['title'], r['text'][:40]))
    i = 0
    while i < len(console):
        line = console[i]
        m = re.search(r'fuzz: case (\d+)', line)
        if m:
            case = int(m.group(1))
        elif inside[i] and reps is not None:
            pass
        elif SPLATS.search(line):
            # the splat's first lines and its stack frames
            frames = [l for l in console[i + 1:i + 60] if re.search(r'^\s*(\? )?\w+\+0x', l)]
            found.append((case, line.strip(), console[max(0, i - 1):i + 3] + frames[:14]))
            # one report per splat: skip the rest of this trace
            j = i + 1
            while j < len(console) and not re.search(r'fuzz: case|---\[ end trace', console[j]):
                j += 1
            i = j
            continue
        i += 1
    return found


# -- normalisation ----------------------------------------------------------

PIDNUM = re.compile(r'(\b\w*pid\w*)(: +|=)(0x[0-9a-f]+|-?\d+)')
# .execname keys: "common_pid: head            [       123]"
BRACKETPID = re.compile(r'(\w*pid\w*: +\S+ +)\[ *(\d+)\]')
# .sym (or .sym-offset) pid keys, no symbol there: "common_pid: [1fa] 0x1fa"
SYMPID = re.compile(r'(\w*pid\w*: +)\[([0-9a-f]+)\] +0x([0-9a-f]+)\b')
ADDR = re.compile(r'\b(0x)?ffff[0-9a-f]{12}\b')
SYMOFF = re.compile(r'\+0x[0-9a-f]+/0x[0-9a-f]+')
TRACELINE = re.compile(r'^\s*(.+?)-(\d+)\s+\[\d+\]\s+\S+\s+\d+\.\d+: (.*)$')


def num(s):
    return int(s, 16) if s.startswith('0x') else int(s)


def entry_values(line):
    """Field values of a hist entry line: {name: text}."""
    vals = {}
    m = re.match(r'\{(.*)\}(.*)$', line)
    if not m:
        return vals
    # (A pid normalised to its rank has no blank after its colon.)
    for part in re.split(r',\s+(?=[\w.$]+:)', m.group(1).strip()):
        name, _, v = part.partition(':')
        vals[name.strip().split('.')[0]] = v.strip()
    for name, v in re.findall(r'([\w.$]+): +(\S+)', m.group(2)):
        vals[name.split('.')[0]] = v
    return vals


def sort_ties(lines):
    """Entries whose sort fields are equal may come in any order: sort them."""
    out = []
    sortf = ['hitcount']
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r'# trigger info: .*?:sort=([^: ]+)', line)
        if line.startswith('# trigger info:'):
            sortf = ['hitcount']
            if m:
                sortf = [s.split('.')[0] for s in m.group(1).split(',')]
            # A value shown as a bar (.graph) hides its number: entries
            # are known to be in order by the sort fields before it only.
            v = re.match(r'# trigger info: .*?:vals=([^: ]+)', line)
            graphs = {f.split('.')[0] for f in (v.group(1).split(',') if v else [])
                      if '.graph' in f}
            for j, f in enumerate(sortf):
                if f in graphs:
                    sortf = sortf[:j]
                    break
        if not line.startswith('{'):
            out.append(line)
            i += 1
            continue
        # an entry with its handler lines ("\tmax: ..."), as one unit
        run = []
        while i < len(lines) and lines[i].startswith('{'):
            unit = [lines[i]]
            i += 1
            while i < len(lines) and lines[i].startswith('\t'):
                unit.append(lines[i])
                i += 1
            run.append(unit)
        groups = []
        for e in run:
            v = entry_values(e[0])
            k = tuple(v.get(f) for f in sortf)
            if groups and groups[-1][0] == k:
                groups[-1][1].append(e)
            else:
                groups.append((k, [e]))
        for _, g in groups:
            for unit in sorted(g):
                out += unit
    return out


def normalise(lines, meta):
    masks = [l.split(None, 1)[1] for l in meta if l.startswith('mask ')]
    nodata = 'nodata' in meta
    # pids: replaced by their rank within the case
    pids = set()
    for line in lines:
        for _, v, w in SYMPID.findall(line):
            pids.update((int(v, 16), int(w, 16)))
        line = SYMPID.sub('', line)
        for _, _, v in PIDNUM.findall(line):
            pids.add(num(v))
        for _, v in BRACKETPID.findall(line):
            pids.add(int(v))
    rank = {p: 'P%d' % i for i, p in enumerate(sorted(pids))}
    out = []
    section = ''
    for line in lines:
        if line.startswith('--- '):
            section = line.split()[1]
        elif section == 'trace':
            m = TRACELINE.match(line)
            if m:
                line = '%s: %s' % (m.group(1).strip(), m.group(3))
        elif section == 'format':
            line = re.sub(r'^ID: \d+', 'ID: N', line)
        if section == 'hist' and nodata and not line.startswith(('# trigger info', '---')):
            continue
        line = ADDR.sub('ADDR', line)
        line = SYMOFF.sub('+OFF', line)
        for mk in masks:
            line = re.sub(r'\b(%s)(: +|=)-?[\d.]+' % re.escape(mk),
                          lambda m: m.group(1) + m.group(2)[0] + '*', line)
        line = SYMPID.sub(lambda m: '%s[%s] %s' % (m.group(1), rank[int(m.group(2), 16)],
                                                  rank[int(m.group(3), 16)]), line)
        line = PIDNUM.sub(lambda m: '%s%s%s' % (m.group(1), m.group(2)[0], rank[num(m.group(3))]), line)
        line = BRACKETPID.sub(lambda m: '%s[%s]' % (m.group(1), rank[int(m.group(2))]), line)
        out.append(line)
    out = sort_ties(out)
    # the trace of several CPUs: order of lines from different tasks may vary
    res, tr = [], []
    section = ''
    for line in out:
        if line.startswith('--- '):
            res += sorted(tr)
            tr = []
            section = line.split()[1]
            res.append(line)
        elif section == 'trace':
            tr.append(line)
        else:
            res.append(line)
    return res + sorted(tr)


def statuses(lines):
    return [l for l in lines if l.startswith('cmd ')]


def classify(ref, ie, cmds):
    """A short label of what differs first."""
    sr, si = statuses(ref), statuses(ie)
    if sr != si:
        labels = []
        for a, b in zip(sr, si):
            if a != b:
                k = int(a.split()[1]) if a.split()[1].isdigit() else 0
                c = cmds[k - 1] if 0 < k <= len(cmds) else '?'
                labels.append('cmd %d: ref %s, ie %s: %s' % (k, a.split()[-1], b.split()[-1], c))
        return 'accept', labels
    for sec in ('trigger', 'synthetic_events', 'format', 'hist', 'trace'):
        if section_lines(ref, sec) != section_lines(ie, sec):
            return sec, []
    return 'cleanup', []


def section_lines(lines, name):
    out = []
    on = False
    for line in lines:
        if line.startswith('--- '):
            on = line.split()[1] == name
        elif line.startswith('!!!'):
            on = False
        if on:
            out.append(line)
    return out


def line_hit(e, line):
    """Does a case line match one of entry e's match: regexes?"""
    return any(rx.search(line) for rx in e['match'])


def diff_line_hit(e, line):
    """Does a diff line match one of entry e's diff: regexes?"""
    return any(rx.search(line) for rx in e['diff'])


def known_hit(e, case_lines, kind, difflines):
    """Does known-differences entry e explain this case's difference?"""
    if e['scope'] == 'output' and kind == 'accept':
        return False
    if e['match'] and not any(line_hit(e, l) for l in case_lines):
        return False
    # every require: regex, too, must match some line of the case
    for rx in e.get('require', []):
        if not any(rx.search(l) for l in case_lines):
            return False
    if e['diff'] and not all(diff_line_hit(e, d) for d in difflines):
        return False
    return bool(e['match'] or e['diff'])


def json_pairs(dirs):
    """(quiet pairs checked, busy ones, problems): ie's hist_json of each
    histogram against the hist read before and after it (the guest's
    json_pairs())."""
    checked, busy, bad = 0, 0, []
    for d in dirs:
        try:
            # (Lines end at \n only: a histogram's text may hold other
            # line breaks Python knows.)
            lines = open(os.path.join(d, 'results.log'), encoding='latin-1').read().split('\n')
        except OSError:
            continue
        c, b, p = histjson.pairs(lines)
        checked += c
        busy += b
        bad += ['case ' + x for x in p]
    return checked, busy, bad


def main():
    outdir = sys.argv[1]
    cases = read_cases(os.path.join(outdir, 'cases.txt'))
    known = read_known(KNOWN)
    n = len(cases)
    syms = None
    if os.environ.get('IE_KCSAN_SYMS'):
        syms = kcsan.read_symbols(os.environ['IE_KCSAN_SYMS'])
    elsewhere = []
    res = {}
    crashes = {}
    splat = {}
    for k in ('ref', 'ie'):
        res[k] = {}
        crashes[k] = []
        splat[k] = []
        for d in boots(outdir, k):
            out, finished, last, console = read_boot(d)
            res[k].update(out)
            if not finished:
                if last is not None:
                    res[k].pop(last, None)
                crashes[k].append((last, d, console[-40:]))
            reps = kcsan.reports(console, syms) if syms is not None else None
            splat[k] += splats(console, reps)
            elsewhere += ['%s %s: %s' % (k, r['where'] or 'boot', r['title'])
                          for r in reps or [] if not r['ours']]
    print('== fuzz: %d cases (%s)' % (n, outdir))
    for k in ('ref', 'ie'):
        print('%s: %d cases run, %d boot(s) ended early, %d splat(s)' % (
            k, len(res[k]), len(crashes[k]), len(splat[k])))
    same = 0
    diffs = []
    knowns = {}
    for c in sorted(cases):
        if c not in res['ref'] or c not in res['ie']:
            continue
        # error_log's messages: matched against known differences only
        errs = []
        for k in ('ref', 'ie'):
            errs += ['%s-%s' % (k, l) for l in res[k][c] if l.startswith('err ')]
        a = normalise([l for l in res['ref'][c] if not l.startswith('err ')], cases[c])
        b = normalise([l for l in res['ie'][c] if not l.startswith('err ')], cases[c])
        if a == b:
            same += 1
            continue
        # every line the guest numbers as a command (rig/guest/jobs/fuzz.sh)
        cmds = [l for l in cases[c] if l[:2] in ('s ', 'S ', 't ', 'T ', 'e ', 'i ', 'I ',
                                                 'd ', 'k ', 'm ') or l == 'w']
        kind, labels = classify(a, b, cmds)
        hit = None
        dl = [l[1:] for l in difflib.unified_diff(a, b, n=0, lineterm='')
              if l[:1] in '+-' and l[:3] not in ('+++', '---')]
        for e in known:
            if known_hit(e, cases[c] + errs, kind, dl):
                hit = e
                break
        if hit:
            knowns.setdefault(hit['name'], []).append(c)
            continue
        diffs.append((c, kind, labels + errs, cmds, a, b))
    both = len([c for c in cases if c in res['ref'] and c in res['ie']])
    print('compared: %d, identical: %d, known differences: %d, differences: %d' % (
        both, same, sum(len(v) for v in knowns.values()), len(diffs)))
    # every entry, in the file's order, with how many cases it excused
    for e in known:
        cs = knowns.get(e['name'], [])
        print('  known: %s (scope %s) excused %d case(s)%s' % (
            e['name'], e['scope'], len(cs),
            (': ' + ' '.join(map(str, cs[:20])) + (' ...' if len(cs) > 20 else '')) if cs else ''))
    for sc in ('any', 'output'):
        print('  known: scope %s excused %d case(s) in all' % (sc, sum(
            len(knowns.get(e['name'], [])) for e in known if e['scope'] == sc)))
    kinds = {}
    for d in diffs:
        kinds.setdefault(d[1], []).append(d[0])
    for kd, cs in sorted(kinds.items()):
        print('  differ in %s: %d case(s): %s' % (kd, len(cs), ' '.join(map(str, cs))))
    for c, kind, labels, cmds, a, b in diffs:
        print('\n== case %d differs (%s)' % (c, kind))
        for l in [l for l in cases[c] if l.startswith('tag ')]:
            print('   ' + l)
        for i, l in enumerate(cmds):
            print('   %d: %s' % (i + 1, l))
        for l in labels:
            print('   ' + l)
        d = list(difflib.unified_diff(a, b, 'ref', 'ie', n=1, lineterm=''))
        for l in d[2:32]:
            print('   ' + l)
        if len(d) > 32:
            print('   ... (%d more diff lines)' % (len(d) - 32))
    for k in ('ref', 'ie'):
        for last, d, tail in crashes[k]:
            print('\n== %s: boot %s ended in case %s' % (k, os.path.basename(d), last))
            if last in cases:
                for l in cases[last]:
                    print('   ' + l)
            for l in tail[-25:]:
                print('   | ' + l)
        for case, first, excerpt in splat[k]:
            print('\n== %s: splat in case %s: %s' % (k, case, first))
            if case in cases:
                for l in cases[case]:
                    print('   ' + l)
            for l in excerpt[:20]:
                print('   | ' + l)
    if elsewhere:
        print('\n== KCSAN reports not on our code: %d' % len(elsewhere))
        for l in elsewhere:
            print('   ' + l)
    missing = [c for c in cases if c not in res['ie']]
    crashed = set(x[0] for x in crashes['ie'])
    missing = [c for c in missing if c not in crashed]
    if missing:
        print('\nie: %d case(s) without output: %s' % (len(missing), ' '.join(map(str, missing[:30]))))
    # A case ref never ran (its boot gave up, or stalled out) was not
    # compared: that is no pass.  A case ref crashed in is a stock bug.
    ref_crashed = set(x[0] for x in crashes['ref'])
    ref_missing = [c for c in cases if c not in res['ref'] and c not in ref_crashed]
    if ref_missing:
        print('\nref: %d case(s) without output: %s' % (
            len(ref_missing), ' '.join(map(str, ref_missing[:30]))))
    nj, nbusy, jbad = json_pairs(boots(outdir, 'ie'))
    print('\nhist_json: %d quiet histogram(s) of ie checked against their hist, '
          '%d still counting left out, %d problem(s)' % (nj, nbusy, len(jbad)))
    for line in jbad[:20]:
        print('   ' + line)
    bad = diffs or crashes['ie'] or splat['ie'] or missing or ref_missing or not both or jbad
    print('\nfuzz: %s (%d differences, %d ie crashes, %d ie splats, %d ref crashes)' % (
        'FAIL' if bad else 'PASS', len(diffs), len(crashes['ie']), len(splat['ie']),
        len(crashes['ref'])))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
