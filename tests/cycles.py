#!/usr/bin/env python3
# tests/cycles.py OBJECT...: the circles of objects that take symbols from
# each other, functions or data (a table of another file's operations), one
# a line: "a.o -> (sym) b.o -> (sym) a.o". tests/layering.sh runs it.
import subprocess, sys
objs = sys.argv[1:]
defined, uses = {}, {o: {} for o in objs}
# one nm for all the objects, each line "object:symbol line" (-A)
def nm(*flags):
    out = subprocess.run(["nm", "-A", *flags, *objs], capture_output=True, text=True).stdout
    for line in out.splitlines():
        o, _, rest = line.partition(":")
        yield o, rest.split()
for o, f in nm("--defined-only", "-g"):
    if len(f) == 3:
        defined[f[2]] = o
for o, f in nm("-u"):
    s = f[-1]
    if s in defined and defined[s] != o:
        uses[o].setdefault(defined[s], s)
# Tarjan's strongly connected components
index, low, stack, on, sccs, n = {}, {}, [], set(), [], [0]
def visit(v):
    index[v] = low[v] = n[0]; n[0] += 1
    stack.append(v); on.add(v)
    for w in uses[v]:
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        c = []
        while True:
            w = stack.pop(); on.discard(w); c.append(w)
            if w == v:
                break
        if len(c) > 1:
            sccs.append(c)
sys.setrecursionlimit(10000)
for v in objs:
    if v not in index:
        visit(v)
for c in sccs:
    cs = set(c)
    # one circle through the component, from its first object
    path, v = [c[0]], c[0]
    seen = {v}
    while True:
        nxt = [w for w in uses[v] if w in cs]
        w = next((x for x in nxt if x == c[0] and len(path) > 1), None) or next((x for x in nxt if x not in seen), nxt[0])
        path.append(f"({uses[v][w]}) {w}")
        if w == c[0] or w in seen:
            break
        seen.add(w); v = w
    print(" -> ".join(path), f"[{len(c)} objects in the circle]" if len(c) > 2 else "")
