#!/bin/bash
# What the dashboard shows of a power run's first seconds on a real GPU:
# the power workload in a tmux pane (200x60, the mono theme), its screen
# captured at each of the times given, with nvidia-smi's SM clock, instant
# power and reasons every 50 ms beside it, so that the mark and the panel's
# event can be held to the card's own timeline. Writes the captures and the
# nvidia-smi trace into OUT (a folder) and prints the panel's event lines.
#   bench/dashboard_cap.sh OUT [TIMES...]      FS=flopscope DEV=-1 (times: 2 5)
set -euo pipefail
cd "$(dirname "$0")/.."
FS=${FS:-build/flopscope}
DEV=${DEV:--1}
out=${1:?usage: bench/dashboard_cap.sh OUT [TIMES...]}
shift
times=(2 5)
[ $# -gt 0 ] && times=("$@")
mkdir -p "$out"
tmp=$(mktemp -d)
sock=$tmp/tmux.sock
trap 'tmux -S "$sock" kill-server 2>/dev/null; [ -n "${smi:-}" ] && kill "$smi" 2>/dev/null; rm -rf "$tmp"' EXIT
command -v tmux >/dev/null || { echo "dashboard_cap.sh: needs tmux" >&2; exit 2; }
if command -v nvidia-smi >/dev/null; then
	nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw.instant,power.draw.average,clocks_event_reasons.active \
		--format=csv,noheader,nounits -lms 50 >"$out/smi.csv" &
	smi=$!
	sleep 1
fi
echo "# $(date -u +%FT%TZ) device '$DEV', power workload, captures at ${times[*]} s"
start=$(date +%s.%N)
echo "launched $start" >"$out/launch.txt"
tmux -S "$sock" new-session -d -s b -x 200 -y 60 \
	"LANG=C.UTF-8 TERM=xterm-256color $FS $DEV --workload power --theme mono --log $out/run.jsonl; sleep 30"
for t in "${times[@]}"; do
	now=$(date +%s.%N)
	wait_s=$(python3 -c "print(max(0, $start + $t - $now))")
	sleep "$wait_s"
	tmux -S "$sock" capture-pane -p -t b >"$out/screen_${t}s.txt"
	echo "== at ${t} s: the panel's events and held-by lines"
	grep -Eo '[0-9]+\.[0-9]+ s: [^│]*(on|off)[^│]*|held by: [^│]*|power-state event[^│]*' "$out/screen_${t}s.txt" |
		sed 's/ *$//' | head -6 || echo "(none on screen)"
done
tmux -S "$sock" send-keys -t b q
sleep 2
[ -n "${smi:-}" ] && kill "$smi" 2>/dev/null
smi=
[ -s "$out/smi.csv" ] || exit 0
echo "== nvidia-smi's first cap reading after the launch (the card's own timeline)"
python3 - "$out/smi.csv" "$start" <<'PY' || true
import sys, datetime
start = float(sys.argv[2])
for l in open(sys.argv[1]):
    f = [x.strip() for x in l.split(",")]
    try:
        t = datetime.datetime.strptime(f[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
    except ValueError:
        continue
    if t >= start and int(f[4], 16) & 0x4:
        print("%.2f s after launch: SM %s MHz, instant %s W, average %s W, reasons %s" % (t - start, f[1], f[2], f[3], f[4]))
        break
PY
