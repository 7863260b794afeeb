#!/bin/bash
# A burn-in beside nvidia-smi on one NVIDIA GPU: flopscope --burn DUR --window
# 30s --format json with nvidia-smi's instant and average power, temperature,
# SM clock and reasons every 200 ms of every GPU in the same run, and cuBLAS
# (torch fp16 8192^3 matmuls on random data) on CUDA GPU BUSY (0) for 60 s
# from START s (0: none); then, a window and GPU each, flopscope's figures
# beside nvidia-smi's of that GPU over the window's span.
# The burn's resident memory every 5 s beside (a long soak's must not grow).
#   bench/burn.sh [DUR] [START] [BUSY]    FS=build/flopscope DEV= (every GPU) WINDOW=30s
#   WORKLOAD=power,copy (--workload: a list takes turns, a window each)
set -euo pipefail
cd "$(dirname "$0")/.."
FS=${FS:-build/flopscope}
dur=${1:-4m}
start=${2:-100}
busy=${3:-0}
out=${OUT:-$(mktemp -d)}
export XDG_STATE_HOME=$out/state
command -v nvidia-smi >/dev/null || { echo "burn.sh: needs nvidia-smi" >&2; exit 2; }
nvidia-smi --query-gpu=index,name,driver_version,power.limit --format=csv,noheader
nvidia-smi --query-gpu=timestamp,index,power.draw.instant,power.draw.average,temperature.gpu,clocks.sm,clocks_event_reasons.active \
	--format=csv,noheader -lms 200 >"$out/dmon.csv" &
smi=$!
trap 'kill $smi 2>/dev/null || true' EXIT
if [ "$start" != 0 ]; then
	(sleep "$start"; CUDA_VISIBLE_DEVICES=$busy timeout 70 python3 -c '
import torch, time
a = torch.randn(8192, 8192, dtype=torch.float16, device="cuda"); b = torch.randn(8192, 8192, dtype=torch.float16, device="cuda")
t = time.time()
while time.time() - t < 60: torch.matmul(a, b)
torch.cuda.synchronize()' >"$out/torch.txt" 2>&1) &
fi
rc=0
"$FS" ${DEV:-} --burn "$dur" --window "${WINDOW:-30s}" ${WORKLOAD:+--workload "$WORKLOAD"} --format json >"$out/burn.json" 2>"$out/burn.err" &
fs=$!
# its resident memory every 5 s: a long burn's must stay flat
while kill -0 "$fs" 2>/dev/null; do
	awk -v t="$SECONDS" '/^VmRSS/ { print t, $2 }' "/proc/$fs/status" 2>/dev/null >>"$out/rss.txt" || true
	sleep 5
done
wait "$fs" || rc=$?
sleep 1
kill $smi
wait || true
echo "flopscope exit $rc; reports $(ls "$out"/state/flopscope/burn-*)"
awk 'NR == 1 { first = $2; t0 = $1 } { if ($2 > max) max = $2; last = $2; t = $1 }
	END { printf "resident memory: %d KiB at %d s, %d KiB at most, %d KiB at %d s (%d readings)\n", first, t0, max, last, t, NR }' "$out/rss.txt"
python3 bench/burn_vs_smi.py "$out/burn.json" "$out/dmon.csv"
