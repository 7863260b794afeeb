#!/usr/bin/env python3
# long_log.py SEED OUT N: a session log of N samples made from SEED's
# session record and its last steady sample (seq, t_ms every 20 ms and a
# rate that moves by up to 6% renumbered in each): a long log in seconds
# (the line is written once with markers, then filled by each sample:
# json.dumps a line each took 19 s of the long-log test).
import json, sys

lines = open(sys.argv[1]).read().splitlines()
s = json.loads([l for l in lines if '"steady":true' in l][-1])
s["seq"], s["t_ms"], s["rate"] = "@1", "@2", "@3"
a, rest = json.dumps(s, separators=(",", ":")).split('"@1"')
b, rest = rest.split('"@2"')
c, d = rest.split('"@3"')
with open(sys.argv[2], "w") as f:
    f.write(lines[0] + "\n")
    for i in range(int(sys.argv[3])):
        f.write(f"{a}{i}{b}{json.dumps(i * 20.0)}{c}{json.dumps(1e11 * (1 + (i % 7) / 100))}{d}\n")
