#!/bin/bash
# flopscope's host<->device transfers against CUDA's, side by side in one
# run (ROUNDS alternations): flopscope h2d and d2h at one size (every
# sample checked) and CUDA's cudaMemcpyAsync from and to pinned memory
# (bench/peak/memcpy.cu, median and best of 20 copies). Needs nvcc and an
# NVIDIA GPU.
#   bench/peak/transfers_vs_cuda.sh [DEVICE] [SIZE_MIB] [SECONDS] [ROUNDS] [-- flopscope options]
set -euo pipefail
cd "$(dirname "$0")/../.."
FS=${FS:-build/flopscope}
dev=${1:--1}; mib=${2:-64}; secs=${3:-2}; rounds=${4:-3}
shift $(($# < 4 ? $# : 4))
[ "${1:-}" = -- ] && shift
command -v nvcc >/dev/null || { echo "bench/peak/transfers_vs_cuda.sh: needs nvcc (an NVIDIA GPU)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nvcc -O3 -o "$tmp/memcpy" bench/peak/memcpy.cu
fs() { "$FS" $dev --workload "$1" --size "${mib}M" --format json --duration "$secs" --no-log "${@:2}" | tail -1 |
	python3 -c 'import json,sys; s = json.load(sys.stdin); print(s.get("rate_median", s.get("flops_median")) / 1e9, s["checks_passed"])'; }
for r in $(seq "$rounds"); do
	read -r h hk < <(fs h2d "$@")
	read -r d dk < <(fs d2h "$@")
	read -r ch chb cd cdb < <("$tmp/memcpy" "$mib" 20)
	printf 'round %d  h2d flopscope %.2f GB/s (%s checks)  CUDA median %.2f best %.2f  ratio %.3f  |  d2h flopscope %.2f GB/s (%s checks)  CUDA median %.2f best %.2f  ratio %.3f\n' \
		"$r" "$h" "$hk" "$ch" "$chb" "$(awk -v a="$h" -v b="$ch" 'BEGIN { print a / b }')" \
		"$d" "$dk" "$cd" "$cdb" "$(awk -v a="$d" -v b="$cd" 'BEGIN { print a / b }')"
done
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv,noheader
