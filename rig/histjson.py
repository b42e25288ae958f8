#!/usr/bin/env python3
"""Host-side check of the hist_json file against the hist file.

A test prints, for one quiet moment of an event, "IE-JSON <tag> <base64
of hist_json>" and "IE-JSONTXT <tag> <base64 of hist>"; rig/report.py
hands the pairs to check().  The JSON must parse, have the documented
shape (Documentation/trace/inter-event.rst, "Machine-readable output"),
and agree with the text: the same triggers in the same order, the same
totals, the same entries in the same order with the same keys and the
same numbers in every column the text shows as a number, and per-CPU
hits and drops that add up to the totals.
"""
import base64
import json
import re

VERSION = 1


def parse_text(text):
    """The hist file as [{trigger, entries: [(key_text, {name: text})],
    totals: {hits, entries, dropped}}]."""
    hists = []
    cur = None
    after = False
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("# trigger info: "):
            cur = {"trigger": line[len("# trigger info: "):], "entries": [],
                   "totals": {}}
            hists.append(cur)
            after = False
        elif line == "Totals:":
            # What follows (a snapshot's entry) is no entry of the table.
            after = True
        elif line.startswith("{") and cur is not None and not after:
            # A stack trace key ends its line; the entry ends at "}".
            block = line
            while "}" not in block.split("\n")[-1] and i + 1 < len(lines):
                i += 1
                block += "\n" + lines[i]
            end = block.rindex("}")
            key, rest = block[1:end], block[end + 1:]
            vals = {}
            # (A constant's column has no name in the text, as stock.)
            # A value has no colon: a graph's bar of 0 is empty, and
            # the next column's name is no value.
            for m in re.finditer(r"\s*([^:]*?):[ \t]*([^\s:]*)(?=\s|$)", rest):
                vals[nth(vals, m.group(1))] = m.group(2)
            cur["entries"].append((key, vals))
        elif cur is not None:
            m = re.match(r"^    (Hits|Entries|Dropped): (\d+)$", line)
            if m:
                cur["totals"][m.group(1).lower()] = int(m.group(2))
        i += 1
    return hists


def nth(names, name):
    """A column's name, "name#2" and so on for a name already in names
    (hitcount and hitcount.hex are both "hitcount" in the text)."""
    k = 1
    while (name if k == 1 else f"{name}#{k}") in names:
        k += 1
    return name if k == 1 else f"{name}#{k}"


def columns(h):
    """The names of the JSON's value columns as the text names them, with
    how to read the text: (name, index, sub, kind).  With nohitcount the
    text hides the first (the hit count): the next "hitcount" it shows is
    the JSON's second."""
    cols = []
    names = set()
    hidden = ":nohitcount" in h.get("trigger", "").split(" if ")[0]

    def add(name, idx, sub, kind):
        name = nth(names, name)
        names.add(name)
        if kind:
            cols.append((name, idx, sub, kind))
    for idx, v in enumerate(h["values"]):
        if idx == 0 and hidden:
            continue
        if v.get("stat") == "percentiles":
            for q in ("p50", "p90", "p99", "p999", "p100"):
                add(f"{v['name']}.{q}", idx, q, "dec")
        elif "stat" in v:
            add(f"{v['name']}.{v['stat']}", idx, None, "dec")
        else:
            mods = v.get("modifiers", "")
            kind = {"hex": "hex", "percent": None, "graph": None}.get(mods, "dec")
            add(v["name"] + (" (%)" if mods == "percent" else ""), idx, None, kind)
    return cols


def key_text_matches(kdesc, kval, text):
    """Whether one key of the JSON shows as @text in the hist file."""
    v = kval["value"]
    mods = kdesc.get("modifiers", "")
    if kdesc["type"] == "string" and mods != "hex":
        return text.rstrip() == v
    if kdesc["type"] == "stacktrace":
        frames = [f.strip() for f in text.split("\n")[1:] if f.strip()]
        return frames == v
    if mods == "hex":
        return int(text.strip(), 16) == v % (1 << 64)
    if mods == "execname":
        m = re.match(r"^(.*?)\s*\[\s*(\d+)\]$", text.strip())
        return bool(m) and int(m.group(2)) == v and m.group(1) == kval["comm"]
    if mods in ("sym", "sym-offset"):
        m = re.match(r"^\[([0-9a-f]+)\] (.*)$", text.strip())
        return bool(m) and int(m.group(1), 16) == v and \
            m.group(2).rstrip() == kval["sym"]
    if mods == "syscall":
        m = re.match(r"^(.*?)\s*\[\s*(\d+)\]$", text.strip())
        return bool(m) and int(m.group(2)) == v and m.group(1) == kval["syscall"]
    if mods == "log2":
        return text.strip() == "~ 2^%d" % v
    if mods.startswith("buckets=") or mods.startswith("loglin="):
        return text.strip() == "~ %d-%d" % (v, kval["high"])
    return int(text.strip()) == v


def check_pair(tag, jtxt, ttxt):
    """Return a list of problems (empty when they agree)."""
    bad = []
    try:
        doc = json.loads(jtxt)
    except ValueError as e:
        return [f"{tag}: not JSON: {e}"]
    if doc.get("version") != VERSION:
        bad.append(f"{tag}: version {doc.get('version')}")
    for k in ("system", "event", "histograms"):
        if k not in doc:
            bad.append(f"{tag}: no '{k}'")
    if bad:
        return bad
    text = parse_text(ttxt)
    if len(text) != len(doc["histograms"]):
        return [f"{tag}: {len(doc['histograms'])} histograms, the text has {len(text)}"]
    for n, (h, t) in enumerate(zip(doc["histograms"], text)):
        where = f"{tag} #{n + 1}"
        if h["trigger"] != t["trigger"]:
            bad.append(f"{where}: trigger {h['trigger']!r}, text {t['trigger']!r}")
        if h["paused"] != t["trigger"].endswith(" [paused]"):
            bad.append(f"{where}: paused {h['paused']}, text {t['trigger']!r}")
        ids = [c["cpu"] for c in h["cpus"]]
        if not ids or len(set(ids)) != len(ids):
            bad.append(f"{where}: CPUs {ids}")
        tot = h["totals"]
        if (tot["hits"], tot["entries"], tot["dropped"]) != \
                (t["totals"].get("hits"), t["totals"].get("entries"),
                 t["totals"].get("dropped")):
            bad.append(f"{where}: totals {tot}, text {t['totals']}")
        if len(h["entries"]) != len(t["entries"]) or tot["entries"] != len(h["entries"]):
            bad.append(f"{where}: {len(h['entries'])} entries, text {len(t['entries'])}")
            continue
        hits = sum(c["hits"] for c in h["cpus"])
        drops = sum(c["dropped"] for c in h["cpus"])
        if (hits, drops) != (tot["hits"], tot["dropped"]):
            bad.append(f"{where}: CPUs add up to {hits} hits, {drops} drops; "
                       f"totals {tot['hits']}, {tot['dropped']}")
        cols = columns(h)
        # The k-th constant's column is the k-th nameless one of the text.
        consts = {}
        for name, _, _, _ in cols:
            if re.fullmatch(r"-?\d+(#\d+)?", name):
                k = len(consts) + 1
                consts[name] = "" if k == 1 else f"#{k}"
        for e, (je, (tkey, tvals)) in enumerate(zip(h["entries"], t["entries"])):
            if len(je["values"]) != len(h["values"]):
                bad.append(f"{where} entry {e}: {len(je['values'])} values")
                continue
            parts = [tkey] if len(h["keys"]) == 1 else tkey.split(", ")
            if len(parts) != len(h["keys"]):
                parts = [tkey] * len(h["keys"])
            for kd, kv, kt in zip(h["keys"], je["key"], parts):
                kt = re.sub(r"^\s*" + re.escape(kd["name"]) + r":", "", kt, count=1)
                if kt.startswith(" "):
                    kt = kt[1:]
                if not key_text_matches(kd, kv, kt):
                    bad.append(f"{where} entry {e}: key {kd['name']} {kv}, text {kt!r}")
            for name, idx, sub, kind in cols:
                jv = je["values"][idx]
                if sub:
                    jv = jv[sub]
                if name not in tvals and consts.get(name, name) in tvals:
                    # A constant: the JSON names it by its value.
                    name = consts[name]
                if name not in tvals:
                    spec = h["trigger"].split(" if ")[0]
                    if name == "hitcount" and ":nohitcount" in spec:
                        continue
                    bad.append(f"{where} entry {e}: no column {name} in the text")
                    continue
                shown = [v.get("modifiers", "") for v in h["values"]
                         if v["name"] == name.split("#")[0]]
                if ("graph" in shown or "percent" in shown) and \
                        not re.fullmatch(r"-?[0-9a-fA-F]+", tvals[name]):
                    # The text shows this name as a bar or a share.
                    continue
                tv = int(tvals[name], 16 if kind == "hex" else 10)
                if kind == "hex":
                    jv %= 1 << 64
                if tv != jv:
                    bad.append(f"{where} entry {e}: {name} {jv}, text {tv}")
    return bad


def check(results_txt):
    """(pairs checked, problems) for the IE-JSON lines of a results log.
    A tag given twice (by two tests, or two guests) is a problem: one
    document would hide the other."""
    bad = []
    pairs = {}
    for kind, tag, data in re.findall(r"^IE-(JSON|JSONTXT) (\S+) (\S*)$",
                                      results_txt, re.M):
        slot = pairs.setdefault(tag, {})
        if kind in slot:
            bad.append(f"{tag}: {kind} given twice")
        slot[kind] = data
    for tag in sorted(pairs):
        slot = pairs[tag]
        if set(slot) != {"JSON", "JSONTXT"}:
            bad.append(f"{tag}: only {sorted(slot)}")
            continue
        try:
            jraw = base64.b64decode(slot["JSON"], validate=True)
            ttxt = base64.b64decode(slot["JSONTXT"], validate=True).decode("latin-1")
            jtxt = jraw.decode("ascii")
        except ValueError as e:
            bad.append(f"{tag}: not base64 of an ASCII document: {e}")
            continue
        try:
            bad += check_pair(tag, jtxt, ttxt)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
            bad.append(f"{tag}: malformed: {type(e).__name__} {e}")
    return len(pairs), bad


def pairs(lines):
    """(quiet pairs checked, busy ones, problems) for the records of a
    results log (a list of lines): "IE-JSONBEGIN tag", the hist_json as
    "IE-J line", the hist read before it as "IE-T line", and "IE-JSONEND
    quiet" when the hist read after it was the same ("busy" if not: not
    compared).  The fuzz job writes them for each case, the tests job
    for each hist file a test read (rig/guest/iehistaudit.c)."""
    checked, busy, bad = 0, 0, []
    cur = None
    for line in lines:
        line = line.rstrip("\r")
        if line.startswith("IE-JSONBEGIN "):
            cur = (line.split(" ", 1)[1], [], [])
        elif cur and line.startswith("IE-J "):
            cur[1].append(line[5:])
        elif cur and line.startswith("IE-T "):
            cur[2].append(line[5:])
        elif cur and line.startswith("IE-JSONEND "):
            if line.endswith(" quiet"):
                checked += 1
                try:
                    bad += check_pair(cur[0], "\n".join(cur[1]), "\n".join(cur[2]))
                except (KeyError, IndexError, TypeError, ValueError,
                        AttributeError) as e:
                    bad.append(f"{cur[0]}: malformed: {type(e).__name__} {e}")
            else:
                busy += 1
            cur = None
    return checked, busy, bad
