#!/usr/bin/env python3
"""Each burn_window of a --burn --format json run beside nvidia-smi's
readings of the same GPU (NVML's index: the record's gpu) over the window's span (t_start_s to t_end_s
of the burn, which began burn_end's seconds before its utc): power (instant and the driver's average,
medians), the hottest temperature, the SM clock's median, the share under the power cap; with
workloads taking turns, each window's own.
bench/burn_vs_smi.py BURN.json DMON.csv (bench/burn.sh writes both)."""
import datetime
import json
import statistics
import sys


def utc(s, fmt):
    return datetime.datetime.strptime(s, fmt).replace(tzinfo=datetime.timezone.utc).timestamp()


rows = []
for line in open(sys.argv[2]):
    p = [x.strip() for x in line.split(",")]
    try:
        rows.append((utc(p[0], "%Y/%m/%d %H:%M:%S.%f"), float(p[2].split()[0]), float(p[3].split()[0]),
                     float(p[4]), float(p[5].split()[0]), int(p[6], 16), int(p[1])))
    except (ValueError, IndexError):
        continue
print("| gpu | window | workload | status | flopscope: median | power W | hottest C | clock MHz | at the cap "
      "| nvidia-smi: power instant / average W | hottest C | clock MHz | at the cap |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
recs = [json.loads(x) for x in open(sys.argv[1])]
end = [r for r in recs if r["type"] == "burn_end"][-1]
t0 = utc(end["utc"], "%Y-%m-%dT%H:%M:%S.%fZ") - end["seconds"]
for w in recs:
    if w["type"] != "burn_window":
        continue
    sel = [r for r in rows if t0 + w["t_start_s"] <= r[0] < t0 + w["t_end_s"] and r[6] == w["gpu"]]
    if not sel:
        continue
    print("| %s | %d | %s | %s | %.4g T%s | %.1f | %.0f | %.0f | %.2f | %.1f / %.1f | %.0f | %.0f | %.2f |" % (
        w["gpu"], w["window"], w["workload"], w["status"], w.get("median", float("nan")) / 1e12, w["unit"],
        w.get("power_w", float("nan")),
        w.get("temp_max_c", float("nan")), w.get("sm_mhz", float("nan")), w.get("held_power_cap", float("nan")),
        statistics.median(r[1] for r in sel), statistics.median(r[2] for r in sel), max(r[3] for r in sel),
        statistics.median(r[4] for r in sel), sum(1 for r in sel if r[5] & 4) / len(sel)))
    causes = [c["code"] for c in w.get("causes", []) if c["code"] not in ("POWER_CAP",)]
    if causes:
        print("|  |  | %s: %s |" % (" ".join(causes), w["why"][:160].replace("|", "/")))
