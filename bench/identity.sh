#!/bin/bash
# On an NVIDIA machine: flopscope's names for the GPUs against nvidia-smi's.
# The metrics of a live run are read mid-run and joined with nvidia-smi's
# index, UUID and PCI address; --gpus and SLURM_JOB_GPUS select by NVML index.
#   bench/identity.sh [SECONDS]
set -uo pipefail
cd "$(dirname "$0")/.."
FS=${FS:-build/flopscope}
secs=${1:-6}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nvidia-smi --query-gpu=index,uuid,pci.bus_id,name --format=csv,noheader | tee "$tmp/smi.csv"
"$FS" --list --format json | tee "$tmp/list.json"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$FS" --gpus 0 --workload fp32 --duration "$secs" --no-log --metrics-listen "127.0.0.1:$port" --format json \
	>"$tmp/run.json" 2>"$tmp/run.err" &
pid=$!
sleep $((secs / 2))
python3 -c "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())" "http://127.0.0.1:$port/metrics" >"$tmp/m.prom"
wait $pid
echo "run: exit $?"
grep -E '^flopscope_(device_info|throughput_median_flops|clock_hertz)' "$tmp/m.prom"
SLURM_JOB_GPUS=0 "$FS" --check --workload fp32 --budget 10s --no-log --format json 2>"$tmp/job.err"
echo "check: exit $?"; cat "$tmp/job.err"
python3 - "$tmp/smi.csv" "$tmp/list.json" "$tmp/m.prom" <<'PY'
import json, re, sys
smi = {}
for line in open(sys.argv[1]):
    idx, uuid, pci, name = [f.strip() for f in line.split(",", 3)]
    smi[uuid] = (idx, pci, name)
ok = True
for l in open(sys.argv[2]):
    d = json.loads(l)
    idx, pci, name = smi["GPU-" + d["uuid"]]
    same = str(d["gpu"]) == idx and d["pci_bus_id"] == pci
    ok &= same
    print("%s: --list entry %d gpu %s %s; nvidia-smi index %s %s" % ("PASS" if same else "FAIL", d["entry"], d["gpu"], d["pci_bus_id"], idx, pci))
for m in re.finditer(r'^flopscope_throughput_median_flops\{([^}]*)\} (\S+)$', open(sys.argv[3]).read(), re.M):
    labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
    idx, pci, name = smi[labels["UUID"]]
    same = labels.get("gpu") == idx and labels.get("pci_bus_id") == pci
    ok &= same
    print("%s: metrics gpu=%s UUID=%s pci_bus_id=%s median %.4g FLOPS; nvidia-smi index %s %s" % (
        "PASS" if same else "FAIL", labels.get("gpu"), labels["UUID"], labels.get("pci_bus_id"), float(m.group(2)), idx, pci))
sys.exit(0 if ok else 1)
PY
