#!/bin/bash
# A long headless run: samples, errors, resident memory and open files over
# time; nothing may grow. bench/soak.sh [DEVICE] [SECONDS] (default 600).
set -euo pipefail
cd "$(dirname "$0")/.."
FS=${FS:-build/flopscope}
dev=${1:-llvm}
secs=${2:-600}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$FS" $dev --duration "$secs" --format csv --log "$tmp/soak.jsonl" >"$tmp/out.csv" 2>"$tmp/err" &
pid=$!
echo "# $(date -u +%FT%TZ) soak of '$dev' for ${secs}s, pid $pid"
printf '%8s %10s %6s %9s\n' t_s rss_kib fds samples
t=0
while kill -0 "$pid" 2>/dev/null; do
	rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo -)
	fds=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
	printf '%8d %10s %6s %9d\n' "$t" "$rss" "$fds" "$(($(wc -l <"$tmp/out.csv") - 1))"
	sleep 10
	t=$((t + 10))
done
wait "$pid"
rc=$?
echo "exit status $rc; $(($(wc -l <"$tmp/out.csv") - 1)) samples; log $(wc -l <"$tmp/soak.jsonl") lines"
grep -E 'Summary|FLOPS at target|duty|check|error|flopscope:' "$tmp/err" || true
