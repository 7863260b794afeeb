#!/bin/bash
# From launch to the first sample, cold caches against warm, alternated in
# one run. Cold: empty $XDG_CACHE_HOME (flopscope's SPIR-V and pipeline
# caches) and an empty Mesa shader cache; warm: both filled by the run before.
#   bench/startup.sh [DEVICE] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
FS=${FS:-build/flopscope}
dev=${1:-llvm}
rounds=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the figure in ms, whether printed in us, ms or s
first() { sed -n 's/.*first sample \([0-9.]*\) \(us\|ms\|s\) after launch.*/\1 \2/p' |
	awk '{ print $2 == "s" ? $1 * 1000 : $2 == "us" ? $1 / 1000 : $1 }'; }
med() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for r in $(seq "$rounds"); do
	rm -rf "$tmp/c"
	c=$(XDG_CACHE_HOME="$tmp/c" MESA_SHADER_CACHE_DIR="$tmp/c/mesa" "$FS" $dev --duration 0.1 --no-log 2>&1 | first)
	w=$(XDG_CACHE_HOME="$tmp/c" MESA_SHADER_CACHE_DIR="$tmp/c/mesa" "$FS" $dev --duration 0.1 --no-log 2>&1 | first)
	echo "$c" >>"$tmp/cold"
	echo "$w" >>"$tmp/warm"
	printf 'round %d  cold %6.1f ms  warm %6.1f ms\n' "$r" "$c" "$w"
done
c=$(med <"$tmp/cold")
w=$(med <"$tmp/warm")
printf '\nmedian first sample after launch: cold %.1f ms, warm %.1f ms (warm/cold %.3f)\n' "$c" "$w" \
	"$(awk -v a="$w" -v b="$c" 'BEGIN { print a / b }')"
