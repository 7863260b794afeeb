#!/bin/bash
# A start with empty caches against the bare Vulkan floor (bench/bare_start.c:
# instance, device, the same shader through shaderc, pipeline, one checked
# dispatch, one step after the other), alternated in one run; and warm starts.
# Empty caches each round: flopscope's ($XDG_CACHE_HOME), Mesa's and NVIDIA's
# shader caches point into a fresh folder.
#   bench/startup_vs_bare.sh [DEVICE] [ROUNDS]
# FS: flopscope (default build/flopscope); FS_OLD: another build to run
# alongside (before/after); BARE: the bare program (default build/bare_start);
# SHAPE: "VEC4S UNROLL ITERS LOCAL_SIZE" of the fp32 workload on that device
# (flopscope's: 3 128 32 256 on a GPU, 3 32 32 256 on a CPU device).
set -euo pipefail
cd "$(dirname "$0")/.."
FS=${FS:-build/flopscope}
BARE=${BARE:-build/bare_start}
dev=${1:-llvm}
rounds=${2:-5}
shape=${SHAPE:-3 128 32 256}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cold() { # the environment of a start with every cache empty
	rm -rf "$tmp/c"
	mkdir -p "$tmp/c/nv"
	env XDG_CACHE_HOME="$tmp/c" MESA_SHADER_CACHE_DIR="$tmp/c/mesa" __GL_SHADER_DISK_CACHE_PATH="$tmp/c/nv" "$@"
}
first() { sed -n 's/.*first sample \([0-9.]*\) ms after launch.*/\1/p'; }
med() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# shellcheck disable=SC2086 # shape is four numbers
for r in $(seq "$rounds"); do
	b=$(cold "$BARE" shaders/fma_fp32.comp $shape | sed -n 's/.*first dispatch done \([0-9.]*\) ms after launch.*/\1/p')
	c=$(cold "$FS" $dev --workload fp32 --duration 0.1 --no-log 2>&1 | first)
	w=$(XDG_CACHE_HOME="$tmp/c" MESA_SHADER_CACHE_DIR="$tmp/c/mesa" __GL_SHADER_DISK_CACHE_PATH="$tmp/c/nv" \
		"$FS" $dev --workload fp32 --duration 0.1 --no-log 2>&1 | first)
	line="round $r  bare $b ms  cold $c ms  warm $w ms"
	echo "$b" >>"$tmp/bare"
	echo "$c" >>"$tmp/cold"
	echo "$w" >>"$tmp/warm"
	if [ -n "${FS_OLD:-}" ]; then
		oc=$(cold "$FS_OLD" $dev --workload fp32 --duration 0.1 --no-log 2>&1 | first)
		ow=$(XDG_CACHE_HOME="$tmp/c" MESA_SHADER_CACHE_DIR="$tmp/c/mesa" __GL_SHADER_DISK_CACHE_PATH="$tmp/c/nv" \
			"$FS_OLD" $dev --workload fp32 --duration 0.1 --no-log 2>&1 | first)
		echo "$oc" >>"$tmp/oldcold"
		echo "$ow" >>"$tmp/oldwarm"
		line="$line  old cold $oc ms  old warm $ow ms"
	fi
	echo "$line"
done
b=$(med <"$tmp/bare")
c=$(med <"$tmp/cold")
w=$(med <"$tmp/warm")
printf '\nmedians: bare %.1f ms, cold %.1f ms (cold/bare %.3f), warm %.1f ms\n' "$b" "$c" \
	"$(awk -v a="$c" -v b="$b" 'BEGIN { print a / b }')" "$w"
if [ -n "${FS_OLD:-}" ]; then
	oc=$(med <"$tmp/oldcold")
	ow=$(med <"$tmp/oldwarm")
	printf 'old: cold %.1f ms (cold/bare %.3f), warm %.1f ms; new/old cold %.3f, warm %.3f\n' "$oc" \
		"$(awk -v a="$oc" -v b="$b" 'BEGIN { print a / b }')" "$ow" \
		"$(awk -v a="$c" -v b="$oc" 'BEGIN { print a / b }')" "$(awk -v a="$w" -v b="$ow" 'BEGIN { print a / b }')"
fi
