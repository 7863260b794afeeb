#!/bin/bash
# Packed FP16 side by side in one run (ROUNDS alternations): flopscope's fp16
# workload, a CUDA __hfma2 kernel (bench/peak/hfma2.cu) and the CUDA FP32
# kernel (bench/peak/fma.cu). Needs nvcc and an NVIDIA GPU.
#   bench/peak/fp16.sh [DEVICE] [SECONDS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
FS=${FS:-build/flopscope}
dev=${1:--1}
secs=${2:-2}
rounds=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v nvcc >/dev/null || { echo "bench/peak/fp16.sh: needs nvcc (an NVIDIA GPU)" >&2; exit 2; }
nvcc -O3 -o "$tmp/hfma2" bench/peak/hfma2.cu
nvcc -O3 -o "$tmp/fma" bench/peak/fma.cu
for r in $(seq "$rounds"); do
	f=$("$FS" $dev --workload fp16 --format json --duration "$secs" --no-log | tail -1 |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["flops_median"] / 1e12)')
	read -r h _ < <("$tmp/hfma2")
	read -r s _ < <("$tmp/fma")
	printf 'round %d  flopscope fp16 %.2f TFLOPS  CUDA __hfma2 %.2f TFLOPS  CUDA fp32 %.2f TFLOPS  hfma2/fp32 %.3f\n' \
		"$r" "$f" "$h" "$s" "$(awk -v a="$h" -v b="$s" 'BEGIN { print a / b }')"
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
