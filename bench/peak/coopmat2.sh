#!/bin/bash
# Workgroup-scope cooperative matrices (VK_NV_cooperative_matrix2) beside the
# subgroup-scope ones flopscope measures with: can Vulkan reach Hopper's
# wgmma rate (issue 15's stretch)? Two steps, since the GPU machine has
# neither shaderc nor the Vulkan headers:
#   bench/peak/coopmat2.sh prepare        here: build/bench/coopmat2/, the tool
#                                         (bench/peak/coopmat2.c) and the SPIR-V
#   bench/peak/coopmat2.sh run [LOCAL...] there, with build/bench/coopmat2 carried:
#                                         each shape at each workgroup size
#                                         (default 256 128), then flopscope's
#                                         fp16-matrix and bf16-matrix beside them
# The shapes are multiples of the H100's flexible granularity (32x32x16 at
# 256 invocations, 32x16x16 at 128); every variant is fp16 (and two bf16)
# inputs with fp32 accumulators, as fp16-matrix.
set -euo pipefail
cd "$(dirname "$0")/../.."
D=build/bench/coopmat2
FS=${FS:-build/flopscope}
case ${1:-} in
prepare)
	mkdir -p $D
	cc -std=c11 -O2 -Wall -Isrc/gpu -o $D/coopmat2 bench/peak/coopmat2.c -lvulkan
	make -s build/tests/shader_check
	for s in "64 64 16" "64 64 32" "128 64 32" "64 128 32" "128 128 16" "128 128 32" "256 128 32"; do
		set -- $s
		build/tests/shader_check shaders/coopmat.comp $D/wg_$1_$2_$3.fp16.spv TYPE_FP16_MATRIX=1 WORKGROUP_SCOPE=1 \
			M_SIZE=$1 N_SIZE=$2 K_SIZE=$3 VEC4S=1 UNROLL=16 FLOPSCOPE_KHR=1
	done
	for s in "64 64 16" "128 128 32"; do
		set -- $s
		build/tests/shader_check shaders/coopmat.comp $D/wg_$1_$2_$3.bf16.spv TYPE_STANDIN_MATRIX=1 WORKGROUP_SCOPE=1 \
			M_SIZE=$1 N_SIZE=$2 K_SIZE=$3 VEC4S=1 UNROLL=16 FLOPSCOPE_KHR_AS=bf16
	done
	echo "bench/peak/coopmat2.sh: $D ready: carry it (and $FS) to the GPU machine"
	;;
run)
	shift
	[ -x $D/coopmat2 ] || { echo "bench/peak/coopmat2.sh: run 'prepare' first (here)" >&2; exit 2; }
	$D/coopmat2 0 | head -40
	for l in ${@:-256 128}; do
		$D/coopmat2 "$l" $D/wg_*.spv | grep -v '^coopmat2\|^flexible'
	done
	for w in fp16-matrix bf16-matrix; do
		printf 'flopscope %s (subgroup scope): ' $w
		"$FS" --workload $w --duration 3 --no-log --format json 2>/dev/null | tail -1 |
			python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.1f TFLOPS, %d checks passed" % (d.get("rate_median", d.get("flops_median")) / 1e12, d["checks_passed"]))'
	done
	;;
*)
	echo "usage: bench/peak/coopmat2.sh prepare | run [LOCAL...]" >&2
	exit 2
	;;
esac
