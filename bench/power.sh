#!/bin/bash
# The power workload beside CUDA's on random data, alternated in one run on
# one NVIDIA GPU (nvidia-smi and nvcc there): flopscope's `power`, cuBLAS's
# fp16 GEMM on random operands and mma.sync on random register operands
# (bench/peak/power.cu), ROUNDS times SECONDS each, with nvidia-smi's board
# power, SM clock and reasons every 100 ms beside them. Then each variant
# named in POWER_VARIANTS (flopscope's environment for one run: what an
# ingredient adds) once. Prints, per load: median and max board power, the
# share of readings at the SW power cap, the time from the load's start to
# the first cap reading, the median SM clock, and the throughput at the cap
# (the median over the readings' second half).
#   bench/power.sh [SECONDS] [ROUNDS]     FS=flopscope DEV=-1
#   POWER_VARIANTS='FLOPSCOPE_POWER_FORM=fma;FLOPSCOPE_POWER_SHAPE=16,16,16,1,4,64;FLOPSCOPE_POWER_SHARED=40960'
#   (a variant: NAME=VALUE ...)
set -euo pipefail
cd "$(dirname "$0")/.."
FS=${FS:-build/flopscope}
DEV=${DEV:--1}
secs=${1:-10}
rounds=${2:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; [ -n "${smi:-}" ] && kill "$smi" 2>/dev/null; true' EXIT
command -v nvidia-smi >/dev/null && command -v nvcc >/dev/null || { echo "power.sh: needs nvidia-smi and nvcc" >&2; exit 2; }
nvcc -O3 -arch=native -o "$tmp/power" bench/peak/power.cu -lcublas
nvidia-smi --query-gpu=timestamp,power.draw,clocks.sm,clocks_event_reasons.active,power.limit \
	--format=csv,noheader,nounits -lms 100 >"$tmp/smi.csv" &
smi=$!
sleep 2
: >"$tmp/runs"
# load NAME OUT COMMAND...: runs it, its start and end (epoch seconds) noted
load() {
	local name=${1// /+} out=$2
	shift 2
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >"$out" 2>"$out.err" || { echo "$name failed: $(tail -3 "$out.err")" >&2; }
	t1=$(date +%s.%N)
	echo "$name $t0 $t1 $out" >>"$tmp/runs"
	sleep 3
}
for r in $(seq "$rounds"); do
	load flopscope "$tmp/fs$r" "$FS" "$DEV" --workload power --duration "$secs" --format json --no-log
	load cublas "$tmp/gemm$r" "$tmp/power" gemm "$secs"
	load mma.sync "$tmp/mma$r" "$tmp/power" mma "$secs" 8
done
IFS=';' read -r -a variants <<<"${POWER_VARIANTS:-}"
i=0
for v in "${variants[@]}"; do
	[ -n "$v" ] || continue
	i=$((i + 1))
	load "flopscope:$v" "$tmp/var$i" env $v "$FS" "$DEV" --workload power --duration "$secs" --format json --no-log
done
kill "$smi"; smi=
nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader
python3 - "$tmp/smi.csv" "$tmp/runs" <<'PY'
import json, statistics as st, sys
from datetime import datetime
smi = []
for line in open(sys.argv[1]):
    f = [x.strip() for x in line.split(",")]
    try:
        t = datetime.strptime(f[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
        smi.append((t, float(f[1]), float(f[2]), int(f[3], 16), float(f[4])))
    except (ValueError, IndexError):
        pass
def rates(path):
    """(seconds since start, rate in 1e12/s) of a load's output"""
    out = []
    for line in open(path):
        line = line.strip()
        if line.startswith("{"):
            r = json.loads(line)
            if r.get("type") == "sample" and r.get("steady"):
                out.append((r["t_ms"] / 1000, r["rate"] / 1e12))
        elif line and not line.startswith("total"):
            t, v = line.split()
            out.append((float(t), float(v)))
    return out
print(f"{'load':60} {'W med':>6} {'W max':>6} {'cap %':>6} {'to cap s':>8} {'MHz med':>7} {'MHz cap':>7} {'T/s cap':>8}")
agg = {}
for line in open(sys.argv[2]):
    name, t0, t1, path = line.split()
    t0, t1 = float(t0), float(t1)
    win = [s for s in smi if t0 <= s[0] <= t1]
    busy = [s for s in win if s[1] > 150] or win
    cap = [s for s in busy if s[3] & 0x4]
    first = (cap[0][0] - t0) if cap else float("nan")
    rt = rates(path)
    half = [v for t, v in rt if t >= (rt[-1][0] / 2 if rt else 0)]
    row = dict(w=st.median(s[1] for s in busy), wmax=max(s[1] for s in busy), cap=100 * len(cap) / len(busy),
               first=first, mhz=st.median(s[2] for s in busy),
               mhzcap=st.median(s[2] for s in cap) if cap else float("nan"),
               rate=st.median(half) if half else float("nan"))
    agg.setdefault(name, []).append(row)
    print(f"{name:60} {row['w']:6.0f} {row['wmax']:6.0f} {row['cap']:6.0f} {row['first']:8.1f} {row['mhz']:7.0f} "
          f"{row['mhzcap']:7.0f} {row['rate']:8.1f}")
med = {n: {k: st.median(r[k] for r in rows) for k in rows[0]} for n, rows in agg.items()}
if "flopscope" in med and "cublas" in med:
    f, c = med["flopscope"], med["cublas"]
    print(f"\nmedians over the rounds: flopscope {f['w']:.0f} W, cuBLAS {c['w']:.0f} W: ratio {f['w'] / c['w']:.3f}; "
          f"first cap {f['first']:.1f} s after flopscope's start")
if "flopscope" in med and "mma.sync" in med:
    f, m = med["flopscope"], med["mma.sync"]
    print(f"throughput at the cap: flopscope {f['rate']:.1f}, mma.sync {m['rate']:.1f} TFLOPS: ratio {f['rate'] / m['rate']:.3f}")
PY
