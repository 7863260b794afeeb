#!/bin/bash
# The planted-leak proof (make check-asan): flopscope-planted is flopscope
# that loses a 128-byte block of its own right after the device list is made
# and never releases a shaderc result (planted_leak.c). Under the very
# suppressions and keep_loaded.c the suite runs with, LeakSanitizer must
# report both, naming our frames, and the same run of the unplanted binary
# must report nothing.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build-asan}
supp=$PWD/tests/sanitizers/lsan.supp
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1:exitcode=23
export LSAN_OPTIONS=suppressions=$supp:print_suppressions=1
ok=1
check() { # check NAME CONDITION-MESSAGE: prints PASS/FAIL
	if [ "$ok" = 1 ]; then echo "PASS: $1"; else echo "FAIL: $1: $2"; fi
	ok=1
}

[ -x "$B/flopscope-planted" ] || { echo "FAIL: planted leak: $B/flopscope-planted not built"; exit 1; }

# a fresh shader cache, so that shaderc compiles (and its result leaks)
export XDG_CACHE_HOME=$T/cache
timeout 120 "$B/flopscope-planted" llvm --duration 0.1 --no-log >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" = 23 ] || ok=0
grep -q 'ERROR: LeakSanitizer: detected memory leaks' "$T/err" || ok=0
grep -q 'Direct leak of 128 byte(s) in 1 object(s)' "$T/err" || ok=0
grep -Eq 'in __wrap_vkctx_create .*planted_leak\.c' "$T/err" || ok=0
grep -Eq 'in main .*src/app/main\.c' "$T/err" || ok=0
check "planted leak: LeakSanitizer reports flopscope's own 128-byte realloc under the suite's suppressions" \
	"exit $rc; stderr:"$'\n'"$(tail -30 "$T/err")"
grep -Eq 'in shader_compile[a-z_]* .*src/gpu/shader\.c' "$T/err" || ok=0
grep -q 'in operator new' "$T/err" || ok=0
check "planted leak: an unreleased shaderc result (operator new in the static shaderc) is reported" \
	"exit $rc; stderr:"$'\n'"$(tail -30 "$T/err")"

timeout 120 "$B/flopscope" llvm --duration 0.1 --no-log >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" = 0 ] || ok=0
grep -q 'LeakSanitizer' "$T/err" && ok=0
check "planted leak: the same run without the plant is clean" "exit $rc; stderr:"$'\n'"$(tail -30 "$T/err")"

# Nothing in the suppressions may match a frame without a library name.
if grep -Ev '^\s*(#|$)' "$supp" | grep -Eiq 'unknown|^leak:\s*\*?\s*$|^leak:0x'; then ok=0; fi
check "planted leak: no suppression matches an unnamed module" "$(grep -Ev '^\s*(#|$)' "$supp")"
