#!/usr/bin/env python3
"""Unit tests of rig/fuzz/compare.py and rig/fuzz/known-differences.txt.

usage: python3 rig/fuzz/test_compare.py [-v]

Host side only, no guest or kernel needed.  Every entry of
known-differences.txt must carry at least two must-match: and two
must-not-match: example lines (must-match-diff: and must-not-match-diff:
for its diff: regexes), and its regexes must agree with them.  Generated
cases (gen.py) cross-check the string-variable and parameter-given-twice
entries against a parse of the trigger spec.
"""

import os
import re
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import compare  # noqa: E402
import gen  # noqa: E402
import histjson  # noqa: E402

MIN_EXAMPLES = 2


def load(text):
    """Entries of a known-differences text."""
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
        f.write(text)
    try:
        return compare.read_known(f.name)
    finally:
        os.unlink(f.name)


class KnownDifferencesFile(unittest.TestCase):
    """The shipped known-differences.txt against its own examples."""

    @classmethod
    def setUpClass(cls):
        cls.known = compare.read_known(compare.KNOWN)

    def test_loaded(self):
        self.assertTrue(self.known, 'no entries in %s' % compare.KNOWN)
        names = [e['name'] for e in self.known]
        self.assertEqual(len(names), len(set(names)), 'entry names repeat')

    def test_every_entry_has_a_pattern_a_scope_and_a_reason(self):
        for e in self.known:
            with self.subTest(entry=e['name']):
                self.assertTrue(e['match'] or e['diff'], 'no match: or diff: regex')
                self.assertIn(e['scope'], ('any', 'output'))
                self.assertTrue(e['reason'], 'no reason:')

    def test_enough_examples(self):
        for e in self.known:
            with self.subTest(entry=e['name']):
                if e['match']:
                    self.assertGreaterEqual(len(e['must-match']), MIN_EXAMPLES,
                                            'too few must-match: lines')
                    self.assertGreaterEqual(len(e['must-not-match']), MIN_EXAMPLES,
                                            'too few must-not-match: lines')
                else:
                    self.assertFalse(e['must-match'] or e['must-not-match'],
                                     'must-match: lines but no match: regex')
                if e['diff']:
                    self.assertGreaterEqual(len(e['must-match-diff']), MIN_EXAMPLES,
                                            'too few must-match-diff: lines')
                    self.assertGreaterEqual(len(e['must-not-match-diff']), MIN_EXAMPLES,
                                            'too few must-not-match-diff: lines')
                else:
                    self.assertFalse(e['must-match-diff'] or e['must-not-match-diff'],
                                     'must-match-diff: lines but no diff: regex')

    def test_must_match(self):
        for e in self.known:
            for line in e['must-match']:
                with self.subTest(entry=e['name'], line=line):
                    self.assertTrue(compare.line_hit(e, line), 'not matched')
            for line in e['must-match-diff']:
                with self.subTest(entry=e['name'], diff=line):
                    self.assertTrue(compare.diff_line_hit(e, line), 'not matched')
            # each require: regex has an example line, every example one
            for rx in e['require']:
                with self.subTest(entry=e['name'], require=rx.pattern):
                    self.assertTrue(any(rx.search(l) for l in e['must-require']),
                                    'no must-require: example')
            for line in e['must-require']:
                with self.subTest(entry=e['name'], require_example=line):
                    self.assertTrue(any(rx.search(line) for rx in e['require']),
                                    'matched by no require: regex')
                    self.assertRegex(line, r'^(ref|ie)-err \d+: ')

    def test_must_not_match(self):
        for e in self.known:
            for line in e['must-not-match']:
                with self.subTest(entry=e['name'], line=line):
                    self.assertFalse(compare.line_hit(e, line), 'matched')
            for line in e['must-not-match-diff']:
                with self.subTest(entry=e['name'], diff=line):
                    self.assertFalse(compare.diff_line_hit(e, line), 'matched')

    def test_examples_look_like_case_lines(self):
        for e in self.known:
            for line in e['must-match'] + e['must-not-match']:
                with self.subTest(entry=e['name'], line=line):
                    self.assertRegex(line, r'^(tag |mask |[sStTdkiIm] |e |w$|nodata$)')

    def test_examples_do_not_excuse_a_case(self):
        # A case made of an entry's must-not-match lines is not excused by it.
        for e in self.known:
            if not e['match']:
                continue
            with self.subTest(entry=e['name']):
                req = e['must-require']
                diff = e['must-match-diff'] or ['x']
                self.assertFalse(compare.known_hit(e, e['must-not-match'] + req, 'hist', diff))
                self.assertTrue(compare.known_hit(e, e['must-not-match'] + e['must-match'][:1] +
                                                  req, 'hist', diff))
                if req:
                    # without the error message, no excuse
                    self.assertFalse(compare.known_hit(e, e['must-match'], 'hist', diff))


class ReadKnown(unittest.TestCase):
    TEXT = ('# comment\n'
            '[a]\n'
            'match: ^t \\S+ \\S*foo\n'
            'scope: output\n'
            'reason: one\n'
            'reason: two\n'
            'must-match: t ev hist:foo\n'
            'must-not-match: t ev hist:bar if foo\n'
            '\n'
            '[b]\n'
            'diff: ^!!! x\n'
            'must-match-diff: !!! x y\n'
            'must-not-match-diff: !!! y\n')

    def test_fields(self):
        a, b = load(self.TEXT)
        self.assertEqual(a['name'], 'a')
        self.assertEqual(a['scope'], 'output')
        self.assertEqual(a['reason'], 'one two')
        self.assertEqual(a['must-match'], ['t ev hist:foo'])
        self.assertEqual(a['must-not-match'], ['t ev hist:bar if foo'])
        self.assertEqual(len(a['match']), 1)
        self.assertEqual(b['scope'], 'any')
        self.assertEqual(b['must-match-diff'], ['!!! x y'])
        self.assertEqual(b['must-not-match-diff'], ['!!! y'])

    def test_examples_take_no_part_in_matching(self):
        a, _ = load(self.TEXT)
        # the example text itself is no regex: "hist:bar" does not match
        self.assertFalse(compare.known_hit(a, ['t ev hist:bar'], 'hist', ['x']))
        self.assertEqual(len(a['match']), 1)

    def test_errors(self):
        for text in ('[a]\nmach: x\n', '[a]\nmatch: (\n', '[a]\nmatch: x\nscope: all\n',
                     'match: x\n'):
            with self.subTest(text=text):
                with self.assertRaises(ValueError):
                    load(text)

    def test_missing_file(self):
        self.assertEqual(compare.read_known('/nonexistent/known.txt'), [])


class KnownHit(unittest.TestCase):
    def entry(self, scope='any', match=(), diff=()):
        return {'name': 'x', 'scope': scope, 'match': [re.compile(m) for m in match],
                'diff': [re.compile(d) for d in diff]}

    def test_require(self):
        e = self.entry(match=[r'^t \S+ \S*foo'])
        e['require'] = [re.compile(r'^ref-err \d+: bad$')]
        self.assertTrue(compare.known_hit(e, ['t ev hist:foo', 'ref-err 1: bad'], 'accept', ['a']))
        self.assertFalse(compare.known_hit(e, ['t ev hist:foo', 'ie-err 1: bad'], 'accept', ['a']))
        self.assertFalse(compare.known_hit(e, ['t ev hist:bar', 'ref-err 1: bad'], 'accept', ['a']))

    def test_match(self):
        e = self.entry(match=[r'^t \S+ \S*foo'])
        self.assertTrue(compare.known_hit(e, ['w', 't ev hist:foo'], 'accept', ['a']))
        self.assertFalse(compare.known_hit(e, ['t ev hist:bar if foo'], 'accept', ['a']))

    def test_scope_output_never_excuses_acceptance(self):
        e = self.entry(scope='output', match=['foo'])
        self.assertFalse(compare.known_hit(e, ['t ev foo'], 'accept', ['a']))
        self.assertTrue(compare.known_hit(e, ['t ev foo'], 'hist', ['a']))

    def test_diff_must_cover_every_line(self):
        e = self.entry(scope='output', diff=['^!!! x'])
        self.assertTrue(compare.known_hit(e, [], 'cleanup', ['!!! x 1', '!!! x 2']))
        self.assertFalse(compare.known_hit(e, [], 'cleanup', ['!!! x 1', '{ a: 1 }']))

    def test_match_and_diff_both_needed(self):
        e = self.entry(match=['foo'], diff=['^!!! x'])
        self.assertFalse(compare.known_hit(e, ['bar'], 'hist', ['!!! x']))
        self.assertFalse(compare.known_hit(e, ['foo'], 'hist', ['{ a: 1 }']))
        self.assertTrue(compare.known_hit(e, ['foo'], 'hist', ['!!! x']))

    def test_empty_entry_excuses_nothing(self):
        self.assertFalse(compare.known_hit(self.entry(), ['foo'], 'hist', []))


class Normalise(unittest.TestCase):
    def test_pids_by_rank(self):
        out = compare.normalise(['--- hist e', '{ common_pid:       812 } hitcount: 1',
                                 '{ common_pid:        77 } hitcount: 2'], [])
        # "name:   value" becomes "name:rank" (blanks of the column width go)
        self.assertEqual(out, ['--- hist e', '{ common_pid:P1 } hitcount: 1',
                               '{ common_pid:P0 } hitcount: 2'])

    def test_execname_pid(self):
        out = compare.normalise(['{ common_pid: head            [       123] } hitcount: 1'], [])
        self.assertEqual(out, ['{ common_pid: head            [P0] } hitcount: 1'])

    def test_sym_pid(self):
        out = compare.normalise(['{ common_pid: [1fa] 0x1fa      } hitcount: 1',
                                 '{ common_pid: [7] 0x7      } hitcount: 2'], [])
        self.assertEqual(out, ['{ common_pid: [P1] P1      } hitcount: 1',
                               '{ common_pid: [P0] P0      } hitcount: 2'])

    def test_addresses_and_offsets(self):
        out = compare.normalise(['{ ip: [ffffffff81234567] foo+0x12/0x40 } hitcount: 1'], [])
        self.assertEqual(out, ['{ ip: [ADDR] foo+OFF } hitcount: 1'])

    def test_trace_lines(self):
        out = compare.normalise([
            '--- trace',
            '            head-345     [002] ..... 12.345678: lat_ev: lat=5',
            '              sh-12      [000] ..... 12.300000: lat_ev: lat=4',
        ], [])
        # the task's pid, cpu, flags and time go; lines of several CPUs sort
        self.assertEqual(out, ['--- trace', 'head: lat_ev: lat=5', 'sh: lat_ev: lat=4'])

    def test_masks(self):
        out = compare.normalise(['{ pid: 1 } hitcount: 1 lat: 1234', 'lat=99 x=1'],
                                ['mask lat'])
        self.assertEqual(out, ['{ pid:P0 } hitcount: 1 lat:*', 'lat=* x=1'])

    def test_nodata(self):
        out = compare.normalise(['--- hist e', '# trigger info: hist:keys=pid:size=2048',
                                 '{ pid: 1 } hitcount: 3', 'Hits: 3'], ['nodata'])
        self.assertEqual(out, ['--- hist e', '# trigger info: hist:keys=pid:size=2048'])

    def test_format_id(self):
        out = compare.normalise(['--- format se', 'ID: 1734', 'name: se'], [])
        self.assertEqual(out, ['--- format se', 'ID: N', 'name: se'])


class SortTies(unittest.TestCase):
    def test_equal_sort_fields_any_order(self):
        a = ['# trigger info: hist:keys=fd:vals=hitcount:sort=hitcount:size=2048 [active]',
             '{ fd: 2 } hitcount: 1', '{ fd: 1 } hitcount: 1', '{ fd: 3 } hitcount: 5']
        b = [a[0], a[2], a[1], a[3]]
        self.assertEqual(compare.sort_ties(a), compare.sort_ties(b))

    def test_different_sort_fields_keep_order(self):
        a = ['# trigger info: hist:keys=fd:vals=hitcount:sort=hitcount:size=2048 [active]',
             '{ fd: 2 } hitcount: 2', '{ fd: 1 } hitcount: 1']
        self.assertEqual(compare.sort_ties(a), a)

    def test_graph_sort_value_hides_ties(self):
        # fuzz seed 39, case 83: sort on a value shown as a bar, whose name
        # is also a key's: the order among entries is not in the text
        t = '# trigger info: hist:keys=common_pid.execname,id.syscall:vals=hitcount,id.graph:sort=id.ascending:size=2048 if comm=="head" [active]'
        e = ['{ common_pid: head            [P%d], id: %s } hitcount:          %d  id: ' % (p, k, h)
             for p, k, h in ((3, 'sys_write [  1]', 1), (0, 'sys_close [  3]', 1),
                             (2, 'sys_close [  3]', 1), (1, 'sys_write [  1]', 3))]
        a = [t] + e
        b = [t, e[0], e[2], e[3], e[1]]
        self.assertEqual(compare.sort_ties(a), compare.sort_ties(b))
        # a bar after a readable sort field: ties on that field only
        t2 = '# trigger info: hist:keys=fd:vals=hitcount,count.graph:sort=hitcount,count:size=2048 [active]'
        f = ['{ fd: 1 } hitcount: 2  count: ', '{ fd: 2 } hitcount: 1  count: ']
        self.assertEqual(compare.sort_ties([t2] + f), [t2] + f)
        self.assertNotEqual(compare.sort_ties([t2] + f), compare.sort_ties([t2, f[1], f[0]]))

    def test_entry_values(self):
        self.assertEqual(compare.entry_values('{ fd: 1, comm: head } hitcount: 3  count: 7'),
                         {'fd': '1', 'comm': 'head', 'hitcount': '3', 'count': '7'})

    def test_ties_with_normalised_pids(self):
        # fuzz seed 32, case 76: ties on both sort keys, a pid key after them
        t = '# trigger info: hist:keys=__syscall_nr.syscall,fd,common_pid:vals=hitcount:sort=__syscall_nr.syscall,fd.descending:size=2048 [active]'
        e = ['{ __syscall_nr: sys_read                      [  0], fd:          3, common_pid:P%d } hitcount:          %d' % (p, h)
             for p, h in ((2, 1), (0, 1), (1, 3), (3, 1))]
        a = [t] + e
        b = [t, e[3], e[1], e[2], e[0]]
        self.assertEqual(compare.sort_ties(a), compare.sort_ties(b))
        self.assertEqual(compare.entry_values(e[0])['fd'], '3')


# -- cross-checks on generated cases -----------------------------------------

SEEDS = (1, 2, 3)
N = 300
KEYWORDS = {'keys', 'key', 'vals', 'values', 'sort', 'size', 'name', 'clock'}
SYNONYM = {'key': 'keys', 'values': 'vals'}


def generated():
    """(seed, case number, lines) of gen.py's cases."""
    for seed in SEEDS:
        g = gen.Gen(seed)
        for n in range(N):
            yield seed, n, g.case(n).text().splitlines()


def spec_params(line):
    """A 't' line's spec split in parameters (outside parens), or None."""
    m = re.match(r'^t (\S+) !?hist:(\S*)', line)
    if not m:
        return None, None
    spec = m.group(2)
    params, depth, cur = [], 0, ''
    for ch in spec:
        if ch == '(':
            depth += 1
        elif ch == ')':
            depth -= 1
        if ch == ':' and depth <= 0:
            params.append(cur)
            cur = ''
        else:
            cur += ch
    params.append(cur)
    return m.group(1), params


def param_twice(line):
    """Does a trigger of line give one parameter twice?"""
    _, params = spec_params(line)
    if params is None:
        return False
    seen = set()
    for p in params:
        name, eq, _ = p.partition('=')
        name = SYNONYM.get(name, name)
        if not eq or name not in KEYWORDS:
            continue
        if name in seen:
            return True
        seen.add(name)
    return False


class GeneratedCases(unittest.TestCase):
    """The narrowed entries against a parse of the generated triggers."""

    @classmethod
    def setUpClass(cls):
        cls.known = {e['name']: e for e in compare.read_known(compare.KNOWN)}
        cls.cases = list(generated())

    def check(self, entry, oracle):
        e = self.known[entry]
        wrong = []
        seen = 0
        for seed, n, lines in self.cases:
            for line in lines:
                want = oracle(line)
                seen += want
                if compare.line_hit(e, line) != want:
                    wrong.append('seed %d case %d (%s): %s' % (
                        seed, n, 'missed' if want else 'matched', line))
        self.assertGreater(seen, 0, 'no generated instance of the class')
        self.assertEqual(wrong, [])

    def test_param_given_twice(self):
        self.check('param-given-twice', param_twice)

# A record the tests job printed (rig/guest/iehistaudit.c), as read.
AUDIT_RECORD = """\
IE-JSONBEGIN trigger-hist.tc events/sched/sched_process_fork/hist
IE-J {"version":1,"system":"sched","event":"sched_process_fork","histograms":[
IE-J {"trigger":"hist:keys=parent_pid:vals=hitcount,child_pid:sort=hitcount:size=2048 [active]","name":null,"paused":false,"keys":[{"name":"parent_pid","type":"s64"}],"values":[{"name":"hitcount","type":"u64"},{"name":"child_pid","type":"u64"}],"entries":[
IE-J {"key":[{"value":284}],"values":[12,3618]}
IE-J ],"totals":{"hits":12,"entries":1,"dropped":0,"dropped_actions":0},"cpus":[{"cpu":0,"hits":0,"dropped":0},{"cpu":1,"hits":0,"dropped":0},{"cpu":2,"hits":0,"dropped":0},{"cpu":3,"hits":12,"dropped":0}]}
IE-J ]}
IE-T # event histogram
IE-T #
IE-T # trigger info: hist:keys=parent_pid:vals=hitcount,child_pid:sort=hitcount:size=2048 [active]
IE-T #
IE-T 
IE-T { parent_pid:        284 } hitcount:         12  child_pid:       3618
IE-T 
IE-T Totals:
IE-T     Hits: 12
IE-T     Entries: 1
IE-T     Dropped: 0
IE-JSONEND quiet
"""


class JsonPairs(unittest.TestCase):
    """histjson.pairs(), on the records the fuzz and tests jobs print."""

    def pairs(self, text):
        return histjson.pairs(text.split("\n"))

    def test_agrees(self):
        self.assertEqual(self.pairs("IE-RESULT x\n" + AUDIT_RECORD), (1, 0, []))

    def test_busy_not_compared(self):
        busy = AUDIT_RECORD.replace("IE-T     Hits: 12", "IE-T     Hits: 99")
        busy = busy.replace("JSONEND quiet", "JSONEND busy")
        self.assertEqual(self.pairs(busy), (0, 1, []))

    def test_differences_named_by_test(self):
        for old, new in (('[12,3618]', '[12,3619]'), ('"hits":12,"entries"', '"hits":13,"entries"'),
                         ('{"value":284}', '{"value":285}'), ('"version":1', '"version":2')):
            bad = AUDIT_RECORD.replace(old, new, 1)
            n, busy, problems = self.pairs(bad)
            self.assertEqual((n, busy), (1, 0), old)
            self.assertTrue(problems, old)
            self.assertTrue(all(p.startswith("trigger-hist.tc events/sched/") for p in problems),
                            problems)

    def test_not_json(self):
        n, _, problems = self.pairs(AUDIT_RECORD.replace('IE-J ]}', 'IE-J ]'))
        self.assertEqual(n, 1)
        self.assertIn("not JSON", problems[0])

    def test_text_columns(self):
        # A graph's bar of 0 is empty: the next column's name is no value.
        line = ("{ a:          1 } hitcount:          4  lat (%):  12.50"
                "  b: ####  d:                       e:          0")
        h = histjson.parse_text("# trigger info: x\n" + line + "\n")
        self.assertEqual(h[0]["entries"][0][1],
                         {"hitcount": "4", "lat (%)": "12.50", "b": "####",
                          "d": "", "e": "0"})

    def test_text_columns_of_one_name(self):
        # hitcount and hitcount.hex: both "hitcount" in the text, in order.
        h = histjson.parse_text("# trigger info: x\n{ a:          1 }"
                                " hitcount:         28  hitcount:         1c\n")
        self.assertEqual(h[0]["entries"][0][1], {"hitcount": "28", "hitcount#2": "1c"})
        cols = histjson.columns({"values": [{"name": "hitcount"},
                                            {"name": "hitcount", "modifiers": "hex"},
                                            {"name": "lat", "modifiers": "percent"}]})
        self.assertEqual(cols, [("hitcount", 0, None, "dec"), ("hitcount#2", 1, None, "hex")])

    def test_constant_columns_in_order(self):
        # fuzz seed 40, case 86: two constants' columns, nameless in the
        # text (as stock), named by their values in the JSON
        t = 'hist:keys=prio:vals=hitcount,42,1:z=42,x=1:sort=hitcount:size=2048 [active]'
        rec = ('IE-JSONBEGIN 86 sched/sched_process_exit\n'
               'IE-J {"version":1,"system":"sched","event":"sched_process_exit","histograms":[\n'
               'IE-J {"trigger":"%s","name":null,"paused":false,'
               '"keys":[{"name":"prio","type":"s64"}],"values":[{"name":"hitcount","type":"u64"},'
               '{"name":"42","type":"u64"},{"name":"1","type":"u64"}],"entries":[\n'
               'IE-J {"key":[{"value":120}],"values":[9,378,9]}\n'
               'IE-J ],"totals":{"hits":9,"entries":1,"dropped":0,"dropped_actions":0},'
               '"cpus":[{"cpu":0,"hits":9,"dropped":0}]}\n'
               'IE-J ]}\n'
               'IE-T # trigger info: %s\n'
               'IE-T { prio:        120 } hitcount:          9  :        378  :          9\n'
               'IE-T Totals:\nIE-T     Hits: 9\nIE-T     Entries: 1\nIE-T     Dropped: 0\n'
               'IE-JSONEND quiet') % (t, t)
        self.assertEqual(self.pairs(rec), (1, 0, []))
        n, _, problems = self.pairs(rec.replace('[9,378,9]', '[9,9,378]'))
        self.assertEqual(n, 1)
        self.assertEqual(len(problems), 2, problems)

    def test_nohitcount_hex_hitcount(self):
        # fuzz seed 41, case 291: with nohitcount the text shows only
        # hitcount.hex, which the JSON gives second
        t = ('hist:keys=common_pid.execname:vals=hitcount.hex:sort=hitcount:'
             'size=2048:nohitcount if comm==\\"head\\" [active]')
        rec = ('IE-JSONBEGIN 291 raw_syscalls/sys_exit\n'
               'IE-J {"version":1,"system":"raw_syscalls","event":"sys_exit","histograms":[\n'
               'IE-J {"trigger":"%s","name":null,"paused":false,'
               '"keys":[{"name":"common_pid","type":"u64","modifiers":"execname"}],'
               '"values":[{"name":"hitcount","type":"u64"},'
               '{"name":"hitcount","type":"u64","modifiers":"hex"}],"entries":[\n'
               'IE-J {"key":[{"value":3070,"comm":"head"}],"values":[28,28]}\n'
               'IE-J ],"totals":{"hits":28,"entries":1,"dropped":0,"dropped_actions":0},'
               '"cpus":[{"cpu":0,"hits":28,"dropped":0}]}\n'
               'IE-J ]}\n'
               'IE-T # trigger info: %s\n'
               'IE-T { common_pid: head            [      3070] }  hitcount:         1c\n'
               'IE-T Totals:\nIE-T     Hits: 28\nIE-T     Entries: 1\nIE-T     Dropped: 0\n'
               'IE-JSONEND quiet') % (t, t.replace('\\"', '"'))
        self.assertEqual(self.pairs(rec), (1, 0, []))
        n, _, problems = self.pairs(rec.replace('hitcount:         1c', 'hitcount:         1d'))
        self.assertEqual(n, 1)
        self.assertEqual(len(problems), 1, problems)


if __name__ == '__main__':
    unittest.main()
