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
for h in theme log csv; do
	work=$(mktemp -d)
	if build-fuzz/fuzz_$h "$work" tests/fuzz/corpus/$h -max_total_time="$secs" -rss_limit_mb=2048 \
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
