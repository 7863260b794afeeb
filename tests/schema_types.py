#!/usr/bin/env python3
"""One type per key: every property a record of docs/schema/ can carry has
one JSON type wherever it appears (null aside: "absent or unknown"), so a
reader (jq, a script) reads a key the same way in every record. A key
inside a map whose keys are names (an object of the same-typed values:
additionalProperties) is the map's, not a record's. Prints each key with
its types and where, and exits 1, where a key has two."""
import glob
import json
import os
import sys

folder = sys.argv[1] if len(sys.argv) > 1 else "docs/schema"
docs = {os.path.basename(f): json.load(open(f)) for f in glob.glob(os.path.join(folder, "*.schema.json"))}


def resolve(ref, here):
    doc, _, path = ref.partition("#")
    d = docs[doc] if doc else docs[here]
    for part in [p for p in path.split("/") if p]:
        d = d[part]
    return d, (doc or here)


def kinds(p, here, seen=()):
    """The JSON types a property schema allows (without null)."""
    if "$ref" in p:
        if p["$ref"] in seen:
            return set()
        d, f = resolve(p["$ref"], here)
        return kinds(d, f, seen + (p["$ref"],))
    out = set()
    t = p.get("type")
    if t:
        for x in (t if isinstance(t, list) else [t]):
            out.add("number" if x == "integer" else x)
    if "const" in p or "enum" in p:
        vals = [p["const"]] if "const" in p else p["enum"]
        for v in vals:
            out.add({bool: "boolean", int: "number", float: "number", str: "string",
                     type(None): "null", list: "array", dict: "object"}[type(v)])
    for k in ("oneOf", "anyOf", "allOf"):
        for q in p.get(k, []):
            out |= kinds(q, here, seen)
    out.discard("null")
    return out


where = {}


def walk(o, here, path):
    if isinstance(o, dict):
        for k, v in o.get("properties", {}).items():
            if isinstance(v, dict):
                ks = kinds(v, here)
                if ks:
                    where.setdefault(k, {}).setdefault(frozenset(ks), []).append(here + ":" + path)
        for k, v in o.items():
            walk(v, here, path + "/" + k)
    elif isinstance(o, list):
        for i, v in enumerate(o):
            walk(v, here, path + "/" + str(i))


for name, d in sorted(docs.items()):
    walk(d, name, "")
bad = {k: v for k, v in where.items() if len(v) > 1}
for k, v in sorted(bad.items()):
    print(k + ": " + "; ".join("/".join(sorted(t)) + " in " + ", ".join(sorted(set(p.split(":")[0] for p in ps)))
                               for t, ps in v.items()))
sys.exit(1 if bad else 0)
