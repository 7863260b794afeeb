#!/bin/bash
# Runs each libFuzzer harness for a bounded time (FUZZ_SECONDS, default 20)
# from its seed corpus; a crash, leak or sanitizer report fails it and leaves
# the input in build-fuzz/crashes/ (to be added as a regression test).
set -u
cd "$(dirname "$0")/../.."
secs=${FUZZ_SECONDS:-20}
pass=0
fail=0
mkdir -p build-fuzz/crashes
# the rewrite's seed: the real stand-in module, compiled as the engine does
mkdir -p build-fuzz/corpus-spirv
build/tests/shader_check shaders/coopmat.comp build-fuzz/corpus-spirv/bf16.spv TYPE_STANDIN_MATRIX=1 M_SIZE=16 \
	N_SIZE=16 K_SIZE=16 VEC4S=1 UNROLL=4 FLOPSCOPE_NO_SPIRV_OPT=1 || { echo "FAIL: fuzz_spirv: no seed"; exit 1; }
for h in ${FUZZERS:?the harnesses, as the Makefile names them}; do
	work=$(mktemp -d)
	corpus=tests/fuzz/corpus/$h
	[ "$h" = spirv ] && corpus=build-fuzz/corpus-spirv
	if build-fuzz/fuzz_$h "$work" "$corpus" -max_total_time="$secs" -rss_limit_mb=2048 \
	    -artifact_prefix=build-fuzz/crashes/$h- >build-fuzz/fuzz_$h.log 2>&1; then
		runs=$(grep -o 'Done [0-9]* runs' build-fuzz/fuzz_$h.log | tail -1)
		echo "PASS: fuzz_$h ($runs in ${secs}s)"
		pass=$((pass + 1))
	else
		echo "FAIL: fuzz_$h: $(grep -m1 -E 'ERROR|SUMMARY' build-fuzz/fuzz_$h.log)"
		fail=$((fail + 1))
	fi
	rm -rf "$work"
done
echo
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
