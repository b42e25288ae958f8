#!/bin/bash
# Regenerate the reduce patches of the series (rig/series/reduce) from the
# working tree's kernel/trace/inter_event: actions.patch (kept by hand)
# removes the actions; refs.py, vars.py and named.py then remove the
# references, the variables and named histograms, each step's difference
# becoming a patch that rig/series.sh applies, in turn, to cut the
# code back for the earlier steps.  Run after a change to the code those
# scripts edit, then commit the patches (and make series-check).
set -e
R=$(cd "$(dirname "$0")/../../.." && pwd)
G=$R/rig/series/regen
rm -rf /tmp/red && mkdir -p /tmp/red/a /tmp/red/r /tmp/red/b /tmp/red/c
(cd $R && cp -r --parents kernel/trace/inter_event /tmp/red/a/)
(cd /tmp/red/a && patch -p1 -s -F0 --no-backup-if-mismatch < $R/rig/series/reduce/actions.patch)
cp -r /tmp/red/a/kernel /tmp/red/r/
python3 $G/refs.py /tmp/red/r/kernel/trace/inter_event
cp -r /tmp/red/r/kernel /tmp/red/b/
python3 $G/vars.py /tmp/red/b/kernel/trace/inter_event
cp -r /tmp/red/b/kernel /tmp/red/c/
python3 $G/named.py /tmp/red/c/kernel/trace/inter_event
mk() { # from to out files...
	local from=$1 to=$2 out=$3; shift 3
	(cd /tmp/red && for f in "$@"; do diff -u $from/kernel/trace/inter_event/$f $to/kernel/trace/inter_event/$f || true; done) |
		sed -e "s|^--- $from/\([^\t]*\).*|--- a/\1|" -e "s|^+++ $to/\([^\t]*\).*|+++ b/\1|" > $out
}
mk a r $R/rig/series/reduce/refs-hist.patch hist.c
mk a r $R/rig/series/reduce/refs-var.patch var.c
mk r b $R/rig/series/reduce/vars.patch hist.c resolve.c
mk b c $R/rig/series/reduce/named.patch hist.c output.c trigger.c
wc -l $R/rig/series/reduce/*.patch
