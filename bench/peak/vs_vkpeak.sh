#!/bin/bash
# vkpeak's rows beside flopscope's, side by side in one run: for each vkpeak
# scenario with a flopscope workload of the same arithmetic, ROUNDS
# alternations of `vkpeak DEV_ID SCENARIO` and `flopscope DEVICE --workload W`,
# then the medians and their ratio. vkpeak is not built here: give its binary.
#   bench/peak/vs_vkpeak.sh VKPEAK [VKPEAK_DEVICE_ID] [DEVICE] [SECONDS] [ROUNDS] [SCENARIOS]
# SCENARIOS: vkpeak names separated by commas (default: every mapped one).
# Note: vkpeak's copy-h2h is a CPU memcpy, flopscope's h2h the device's copy
# engine between two host buffers; both count the bytes copied once.
set -euo pipefail
cd "$(dirname "$0")/../.."
FS=${FS:-build/flopscope}
vk=${1:?usage: bench/peak/vs_vkpeak.sh VKPEAK [VKPEAK_DEVICE_ID] [DEVICE] [SECONDS] [ROUNDS] [SCENARIOS]}
vkdev=${2:-0}
dev=${3:--1}
secs=${4:-2}
rounds=${5:-3}
[ -x "$vk" ] || { echo "bench/peak/vs_vkpeak.sh: $vk is not an executable" >&2; exit 2; }
# vkpeak scenario -> flopscope workload
declare -A map=(
	[fp32-scalar]=fp32-scalar [fp32-vec4]=fp32 [fp16-scalar]=fp16-scalar [fp16-vec4]=fp16
	[fp16-matrix]=fp16-matrix [fp64-scalar]=fp64-scalar [fp64-vec4]=fp64 [int32-vec4]=int32
	[int16-vec4]=int16 [int64-vec4]=int64 [int8-dotprod]=int8dot [int8-matrix]=int8-matrix
	[bf16-matrix]=bf16-matrix
	[copy-h2h]=h2h [copy-h2d]=h2d [copy-d2h]=d2h [copy-d2d]=d2d
)
order="fp32-scalar fp32-vec4 fp16-scalar fp16-vec4 fp16-matrix fp64-scalar fp64-vec4 int32-vec4 int16-vec4
       int64-vec4 int8-dotprod int8-matrix bf16-matrix copy-h2h copy-h2d copy-d2h copy-d2d"
[ -n "${6:-}" ] && order=${6//,/ }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
med() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '%-13s %-12s %14s %14s %8s\n' vkpeak flopscope "vkpeak (G/s)" "flopscope" "fs/vk"
for s in $order; do
	w=${map[$s]:-}
	[ -n "$w" ] || { echo "bench/peak/vs_vkpeak.sh: no flopscope workload for $s" >&2; exit 2; }
	: >"$tmp/vk"; : >"$tmp/fs"
	for r in $(seq "$rounds"); do
		# "fp16-matrix  = 656000.00 GFLOPS": giga units
		v=$("$vk" "$vkdev" "$s" 2>/dev/null | awk -v s="$s" '$1 == s && $2 == "=" { print $3 }')
		[ -n "$v" ] && echo "$v" >>"$tmp/vk"
		# a failed check or an error exits non-zero: no figure
		if "$FS" $dev --workload "$w" --format json --duration "$secs" --no-log >"$tmp/out" 2>/dev/null; then
			tail -1 "$tmp/out" | python3 -c 'import json,sys; print((lambda s: s.get("rate_median", s.get("flops_median")))(json.load(sys.stdin)) / 1e9)' >>"$tmp/fs"
		fi
	done
	v=$(med <"$tmp/vk"); f=$(med <"$tmp/fs")
	ratio=$( [ -n "$v" ] && [ -n "$f" ] && awk -v a="$f" -v b="$v" 'BEGIN { printf "%.3f", a / b }' || echo "-")
	printf '%-13s %-12s %14s %14s %8s\n' "$s" "$w" "${v:-n/a}" "${f:+$(printf '%.2f' "$f")}" "$ratio"
done
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
