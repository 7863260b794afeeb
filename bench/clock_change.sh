#!/bin/bash
# On a GPU machine: sessions in which the clock may really change, for the
# causes --analyze gives (docs/INTERPRETATION.md). nvidia-smi logs the clock,
# power, P-state and clock-event reasons beside them every 200 ms.
#   bench/clock_change.sh [DEVICE-WORD]      (default: nvidia)
# Writes into $OUT (default /tmp/clock_change): fp16.jsonl, fp32.jsonl,
# smi.csv and the --analyze output of each.
set -u
FS=${FS:-build/flopscope}
DEV=${1:-nvidia}
OUT=${OUT:-/tmp/clock_change}
mkdir -p "$OUT"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,pstate,clocks_event_reasons.active \
	--format=csv -lms 200 >"$OUT/smi.csv" 2>&1 &
smi=$!
# 1: the heaviest arithmetic alone for 30 s (the power limit, if it is reached)
"$FS" "$DEV" --workload fp16 --duration 30 --log "$OUT/fp16.jsonl" >"$OUT/fp16.txt" 2>&1
# 2: fp32 for 40 s; from 10 s to 30 s a copy workload on the same GPU beside it
"$FS" "$DEV" --duration 40 --log "$OUT/fp32.jsonl" >"$OUT/fp32.txt" 2>&1 &
run=$!
sleep 10
"$FS" "$DEV" --workload copy --duration 20 --no-log >"$OUT/copy.txt" 2>&1
wait "$run"
kill "$smi"
for s in fp16 fp32; do
	"$FS" --analyze "$OUT/$s.jsonl" >"$OUT/$s.analyze" 2>&1
	"$FS" --analyze "$OUT/$s.jsonl" --format json >"$OUT/$s.analyze.json" 2>&1
done
