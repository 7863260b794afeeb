#!/bin/bash
# A flopscope workload against CUDA kernels of the same form, side by side in
# one run (ROUNDS alternations). Needs nvcc and an NVIDIA GPU.
#   fp16:    flopscope fp16, CUDA __hfma2 (hfma2.cu) and CUDA FP32 (fma.cu)
#   int8dot: flopscope int8dot, CUDA __dp4a (dp4a.cu)
#   fp16-matrix, fp16-matrix-f16, int8-matrix, bf16-matrix: the tensor cores, CUDA
#            mma.sync (mma.cu) with 8 and 2 accumulators a warp
#   bench/peak/vs_cuda.sh WORKLOAD [DEVICE] [SECONDS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
FS=${FS:-build/flopscope}
w=${1:?usage: bench/peak/vs_cuda.sh fp16|int8dot|fp16-matrix|fp16-matrix-f16|int8-matrix|bf16-matrix [DEVICE] [SECONDS] [ROUNDS]}
dev=${2:--1}
secs=${3:-2}
rounds=${4:-3}
# each kernel: FILE[:ARGUMENTS]; the first is the one the ratio is taken to
case $w in
fp16) kernels="hfma2 fma" ;;
int8dot) kernels="dp4a" ;;
fp16-matrix) kernels="mma:f16:8 mma:f16:2" ;;
fp16-matrix-f16) kernels="mma:f16acc:8 mma:f16acc:2" ;;
int8-matrix) kernels="mma:int8:8 mma:int8:2" ;;
bf16-matrix) kernels="mma:bf16:8 mma:bf16:2" ;;
*) echo "bench/peak/vs_cuda.sh: no CUDA kernel for $w (fp16, int8dot, fp16-matrix, fp16-matrix-f16, int8-matrix, bf16-matrix)" >&2
	exit 2 ;;
esac
command -v nvcc >/dev/null || { echo "bench/peak/vs_cuda.sh: needs nvcc (an NVIDIA GPU)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for kf in $(for k in $kernels; do echo "${k%%:*}"; done | sort -u); do
	nvcc -O3 -arch=native -o "$tmp/$kf" "bench/peak/$kf.cu"
done
for r in $(seq "$rounds"); do
	f=$("$FS" $dev --workload "$w" --format json --duration "$secs" --no-log | tail -1 |
		python3 -c 'import json,sys; print((lambda s: s.get("rate_median", s.get("flops_median")))(json.load(sys.stdin)) / 1e12)')
	line=$(printf 'round %d  flopscope %s %.2f T' "$r" "$w" "$f")
	first=
	for k in $kernels; do
		kf=${k%%:*} args=
		[ "$kf" != "$k" ] && args=${k#*:} && args=${args//:/ }
		read -r c _ < <("$tmp/$kf" $args)
		first=${first:-$c}
		line+=$(printf '  CUDA %s %.2f T' "$k" "$c")
	done
	echo "$line  flopscope/CUDA ${kernels%% *}: $(awk -v a="$f" -v b="$first" 'BEGIN { printf "%.3f", a / b }')"
done
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
