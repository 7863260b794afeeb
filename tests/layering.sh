#!/bin/bash
# The layering rules of the README's layout, checked on every file:
#   - src/core/ is pure: it compiles seeing only src/core/ and with the
#     Vulkan, shaderc, curses, pthread and dlopen headers poisoned;
#   - ui/ never sees a Vulkan or shaderc header, even through another header;
#   - nothing below app/ includes a ui/ header; ui/ includes only core
#     headers, its own, the sample source's and the theme files' helpers;
#   - the layers hold by symbols: core < session < gpu < workloads < engine
#     < ui < app, and every symbol an object of the build ($B) takes from the
#     project is defined in its own layer or below (shown failing on a planted
#     upward call first).
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

includes() { sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1"; }
bad=""
for f in src/*/*.c src/*/*.h; do
	case $f in src/app/*) continue ;; esac
	while read -r inc; do
		[ -e "ui/$inc" ] && [ ! -e "$(dirname "$f")/$inc" ] && bad+="$f includes ui/$inc"$'\n'
	done < <(includes "$f")
	grep -q '#[[:space:]]*include[[:space:]]*"\.\./' "$f" && bad+="$f includes a path outside its folder"$'\n'
done
if [ -z "$bad" ]; then echo "PASS: layering: nothing below app/ includes a ui/ header"; else echo "FAIL: layering: a layer below app/ includes ui/"; printf '%s' "$bad"; fi

# Screens read plain structs: core headers, ui/'s own, the sample source's
# (source.h, which includes core headers alone), the clock and, for the theme
# files, paths.h and fileio.h.
bad=""
for f in ui/*.c ui/*.h; do
	while read -r inc; do
		[ -e "ui/$inc" ] || [ -e "src/core/$inc" ] && continue
		case $inc in source.h | clock.h | paths.h | fileio.h) continue ;; esac
		bad+="$f includes $inc"$'\n'
	done < <(includes "$f")
done
# the sample source is a leaf: core headers only (the screens get no
# engine, log or option header through it)
while read -r inc; do
	[ -e "src/core/$inc" ] || bad+="src/engine/source.h includes $inc"$'\n'
done < <(includes src/engine/source.h)
if [ -z "$bad" ]; then echo "PASS: layering: screens include only core, ui, the sample source (a leaf: core headers only), the clock and the theme files' helpers"
else echo "FAIL: layering: a screen includes what it should not"; printf '%s' "$bad"; fi

# upward OBJECT...: each reference from an object to a project symbol
# defined in a higher layer, as "object -> symbol (defining object)" (one nm
# for all the objects: one each took 8 s of this test's 35)
upward() {
	{ nm -A --defined-only -g "$@" | sed 's/^/D /'; nm -A -u "$@" | sed 's/^/U /'; } |
	awk 'function layer(o) {
	         if (o ~ /\/src\/core\//) return 0; if (o ~ /\/src\/session\//) return 1
	         if (o ~ /\/src\/gpu\//) return 2; if (o ~ /\/src\/workloads\//) return 3
	         if (o ~ /\/src\/engine\//) return 4; if (o ~ /\/ui\//) return 5
	         if (o ~ /\/src\/app\//) return 6; return 9 }
	     { i = index($2, ":"); o = substr($2, 1, i - 1); sym = $NF }
	     $1 == "D" && NF == 4 { def[sym] = layer(o); at[sym] = o; next }
	     $1 == "U" { use[++n] = sym " " layer(o) " " o }
	     END { for (i = 1; i <= n; i++) { split(use[i], u, " ");
	           if ((u[1] in def) && def[u[1]] > u[2]) print u[3], "->", u[1], "(" at[u[1]] ")" } }'
}
B=${B:-build}
objs=$(make -s --no-print-directory B="$B" objects 2>/dev/null)
missing=""
for o in $objs; do [ -e "$o" ] || missing+=" $o"; done
if [ -z "$objs" ] || [ -n "$missing" ]; then
	echo "FAIL: layering: the build's objects are missing (make B=$B first):${missing:- make objects printed none}"
else
	# the rule must see a planted upward call: core calling the engine
	mkdir -p "$T/planted/src/core"
	printf 'void engine_destroy(void *);\nvoid planted_upward(void *e);\nvoid planted_upward(void *e) { engine_destroy(e); }\n' \
		>"$T/planted.c"
	"$CC" -c -o "$T/planted/src/core/planted.o" "$T/planted.c"
	# shellcheck disable=SC2086
	planted=$(upward $objs "$T/planted/src/core/planted.o")
	# shellcheck disable=SC2086
	found=$(upward $objs)
	if ! grep -q 'planted.o -> engine_destroy (.*src/engine/engine.o)' <<<"$planted"; then
		echo "FAIL: layering: the symbol rule misses a planted call from core to the engine:"
		echo "$planted"
	elif [ -n "$found" ]; then
		echo "FAIL: layering: upward references between layers (core < session < gpu < workloads < engine < ui < app):"
		echo "$found" | sed 's/^/    /'
	else
		echo "PASS: layering: every project symbol an object takes is defined in its layer or below ($(wc -w <<<"$objs") objects; a planted upward call is caught)"
	fi
fi

# No circle of objects, within a layer too: a file that takes another's
# functions or data (a table of a kind's operations) is never taken from by
# it, through any chain; shown failing on a planted circle of data first.
if [ -n "$objs" ] && [ -z "$missing" ]; then
	mkdir -p "$T/circle"
	printf 'extern int planted_b;\nint planted_a = 1;\nint *planted_pa = &planted_b;\n' >"$T/circle/a.c"
	printf 'extern int planted_a;\nint planted_b = 2;\nint *planted_pb = &planted_a;\n' >"$T/circle/b.c"
	"$CC" -c -o "$T/circle/a.o" "$T/circle/a.c" && "$CC" -c -o "$T/circle/b.o" "$T/circle/b.c"
	# shellcheck disable=SC2086
	planted=$(python3 tests/cycles.py $objs "$T/circle/a.o" "$T/circle/b.o")
	# shellcheck disable=SC2086
	circles=$(python3 tests/cycles.py $objs)
	if ! grep -q 'circle/[ab].o -> (planted_[ab]) .*circle/[ab].o -> (planted_[ab])' <<<"$planted"; then
		echo "FAIL: layering: the circle rule misses a planted circle of data references:"
		echo "$planted"
	elif [ -n "$circles" ]; then
		echo "FAIL: layering: objects that take from each other (a circle):"
		echo "$circles" | sed 's/^/    /'
	else
		echo "PASS: layering: no circle of objects, data references included ($(wc -w <<<"$objs") objects; a planted one is caught)"
	fi
fi

# Only the GPU layer calls Vulkan: a workload records through gpu_* helpers.
calls=$(grep -nE '\bvk[A-Z][A-Za-z0-9]*\(' src/core/*.[ch] src/session/*.[ch] src/workloads/*.[ch] \
	src/engine/*.[ch] src/app/*.[ch] ui/*.[ch] 2>/dev/null)
if [ -z "$calls" ]; then echo "PASS: layering: only src/gpu calls Vulkan"
else echo "FAIL: layering: Vulkan called outside src/gpu:"; echo "$calls"; fi

# The engine is opaque: its fields are in engine_impl.h, which only the
# engine's own three files include.
defs=$(grep -l 'struct Engine[[:space:]]*{' src/*/*.h ui/*.h 2>/dev/null | grep -vx src/engine/engine_impl.h)
users=$(grep -l '#[[:space:]]*include[[:space:]]*"engine_impl.h"' src/*/*.[ch] ui/*.[ch] tests/unit/*.c 2>/dev/null |
	grep -vxE 'src/engine/engine(_build|_log)?\.c')
if [ -n "$defs" ]; then
	echo "FAIL: layering: a header defines struct Engine's fields: $defs"
elif [ -n "$users" ]; then
	echo "FAIL: layering: the engine's private header is included outside the engine's files: $users"
else
	echo "PASS: layering: the engine's fields are private to engine.c, engine_build.c and engine_log.c"
fi

# Workloads are rows of a table: the engine and the GPU layer name none.
named=$(grep -nE '\bWORKLOAD_[A-Z0-9_]+' src/engine/*.[ch] src/gpu/*.[ch] |
	grep -vE '\bWORKLOAD_(TYPE_COUNT|SLOTS|CHECKS)\b')
if [ -z "$named" ]; then echo "PASS: layering: no workload is named in src/engine or src/gpu"
else echo "FAIL: layering: a workload named in src/engine or src/gpu (a table's column should say it):"; echo "$named"; fi

# Telemetry: the dispatcher walks the registry and names no vendor; a
# source sees the leaf interface (tel_source.h), never the dispatcher's.
vend=$(grep -nE '0x(10de|1002|8086)|vendor_id *[=!]=|DEV_CPU' src/engine/telemetry.c)
circ=$(grep -lE '#[[:space:]]*include[[:space:]]*"telemetry.h"' src/engine/tel_nvml.c src/engine/tel_cpu.c \
	src/engine/tel_gpu_sysfs.c src/engine/tel_impl.h src/engine/tel_source.h src/engine/tel_registry.c 2>/dev/null)
if [ -z "$vend$circ" ]; then echo "PASS: layering: telemetry's dispatcher names no vendor and no source includes it"
else echo "FAIL: layering: telemetry's registry bypassed:"; echo "$vend"; echo "$circ"; fi

# No function over 80 lines in src/ or ui/: a function opens with "{" at the
# start of a line after its signature and closes with "}" there (the style
# every file keeps); the rule is first shown catching a planted 81-line one.
long_functions() {
	awk '/^[A-Za-z].*\(/ && !/;[[:space:]]*$/ { sig = $0; at = FNR }
	     /^\{/ { if (sig != "") { start = FNR; name = sig } }
	     /^\}/ { if (start) { n = FNR - start - 1; if (n > 80) printf "%s:%d: %d lines: %s\n", FILENAME, at, n, name
	                          start = 0; sig = "" } }' "$@"
}
{ printf 'static int planted(void)\n{\n'; for i in $(seq 81); do printf '\tx();\n'; done; printf '}\n'; } >"$T/long.c"
if ! long_functions "$T/long.c" | grep -q 'long.c:1: 81 lines'; then
	echo "FAIL: layering: the function-length rule misses a planted 81-line function"
elif long=$(long_functions src/*/*.c ui/*.c) && [ -n "$long" ]; then
	echo "FAIL: layering: functions over 80 lines:"
	echo "$long" | sed 's/^/    /'
else
	echo "PASS: layering: no function over 80 lines in src/ or ui/ ($(cat src/*/*.c ui/*.c | grep -c '^{') functions; a planted 81-line one is caught)"
fi
