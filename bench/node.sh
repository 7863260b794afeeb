#!/bin/bash
# A whole node at once, in one run:
#  1. every GPU's fp32 and fp16-matrix median alone, then with every GPU at
#     once, alternated ROUNDS times; the ratio together/alone, each GPU's
#     clock, power and temperature under the all-GPU load (from flopscope's
#     own telemetry in the samples) and the outlier rule's verdict;
#  2. the dashboard on every GPU for 60 s in tmux at 160x48: a capture every
#     10 s, the CPU time of the UI thread and of each engine thread over the
#     steady part (/proc/PID/task), each device's first sample after launch;
#  3. --suite --all and --check --all.
#   bench/node.sh [OUT] [SECONDS] [ROUNDS] [WORD]
# WORD (default: none) keeps the devices whose name has it, as --all does;
# PARTS=13 (say) runs only those parts.
set -uo pipefail
cd "$(dirname "$0")/.."
FS=${FS:-build/flopscope}
out=${1:-bench/out/node}
secs=${2:-10}
rounds=${3:-2}
word=${4:-}
parts=${PARTS:-123}
mkdir -p "$out"
hz=$(getconf CLK_TCK)

# The entry of each physical device: the first entry with a new UUID, as
# --all picks them.
mapfile -t entries < <("$FS" --list --verbose | awk -v w="$word" '
	/^ *[0-9]+: / { n = $1 + 0; name = $0 }
	/device UUID/ { u = $NF; if (!(u in seen) && (w == "" || index(name, w))) { seen[u] = 1; print n } }')
ndev=${#entries[@]}
[ "$ndev" -gt 0 ] || { echo "node.sh: no device" >&2; exit 1; }
echo "devices: $ndev (entries ${entries[*]})"
all=(--all)
[ -n "$word" ] && all=(--all "$word")

med() { sort -g | awk '{ v[NR] = $1 } END { if (!NR) print "nan"; else print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
num() { # FIELD: its number on each line read
	sed -n "s/.*\"$1\":\(-\{0,1\}[0-9.e+]*\).*/\1/p"
}
# the median of device DEV's steady samples' FIELD in a JSON stream
field_median() { grep '"type":"sample"' "$3" | grep "^{\"dev\":$1," | grep '"steady":true' | num "$2" | med; }
# the median in device DEV's summary line, and in a single run's summary
summary_median() { grep "\"type\":\"device_summary\",\"dev\":$1," "$2" | num median; }
single_median() { grep '"type":"summary"' "$1" | num rate_median; }

# 1. alone and together, alternated
[[ $parts == *1* ]] && for wl in fp32 fp16-matrix; do
	for r in $(seq "$rounds"); do
		for k in $(seq "$ndev"); do
			"$FS" "-${entries[$((k - 1))]}" --workload "$wl" --duration "$secs" --format json --no-log \
				>"$out/solo-$wl-$k-$r.json" 2>"$out/solo-$wl-$k-$r.err"
		done
		"$FS" "${all[@]}" --workload "$wl" --duration "$secs" --format json --no-log \
			>"$out/all-$wl-$r.json" 2>"$out/all-$wl-$r.err"
	done
	echo
	echo "$wl: median of $rounds rounds of $secs s, alone and with all $ndev at once"
	printf '%4s %14s %14s %9s %9s %8s %7s %s\n' dev alone together ratio "SM MHz" power temp outlier
	for k in $(seq "$ndev"); do
		s=$(for r in $(seq "$rounds"); do single_median "$out/solo-$wl-$k-$r.json"; done | med)
		a=$(for r in $(seq "$rounds"); do summary_median "$k" "$out/all-$wl-$r.json"; done | med)
		mhz=$(field_median "$k" sm_mhz "$out/all-$wl-$rounds.json")
		pw=$(field_median "$k" power_w "$out/all-$wl-$rounds.json")
		tc=$(field_median "$k" temp_c "$out/all-$wl-$rounds.json")
		ol=$(grep -c "\"type\":\"device_summary\",\"dev\":$k,.*\"outlier\":true" "$out"/all-"$wl"-*.json | awk -F: '{ s += $NF } END { print s + 0 }')
		awk -v k="$k" -v s="$s" -v a="$a" -v m="$mhz" -v p="$pw" -v t="$tc" -v o="$ol" -v R="$rounds" 'BEGIN {
			printf "%4d %12.2f T %12.2f T %9.4f %9.0f %6.0f W %5.0f C %d of %d\n", k, s / 1e12, a / 1e12, (s > 0 ? a / s : 0), m, p, t, o, R }'
	done
done

# 2. the dashboard, every GPU, 60 s
if [[ $parts != *2* ]]; then
	:
elif command -v tmux >/dev/null; then
	sock=fsnode$$
	tmux -L "$sock" new-session -d -x 160 -y 48 "exec $FS ${all[*]} --workload fp32 --duration 60 --no-log"
	tmux -L "$sock" set-option -g remain-on-exit on >/dev/null
	pid=$(tmux -L "$sock" display -p '#{pane_pid}')
	cpu_at() { # the CPU ticks of each thread, "name ticks"
		for t in /proc/"$pid"/task/*; do
			[ -r "$t/stat" ] || continue
			name=$(cat "$t/comm")
			[ "${t##*/}" = "$pid" ] && name="UI (main)"
			printf '%s\t%s\n' "$name" "$(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "$t/stat")"
		done
	}
	sleep 5
	cpu_at >"$out/cpu-5s.tsv"
	for i in 1 2 3 4 5; do
		sleep 10
		tmux -L "$sock" capture-pane -p >"$out/dashboard-$((i * 10 + 5))s.txt"
	done
	cpu_at >"$out/cpu-55s.tsv"
	sleep 8
	tmux -L "$sock" capture-pane -p >"$out/dashboard-end.txt"
	tmux -L "$sock" send-keys q
	sleep 3
	tmux -L "$sock" capture-pane -p -S -60 >"$out/dashboard-summary.txt"
	tmux -L "$sock" kill-server 2>/dev/null
	echo
	echo "dashboard with $ndev devices, CPU from 5 s to 55 s (a core = 100%):"
	awk -F'\t' -v hz="$hz" 'NR == FNR { a[$1] += $2; next } { b[$1] += $2 }
		END { for (k in b) printf "  %-16s %6.1f%%\n", k == "flopscope" ? "driver threads" : k, 100 * (b[k] - a[k]) / hz / 50 }' \
		"$out/cpu-5s.tsv" "$out/cpu-55s.tsv" | sort
	grep -h "first sample after launch" "$out/dashboard-summary.txt" || echo "  no first-sample line in the summary"
else
	echo "no tmux: the dashboard part is skipped"
fi

# 3. the suite and the check, every GPU
[[ $parts == *3* ]] || exit 0
echo
"$FS" "${all[@]}" --suite --no-log >"$out/suite.txt" 2>&1
echo "--suite ${all[*]}: exit $?"
"$FS" --check $word --budget 60s --no-log >"$out/check.txt" 2>&1
echo "--check: exit $?"
cat "$out/check.txt"
