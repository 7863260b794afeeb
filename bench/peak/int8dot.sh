#!/bin/bash
# 8-bit dot products side by side in one run (ROUNDS alternations):
# flopscope's int8dot workload (OpUDot + add) against CUDA __dp4a chains of
# the same form (bench/peak/dp4a.cu). Needs nvcc and an NVIDIA GPU.
#   bench/peak/int8dot.sh [DEVICE] [SECONDS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
FS=${FS:-build/flopscope}
dev=${1:--1}
secs=${2:-2}
rounds=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v nvcc >/dev/null || { echo "bench/peak/int8dot.sh: needs nvcc (an NVIDIA GPU)" >&2; exit 2; }
nvcc -O3 -o "$tmp/dp4a" bench/peak/dp4a.cu
for r in $(seq "$rounds"); do
	f=$("$FS" $dev --workload int8dot --format json --duration "$secs" --no-log | tail -1 |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["flops_median"] / 1e12)')
	read -r c _ < <("$tmp/dp4a")
	printf 'round %d  flopscope int8dot %.2f TIOPS  CUDA __dp4a %.2f TIOPS  ratio %.3f\n' "$r" "$f" "$c" \
		"$(awk -v a="$f" -v b="$c" 'BEGIN { print a / b }')"
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
