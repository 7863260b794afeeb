#!/bin/bash
# flopscope against a hand-written reference on the same device, side by side
# in one run (ROUNDS alternations).
#   GPU (nvidia-smi and nvcc present): bench/peak/fma.cu compiled with nvcc,
#     SM clock sampled with nvidia-smi during the run; figures against
#     SMs x 128 x 2 x clock.
#   Otherwise (lavapipe): bench/peak/native_fma.c, 256-bit FMA chains on every
#     core in plain C: the native ceiling.
#   bench/peak/run.sh [DEVICE] [SECONDS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
FS=${FS:-build/flopscope}
dev=${1:-}
secs=${2:-3}
rounds=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; [ -n "${smi:-}" ] && kill "$smi" 2>/dev/null; true' EXIT
med() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
fs_run() { "$FS" $dev --format json --duration "$secs" --no-log "$@" | tail -1 |
	python3 -c 'import json,sys; s = json.load(sys.stdin); print(s.get("rate_median", s.get("flops_median")) / 1e9, s.get("duty_cycle", 0))'; }

if command -v nvidia-smi >/dev/null && command -v nvcc >/dev/null; then
	nvcc -O3 -o "$tmp/fma_cuda" bench/peak/fma.cu
	nvidia-smi --query-gpu=clocks.sm --format=csv,noheader,nounits -lms 100 >"$tmp/smi" &
	smi=$!
	for r in $(seq "$rounds"); do
		read -r f duty < <(fs_run)
		read -r c sms < <("$tmp/fma_cuda")
		echo "$f" >>"$tmp/fs"; echo "$duty" >>"$tmp/duty"; echo "$c" >>"$tmp/cu"
		printf 'round %d  flopscope %.1f GFLOPS (duty %.4f)  CUDA %.3f TFLOPS\n' "$r" "$f" "$duty" "$c"
	done
	kill "$smi"; smi=
	clk=$(med <"$tmp/smi")
	f=$(med <"$tmp/fs"); c=$(awk '{ print $1 * 1000 }' "$tmp/cu" | med); duty=$(med <"$tmp/duty")
	peak=$(awk -v s="$sms" -v k="$clk" 'BEGIN { print s * 128 * 2 * k / 1000 }')
	printf '\n%s, SM clock median %s MHz, peak %.1f GFLOPS (%s SMs x 128 x 2 x clock)\n' \
		"$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)" "$clk" "$peak" "$sms"
	printf 'flopscope median %.1f GFLOPS = %.2f%% of peak, duty %.2f%%\n' "$f" \
		"$(awk -v a="$f" -v p="$peak" 'BEGIN { print 100 * a / p }')" "$(awk -v d="$duty" 'BEGIN { print 100 * d }')"
	printf 'CUDA      median %.1f GFLOPS = %.2f%% of peak\n' "$c" "$(awk -v a="$c" -v p="$peak" 'BEGIN { print 100 * a / p }')"
	printf 'ratio flopscope / CUDA: %.4f\n' "$(awk -v a="$f" -v b="$c" 'BEGIN { print a / b }')"
else
	cc -O2 -march=native -mfma -pthread -o "$tmp/native" bench/peak/native_fma.c
	for r in $(seq "$rounds"); do
		read -r f duty < <(fs_run)
		n=$("$tmp/native" 5)
		echo "$f" >>"$tmp/fs"; echo "$duty" >>"$tmp/duty"; echo "$n" >>"$tmp/nat"
		printf 'round %d  flopscope %.1f GFLOPS (duty %.4f)  native C %.1f GFLOPS\n' "$r" "$f" "$duty" "$n"
	done
	f=$(med <"$tmp/fs"); n=$(med <"$tmp/nat"); duty=$(med <"$tmp/duty")
	printf '\n%s, %s cores\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)" "$(nproc)"
	printf 'flopscope median %.1f GFLOPS (duty %.2f%%), native C (256-bit FMA chains) %.1f GFLOPS\n' "$f" \
		"$(awk -v d="$duty" 'BEGIN { print 100 * d }')" "$n"
	printf 'ratio flopscope / native: %.4f\n' "$(awk -v a="$f" -v b="$n" 'BEGIN { print a / b }')"
fi
