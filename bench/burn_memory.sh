#!/bin/bash
# A burn's memory and logs over a long soak, on any device (lavapipe here):
# flopscope --burn DUR --window WINDOW DEV --format json, its resident
# memory (VmRSS) and its logs' bytes every STEP seconds; then the RSS at
# each point, and the growth over the second half (a long soak's must be
# none: every array is capped, core/summary.h SUMMARY_CAP, core/burn.h).
#   bench/burn_memory.sh [DUR] [WINDOW] [DEV] [STEP]   FS=build/flopscope LOG_CAP=100M
set -euo pipefail
cd "$(dirname "$0")/.."
FS=${FS:-build/flopscope}
dur=${1:-15m}
window=${2:-60s}
dev=${3:-llvm}
step=${4:-10}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
export XDG_STATE_HOME=$out/state
"$FS" "$dev" --burn "$dur" --window "$window" --log-cap "${LOG_CAP:-100M}" --format json >"$out/burn.json" 2>"$out/burn.err" &
fs=$!
: >"$out/rss.txt"
while kill -0 "$fs" 2>/dev/null; do
	rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$fs/status" 2>/dev/null || true)
	logs=$(cat "$XDG_STATE_HOME"/flopscope/*.jsonl 2>/dev/null | wc -c || true)
	[ -n "$rss" ] && echo "$SECONDS $rss $logs" >>"$out/rss.txt"
	sleep "$step"
done
rc=0
wait "$fs" || rc=$?
echo "burn exit $rc; $(tail -1 "$out/burn.err")"
python3 - "$out/rss.txt" "$out/burn.json" <<'PY'
import json, sys
rows = [tuple(map(int, l.split())) for l in open(sys.argv[1]) if l.strip()]
recs = [json.loads(l) for l in open(sys.argv[2]) if l.startswith("{")]
end = [r for r in recs if r.get("type") == "burn_end"]
windows = [r for r in recs if r.get("type") == "burn_window"]
print(f"{'s':>6} {'RSS MiB':>8} {'logs KiB':>9}")
for t, rss, logs in rows[:: max(1, len(rows) // 20)] + rows[-1:]:
    print(f"{t:6d} {rss / 1024:8.1f} {logs / 1024:9.1f}")
half = [r for r in rows if r[0] >= rows[-1][0] / 2]
if half:
    print(f"RSS over the second half: {half[0][1] / 1024:.1f} -> {half[-1][1] / 1024:.1f} MiB "
          f"(max {max(r[1] for r in half) / 1024:.1f}); first reading {rows[0][1] / 1024:.1f}")
print(f"windows judged: {len(windows)}; end: {end[-1]['exit'] if end else 'none'}")
PY
echo "logs: $(ls -l "$XDG_STATE_HOME"/flopscope/*.jsonl | awk '{ s += $5 } END { print s }') bytes in $out/state/flopscope"
