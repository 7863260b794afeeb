#!/bin/bash
# Record sessions for calibrating --compare on a GPU (docs/INTERPRETATION.md,
# the H100's table): ROUNDS rounds of three sessions in turn,
#   q   alone
#   g   a second flopscope on the same GPU throughout (B slower)
#   c   four busy loops on the CPU throughout
# into DIR as COND-ROUND.jsonl; then
#   bench/compare_calibrate.py DIR FLOPSCOPE --aa q,g,c --ab q:g
#   bench/compare_record_gpu.sh DIR [DEVICE] [ROUNDS] [SECONDS]   (default: -1 10 8)
set -u
dir=${1:?folder for the logs}
dev=${2:--1}
rounds=${3:-10}
secs=${4:-8}
F=${FS:-$(dirname "$0")/../build/flopscope}
mkdir -p "$dir" || exit 1
for r in $(seq "$rounds"); do
	"$F" "$dev" --headless --duration "$secs" --log "$dir/q-$r.jsonl" >/dev/null 2>&1 || echo "q-$r failed"
	"$F" "$dev" --headless --duration $((secs + 2)) --no-log >/dev/null 2>&1 &
	other=$!
	sleep 1
	"$F" "$dev" --headless --duration "$secs" --log "$dir/g-$r.jsonl" >/dev/null 2>&1 || echo "g-$r failed"
	wait "$other"
	busy=()
	for k in 1 2 3 4; do timeout $((secs + 1)) sh -c 'while :; do :; done' & busy+=($!); done
	sleep 0.5
	"$F" "$dev" --headless --duration "$secs" --log "$dir/c-$r.jsonl" >/dev/null 2>&1 || echo "c-$r failed"
	wait "${busy[@]}"
	echo "round $r of $rounds $(date +%T)"
done
