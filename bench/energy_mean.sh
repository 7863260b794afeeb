#!/bin/bash
# The run's mean power against NVML's own figures, on one NVIDIA GPU:
# `flopscope --workload power` for SECONDS beside pynvml reading the instant
# field (NVML_FI_DEV_POWER_INSTANT), the one-second average and the total
# energy counter every 20 ms. Prints flopscope's summary (power_mean_w,
# energy_s, energy_source) and, over the window where the instant power
# read above 400 W (the loaded one), the counter's difference over its time
# and the instant readings' mean.
#   bench/energy_mean.sh [SECONDS]        FS=build/flopscope DEV=-1 OUT=dir
set -eu
S=${1:-8}
FS=${FS:-build/flopscope}
DEV=${DEV:--1}
O=${OUT:-$(mktemp -d)}
mkdir -p "$O"
python3 - "$O/nvml.csv" "$((S + 6))" <<'PY' &
import pynvml, sys, time
pynvml.nvmlInit(); h = pynvml.nvmlDeviceGetHandleByIndex(0)
f = open(sys.argv[1], "w"); f.write("t,instant_w,avg_w,energy_mj\n")
end = time.time() + float(sys.argv[2])
while time.time() < end:
    v = pynvml.nvmlDeviceGetFieldValues(h, [pynvml.NVML_FI_DEV_POWER_INSTANT])[0]
    f.write("%.4f,%.1f,%.1f,%d\n" % (time.time(), v.value.uiVal / 1000.0, pynvml.nvmlDeviceGetPowerUsage(h) / 1000.0,
                                     pynvml.nvmlDeviceGetTotalEnergyConsumption(h)))
    time.sleep(0.02)
PY
P=$!
sleep 2
t0=$(date +%s.%N)
"$FS" nvidia "$DEV" --workload power --duration "$S" --format json --no-log >"$O/power.json" 2>"$O/power.err"
t1=$(date +%s.%N)
wait $P
python3 - "$O/power.json" "$O/nvml.csv" "$t0" "$t1" <<'PY'
import csv, json, statistics, sys
s = [json.loads(l) for l in open(sys.argv[1])][-1]
print("flopscope: %.1f W over %.2f s (energy_source %s)" % (s["power_mean_w"], s["energy_s"], s["energy_source"]))
t0, t1 = float(sys.argv[3]), float(sys.argv[4])
w = [r for r in csv.DictReader(open(sys.argv[2])) if t0 <= float(r["t"]) <= t1 and float(r["instant_w"]) > 400]
span = float(w[-1]["t"]) - float(w[0]["t"])
ctr = (int(w[-1]["energy_mj"]) - int(w[0]["energy_mj"])) / 1000 / span
inst = statistics.mean(float(r["instant_w"]) for r in w)
print("NVML over the loaded %.2f s: counter %.1f W, instant mean %.1f W; flopscope / counter %.4f" %
      (span, ctr, inst, s["power_mean_w"] / ctr))
PY
