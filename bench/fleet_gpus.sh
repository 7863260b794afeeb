#!/bin/bash
# The fleet path on a real multi-GPU host, end to end: cuBLAS (torch fp16
# 8192^3 matmuls on random data) burns the GPU at CUDA index BUSY for the
# whole script; meanwhile
#  1. flopscope --watch --all --metrics-listen (the load-free exporter),
#  2. flopscope --check --metrics-file into a textfile folder, served by
#     node_exporter's textfile collector,
#  3. a Prometheus on loopback scraping both every second,
#  4. flopscope --fleet URL (JSON, then the table), which must name the busy
#     GPU as the outlier with its causes' codes,
#  5. flopscope --burn BURN --window 20s on every GPU, the busy one beside
#     its idle peers, its verdicts into the textfile (replacing the check's),
#     then --fleet again: the burn's rows (workload power).
# Needs prometheus and prometheus-node-exporter on PATH, nvidia-smi, torch.
#   bench/fleet_gpus.sh [BUSY] [BURN]   FS=build/flopscope OUT=folder
set -uo pipefail
cd "$(dirname "$0")/.."
FS=${FS:-build/flopscope}
busy=${1:-1}
burn=${2:-80s}
out=${OUT:-$(mktemp -d)}
export XDG_STATE_HOME=$out/state
for c in prometheus prometheus-node-exporter nvidia-smi python3; do
	command -v $c >/dev/null || { echo "fleet_gpus.sh: needs $c" >&2; exit 2; }
done
nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,power.limit --format=csv,noheader
nvidia-smi --query-gpu=timestamp,index,power.draw.instant,clocks.sm,clocks_event_reasons.active \
	--format=csv,noheader -lms 500 >"$out/smi.csv" &
pids=$!
trap 'kill $pids 2>/dev/null; wait 2>/dev/null' EXIT
CUDA_VISIBLE_DEVICES=$busy python3 -c '
import torch, time
a = torch.randn(8192, 8192, dtype=torch.float16, device="cuda"); b = torch.randn(8192, 8192, dtype=torch.float16, device="cuda")
t = time.time(); n = 0
while time.time() - t < 1000:
    torch.matmul(a, b); n += 1
    if n % 200 == 0: torch.cuda.synchronize()
' >"$out/torch.txt" 2>&1 &
pids="$pids $!"
sleep 5
"$FS" --list
"$FS" --watch --all --interval 1 --metrics-listen 127.0.0.1:19400 --format csv >"$out/watch.csv" 2>"$out/watch.err" &
pids="$pids $!"
mkdir -p "$out/textfile"
t0=$SECONDS
"$FS" --check --metrics-file "$out/textfile/flopscope.prom" --format json >"$out/check.json" 2>"$out/check.err"
echo "check: exit $? in $((SECONDS - t0)) s"
python3 - "$out/check.json" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("type") == "check":
        print(" ", r["gpu"], r["workload"], r["status"], "%.4g" % (r.get("median") or 0), r.get("unit"),
              [c["code"] for c in r.get("causes", [])])
    elif r.get("type") == "check_end":
        print("  end:", r)
PY
prometheus-node-exporter --web.listen-address=127.0.0.1:19100 --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$out/textfile" >"$out/ne.log" 2>&1 &
pids="$pids $!"
printf 'global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n  - job_name: node\n    static_configs:\n      - targets: [127.0.0.1:19100, 127.0.0.1:19400]\n' >"$out/prom.yml"
prometheus --config.file="$out/prom.yml" --storage.tsdb.path="$out/tsdb" --web.listen-address=127.0.0.1:19090 >"$out/prom.log" 2>&1 &
pids="$pids $!"
for i in $(seq 60); do
	"$FS" --fleet http://127.0.0.1:19090 --format json >"$out/fleet.json" 2>"$out/fleet.err"
	rc=$?
	[ $rc -le 1 ] && grep -q '"power_w":[0-9]' "$out/fleet.json" && break
	sleep 1
done
sleep 3
"$FS" --fleet http://127.0.0.1:19090 --format json >"$out/fleet.json" 2>"$out/fleet.err"
echo "fleet (json): exit $?"
"$FS" --fleet http://127.0.0.1:19090 >"$out/fleet.txt" 2>&1
echo "fleet (table): exit $?"
cat "$out/fleet.txt"
python3 - "$out/fleet.json" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["type"] == "fleet_gpu":
        print(" ", r["host"], r["gpu"], r["workload"], r["verdict"], "ratio %.3f" % (r["fleet_ratio"] or 0),
              "outlier" if r["outlier"] else "-", r["codes"], r.get("power_w"), r.get("clock_mhz"))
    elif r["type"] == "fleet_end":
        print("  end:", r)
PY
t0=$SECONDS
"$FS" --burn "$burn" --window 20s --format json --metrics-file "$out/textfile/flopscope.prom" \
	>"$out/burn.json" 2>"$out/burn.err"
echo "burn: exit $? in $((SECONDS - t0)) s"
python3 - "$out/burn.json" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["type"] == "burn_window":
        print(" ", r["dev"], r["gpu"], "window", r["window"], r["status"], "%.4g" % (r.get("median") or 0),
              r["unit"], "power", r.get("power_w"), "mhz", r.get("sm_mhz"), [c["code"] for c in r.get("causes", [])])
    elif r["type"] == "burn_end":
        print("  end:", r)
PY
grep -h -A3 -i "verdict" "$out"/state/flopscope/burn-*.md | head -20
sleep 4
"$FS" --fleet http://127.0.0.1:19090 --format json >"$out/fleet2.json" 2>"$out/fleet2.err"
echo "fleet after the burn (json): exit $?"
python3 - "$out/fleet2.json" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["type"] == "fleet_gpu" and r["workload"] == "power":
        print(" ", r["host"], r["gpu"], r["workload"], r["verdict"], "%.4g" % (r.get("median") or 0),
              "ratio %.3f" % (r.get("fleet_ratio") or 0), "outlier" if r["outlier"] else "-", r["codes"])
    elif r["type"] == "fleet_end":
        print("  end:", r)
PY
