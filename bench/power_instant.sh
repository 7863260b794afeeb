#!/bin/bash
# Power as it happens, on one NVIDIA GPU: flopscope's instant power and
# energy counter beside nvidia-smi's, in one run (power round 2).
#  1. nvidia-smi's power.draw.instant and power.draw.average every 50 ms
#     beside `flopscope --workload power` for SECONDS: both sides' instant
#     readings over the run's first second and its whole (median, max),
#     flopscope's from its log's samples (power_instant_w, power_w).
#  2. runs of fp32 of 2, 5 and 30 s (LONG; 0 leaves the 30 s one out), each
#     with pynvml's total energy counter read just before and after: the
#     run's mean power from flopscope's summary (energy_source counter) and
#     from its samples' instant readings integrated, against the counter's
#     difference over the run's wall time.
#  3. the cost of a call, pynvml's (the same NVML calls flopscope makes):
#     field 186 (instant power), nvmlDeviceGetPowerUsage, the energy counter.
#   bench/power_instant.sh [SECONDS] [LONG]    FS=build/flopscope DEV=-1 OUT=dir
set -euo pipefail
cd "$(dirname "$0")/.."
FS=${FS:-build/flopscope}
DEV=${DEV:--1}
secs=${1:-5}
long=${2:-30}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
command -v nvidia-smi >/dev/null || { echo "power_instant.sh: needs nvidia-smi" >&2; exit 2; }
python3 -c 'import pynvml' 2>/dev/null || { echo "power_instant.sh: needs pynvml" >&2; exit 2; }
nvidia-smi -L
nvidia-smi --query-gpu=driver_version --format=csv,noheader
# 1. the power run beside nvidia-smi's instant and average power
nvidia-smi -i 0 --query-gpu=timestamp,power.draw.instant,power.draw.average,clocks.sm,clocks_event_reasons.active \
	--format=csv,noheader,nounits -lms 50 >"$out/smi.csv" &
smi=$!
trap 'kill "$smi" 2>/dev/null || true' EXIT
sleep 1
t0=$(date +%s.%N)
"$FS" "$DEV" --workload power --duration "$secs" --log "$out/power.jsonl" --format csv >/dev/null 2>"$out/power.err"
t1=$(date +%s.%N)
sleep 1
kill "$smi"
trap - EXIT
python3 - "$out/smi.csv" "$out/power.jsonl" "$t0" "$t1" <<'PY'
import datetime, json, statistics, sys
smi, log, t0, t1 = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
rows = []
for l in open(smi):
    f = [x.strip() for x in l.split(",")]
    try:
        t = datetime.datetime.strptime(f[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
        rows.append((t, float(f[1]), float(f[2]), float(f[3]), f[4]))
    except (ValueError, IndexError):
        pass
recs = [json.loads(l) for l in open(log)]
sess = recs[0]
samples = [r for r in recs if r["type"] == "sample"]
summ = [r for r in recs if r["type"] == "summary"][-1]
# flopscope's samples on the wall clock: the run started at its first sample's completion less its t_ms
start = t0 + (t1 - t0) - samples[-1]["t_ms"] * 1e-3  # the last sample ends the run
def window(lo, hi):
    s_i = [r[1] for r in rows if start + lo <= r[0] < start + hi]
    s_a = [r[2] for r in rows if start + lo <= r[0] < start + hi]
    f_i = [s["power_instant_w"] for s in samples if "power_instant_w" in s and lo * 1e3 <= s["t_ms"] < hi * 1e3]
    f_a = [s["power_w"] for s in samples if "power_w" in s and lo * 1e3 <= s["t_ms"] < hi * 1e3]
    med = lambda v: "%.0f" % statistics.median(v) if v else "-"
    mx = lambda v: "%.0f" % max(v) if v else "-"
    print("  %5.2f-%5.2f s: nvidia-smi instant median %s max %s (%d), average median %s | flopscope instant median %s "
          "max %s (%d), average median %s" % (lo, hi, med(s_i), mx(s_i), len(s_i), med(s_a), med(f_i), mx(f_i), len(f_i),
                                              med(f_a)))
print("1. power run, %s s: %s" % ((t1 - t0), sess.get("device")))
for lo, hi in ((0, 0.25), (0.25, 0.5), (0.5, 1), (1, 2), (0, 1e9)):
    window(lo, hi)
first = [s for s in samples if "power_instant_w" in s][:1]
firsta = [s for s in samples if "power_w" in s][:1]
if first:
    print("  flopscope's first sample: t %.0f ms, instant %.0f W, average %.0f W" % (first[0]["t_ms"], first[0]["power_instant_w"], firsta[0]["power_w"] if firsta else float("nan")))
print("  summary: energy %s J over %s s, mean %s W, max %s W, source %s" % (summ.get("energy_j"), summ.get("energy_s"),
      summ.get("power_mean_w"), summ.get("power_max_w"), summ.get("energy_source")))
PY
# 2. energy over runs of 2, 5 and LONG s, against NVML's counter read around each
echo "2. energy: flopscope (counter; readings integrated) against NVML's counter over the run"
for d in 2 5 "$long"; do
	[ "$d" = 0 ] && continue
	python3 - "$FS" "$DEV" "$d" "$out/e$d.jsonl" <<'PY'
import json, subprocess, sys, time
import pynvml
fs, dev, d, log = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
pynvml.nvmlInit()
h = pynvml.nvmlDeviceGetHandleByIndex(0)
e0, t0 = pynvml.nvmlDeviceGetTotalEnergyConsumption(h), time.time()
subprocess.run([fs, dev, "--workload", "fp32", "--duration", str(d), "--log", log, "--format", "csv"],
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
e1, t1 = pynvml.nvmlDeviceGetTotalEnergyConsumption(h), time.time()
recs = [json.loads(l) for l in open(log)]
s = [r for r in recs if r["type"] == "sample"]
summ = [r for r in recs if r["type"] == "summary"][-1]
# the readings integrated: instant power over each sample's CPU time, steady or not
j = sum(r["power_instant_w"] * r["cpu_ns"] * 1e-9 for r in s if "power_instant_w" in r)
secs = sum(r["cpu_ns"] * 1e-9 for r in s if "power_instant_w" in r)
ja = sum(r["power_w"] * r["cpu_ns"] * 1e-9 for r in s if "power_w" in r)
print("  %4.0f s: flopscope mean %.1f W (%s); instant integrated %.1f W; average integrated %.1f W; NVML counter "
      "over the process's wall time %.1f W (%.2f s, start-up included)" % (d, summ["power_mean_w"], summ.get("energy_source"),
      j / secs, ja / secs, (e1 - e0) * 1e-3 / (t1 - t0), t1 - t0))
PY
done
# 3. the cost of the calls
python3 - <<'PY'
import time
import pynvml
pynvml.nvmlInit()
h = pynvml.nvmlDeviceGetHandleByIndex(0)
def cost(name, f, n):
    f()
    t = time.perf_counter()
    for _ in range(n):
        f()
    print("  %s: %.1f us a call (%d calls, pynvml)" % (name, (time.perf_counter() - t) / n * 1e6, n))
print("3. NVML calls")
cost("field 186, instant power", lambda: pynvml.nvmlDeviceGetFieldValues(h, [186]), 2000)
cost("nvmlDeviceGetPowerUsage", lambda: pynvml.nvmlDeviceGetPowerUsage(h), 2000)
cost("nvmlDeviceGetTotalEnergyConsumption", lambda: pynvml.nvmlDeviceGetTotalEnergyConsumption(h), 500)
PY
echo "files in $out"
