#!/bin/bash
# Two flopscope builds side by side on one device, alternating in one run:
# the way to show that a change costs no speed (docs/PERFORMANCE.md).
#   bench/ab.sh A_BINARY B_BINARY [DEVICE] [SECONDS] [ROUNDS] [-- flopscope options]
# Prints each round, then the medians of both, the ratio B/A of the FLOPS
# medians, % of peak and duty cycle as each binary reports them.
set -euo pipefail
cd "$(dirname "$0")/.."
a=${1:?A binary}; b=${2:?B binary}; shift 2
dev=${1:-}; secs=${2:-3}; rounds=${3:-5}
shift $(($# < 3 ? $# : 3))
[ "${1:-}" = -- ] && shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
med() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# one run: "median_flops pct_of_peak duty checks"
one() {
	# shellcheck disable=SC2086
	"$1" $dev --format json --duration "$secs" --no-log "${@:2}" 2>>"$tmp/stderr" | tail -1 | python3 -c '
import json, sys
s = json.load(sys.stdin)
print(s.get("rate_median", s.get("flops_median")), s.get("pct_of_peak_median", float("nan")), s.get("duty_cycle", float("nan")), s["checks_passed"])'
}
for r in $(seq "$rounds"); do
	for which in a b; do
		bin=$a; [ $which = b ] && bin=$b
		read -r f p d k < <(one "$bin" "$@")
		echo "$f" >>"$tmp/$which.f"; echo "$p" >>"$tmp/$which.p"; echo "$d" >>"$tmp/$which.d"
		printf 'round %d %s  %.6g  %.2f%% of peak  duty %.4f  checks %s\n' "$r" "$which" "$f" "$p" "$d" "$k"
	done
done
for which in a b; do
	printf '%s (%s): median %.6g, %% of peak %s, duty %s\n' "$which" "$([ $which = a ] && echo "$a" || echo "$b")" \
		"$(med <"$tmp/$which.f")" "$(med <"$tmp/$which.p")" "$(med <"$tmp/$which.d")"
done
printf 'ratio B/A of the medians: %.4f\n' "$(awk -v x="$(med <"$tmp/b.f")" -v y="$(med <"$tmp/a.f")" 'BEGIN { print x / y }')"
