#!/bin/bash
# A burn's report remade from long logs in bounded memory: generated burn
# logs of one device (a real 2 s burn's session record and steady sample,
# renumbered every 20 ms: tests/long_log.py) of HOURS... hours, each with
# its session's burn length set to it (samples only: the remake cuts them
# into 60 s windows and traces them), then `--export LOG --report R.html`:
# its peak memory and user CPU seconds. Peak memory must not grow with the
# soak (the windows' samples are capped, the trace is 512 spans).
#   bench/burn_remake_memory.sh [HOURS...]    FS=build/flopscope (default 1 2 4)
set -euo pipefail
cd "$(dirname "$0")/.."
FS=${FS:-build/flopscope}
hours=${*:-1 2 4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
XDG_STATE_HOME=$tmp/state "$FS" llvm --burn 2s --window 1s --log "$tmp/seed.jsonl" >/dev/null 2>&1 || true
grep -v '"type":"window"' "$tmp/seed.jsonl" >"$tmp/seed2.jsonl"
echo "# $(date -u +%FT%TZ) $(nproc) CPUs; $("$FS" --version)"
for h in $hours; do
	n=$((h * 3600 * 50))
	python3 tests/long_log.py "$tmp/seed2.jsonl" "$tmp/long.jsonl" "$n"
	python3 - "$tmp/long.jsonl" "$h" <<'PY'
import json, sys
path, h = sys.argv[1], float(sys.argv[2])
with open(path, "r+") as f:
    first = f.readline()
    rest = f.read()
m = json.loads(first)
m["burn_s"], m["burn_window_s"] = h * 3600, 60
m.pop("burn_log_budget_b", None)
with open(path, "w") as f:
    f.write(json.dumps(m, separators=(",", ":")) + "\n" + rest)
PY
	rm -f "$tmp/r.html"
	/usr/bin/time -f "%U %M" -o "$tmp/t" "$FS" --export "$tmp/long.jsonl" --report "$tmp/r.html" >/dev/null 2>"$tmp/err" ||
		{ echo "--report failed: $(cat "$tmp/err")"; exit 1; }
	read -r user peak <"$tmp/t"
	printf '%s h: %d samples, %d MB log, %d windows in the report: user %.2f s, peak %d KiB\n' "$h" "$n" \
		$(($(stat -c %s "$tmp/long.jsonl") / 1000000)) "$(grep -c '^<tr><td>[0-9]' "$tmp/r.html" || true)" "$user" "$peak"
done
