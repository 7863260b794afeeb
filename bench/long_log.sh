#!/bin/bash
# Reading a long session log: --replay (headless CSV), --export --svg and
# --analyze of a generated log of N samples (800000 by default: past the
# plots' thinning, ~285 MB), each command's user CPU seconds and peak
# memory, binary A against binary B in turn, ROUNDS times (medians).
#   bench/long_log.sh [N] [A] [B] [ROUNDS]
#   (A: build/flopscope; B: none, or an older build to compare)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-800000}
A=${2:-build/flopscope}
B=${3:-}
rounds=${4:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$A" llvm --duration 1 --log "$tmp/seed.jsonl" >/dev/null 2>&1
python3 tests/long_log.py "$tmp/seed.jsonl" "$tmp/long.jsonl" "$n"
echo "# $(date -u +%FT%TZ) $n samples, $(stat -c %s "$tmp/long.jsonl") bytes; $(nproc) CPUs; user s and peak KiB, median of $rounds"
for cmd in "--replay L --headless --format csv" "--export L --svg S" "--analyze L"; do
	for bin in "$A" $B; do
		: >"$tmp/t"
		for r in $(seq "$rounds"); do
			rm -f "$tmp/s.svg"
			args=${cmd//L/$tmp/long.jsonl}
			/usr/bin/time -f "%U %M" -a -o "$tmp/t" "$bin" ${args//S/$tmp/s.svg} >/dev/null 2>&1
		done
		sort -n "$tmp/t" | awk -v c="${cmd%% *}" -v b="$bin" '{ u[NR] = $1; m[NR] = $2 }
			END { printf "%-10s %-28s user %6.2f s  peak %7d KiB\n", c, b, u[int((NR + 1) / 2)], m[int((NR + 1) / 2)] }'
	done
done
