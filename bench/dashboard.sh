#!/bin/bash
# What watching costs: FLOPS with the dashboard open against headless, same
# device and duration, alternated ROUNDS times in one run; and the CPU time of
# the dashboard's own thread (the main thread: /proc/PID/task/PID/stat).
#
#   bench/dashboard.sh [DEVICE] [SECONDS] [ROUNDS] [FPS]
#
# The UI thread's CPU is counted from 1 s into the run to its end, leaving out
# the start (that thread also compiles the shader before the loop begins).
set -euo pipefail
cd "$(dirname "$0")/.."
FS=${FS:-build/flopscope}
dev=${1:-llvm}
secs=${2:-5}
rounds=${3:-5}
fps=${4:-10}
tmp=$(mktemp -d)
sock=$tmp/tmux.sock
trap 'tmux -S "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
hz=$(getconf CLK_TCK)

# "median 133 GFLOPS" -> 133e9
si() { awk '{ v = $1; p = substr($2, 1, 1); m = 1
	if (p == "k") m = 1e3; if (p == "M") m = 1e6; if (p == "G") m = 1e9; if (p == "T") m = 1e12
	print v * m }'; }

echo "# $(date -u +%FT%TZ) device '$dev', ${secs}s x $rounds rounds, dashboard at $fps fps, $(nproc) cores"
for r in $(seq "$rounds"); do
	h=$("$FS" "$dev" --format json --duration "$secs" --no-log 2>/dev/null | tail -1 |
		python3 -c 'import json,sys; print((lambda s: s.get("rate_median", s.get("flops_median")))(json.load(sys.stdin)))')

	tmux -S "$sock" new-session -d -s b -x 120 -y 36 "LANG=C.UTF-8 $FS $dev --duration $secs --fps $fps --no-log; sleep 5"
	pid=
	for _ in $(seq 100); do pid=$(pgrep -n -f "^$FS $dev --duration $secs --fps" || true); [ -n "$pid" ] && break; sleep 0.05; done
	[ -n "$pid" ] || { echo "dashboard did not start" >&2; exit 1; }
	for _ in $(seq 200); do
		tmux -S "$sock" capture-pane -p -t b | grep -q 'FLOPS at the target' && break
		sleep 0.05
	done
	sleep 1
	tpid=$(pgrep -f "tmux -S $sock" | head -1)
	t0=$(date +%s.%N)
	ticks0=$(awk '{ print $14 + $15 }' "/proc/$pid/task/$pid/stat")
	tticks0=$(awk '{ print $14 + $15 }' "/proc/$tpid/stat")
	for _ in $(seq $((secs * 20 + 200))); do
		tmux -S "$sock" capture-pane -p -t b | grep -q 'flopscope +DONE' && break
		sleep 0.05
	done
	ticks=$(($(awk '{ print $14 + $15 }' "/proc/$pid/task/$pid/stat") - ticks0))
	tticks=$(($(awk '{ print $14 + $15 }' "/proc/$tpid/stat") - tticks0))
	wall=$(echo "$(date +%s.%N) $t0" | awk '{ print $1 - $2 }')
	tmux -S "$sock" send-keys -t b q
	for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
	d=$(tmux -S "$sock" capture-pane -p -t b | sed -n 's/.*FLOPS at target: median \([0-9.]* [kMGT]\)FLOPS.*/\1/p' | si)
	tmux -S "$sock" kill-server
	ui=$(echo "$ticks $hz $wall" | awk '{ printf "%.2f", 100 * $1 / $2 / $3 }')
	term=$(echo "$tticks $hz $wall" | awk '{ printf "%.2f", 100 * $1 / $2 / $3 }')
	echo "$h $d $ui" >>"$tmp/res"
	printf 'round %d  headless %.4g GFLOPS  dashboard %.4g GFLOPS  ratio %.4f  UI thread %s%%, tmux %s%% of a core\n' \
		"$r" "$(echo "$h" | awk '{ print $1 / 1e9 }')" "$(echo "$d" | awk '{ print $1 / 1e9 }')" \
		"$(echo "$h $d" | awk '{ print $2 / $1 }')" "$ui" "$term"
done
awk '{ h[NR] = $1; d[NR] = $2; u[NR] = $3; r[NR] = $2 / $1 }
     END { n = NR; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) {
             if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
             if (u[j] < u[i]) { t = u[i]; u[i] = u[j]; u[j] = t } }
           k = int((n + 1) / 2)
           printf "\nmedian dashboard/headless FLOPS ratio %.4f (%.2f%% cost); median UI thread CPU %.2f%% of one core\n", r[k], 100 * (1 - r[k]), u[k] }' "$tmp/res"
