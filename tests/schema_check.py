#!/usr/bin/env python3
"""Validates flopscope's JSON outputs against docs/schema/ with a real
validator (python3-jsonschema, Draft 2020-12).

    tests/schema_check.py SCHEMA FILE...

SCHEMA is a name in docs/schema/ (log, list, suite, check, ...); each
non-empty line of each FILE must be a JSON object the schema accepts.
Prints every line it refuses (file, line, why) and exits 1 if any."""
import glob
import json
import os
import sys
import warnings

import jsonschema

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "schema")


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    store = {}
    for path in glob.glob(os.path.join(HERE, "*.schema.json")):
        with open(path) as f:
            s = json.load(f)
        jsonschema.Draft202012Validator.check_schema(s)
        store[s["$id"]] = s
    schema = store.get("https://flopscope.invalid/schema/%s.schema.json" % argv[1])
    if schema is None:
        print("schema_check: no schema %s in %s" % (argv[1], HERE), file=sys.stderr)
        return 2
    try:  # jsonschema 4.18 and later: a registry of the schemas
        from referencing import Registry, Resource
        registry = Registry().with_resources((k, Resource.from_contents(v)) for k, v in store.items())
        validator = jsonschema.Draft202012Validator(schema, registry=registry)
    except ImportError:  # Debian 12's 4.10: a resolver with them in its store
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            resolver = jsonschema.RefResolver.from_schema(schema, store=store)
            validator = jsonschema.Draft202012Validator(schema, resolver=resolver)
    bad = lines = 0
    for path in argv[2:]:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                lines += 1
                try:
                    record = json.loads(line)
                except ValueError as e:
                    print("%s:%d: not JSON: %s" % (path, n, e))
                    bad += 1
                    continue
                errors = list(validator.iter_errors(record))
                if errors:
                    bad += 1
                    best = jsonschema.exceptions.best_match(errors)
                    print("%s:%d: %s at %s: %s" % (path, n, record.get("type"), "/".join(map(str, best.absolute_path)) or "the record", best.message[:300]))
    if not lines:
        print("schema_check: no record in %s" % " ".join(argv[2:]))
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
