#!/usr/bin/env python3
"""A session log made from a formula, the same on every machine: what the
dashboard and node goldens replay (tests/integration/dashboard.sh). Not a
measurement: a fixed input, as tig keeps its test repositories.

  tests/data/mklog.py KIND OUT.jsonl
KIND: fp32 (12 s at 1.00 TFLOPS, a power-capped clock drop 1980 -> 1410 MHz
at 5 s, the driver counting 90% of each second after it, one departure at 9 s),
capped (the same held at 1410 MHz by the power cap from the first sample),
int32 (12 s at 400 GIOPS, a flat clock), noisy (fp32's device at a flat
clock, its seconds alternating 1.30 and 0.70 TFLOPS) or noisy-low (the same
device's twin at 0.85 times that: below it by more than 5%, within the noise)."""
import json
import sys

kind, out = sys.argv[1], sys.argv[2]
capped = kind == "capped"  # fp32 held by the power cap from the first sample
noisy = kind in ("noisy", "noisy-low")  # fp32's device, its seconds alternating
low = kind == "noisy-low"
if capped or noisy:
    kind = "fp32"
fp = kind == "fp32"
unit = "FLOPS" if fp else "IOPS"
session = {
    "type": "session", "format": "flopscope-session", "version": 2, "flopscope": "0.1.0", "schema": 2,
    "start_utc": "2026-01-02T03:04:05Z", "host": "golden", "kernel": "Linux 6.1.0 x86_64", "cpu": "golden CPU",
    "device": "Golden GPU %s" % ("A" if fp else "B"), "device_type": "DiscreteGpu", "vendor_id": 4318,
    "device_id": 9000 + (0 if fp else 1), "uuid": "00000000-0000-0000-0000-00000000000%d" % (3 if low else 1 if fp else 2),
    "driver_name": "golden", "driver_info": "1.0", "driver_version": "1.0.0", "api_version": "1.3.0",
    "queue_family": 0, "queue": "compute", "workload": kind, "work_per_invocation": 24576, "local_size": 256,
    "shader_hash": "0000000000000000", "target_ms": 20, "trials": 1, "timing": "gpu",
    "peak": "unknown: a fixed log", "telemetry": "from the log", "unit": unit, "sm_max_mhz": 1980.0,
}
rng = 12345


def noise():
    """-0.5 .. 0.5, a fixed sequence (an LCG)."""
    global rng
    rng = (rng * 1103515245 + 12345) % 2**31
    return rng / 2**31 - 0.5


lines = [session]
work1 = 6291456  # one workgroup's FLOP (or op)
level = 1.0e12 if fp else 4.0e11
t, seq, verified = 0.0, 0, 0
groups = 1
while t < 12000:
    throttled = fp and not noisy and (t >= 5000 or capped)
    mhz = 1410.0 if throttled else 1980.0
    rate = level * (mhz / 1980.0) * (1 + 0.01 * noise())
    if noisy:
        rate *= (0.7 if int(t / 1000) % 2 else 1.3) * (0.85 if low else 1.0)
    elif fp and 9000 <= t < 9020:
        rate *= 0.5  # one departure, back at once
    steady = seq >= 3
    if steady:
        groups = max(1, round(0.020 * level * (mhz / 1980.0) / work1))
    gpu_s = groups * work1 / rate
    s = {
        "type": "sample", "seq": seq, "t_ms": round(t, 3), "x": groups, "y": 1, "z": 1, "groups": groups,
        "work": groups * work1, "gpu_ns": round(gpu_s * 1e9), "cpu_ns": round(gpu_s * 1e9 + 40000),
        "pipelined": steady, "rate": rate, "gpu_timed": True, "steady": steady, "verified": seq % 20 == 0,
        "sm_mhz": mhz, "power_w": (300.0 if throttled else 350.0) + 2 * noise(), "temp_c": 70.0 if throttled else 60.0,
        "pstate": 0, "throttle": 4 if throttled else 0, "power_limit_w": 350.0, "unit": unit, "work_unit": "FLOP" if fp else "op",
        "groups_unit": "workgroups", "target_ms": 20,
        # the driver's power violation counter: 90% of each throttled second
        "viol_power_s": 100.0 + (0.9 * (t - 5000) / 1000 if throttled else 0.0), "viol_thermal_s": 3.0,
    }
    verified += s["verified"]
    lines.append(s)
    if not steady:
        groups *= 10
    t += gpu_s * 1e3 + 0.05
    seq += 1
lines.append({"type": "summary", "samples": seq, "checks_passed": verified + 1, "unit": unit})
with open(out, "w") as f:
    for r in lines:
        f.write(json.dumps(r, separators=(",", ":")) + "\n")
