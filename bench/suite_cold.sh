#!/bin/bash
# A suite started with empty caches, with the pipelines built ahead in
# parallel (FS) against a build that makes each workload's pipeline when its
# turn comes (FS_OLD), alternated in one run; and the same suite with warm
# caches (each build again, its caches kept): the floor, and a warm start
# unchanged. Every cache empty each cold
# round: flopscope's ($XDG_CACHE_HOME), Mesa's and NVIDIA's shader caches.
#   bench/suite_cold.sh FS_OLD [DEVICE] [ROUNDS] [SECONDS]
# FS: flopscope (default build/flopscope). Prints each run's wall time and
# how many shader workloads found both caches warm at their start.
set -euo pipefail
cd "$(dirname "$0")/.."
FS=${FS:-build/flopscope}
old=${1:?usage: bench/suite_cold.sh FS_OLD [DEVICE] [ROUNDS] [SECONDS]}
dev=${2:-llvm}
rounds=${3:-3}
secs=${4:-0.5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # run NAME BIN CACHE: one suite, its wall time and its warm starts
	local t0 t1
	mkdir -p "$3/nv"
	t0=$(date +%s.%N)
	env XDG_CACHE_HOME="$3" MESA_SHADER_CACHE_DIR="$3/mesa" __GL_SHADER_DISK_CACHE_PATH="$3/nv" \
		"$2" "$dev" --suite --duration "$secs" --format json --no-log >"$tmp/out.json" 2>"$tmp/err" ||
		{ echo "$1: exit $?: $(tail -3 "$tmp/err")" >&2; exit 1; }
	t1=$(date +%s.%N)
	python3 - "$tmp/out.json" "$1" "$t0" "$t1" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
st = [r["start"] for r in rows if "start" in r]
warm = sum(1 for s in st if s["spirv_cached"] and s["pipeline_cached"])
print("%-10s %7.2f s  %2d of %2d shader workloads started warm" % (sys.argv[2], float(sys.argv[4]) - float(sys.argv[3]),
      warm, len(st)) if st else "%-10s %7.2f s" % (sys.argv[2], float(sys.argv[4]) - float(sys.argv[3])))
PY
}
for r in $(seq "$rounds"); do
	echo "round $r"
	rm -rf "$tmp/a" "$tmp/b"
	run "old cold" "$old" "$tmp/a"
	run "old warm" "$old" "$tmp/a"
	run "new cold" "$FS" "$tmp/b"
	run "new warm" "$FS" "$tmp/b"
done
