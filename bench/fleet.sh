#!/bin/bash
# --fleet at scale: a real Prometheus on loopback holding a fleet's series
# (backfilled with promtool tsdb create-blocks-from openmetrics: HOSTS hosts
# of GPUS GPUs each, five workloads, the readings, the check's verdicts; one
# GPU 30% slow), then `flopscope --fleet` timed, each read whole: its wall
# time (median of RUNS), its peak memory (GNU time's maximum resident set),
# and what it found. Needs prometheus and promtool on PATH (make test
# unpacks them into build/test-root/usr/bin).
#   bench/fleet.sh [HOSTS] [GPUS] [RUNS]
set -uo pipefail
cd "$(dirname "$0")/.."
FS=${FS:-build/flopscope}
hosts=${1:-125} gpus=${2:-8} runs=${3:-5}
export PATH="$PWD/build/test-root/usr/bin:$PATH"
command -v prometheus >/dev/null && command -v promtool >/dev/null || { echo "no prometheus/promtool" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'kill $pr 2>/dev/null; wait $pr 2>/dev/null; rm -rf "$tmp"' EXIT
pr=
python3 - "$hosts" "$gpus" >"$tmp/fleet.om" <<'PY'
import random, sys, time
hosts, gpus = int(sys.argv[1]), int(sys.argv[2])
random.seed(1)
now = int(time.time())
wls = {"fp32": 66.5e12, "fp16-matrix": 590e12, "copy": 4.1e12, "h2d": 50.7e12, "d2h": 52e12}
fams = {}
def put(fam, labels, v):
    fams.setdefault(fam, []).append((labels, v))
for h in range(hosts):
    inst = "node%03d:19400" % h
    for g in range(gpus):
        uuid = "GPU-%08x-0000-0000-0000-%012x" % (h, g)
        base = 'instance="%s",gpu="%d",UUID="%s"' % (inst, g, uuid)
        put("flopscope_device_info", base + ',name="NVIDIA H200",driver="NVIDIA 580.159.04",entry="%d"' % (g + 1), 1)
        for w, peak in wls.items():
            slow = 0.7 if (h, g) == (hosts // 2, 3) else 1.0
            put("flopscope_throughput_median_%s" % ("bytes_per_second" if w in ("copy", "h2d", "d2h") else "flops"),
                base + ',workload="%s"' % w, peak * slow * random.uniform(0.99, 1.01))
            put("flopscope_noise_ratio", base + ',workload="%s"' % w, random.uniform(0.005, 0.02))
            put("flopscope_check_status", base + ',workload="%s",status="%s"' % (w, "pass" if slow == 1 else "outlier"), 1)
        put("flopscope_power_watts", base, random.uniform(600, 700))
        put("flopscope_clock_hertz", base, 1.98e9)
        put("flopscope_temperature_celsius", base, random.uniform(40, 70))
# three samples a series, the last a minute ago: inside the 5 min lookback
for fam, rows in fams.items():
    print("# TYPE %s gauge" % fam)
    for labels, v in rows:
        for ago in (180, 120, 60):
            print("%s{%s} %r %d" % (fam, labels, v, now - ago))
print("# EOF")
PY
series=$(grep -vc '^#' "$tmp/fleet.om")
promtool tsdb create-blocks-from openmetrics "$tmp/fleet.om" "$tmp/tsdb" >"$tmp/bf.log" 2>&1 ||
	{ tail -5 "$tmp/bf.log"; exit 1; }
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'global:\n  scrape_interval: 1m\n' >"$tmp/prom.yml"
prometheus --config.file="$tmp/prom.yml" --storage.tsdb.path="$tmp/tsdb" --web.listen-address="127.0.0.1:$port" \
	>"$tmp/prom.log" 2>&1 &
pr=$!
for _ in $(seq 300); do
	python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=2)" \
		"http://127.0.0.1:$port/-/ready" 2>/dev/null && break
	sleep 0.2
done
echo "fleet: $hosts hosts x $gpus GPUs, $((series / 3)) series ($series samples) backfilled; $(prometheus --version 2>&1 | head -1)"
url="http://127.0.0.1:$port"
# each run timed by python's clock and rusage (no GNU time needed): wall,
# its own CPU, its peak resident set
for i in $(seq "$runs"); do
	python3 - "$tmp/t.$i" "$tmp/f.$i.json" "$FS" --fleet "$url" --format json <<'PY'
import resource, subprocess, sys, time
t0 = time.monotonic()
with open(sys.argv[2], "w") as out:
    rc = subprocess.run(sys.argv[3:], stdout=out, stderr=subprocess.DEVNULL).returncode
wall = time.monotonic() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%.3f %d %.3f %.3f %d\n" % (wall, ru.ru_maxrss, ru.ru_utime, ru.ru_stime, rc))
PY
	read -r w rss u sy rc <"$tmp/t.$i"
	echo "run $i: exit $rc wall $w s, max RSS $rss KiB, CPU $u s user $sy s system"
done
python3 - "$tmp" "$runs" <<'PY'
import json, statistics, sys
d, runs = sys.argv[1], int(sys.argv[2])
t = [list(map(float, open("%s/t.%d" % (d, i)).read().split())) for i in range(1, runs + 1)]
print("median wall %.3f s (min %.3f, max %.3f); flopscope's own CPU median %.3f s; max RSS median %.1f MiB" % (
    statistics.median(x[0] for x in t), min(x[0] for x in t), max(x[0] for x in t),
    statistics.median(x[2] + x[3] for x in t), statistics.median(x[1] for x in t) / 1024))
print("load average now: %s" % open("/proc/loadavg").read().split()[0])
recs = [json.loads(l) for l in open("%s/f.1.json" % d)]
end = recs[-1]
out = [r for r in recs if r["type"] == "fleet_gpu" and r["outlier"]]
print("read: %d hosts, %d GPUs, %d rows, %d outlier rows: %s" % (end["hosts"], end["gpus"], len(recs) - 1, len(out),
      sorted({(r["host"], r["gpu"]) for r in out})))
PY
