#!/bin/bash
# FP32 throughput of flopscope's FMA workload, shapes side by side in one run.
#
#   bench/fp32.sh [DEVICE] [SECONDS] [ROUNDS] [SHAPE...]
#
# Each SHAPE is VEC4S,UNROLL,ITERS,LOCAL_SIZE (FLOPSCOPE_FMA_SHAPE; "default"
# is the engine's own choice). The shapes run in turn, ROUNDS times over, each
# for SECONDS headless; the table gives the median over rounds of each run's
# median steady FLOPS, and its ratio to the first shape.
#
# With nvidia-smi present the SM clock is sampled every 100 ms during each run
# and the median FLOPS is set against SMS x 128 lanes x 2 x the median clock of
# that run (BENCH_SMS, default 132: H100 SXM).
set -euo pipefail
cd "$(dirname "$0")/.."
FS=${FS:-build/flopscope}
dev=${1:-}
secs=${2:-3}
rounds=${3:-3}
shift $(($# < 3 ? $# : 3))
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || shapes=(default)
sms=${BENCH_SMS:-132}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; [ -n "${smi:-}" ] && kill "$smi" 2>/dev/null; true' EXIT
have_smi=0
command -v nvidia-smi >/dev/null && have_smi=1

echo "# flopscope $($FS --version | cut -d' ' -f2), $(date -u +%FT%TZ), device '${dev:-default}', ${secs}s x ${rounds} rounds"
$FS --list --verbose | grep -A3 -E "^ +[0-9]+: .*${dev}" | head -4 || true
[ $have_smi = 1 ] && nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader

for r in $(seq "$rounds"); do
	for i in "${!shapes[@]}"; do
		s=${shapes[$i]}
		env=()
		[ "$s" != default ] && env=(FLOPSCOPE_FMA_SHAPE="$s")
		if [ $have_smi = 1 ]; then
			nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv,noheader,nounits -lms 100 >"$tmp/smi" &
			smi=$!
		fi
		env "${env[@]}" "$FS" $dev --format json --duration "$secs" >"$tmp/out" 2>"$tmp/err" ||
			{ echo "run failed ($s): $(cat "$tmp/err")" >&2; exit 1; }
		med=$(tail -1 "$tmp/out" | python3 -c 'import json,sys; print((lambda s: s.get("rate_median", s.get("flops_median")))(json.load(sys.stdin)))')
		clk=0
		pwr=0
		if [ $have_smi = 1 ]; then
			kill "$smi"; wait "$smi" 2>/dev/null || true
			smi=
			# the second half of the run: the clock the steady samples ran at
			clk=$(awk -F, '{ c[NR] = $1 } END { n = NR; for (i = int(n / 2) + 1; i <= n; i++) print c[i] }' "$tmp/smi" | sort -n |
				awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }')
			pwr=$(awk -F, '{ p[NR] = $2 } END { n = NR; for (i = int(n / 2) + 1; i <= n; i++) print p[i] }' "$tmp/smi" | sort -n |
				awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }')
		fi
		echo "$i $med $clk $pwr" >>"$tmp/results"
		printf 'round %d  %-16s %8.2f GFLOPS%s\n' "$r" "$s" "$(echo "$med" | awk '{ print $1 / 1e9 }')" \
			"$([ $have_smi = 1 ] && echo "  SM $clk MHz  $pwr W")"
	done
done

echo
printf '%-16s %14s %8s' shape "median GFLOPS" ratio
[ $have_smi = 1 ] && printf ' %9s %10s %9s' "SM MHz" "% of peak" "power W"
echo
base=
for i in "${!shapes[@]}"; do
	read -r med clk pwr < <(awk -v i="$i" '$1 == i { print $2, $3, $4 }' "$tmp/results" | sort -g |
		awk '{ m[NR] = $1; c[NR] = $2; p[NR] = $3 } END { k = int((NR + 1) / 2); print m[k], c[k], p[k] }')
	[ -z "$base" ] && base=$med
	printf '%-16s %14.2f %8.3f' "${shapes[$i]}" "$(awk -v m="$med" 'BEGIN { print m / 1e9 }')" \
		"$(awk -v m="$med" -v b="$base" 'BEGIN { print m / b }')"
	[ $have_smi = 1 ] && printf ' %9d %9.2f%% %9.1f' "$clk" \
		"$(awk -v m="$med" -v c="$clk" -v s="$sms" 'BEGIN { print c ? 100 * m / (s * 128 * 2 * c * 1e6) : 0 }')" "$pwr"
	echo
done
