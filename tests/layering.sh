#!/bin/bash
# The layering rules of the README's layout, checked on every file:
#   - src/core/ is pure: it compiles seeing only src/core/ and with the
#     Vulkan, shaderc, curses, pthread and dlopen headers poisoned;
#   - ui/ never sees a Vulkan or shaderc header, even through another header;
#   - nothing in src/ includes a ui/ header.
# Each rule prints PASS/FAIL with the offending file and include chain.
set -u
cd "$(dirname "$0")/.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
CC=${CC:-cc}
CJSON=$(pkg-config --cflags libcjson 2>/dev/null)
poison() { # poison DIR HEADER...: headers that stop the compiler with a reason
	local dir=$1; shift
	for h in "$@"; do
		mkdir -p "$dir/$(dirname "$h")"
		printf '#error "layering: <%s> is not allowed here (tests/layering.sh)"\n' "$h" >"$dir/$h"
	done
}
poison "$T/core" vulkan/vulkan.h shaderc/shaderc.h curses.h ncurses.h ncursesw/curses.h pthread.h dlfcn.h
poison "$T/ui" vulkan/vulkan.h shaderc/shaderc.h

# check NAME POISON INCLUDES FILES...: every file preprocesses cleanly
check() {
	local name=$1 pdir=$2 inc=$3; shift 3
	local bad=""
	for f in "$@"; do
		# shellcheck disable=SC2086
		if ! "$CC" -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -E -H \
			-I"$pdir" $inc $CJSON "$f" -o /dev/null 2>"$T/err"; then
			bad+="$f: $(grep -m1 -E 'error' "$T/err")"$'\n'
			# the include chain down to the poisoned header
			bad+="$(grep -E '^\.+ ' "$T/err" | grep -v ' /usr/' | awk -v p="$pdir" '{ print } index($0, p) { exit }' |
				tail -4 | sed 's/^/    /')"$'\n'
		fi
	done
	if [ -z "$bad" ]; then
		echo "PASS: $name"
	else
		echo "FAIL: $name"
		printf '%s' "$bad"
	fi
}

check "layering: src/core is pure (no Vulkan, shaderc, curses, threads, dlopen; core headers only)" \
	"$T/core" "-Isrc/core" src/core/*.c src/core/*.h
UI_INC="-Isrc/core -Isrc/session -Isrc/engine -Isrc/app -Isrc/gpu -Iui"
check "layering: ui/ sees no Vulkan or shaderc header" "$T/ui" "$UI_INC" ui/*.c ui/*.h

bad=""
for f in src/*/*.c src/*/*.h; do
	while read -r inc; do
		[ -e "ui/$inc" ] && [ ! -e "$(dirname "$f")/$inc" ] && bad+="$f includes ui/$inc"$'\n'
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
	grep -q '#[[:space:]]*include[[:space:]]*"\.\./' "$f" && bad+="$f includes a path outside its folder"$'\n'
done
if [ -z "$bad" ]; then echo "PASS: layering: nothing in src/ includes a ui/ header"; else echo "FAIL: layering: src/ includes ui/"; printf '%s' "$bad"; fi

# Only the GPU layer calls Vulkan: a workload records through gpu_* helpers.
calls=$(grep -nE '\bvk[A-Z][A-Za-z0-9]*\(' src/core/*.[ch] src/session/*.[ch] src/workloads/*.[ch] \
	src/engine/*.[ch] src/app/*.[ch] ui/*.[ch] 2>/dev/null)
if [ -z "$calls" ]; then echo "PASS: layering: only src/gpu calls Vulkan"
else echo "FAIL: layering: Vulkan called outside src/gpu:"; echo "$calls"; fi

# The engine is opaque: its fields are in engine.c alone.
if grep -l 'struct Engine[[:space:]]*{' src/*/*.h ui/*.h >/dev/null 2>&1; then
	echo "FAIL: layering: a header defines struct Engine's fields: $(grep -l 'struct Engine[[:space:]]*{' src/*/*.h ui/*.h)"
else
	echo "PASS: layering: the engine's fields are private to engine.c"
fi
