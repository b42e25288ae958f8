#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Draw the latency distribution ielat -j recorded, with gnuplot.

usage: ielat-plot.py JSON OUT-PREFIX [TITLE]

JSON holds the hist_json documents ielat took, one after the other.  The
buckets of the histogram with a .loglin key are added up over all the
intervals and drawn as bars on a logarithmic latency axis (microseconds),
with p50, p99 and p99.9 marked: each the middle of the bucket that holds
that rank, as ielat computes them.  Writes OUT-PREFIX.png and
OUT-PREFIX.svg, and OUT-PREFIX.dat (the bars: low, high, count).
"""
import json
import subprocess
import sys


def documents(text):
    dec = json.JSONDecoder()
    i = 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return
        doc, i = dec.raw_decode(text, i)
        yield doc


def distribution(docs):
    """{(low, high): count} over every document's .loglin histogram."""
    buckets = {}
    for doc in docs:
        for h in doc.get("histograms", []):
            keys = h.get("keys", [])
            if len(keys) != 1 or not keys[0].get("modifiers", "").startswith("loglin="):
                continue
            for e in h.get("entries", []):
                k = e["key"][0]
                b = (k["value"], k["high"])
                buckets[b] = buckets.get(b, 0) + e["values"][0]
    return buckets


def quantile(bars, total, permille):
    rank = (total * permille + 999) // 1000
    cum = 0
    for lo, hi, n in bars:
        cum += n
        if rank and cum >= rank:
            return lo + (hi - lo) // 2
    return 0


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, prefix = sys.argv[1], sys.argv[2]
    title = sys.argv[3] if len(sys.argv) > 3 else "wakeup latency"
    with open(path, encoding="ascii") as f:
        buckets = distribution(documents(f.read()))
    bars = sorted((lo, hi, n) for (lo, hi), n in buckets.items() if n)
    if not bars:
        sys.exit("ielat-plot: no .loglin histogram with counts in " + path)
    total = sum(n for _, _, n in bars)
    marks = [("p50", quantile(bars, total, 500)),
             ("p99", quantile(bars, total, 990)),
             ("p99.9", quantile(bars, total, 999))]
    with open(prefix + ".dat", "w", encoding="ascii") as f:
        for lo, hi, n in bars:
            # Bars in microseconds, from low to high + 1 ns.
            f.write("%.3f %.3f %d\n" % (lo / 1000, (hi + 1) / 1000, n))
    lines = [
        'set title "%s: %d events, log-linear buckets"' % (title, total),
        'set xlabel "latency (us)"',
        'set ylabel "events"',
        "set logscale x 10",
        "set logscale y 10",
        "set yrange [0.8:*]",
        "set grid",
        "set key off",
        "set style fill solid 0.6",
    ]
    for i, (name, ns) in enumerate(marks):
        us = ns / 1000
        lines.append('set arrow %d from %f, graph 0 to %f, graph 1 nohead '
                     'lw 2 dt 2 lc rgb "red"' % (i + 1, us, us))
        lines.append('set label %d "%s %.1f us" at %f, graph %f '
                     'tc rgb "red" offset 0.5,0' % (i + 1, name, us, us,
                                                    0.95 - 0.07 * i))
    # boxxyerror needs y low/high: from 0.8 (the axis) to the count.
    plot = ('plot "%s.dat" using (($1+$2)/2):(($3+0.8)/2):($1):($2):(0.8):($3) '
            'with boxxyerror lc rgb "steelblue"' % prefix)
    for term, ext in (("pngcairo size 960,540", "png"), ("svg size 960,540", "svg")):
        script = "\n".join(["set terminal " + term,
                            'set output "%s.%s"' % (prefix, ext)] + lines +
                           [plot, "unset output", ""])
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
    print("ielat-plot: %d events in %d buckets; %s; %s.png, %s.svg" %
          (total, len(bars), ", ".join("%s %.1f us" % (n, v / 1000)
                                        for n, v in marks), prefix, prefix))


if __name__ == "__main__":
    main()
