#!/bin/sh
# Theoretical FP32 peak of this machine's CPU, in FLOPS, from /proc/cpuinfo:
# cores x SIMD lanes (16 with AVX-512, 8 with AVX, else 4) x 2 (FMA) x 2 FMA
# ports x the highest clock: the cpufreq maximum, else the largest "cpu MHz"
# line x 1.5 (a VM's /proc/cpuinfo shows a nominal clock; this machine's cores
# were measured at 3.46 GHz against 2.6 GHz shown: bench/peak). Used as the
# ceiling no measurement may pass.
set -eu
cores=$(getconf _NPROCESSORS_ONLN)
flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
case " $flags " in
*" avx512f "*) lanes=16 ;;
*" avx "*) lanes=8 ;;
*) lanes=4 ;;
esac
fma=1
case " $flags " in *" fma "*) fma=2 ;; esac
khz=$(cat /sys/devices/system/cpu/cpu*/cpufreq/cpuinfo_max_freq 2>/dev/null | sort -n | tail -1 || true)
if [ -n "$khz" ]; then
	mhz=$((khz / 1000))
else
	mhz=$(awk -F: '/^cpu MHz/ { if ($2 + 0 > m) m = $2 + 0 } END { printf "%d", m * 1.5 }' /proc/cpuinfo)
fi
[ "${mhz:-0}" -gt 0 ] || { echo "cpu_peak: no clock in /proc/cpuinfo" >&2; exit 1; }
echo "$cores $lanes $fma $mhz" | awk '{ printf "%.0f\n", $1 * $2 * $3 * 2 * $4 * 1e6 }'
