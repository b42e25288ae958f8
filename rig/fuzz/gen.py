#!/usr/bin/env python3
"""Seeded generator of hist trigger / synthetic event cases for the
differential fuzzer (rig/fuzz.sh, guest job rig/guest/jobs/fuzz.sh).

usage: gen.py SEED[,SEED...] N  > cases.txt

N cases from each seed, numbered on from one seed to the next.

The case file is line based, one case per block, made to be read by a
POSIX sh with `read -r op rest`:

    case N                      start of case N
    s TEXT                      append TEXT to synthetic_events
    S TEXT                      write TEXT to synthetic_events with truncation
    t SYS/EVENT TEXT            append TEXT to events/SYS/EVENT/trigger
    T SYS/EVENT TEXT            write TEXT to the trigger file with truncation
    e SYS/EVENT                 enable the event (the trace is dumped)
    w                           run the workload (once at the end if absent)
    i NAME                      create instance NAME (mkdir instances/NAME)
    I NAME                      remove instance NAME (rmdir)
    d TEXT                      append TEXT to dynamic_events
    k TEXT                      append TEXT to kprobe_events
    m load|unload               insmod or rmmod the tree's sample trace
                                events module (samples/trace_events)
    tag NAME                    host only: the case belongs to class NAME
    mask NAME                   host only: values shown as "NAME: v" vary
                                from boot to boot (timestamps)
    nodata                      host only: compare no hist entries or totals
    end                         end of the case

An event SYS/EVENT may be INST@SYS/EVENT: the event of instance INST.
Lines starting with "#" are comments.  Every command is a single line.
"""

import random
import sys

# ---------------------------------------------------------------------------
# The events of the workload (rig/guest/jobs/fuzz.sh).  Field kinds:
#   u    unsigned integer     s    signed integer
#   pid  a pid (normalised by rank on the host)
#   str  char[16] string      dstr dynamic string
#   kptr kernel address       uptr user address (varies: never shown)
# "filt" is the filter every trigger on the event carries, so that only
# the deterministic workload counts (the job's own output and its cat
# processes stay out).

EVENTS = {
    'syscalls/sys_enter_write': dict(
        fields={'fd': ('u', 'unsigned int'), 'count': ('u', 'size_t'),
                'buf': ('uptr', 'const char *'),
                '__syscall_nr': ('s', 'int')},
        filt='comm=="head"'),
    'syscalls/sys_exit_write': dict(
        fields={'ret': ('s', 'long'), '__syscall_nr': ('s', 'int')},
        filt='comm=="head"'),
    'syscalls/sys_enter_read': dict(
        fields={'fd': ('u', 'unsigned int'), 'count': ('u', 'size_t'),
                'buf': ('uptr', 'char *'), '__syscall_nr': ('s', 'int')},
        filt='comm=="head"'),
    'syscalls/sys_exit_read': dict(
        fields={'ret': ('s', 'long'), '__syscall_nr': ('s', 'int')},
        filt='comm=="head"'),
    'raw_syscalls/sys_enter': dict(
        fields={'id': ('s', 'long')},
        filt='comm=="head"'),
    # ret: addresses (brk, mmap) and tids (set_tid_address) vary
    'raw_syscalls/sys_exit': dict(
        fields={'id': ('s', 'long'), 'ret': ('uptr', 'long')},
        filt='comm=="head"'),
    'ftrace/print': dict(
        fields={'ip': ('kptr', 'unsigned long'), 'buf': ('dstr', 'char[]')},
        filt=''),
    'sched/sched_process_fork': dict(
        fields={'parent_comm': ('str', 'char[16]'),
                'parent_pid': ('pid', 'pid_t'),
                'child_comm': ('str', 'char[16]'),
                'child_pid': ('pid', 'pid_t')},
        filt='parent_comm=="sh"'),
    'sched/sched_process_exec': dict(
        fields={'filename': ('dstr', '__data_loc char[]'),
                'pid': ('pid', 'pid_t'), 'old_pid': ('pid', 'pid_t')},
        filt='comm!="cat"'),
    'sched/sched_process_exit': dict(
        fields={'comm': ('str', 'char[16]'), 'pid': ('pid', 'pid_t'),
                'prio': ('s', 'int')},
        filt='comm!="cat"'),
    'task/task_newtask': dict(
        fields={'pid': ('pid', 'pid_t'), 'comm': ('str', 'char[16]'),
                'clone_flags': ('u', 'unsigned long'),
                'oom_score_adj': ('s', 'short')},
        filt='comm=="sh"'),
    'task/task_rename': dict(
        fields={'pid': ('pid', 'pid_t'), 'oldcomm': ('str', 'char[16]'),
                'newcomm': ('str', 'char[16]'),
                'oom_score_adj': ('s', 'short')},
        filt='oldcomm=="sh"'),
}

# Events whose data is not deterministic: used in nodata cases only.
NODATA_EVENTS = {
    'sched/sched_switch': dict(
        fields={'prev_comm': ('str', 'char[16]'), 'prev_pid': ('pid', 'pid_t'),
                'prev_prio': ('s', 'int'), 'prev_state': ('s', 'long'),
                'next_comm': ('str', 'char[16]'), 'next_pid': ('pid', 'pid_t'),
                'next_prio': ('s', 'int')},
        filt=''),
    'sched/sched_waking': dict(
        fields={'comm': ('str', 'char[16]'), 'pid': ('pid', 'pid_t'),
                'prio': ('s', 'int'), 'target_cpu': ('s', 'int')},
        filt=''),
    'kmem/kmalloc': dict(
        fields={'call_site': ('kptr', 'unsigned long'),
                'ptr': ('kptr', 'const void *'),
                'bytes_req': ('u', 'size_t'), 'bytes_alloc': ('u', 'size_t'),
                'gfp_flags': ('u', 'unsigned long'), 'node': ('s', 'int')},
        filt=''),
}

# Probes the kprobe cases define: the definition, the event, its fields.
# vfs_read(file, buf, count, pos): count is the third argument (%dx),
# after a filler that moves it from where a tracepoint's field would be.
KPROBES = {
    'kprobes/kp_vr': ('p:kprobes/kp_vr vfs_read pad=%si:u32 count=%dx:u64',
                      {'count': ('u', 'u64')}),
    'kprobes/kr_vr': ('r:kprobes/kr_vr vfs_read ret=$retval:s64',
                      {'ret': ('s', 's64')}),
}

ALL_EVENTS = dict(EVENTS)
ALL_EVENTS.update(NODATA_EVENTS)
for _ev, (_def, _fields) in KPROBES.items():
    ALL_EVENTS[_ev] = dict(fields=_fields, filt='comm=="head"')

# Pairs of events with a deterministic match: (first, its key, second,
# its key, filter override for the second or None).
PIPES = [
    ('syscalls/sys_enter_write', 'common_pid',
     'syscalls/sys_exit_write', 'common_pid', None),
    ('syscalls/sys_enter_read', 'common_pid',
     'syscalls/sys_exit_read', 'common_pid', None),
    ('raw_syscalls/sys_enter', 'common_pid',
     'raw_syscalls/sys_exit', 'common_pid', None),
    ('sched/sched_process_exec', 'pid',
     'sched/sched_process_exit', 'pid', None),
    ('sched/sched_process_fork', 'child_pid',
     'sched/sched_process_exec', 'pid', None),
    ('task/task_newtask', 'pid', 'task/task_rename', 'pid', None),
    ('ftrace/print', 'common_pid',
     'syscalls/sys_exit_write', 'common_pid', 'comm=="fuzz.sh"'),
]

SYNTH_TYPES = ['u8', 'u16', 'u32', 'u64', 's8', 's16', 's32', 's64',
               'char', 'short', 'int', 'long', 'unsigned char',
               'unsigned short', 'unsigned int', 'unsigned long',
               'pid_t', 'gfp_t', 'bool']
BAD_TYPES = ['u65', 'chr', 'unsigned', 'int64_t', 'struct foo', 'u 64',
             'uint', 'char[', 'signed', 'long long long', 'void', 'float']

WORDS = ['alpha', 'beta', 'gamma', 'delta']


def sysdot(ev):
    return ev.replace('/', '.')


def evname(ev):
    return ev.split('/')[1]


class Case:
    def __init__(self, rng, n):
        self.rng = rng
        self.n = n
        self.lines = []
        self.masks = set()
        self.tags = set()
        self.nodata = False
        self.valid = True

    def s(self, text):
        self.lines.append('s ' + text)

    def t(self, ev, text):
        self.lines.append('t %s %s' % (ev, text))

    def w(self):
        self.lines.append('w')

    def text(self):
        out = ['case %d' % self.n]
        out += ['tag ' + t for t in sorted(self.tags)]
        out += ['mask ' + m for m in sorted(self.masks)]
        if self.nodata:
            out.append('nodata')
        out += self.lines
        out.append('end')
        return '\n'.join(out) + '\n'


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    # -- small pieces -----------------------------------------------------

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, seq):
        return self.rng.choice(list(seq))

    def num_fields(self, ev, kinds=('u', 's')):
        f = ALL_EVENTS[ev]['fields']
        return [n for n, (k, _) in sorted(f.items()) if k in kinds]

    def key_fields(self, ev):
        f = ALL_EVENTS[ev]['fields']
        keys = [n for n, (k, _) in sorted(f.items()) if k != 'uptr']
        return keys + ['common_pid']

    def kind(self, ev, field):
        if field == 'common_pid':
            return 'pid'
        if field in ('common_preempt_count', 'common_flags', 'common_type'):
            return 'u'
        return ALL_EVENTS[ev]['fields'].get(field, ('?', ''))[0]

    def key_mod(self, ev, field):
        """A key, possibly with a modifier fitting its kind."""
        k = self.kind(ev, field)
        mods = ['']
        if k in ('u', 's'):
            mods += ['.hex', '.log2', '.buckets=%d' % self.pick([2, 10, 100, 1000, 4096])]
            if field in ('id', '__syscall_nr'):
                mods += ['.syscall'] * 3
        elif k == 'pid':
            # no .hex: pids are normalised by rank, in decimal
            mods += ['.execname'] * 3
        elif k == 'kptr':
            mods += ['.sym', '.sym-offset', '.hex']
        return field + (self.pick(mods) if self.chance(0.5) else '')

    def filt(self, ev, extra=True):
        base = ALL_EVENTS[ev]['filt']
        conds = [base] if base else []
        if extra and self.chance(0.25):
            f = ALL_EVENTS[ev]['fields']
            cands = []
            for n, (k, _) in f.items():
                if k in ('u', 's'):
                    cands.append('%s %s %d' % (n, self.pick(['>', '<', '==', '!=', '>=']),
                                               self.pick([0, 1, 5, 300, 4096])))
                elif k in ('str', 'dstr'):
                    val = self.pick(['true', 'sh', 'head', '/bin/true', 'alpha\\n', 'b*',
                                     '*a*'])
                    op = '~' if '*' in val else self.pick(['==', '!='])
                    cands.append('%s %s "%s"' % (n, op, val))
            if cands:
                conds.append(self.pick(cands))
        if not conds:
            return ''
        return ' if ' + ' && '.join(conds)

    # -- plain hist triggers ----------------------------------------------

    def hist_spec(self, ev, nkeys=None, allow_vars=False):
        """A random, mostly valid, hist spec (without filter)."""
        keys = self.key_fields(ev)
        if nkeys is None:
            nkeys = self.pick([1, 1, 1, 2, 2, 3])
        chosen = self.rng.sample(keys, min(nkeys, len(keys)))
        keyspecs = [self.key_mod(ev, k) for k in chosen]
        parts = ['hist:%s=%s' % (self.pick(['keys', 'keys', 'key']), ','.join(keyspecs))]
        vals = []
        nums = self.num_fields(ev)
        if self.chance(0.6):
            cand = ['hitcount'] + nums
            for v in self.rng.sample(cand, min(len(cand), self.pick([1, 1, 2, 3]))):
                mod = ''
                if self.chance(0.4):
                    mod = self.pick(['.hex', '.percent', '.graph', '.percent', '.graph'])
                vals.append(v + mod)
            if nums and self.chance(0.15):
                vals.append(self.expr(ev, nums))
            parts.append('%s=%s' % (self.pick(['vals', 'vals', 'values']), ','.join(vals)))
        if vals and self.chance(0.15):
            parts.append('nohitcount')
        if self.chance(0.5):
            names = [k for k in keyspecs] + [v for v in vals if '+' not in v and '*' not in v]
            names = [n for n in names if '/' not in n and '-' not in n[1:]]
            sorts = []
            for nm in self.rng.sample(names, min(len(names), self.pick([1, 1, 2]))):
                if '.' in nm and self.chance(0.5):
                    nm = nm.split('.')[0]
                if self.chance(0.5):
                    nm += self.pick(['.descending', '.ascending', '.descending'])
                sorts.append(nm)
            if self.chance(0.15):
                sorts = ['hitcount' + self.pick(['', '.descending'])] + sorts[:1]
            parts.append('sort=' + ','.join(sorts))
        if self.chance(0.15):
            parts.append('size=%d' % self.pick([1, 64, 128, 200, 256, 4096]))
        if self.chance(0.1):
            parts.append('pause')
        return ':'.join(parts)

    def expr(self, ev, nums, depth=0):
        """An expression over fields and constants (no division by zero)."""
        r = self.rng.random()
        if depth > 1 or r < 0.3:
            if self.chance(0.3):
                return str(self.pick([1, 2, 3, 7, 10, 100]))
            return self.pick(nums)
        op = self.pick(['+', '-', '*', '/', '+', '*'])
        a = self.expr(ev, nums, depth + 1)
        if op == '/':
            b = str(self.pick([1, 2, 3, 7, 10, 1000]))
        else:
            b = self.pick(nums + ['2', '5'])
        e = '%s%s%s' % (a, op, b)
        if depth > 0 and self.chance(0.4):
            e = '(%s)' % e
        return e

    def case_simple(self, c):
        ev = self.pick(EVENTS)
        c.t(ev, self.hist_spec(ev) + self.filt(ev))
        if self.chance(0.3):
            c.t(ev, self.hist_spec(ev) + self.filt(ev))
        c.w()
        if self.chance(0.3):
            spec = c.lines[0].split(' ', 2)[2]
            head, sep, tail = spec.partition(' if ')
            op = self.pick(['pause', 'cont', 'clear'])
            c.t(ev, head + ':' + op + sep + tail)
            c.w()
            if op == 'pause' and self.chance(0.5):
                c.t(ev, head + ':cont' + sep + tail)
                c.w()
        if self.chance(0.15):
            # Remove the first trigger by its spec.
            spec = c.lines[0].split(' ', 2)[2]
            c.t(ev, '!' + spec)

    def case_named(self, c):
        ev1 = self.pick(['syscalls/sys_enter_write', 'syscalls/sys_enter_read'])
        ev2 = 'syscalls/sys_enter_read' if ev1.endswith('write') else 'syscalls/sys_enter_write'
        spec = 'hist:name=%s:keys=%s:vals=hitcount,count' % (
            self.pick(['shared', 'rw', 'h1']), self.pick(['count', 'fd,count', 'count.hex']))
        if self.chance(0.3):
            spec += ':sort=count.descending'
        c.t(ev1, spec + self.filt(ev1, False))
        if self.chance(0.2):
            spec2 = spec.replace('vals=hitcount,count', 'vals=hitcount')
        else:
            spec2 = spec
        c.t(ev2, spec2 + self.filt(ev2, False))
        c.w()
        if self.chance(0.3):
            c.t(ev1, spec + ':clear' + self.filt(ev1, False))
            c.w()

    def case_vars(self, c):
        ev = self.pick([e for e in EVENTS if self.num_fields(e)])
        nums = self.num_fields(ev)
        key = self.pick(self.key_fields(ev))
        parts = ['hist:keys=' + key]
        defs = []
        for i in range(self.pick([1, 1, 2, 3])):
            name = self.pick(['x', 'y', 'z', 'v%d' % i, 'cnt'])
            if name in [d[0] for d in defs]:
                name += str(i)
            r = self.rng.random()
            if r < 0.4:
                val = self.pick(nums)
            elif r < 0.55:
                val = 'common_timestamp' + self.pick(['', '.usecs'])
                c.masks.add(name)
            elif r < 0.7:
                val = str(self.pick([0, 1, 42, 123456789]))
            else:
                val = self.expr(ev, nums)
            defs.append((name, val))
        if self.chance(0.5):
            parts.append(','.join('%s=%s' % d for d in defs))
        else:
            parts += ['%s=%s' % d for d in defs]
        if self.chance(0.5):
            # vals from the variables' expressions or references
            v = []
            for name, val in defs:
                if name in c.masks:
                    continue
                if self.chance(0.5):
                    v.append('$' + name)
                elif 'common_timestamp' not in val:
                    v.append(val)
            if v:
                parts.insert(1, 'vals=' + ','.join(v))
        if self.chance(0.2):
            name, val = defs[0]
            if name not in c.masks and 'common_timestamp' not in val:
                parts.append('neg=-(%s)' % val if self.chance(0.5) else 'neg=-%s' % self.pick(nums))
        c.t(ev, ':'.join(parts) + self.filt(ev))
        c.w()

    # -- synthetic events and actions -----------------------------------------

    def synth_type_for(self, kind, ctype, exact=True):
        if not exact:
            return self.pick(SYNTH_TYPES + ['char[16]', 'u64', 'u64'])
        if kind == 'pid':
            return self.pick(['pid_t', 'pid_t', 'int', 's32'])
        if kind == 'str':
            return 'char[16]'
        if kind == 'dstr':
            return self.pick(['char[]', 'char[64]'])
        if kind == 's':
            return {'long': self.pick(['s64', 'long']), 'int': self.pick(['int', 's32']),
                    'short': self.pick(['short', 's16'])}.get(ctype, 's64')
        if kind == 'u':
            return {'size_t': self.pick(['u64', 'unsigned long']),
                    'unsigned int': self.pick(['unsigned int', 'u32']),
                    'unsigned long': self.pick(['unsigned long', 'u64'])}.get(ctype, 'u64')
        return 'u64'

    def synth_def(self, name, fields):
        """fields: list of (type, fieldname) -> definition text."""
        items = []
        for ty, fn in fields:
            if ty.startswith('char['):
                items.append('char %s%s' % (fn, ty[4:]))
            else:
                items.append('%s %s' % (ty, fn))
        sep = self.pick(['; ', '; ', ';', ' ; '])
        return name + ' ' + sep.join(items)

    def case_pipe(self, c):
        ev1, k1, ev2, k2, f2 = self.pick(PIPES)
        f1 = ALL_EVENTS[ev1]['fields']
        fl2 = ALL_EVENTS[ev2]['fields']
        synth = self.pick(['lat_ev', 'wsynth', 'pair', 'ie_s'])
        # Variables on the first event.
        vars1 = []   # (name, kind, ctype, timed)
        spec1 = ['hist:keys=' + k1]
        assigns = []
        if self.chance(0.7):
            assigns.append('ts0=common_timestamp' + self.pick(['.usecs', '.usecs', '']))
            vars1.append(('ts0', 'u', 'u64', True))
        cand = [(n, k, ct) for n, (k, ct) in sorted(f1.items()) if k in ('u', 's', 'pid', 'str', 'dstr')]
        for n, k, ct in self.rng.sample(cand, min(len(cand), self.pick([1, 1, 2]))):
            vname = self.pick(['v_', 'sv', 'a']) + n
            if k in ('u', 's') and self.chance(0.25):
                val = '%s%s%d' % (n, self.pick(['+', '*', '-']), self.pick([1, 2, 10]))
                assigns.append('%s=%s' % (vname, val))
                vars1.append((vname, 'u' if k == 'u' else 's', 'u64' if k == 'u' else 's64', False))
            else:
                assigns.append('%s=%s' % (vname, n))
                vars1.append((vname, k, ct, False))
        if not assigns:
            assigns.append('ts0=common_timestamp.usecs')
            vars1.append(('ts0', 'u', 'u64', True))
        spec1.append(','.join(assigns) if self.chance(0.5) else ':'.join(assigns))
        filt1 = self.filt(ev1, False)
        # The second event's trigger: references and an action.
        params = []   # (text, kind, ctype, timed, fieldname)
        spec2 = ['hist:keys=' + k2]
        assigns2 = []
        for vname, k, ct, timed in vars1:
            if timed:
                assigns2.append('lat=common_timestamp%s-$ts0' % (
                    '.usecs' if 'usecs' in spec1[1] else ''))
                params.append(('$lat', 'u', 'u64', True, 'lat'))
            elif k in ('u', 's') and self.chance(0.4):
                nums2 = [n for n, (kk, _) in sorted(fl2.items()) if kk in ('u', 's')]
                other = self.pick(nums2) if nums2 else '1'
                assigns2.append('d_%s=$%s%s%s' % (vname, vname, self.pick(['+', '-', '*']), other))
                params.append(('$d_' + vname, 'u' if k == 'u' else 's', 's64', False, 'd' + vname))
            else:
                ref = '$' + vname
                if self.chance(0.15):
                    ref = '%s.$%s' % (sysdot(ev1), vname)
                params.append((ref, k, ct, False, 'f' + vname))
        for n, (k, ct) in sorted(fl2.items()):
            if k in ('u', 's', 'pid', 'str', 'dstr') and self.chance(0.3):
                params.append((n, k, ct, False, 'g' + n))
        if self.chance(0.15):
            # a field of the first event, saved by a helper trigger
            n, k, ct = self.pick(cand)
            params.append(('%s.%s' % (sysdot(ev1), n), k, ct, False, 'h' + n))
        if assigns2:
            spec2.append(':'.join(assigns2))
        exact = not self.chance(0.15)
        sfields = []
        seen = set()
        for text, k, ct, timed, fn in params:
            if fn in seen:
                fn += '2'
            seen.add(fn)
            sfields.append((self.synth_type_for(k, ct, exact), fn, k))
            if timed:
                c.masks.add(fn)
        c.s(self.synth_def(synth, [(ty, fn) for ty, fn, _ in sfields]))
        # Handler and action.
        r = self.rng.random()
        plist = ','.join(p[0] for p in params)
        onm = 'onmatch(%s)' % sysdot(ev1)
        timed_vars = [p for p in params if p[3]]
        if r < 0.55:
            act = '%s.trace(%s,%s)' % (onm, synth, plist)
        elif r < 0.7:
            act = '%s.%s(%s)' % (onm, synth, plist)
        elif r < 0.85 and assigns2:
            mv = assigns2[0].split('=')[0]
            savef = [n for n, (k, _) in sorted(fl2.items()) if k != 'uptr']
            save = ','.join(self.rng.sample(savef, min(len(savef), self.pick([1, 2]))))
            handler = self.pick(['onmax', 'onchange'])
            if self.chance(0.2):
                act = '%s($%s).trace(%s,%s)' % (handler, mv, synth, plist)
            elif self.chance(0.1):
                act = '%s($%s).snapshot()' % (handler, mv)
            else:
                act = '%s($%s).save(%s)' % (handler, mv, save)
            if mv == 'lat':
                c.masks.update(['max', 'changed'] + save.split(','))
        else:
            act = '%s.trace(%s,%s):%s.trace(%s,%s)' % (onm, synth, plist, onm, synth, plist)
        spec2.append(act)
        if self.chance(0.2):
            spec2.insert(1, 'vals=hitcount')
        filt2 = (' if ' + f2) if f2 else self.filt(ev2, False)
        c.t(ev1, ':'.join(spec1) + filt1)
        c.t(ev2, ':'.join(spec2) + filt2)
        # A hist on the synthetic event.
        if self.chance(0.7):
            keyable = [fn for ty, fn, k in sfields if fn not in c.masks]
            if keyable:
                keys = self.rng.sample(keyable, min(len(keyable), self.pick([1, 1, 2])))
                hs = 'hist:keys=' + ','.join(keys)
                # sums of pids would not survive the pid normalisation
                numv = [fn for ty, fn, k in sfields
                        if not ty.startswith('char') and k != 'pid' and fn not in keys]
                if numv and self.chance(0.7):
                    hs += ':vals=hitcount,' + ','.join(numv[:2])
                if self.chance(0.4):
                    hs += ':sort=' + keys[0]
                c.t('synthetic/' + synth, hs)
        if self.chance(0.2):
            c.lines.append('e synthetic/' + synth)
        c.w()
        if self.chance(0.15):
            # Removing the defining trigger while it is referenced.
            c.t(ev1, '!' + ':'.join(spec1) + filt1)

    def case_synth_defs(self, c):
        names = []
        for i in range(self.pick([1, 2, 3])):
            name = self.pick(['se_a', 'se_b', 'myevent', 'lat%d' % i])
            fields = []
            for j in range(self.pick([1, 2, 3, 5])):
                r = self.rng.random()
                if r < 0.6:
                    ty = self.pick(SYNTH_TYPES)
                elif r < 0.8:
                    ty = 'char[%d]' % self.pick([1, 8, 16, 20, 64, 256])
                elif r < 0.9:
                    ty = 'char[]'
                else:
                    ty = self.pick(['unsigned long[]', 'u64', 'long long', 'unsigned long long'])
                fields.append((ty, self.pick(['lat', 'pid', 'comm', 'f%d' % j, 'val'])))
            # duplicate field names happen: that is a case too
            c.s(self.synth_def(name, fields))
            names.append(name)
        if self.chance(0.3):
            c.s('!' + self.pick(names))
        if self.chance(0.2):
            c.lines.append('S ' + self.synth_def('se_trunc', [('u64', 'x')]))

    def case_rfc(self, c):
        """Syntax of the 2017 RFC: ours only (a deliberate difference)."""
        c.tags.add('rfc')
        r = self.rng.random()
        if r < 0.5:
            c.s('rfc_lat lat=sys_exit_write:wlat pid=sys_exit_write:wpid')
            c.t('syscalls/sys_enter_write', 'hist:keys=common_pid:ts0=common_timestamp.usecs if comm=="head"')
            c.t('syscalls/sys_exit_write',
                'hist:keys=wpid=common_pid:wlat=common_timestamp.usecs-ts0:onmatch().trace(rfc_lat) if comm=="head"')
            c.t('synthetic/rfc_lat', 'hist:keys=pid')
            c.masks.add('lat')
        else:
            c.s('rfc_c c=sys_exit_read:cnt')
            c.t('syscalls/sys_enter_read', 'hist:keys=common_pid:n=count if comm=="head"')
            c.t('syscalls/sys_exit_read',
                'hist:keys=common_pid:cnt=n+ret:onmatch().trace(rfc_c) if comm=="head"')
            c.t('synthetic/rfc_c', 'hist:keys=c:vals=hitcount')
        c.w()

    def case_handler(self, c):
        """onmax()/onchange() on one event, saving its fields."""
        ev = self.pick([e for e in EVENTS if self.num_fields(e)])
        nums = self.num_fields(ev)
        key = self.pick(self.key_fields(ev))
        v = self.pick(nums)
        val = v if self.chance(0.6) else self.expr(ev, nums)
        if self.chance(0.1):
            val = '-(%s)' % v
        fields = [n for n, (k, _) in sorted(ALL_EVENTS[ev]['fields'].items()) if k != 'uptr']
        save = ','.join(self.rng.sample(fields, min(len(fields), self.pick([1, 2, 3]))))
        handler = self.pick(['onmax', 'onchange', 'onmax'])
        spec = 'hist:keys=%s:m=%s:%s($m).save(%s)' % (key, val, handler, save)
        if self.chance(0.3):
            spec = spec.replace(':m=', ':vals=hitcount,%s:m=' % v, 1)
        if self.chance(0.15):
            spec += ':%s($m).save(%s)' % (self.pick(['onmax', 'onchange']), save)
        c.t(ev, spec + self.filt(ev))
        c.w()

    def case_nodata(self, c):
        """Events whose counts vary: compare acceptance and listings only."""
        c.nodata = True
        ev = self.pick(NODATA_EVENTS)
        spec = self.hist_spec(ev)
        if ev == 'sched/sched_switch' and self.chance(0.5):
            c.s('wakeup_latency u64 lat; pid_t pid; int prio')
            c.t('sched/sched_waking', 'hist:keys=pid:ts0=common_timestamp.usecs')
            c.t('sched/sched_switch',
                'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:'
                'onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_prio)')
            c.t('synthetic/wakeup_latency', 'hist:keys=pid,prio:vals=hitcount,lat')
        else:
            if self.chance(0.3):
                spec += ':vals=' + self.pick(['common_stacktrace', 'stacktrace', 'common_cpu'])
            if self.chance(0.2):
                spec = spec.replace('hist:keys=', 'hist:keys=common_stacktrace,', 1)
            c.t(ev, spec + self.filt(ev))
        c.w()

    def case_print_buf(self, c):
        """String keys on ftrace/print's dynamic buf."""
        spec = self.pick(['hist:keys=buf', 'hist:keys=buf:vals=hitcount:sort=buf',
                          'hist:keys=buf,common_pid.execname',
                          'hist:keys=buf:sort=hitcount.descending,buf',
                          'hist:keys=ip.sym,buf', 'hist:keys=buf.hex',
                          'hist:keys=buf:b=buf'])
        c.t('ftrace/print', spec + self.pick(['', '', ' if buf ~ "*a*"']))
        c.w()

    # -- instances, probes, chains -------------------------------------------

    def case_instance(self, c):
        """Triggers and pipelines in an instance, beside the top level's."""
        inst = self.pick(['fz1', 'fz2'])
        c.lines.append('i ' + inst)
        r = self.rng.random()
        if r < 0.4:
            ev = self.pick(EVENTS)
            c.t(inst + '@' + ev, self.hist_spec(ev) + self.filt(ev))
            if self.chance(0.5):
                # The same trigger at the top level counts the same.
                c.t(ev, self.hist_spec(ev) + self.filt(ev))
            c.w()
            if self.chance(0.3):
                c.lines.append('I ' + inst)
            return
        c.s('ie_inst u64 lat; s64 ret')
        p = inst + '@syscalls/'
        c.t(p + 'sys_enter_write',
            'hist:keys=common_pid:ts0=common_timestamp if comm=="head"')
        c.t(p + 'sys_exit_write',
            'hist:keys=common_pid:lat=common_timestamp-$ts0:'
            'onmatch(syscalls.sys_enter_write).trace(ie_inst,$lat,ret) if comm=="head"')
        c.t(inst + '@synthetic/ie_inst', 'hist:keys=ret:vals=hitcount')
        c.masks.add('lat')
        if self.chance(0.3):
            c.lines.append('e %s@synthetic/ie_inst' % inst)
        # No rmdir here: the stock kernel, removing an instance with a
        # hist trigger on a synthetic event, keeps the event busy for
        # good (found by this generator; ours frees it), and every later
        # case of the boot would differ.
        c.w()

    def case_kprobe(self, c):
        """Hist triggers, pipelines and eprobes on kprobe events."""
        via = self.pick(['d', 'k'])
        for ev in KPROBES:
            c.lines.append('%s %s' % (via, KPROBES[ev][0]))
        kp, kr = 'kprobes/kp_vr', 'kprobes/kr_vr'
        r = self.rng.random()
        if r < 0.35:
            ev = self.pick([kp, kr])
            c.t(ev, self.hist_spec(ev) + self.filt(ev, False))
        elif r < 0.6:
            c.s('kvr u64 cnt; s64 ret')
            c.t(kp, 'hist:keys=common_pid:c=count if comm=="head"')
            c.t(kr, 'hist:keys=common_pid:onmatch(kprobes.kp_vr).trace(kvr,$c,ret) if comm=="head"')
            c.t('synthetic/kvr', 'hist:keys=cnt,ret:vals=hitcount')
            if self.chance(0.5):
                c.lines.append('d e:eprobes/ep_kvr synthetic.kvr n=$cnt')
                c.t('eprobes/ep_kvr', 'hist:keys=n')
        elif r < 0.8:
            c.t(kp, 'hist:keys=common_pid:m=count:onmax($m).save(count) if comm=="head"')
        else:
            # One named table over a tracepoint and a kprobe.
            c.t('syscalls/sys_enter_read', 'hist:name=rd:keys=count if comm=="head"')
            c.t(kp, 'hist:name=rd:keys=count if comm=="head"')
        c.w()
        if self.chance(0.2):
            # Refused while a trigger is on it.
            c.lines.append('d -:kprobes/kp_vr')

    def case_chain(self, c):
        """Two synthetic events deep, removed in a random order."""
        c.s('ca u64 lat; s64 ret')
        c.s('cb u64 c2')
        c.t('syscalls/sys_enter_write',
            'hist:keys=common_pid:ts0=common_timestamp:c=count if comm=="head"')
        c.t('syscalls/sys_exit_write',
            'hist:keys=common_pid:lat=common_timestamp-$ts0:'
            'onmatch(syscalls.sys_enter_write).trace(ca,$lat,ret) if comm=="head"')
        ca = 'hist:keys=common_pid:onmatch(syscalls.sys_enter_write).trace(cb,$c)'
        c.t('synthetic/ca', ca)
        c.t('synthetic/cb', 'hist:keys=c2:vals=hitcount')
        c.masks.add('lat')
        if self.chance(0.3):
            c.lines.append('e synthetic/cb')
        c.w()
        removals = ['s !ca', 's !cb', 't synthetic/ca !' + ca,
                    't synthetic/cb !hist:keys=c2:vals=hitcount']
        self.rng.shuffle(removals)
        c.lines += removals[:self.pick([1, 2, 3, 4])]

    def case_module(self, c):
        """Hist triggers on a module's events (samples/trace_events, whose
        kthread fires them once a second: counts vary), and the module
        unloaded under them or after."""
        c.nodata = True
        c.lines.append('m load')
        ev = 'sample-trace/foo_bar'
        r = self.rng.random()
        if r < 0.4:
            c.t(ev, self.pick(['hist:keys=bar', 'hist:keys=common_pid:vals=bar',
                               'hist:keys=foo:vals=hitcount',
                               'hist:keys=bar.hex:sort=bar.descending',
                               'hist:keys=str:vals=hitcount:sort=str']))
        elif r < 0.7:
            # A helper trigger on the module's event, for a trigger on
            # another event.
            # The stock kernel keeps the variables of a trigger whose
            # module went away: a name of this case alone keeps that
            # from making "ts0" ambiguous in every later case.
            ts = 'mts%d' % c.n
            c.s('fzmod u64 d; int bar')
            c.t(ev, 'hist:keys=common_pid:%s=common_timestamp' % ts)
            c.t('sched/sched_switch',
                'hist:keys=prev_pid:d=common_timestamp-$%s:'
                'onmatch(sample-trace.foo_bar).trace(fzmod,$d,sample-trace.foo_bar.bar)' % ts)
        else:
            # One named table over the module's event and another.
            c.t(ev, 'hist:name=fzm:keys=common_pid')
            c.t('sample-trace/foo_bar_with_cond', 'hist:name=fzm:keys=common_pid')
        if self.chance(0.3):
            c.lines.append('e ' + ev)
        c.w()
        if self.chance(0.6):
            c.tags.add('module-unload-busy')
            c.lines.append('m unload')

    # -- invalid cases: one mutation of a valid case -------------------------

    MUTATIONS = ['typo', 'badmod', 'manykeys', 'paren', 'dupvar', 'badtype',
                 'unkref', 'badsize', 'badsort', 'badaction', 'badfilter',
                 'syntax', 'manysort', 'constdiv0', 'unaryminus', 'manyops',
                 'dupsynth', 'badsynthname', 'wrongparams', 'removal']

    def mutate(self, c):
        m = self.pick(self.MUTATIONS)
        c.tags.add('mut-' + m)
        idx = [i for i, l in enumerate(c.lines) if l[0] in 'st' and l[1] == ' ']
        if not idx:
            return
        i = self.pick(idx)
        line = c.lines[i]
        op = line[0]
        if op == 't':
            _, ev, spec = line.split(' ', 2)
        else:
            ev, spec = None, line[2:]
        new = spec
        if m == 'typo':
            words = [w for w in ['count', 'keys', 'vals', 'hitcount', 'common_pid', 'ret', 'pid',
                                 'onmatch', 'trace', 'common_timestamp', 'sort', 'fd', 'u64',
                                 'pid_t', 'buf', 'filename', 'usecs', 'descending', 'save']
                     if w in spec]
            if words:
                w = self.pick(words)
                bad = w[:1] + w[2:1:-1] + w[1:2] + w[3:] if len(w) > 3 else w + 'x'
                new = spec.replace(w, bad, 1)
        elif m == 'badmod' and ev:
            mod = self.pick(['.hexx', '.sym', '.execname', '.syscall', '.log2', '.buckets=0',
                             '.buckets=abc', '.percent', '.graph', '.usecs', '.descending',
                             '.hex.log2', '.', '.buckets'])
            new = spec.replace('keys=', 'keys=', 1)
            head, _, rest = spec.partition('keys=')
            first = rest.split(':')[0].split(',')[0].split(' ')[0]
            if ev in ALL_EVENTS and 'log2' in mod and \
                    self.kind(ev, first.split('.')[0]) == 'pid':
                # a pid's power of two depends on how long the boot ran
                mod = '.hexx'
            new = head + 'keys=' + first + mod + rest[len(first):]
        elif m == 'manykeys' and ev:
            keys = (self.key_fields(ev) if ev in ALL_EVENTS else ['common_pid']) + \
                ['common_preempt_count', 'common_flags', 'common_type', 'common_cpu']
            filt = self.filt(ev, False) if ev in ALL_EVENTS else ''
            new = 'hist:keys=%s%s' % (','.join(keys[:self.pick([4, 5, 6])]), filt)
        elif m == 'paren':
            new = spec.replace('=', '=(', 1) if self.chance(0.5) else spec.replace(':', '):', 2)
        elif m == 'dupvar' and ev:
            head, sep, tail = spec.partition(' if ')
            new = head + ':x=1:x=2' + sep + tail
        elif m == 'badtype' and op == 's':
            parts = spec.split(' ', 1)
            new = parts[0] + ' ' + self.pick(BAD_TYPES) + ' ' + self.pick(['f', 'lat'])
            if self.chance(0.3):
                new = parts[0] + ' char str[%s]' % self.pick(['257', '0', 'abc', '', '-1', '65536'])
        elif m == 'unkref' and ev:
            head, sep, tail = spec.partition(' if ')
            new = head + ':r=$' + self.pick(['nosuch', 'ts1', 'x']) + '+1' + sep + tail
            if self.chance(0.3):
                new = head + ':r=sys.nosuch.$x' + sep + tail
        elif m == 'badsize' and ev:
            head, sep, tail = spec.partition(' if ')
            new = head + ':size=' + self.pick(['0', 'abc', '-1', '999999999', '262144', '']) + sep + tail
        elif m == 'badsort' and ev:
            head, sep, tail = spec.partition(' if ')
            new = head + ':sort=' + self.pick(['nosuch', 'count.junk', 'hitcount.hex', ',', '',
                                               'hitcount.descending.ascending']) + sep + tail
        elif m == 'manysort' and ev:
            head, sep, tail = spec.partition(' if ')
            new = head + ':sort=hitcount,common_pid,hitcount' + sep + tail
        elif m == 'badaction' and ev:
            head, sep, tail = spec.partition(' if ')
            new = head + ':' + self.pick(['onmatch(nosys.noevent).trace(x,$y)', 'onmax(count).save(count)',
                                          'onmatch(syscalls.sys_enter_write).nosuch()',
                                          'onmax($nosuch).save(ret)', 'onchange().save()',
                                          'onmatch(syscalls.sys_enter_write).trace()',
                                          'onmatch(syscalls.sys_enter_write', 'onmax($x).snapshot(1)',
                                          'onmatch(syscalls.sys_enter_write).trace(nosynth,$x)']) + sep + tail
        elif m == 'badfilter' and ev:
            head, sep, tail = spec.partition(' if ')
            new = head + ' if ' + self.pick(['count >', 'nosuch == 1', '(count > 1', 'comm == head',
                                             'count > 1 &&', '&& count'])
        elif m == 'syntax':
            new = self.pick([spec.replace(':', '::', 1), spec.replace('hist:', 'hist', 1),
                             spec.replace('hist:', 'hist :', 1), spec + ':', spec.replace(',', ',,', 1),
                             spec.replace('=', '==', 1), spec.replace(';', ';;', 1) if ';' in spec else spec + ';'])
        elif m == 'constdiv0' and ev:
            head, sep, tail = spec.partition(' if ')
            new = head + ':q=' + self.pick(['common_pid/0', '1/0', 'common_pid/(1-1)']) + sep + tail
        elif m == 'unaryminus' and ev:
            head, sep, tail = spec.partition(' if ')
            new = head + ':q=' + self.pick(['-(-common_pid)', '--common_pid', '-(1)+2', '-', 'common_pid-']) + sep + tail
        elif m == 'manyops' and ev:
            head, sep, tail = spec.partition(' if ')
            new = head + ':q=' + self.pick(['1+2+3+4+5', 'common_pid*2+3*4-5', '(((((1)))))',
                                            '1+(2+(3+(4+(5+6))))']) + sep + tail
        elif m == 'dupsynth':
            if op == 's':
                c.lines.insert(i + 1, line)
                return
            new = spec + ':name=dup'
            c.lines.insert(i + 1, 't %s %s' % (ev, spec.replace('hist:', 'hist:name=dup:', 1)
                                               .replace('keys=', 'keys=common_pid,', 1)))
        elif m == 'badsynthname' and op == 's':
            new = self.pick(['mye-vent', '1abc', 'a;b', ';x', 'x ;', 'synthetic']) + ' ' + spec.split(' ', 1)[-1]
        elif m == 'wrongparams' and ev and '.trace(' in spec:
            new = spec.replace(')', ',1)', 1) if self.chance(0.5) else spec.replace(',', ')', 1)
            if self.chance(0.3):
                new = spec.replace('$', '', 1)
                if new != spec:
                    c.tags.add('mut-bareref')
        elif m == 'removal':
            if op == 's':
                c.lines.append('s !' + self.pick(['nosuch', spec.split(' ')[0]]))
                return
            c.lines.append('t %s !%s' % (ev, spec.replace('keys=', 'keys=common_pid,', 1)))
            return
        if new == spec:
            new = spec + self.pick([':bogus', ':keys=', 'x'])
        c.lines[i] = '%s %s%s' % (op, (ev + ' ') if ev else '', new)

    # -- the case ------------------------------------------------------------

    def case(self, n):
        c = Case(self.rng, n)
        kinds = [(self.case_simple, 30), (self.case_named, 5), (self.case_vars, 15),
                 (self.case_pipe, 30), (self.case_synth_defs, 8), (self.case_rfc, 2),
                 (self.case_nodata, 5), (self.case_print_buf, 5), (self.case_handler, 8),
                 (self.case_instance, 6), (self.case_kprobe, 6), (self.case_chain, 4),
                 (self.case_module, 4)]
        total = sum(w for _, w in kinds)
        r = self.rng.uniform(0, total)
        for fn, wgt in kinds:
            r -= wgt
            if r <= 0:
                break
        fn(c)
        if fn not in (self.case_rfc,) and self.chance(0.35):
            c.valid = False
            self.mutate(c)
        return c


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: gen.py SEED[,SEED...] N')
    seeds = [int(x) for x in sys.argv[1].split(',')]
    n = int(sys.argv[2])
    i = 0
    for seed in seeds:
        g = Gen(seed)
        sys.stdout.write('# hist trigger fuzz cases, seed %d, %d cases\n' % (seed, n))
        for _ in range(n):
            sys.stdout.write(g.case(i).text())
            i += 1


if __name__ == '__main__':
    main()
