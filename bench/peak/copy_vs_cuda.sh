#!/bin/bash
# flopscope's device copy against CUDA's, side by side in one run (ROUNDS
# alternations): flopscope's copy workload over SIZE_MIB buffers (every
# sample checked; its median) and cudaMemcpyAsync device to device over
# buffers of the same size (bench/peak/memcpy.cu d2d: the median of 20
# copies), both counting each byte read and written. Each shape in
# COPY_SHAPES (FLOPSCOPE_COPY_SHAPE=LOCAL,VEC4S; "default": the program's) is one
# flopscope run a round. Needs nvcc and an NVIDIA GPU.
#   bench/peak/copy_vs_cuda.sh [DEVICE] [SIZE_MIB] [SECONDS] [ROUNDS]    COPY_SHAPES="256,4 512,8"
set -euo pipefail
cd "$(dirname "$0")/../.."
FS=${FS:-build/flopscope}
dev=${1:--1}; mib=${2:-4096}; secs=${3:-3}; rounds=${4:-3}
shapes=${COPY_SHAPES:-default}
command -v nvcc >/dev/null || { echo "bench/peak/copy_vs_cuda.sh: needs nvcc (an NVIDIA GPU)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nvcc -O3 -o "$tmp/memcpy" bench/peak/memcpy.cu
fs() { FLOPSCOPE_COPY_SHAPE=$1 "$FS" $dev --workload copy --size "${mib}M" --format json --duration "$secs" --no-log 2>/dev/null |
	tail -1 | python3 -c 'import json,sys; s = json.load(sys.stdin); print(s["rate_median"] / 1e9, s["checks_passed"])'; }
for r in $(seq "$rounds"); do
	read -r cm cb < <("$tmp/memcpy" "$mib" 20 d2d)
	for s in $shapes; do
		[ "$s" = default ] && s=
		read -r f fk < <(fs "$s")
		printf 'round %d  copy %-8s flopscope %.1f GB/s (%s checks)  cudaMemcpy d2d median %.1f best %.1f  ratio %.4f\n' \
			"$r" "${s:-default}" "$f" "$fk" "$cm" "$cb" "$(awk -v a="$f" -v b="$cm" 'BEGIN { print a / b }')"
	done
done
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader
