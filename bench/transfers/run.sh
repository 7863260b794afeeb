#!/bin/bash
# bench/transfers/run.sh OUT: on a node of several NVIDIA GPUs, flopscope's
# default --check (each GPU's transfers alone, then the host shared) beside
# CUDA's pinned copies alone and all at once (pinned.cu), in one run; then
# the check with cuBLAS (torch.matmul of random fp16 matrices) burning GPU 0:
# that GPU fails its fp32 threshold, the others pass.
#   FS=path/to/flopscope bench/transfers/run.sh OUT
set -u
out=${1:?usage: bench/transfers/run.sh OUT}
FS=${FS:-flopscope}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id --format=csv,noheader >"$out/gpus.txt"
nvcc -O2 -o "$out/pinned" "$here/pinned.cu" -lpthread || exit 1
"$FS" --check --no-log >"$out/check.txt" 2>&1
echo "check exit $?" >>"$out/check.txt"
"$out/pinned" 4 256 >"$out/cuda.txt" 2>&1
echo "cuda exit $?" >>"$out/cuda.txt"
# cuBLAS on random data on GPU 0 while the check runs (fp32 only: the burn
# is the load, not a workload of the check)
CUDA_VISIBLE_DEVICES=0 python3 -c '
import time, torch
a = torch.randn(8192, 8192, device="cuda", dtype=torch.float16)
b = torch.randn(8192, 8192, device="cuda", dtype=torch.float16)
end = time.time() + 40
while time.time() < end:
    for _ in range(20):
        c = a @ b
    torch.cuda.synchronize()
' >"$out/burn.txt" 2>&1 &
burn=$!
sleep 5
"$FS" --check --workload fp32 --budget 15s --no-log >"$out/check-burn.txt" 2>&1
echo "check exit $?" >>"$out/check-burn.txt"
kill $burn 2>/dev/null
wait $burn 2>/dev/null
cat "$out/check.txt" "$out/cuda.txt" "$out/check-burn.txt"
