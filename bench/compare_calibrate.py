#!/usr/bin/env python3
"""Calibration of --compare on sessions bench/compare_record.sh recorded:
every pair of sessions of one condition is an A/A pair (a claimed difference
is false), every pair of a quiet and a busy session an A/B pair (B is slower:
"cannot tell" or "faster" is a miss). Runs the program's own --compare on
each pair, both ways round, and prints the rates docs/INTERPRETATION.md
records.

  bench/compare_calibrate.py DIR [FLOPSCOPE] [--aa q,n,b] [--ab q:b,n:nb] [-- --compare options]
--aa: the conditions whose pairs are A/A; --ab: A:B pairs where B is slower
(the defaults: compare_record.sh's conditions)."""
import glob
import itertools
import json
import os
import subprocess
import sys

args = sys.argv[1:]
extra = []
if "--" in args:
    extra = args[args.index("--") + 1:]
    args = args[:args.index("--")]
aa, ab = ["q", "n", "b"], [("q", "b"), ("n", "nb")]
for flag in ("--aa", "--ab"):
    if flag in args:
        v = args[args.index(flag) + 1]
        del args[args.index(flag):args.index(flag) + 2]
        if flag == "--aa":
            aa = v.split(",")
        else:
            ab = [tuple(x.split(":")) for x in v.split(",")]
d = args[0]
fs = args[1] if len(args) > 1 else os.path.join(d, "flopscope")
logs = {}
for f in sorted(glob.glob(os.path.join(d, "*-*.jsonl"))):
    cond, rnd = os.path.basename(f)[:-6].rsplit("-", 1)
    logs.setdefault(cond, {})[int(rnd)] = f


def compare(a, b):
    out = subprocess.run([fs, "--compare", a, b, "--format", "json"] + extra, capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit("--compare %s %s: exit %d: %s" % (a, b, out.returncode, out.stderr.strip()))
    return json.loads(out.stdout)


def tally(name, pairs, want):
    """want: None for A/A (any verdict but cannot_tell is false), else the
    verdict a right answer gives."""
    n = wrong = 0
    worst, ratios = [], []
    for a, b in pairs:
        for x, y in ((a, b), (b, a)) if want is None else ((a, b),):
            r = compare(x, y)
            n += 1
            ratios.append(r["ratio"])
            bad = r["verdict"] != "cannot_tell" if want is None else r["verdict"] != want
            wrong += bad
            if bad and len(worst) < 3:
                worst.append("%s %s: %s, ratio %.3f, best blocks %.3f, noise %.3f" % (
                    os.path.basename(x), os.path.basename(y), r["verdict"], r["ratio"], r["best_p90_ratio"], r["noise"]))
    what = "false claims" if want is None else "misses"
    ratios.sort()
    q = lambda p: ratios[min(len(ratios) - 1, int(p * len(ratios)))] if ratios else float("nan")
    print("%-36s %4d comparisons, %3d %s (%.1f%%); ratio B/A median %.3f, 5-95%% %.3f-%.3f" % (
        name, n, wrong, what, 100.0 * wrong / max(n, 1), q(0.5), q(0.05), q(0.95)))
    for w in worst:
        print("    e.g. " + w)
    return wrong, n


def same(c):
    s = logs.get(c, {})
    return list(itertools.combinations([s[k] for k in sorted(s)], 2))


def cross(ca, cb):
    a, b = logs.get(ca, {}), logs.get(cb, {})
    return [(a[i], b[j]) for i in sorted(a) for j in sorted(b)]


print("sessions: " + ", ".join("%s %d" % (c, len(v)) for c, v in sorted(logs.items())))
for c in aa:
    tally("A/A (%s, %s)" % (c, c), same(c), None)
for a, b in ab:
    tally("A/B, B slower (%s, %s)" % (a, b), cross(a, b), "slower")
    tally("B/A, B faster (%s, %s)" % (b, a), [(y, x) for x, y in cross(a, b)], "faster")
