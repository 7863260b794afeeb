#!/bin/bash
# Runs every test suite and prints one closing line: "N passed, N failed,
# N skipped".
#   tests/run.sh          unit tests, the ring under TSan, integration tests
#   tests/run.sh tsan     only the ring under ThreadSanitizer
#   tests/run.sh sanitized  unit and integration tests against $B
#   tests/run.sh asan     the same, and the planted-leak proof
# Each suite prints "PASS: name" / "FAIL: name" / "SKIP: name" lines (a
# skip: the test could not tell here, and says why); a suite that exits
# non-zero without a FAIL line counts as one failure.
set -u
cd "$(dirname "$0")/.."
# B: the build folder to test (build, build-asan, build-tsan)
B=${B:-build}
# the test build: the program with its fault hook (FLOPSCOPE_FAULT)
export FS=${FS:-$B/flopscope-test}
pass=0
fail=0
skipped=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

suite() {
	local t0=$SECONDS
	echo "== $*"
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	echo "== $* took $((SECONDS - t0)) s"
	p=$(grep -c '^PASS: ' "$log")
	f=$(grep -c '^FAIL: ' "$log")
	k=$(grep -c '^SKIP: ' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL: $* (exit status $rc)"
		f=1
	fi
	pass=$((pass + p))
	fail=$((fail + f))
	skipped=$((skipped + k))
}

case "${1:-all}" in
tsan)
	suite build/tsan/ring_stress
	;;
sanitized|asan)
	# everything but the separate ring stress binary, against $B
	[ "$1" = asan ] && suite tests/sanitizers/planted_leak.sh
	for t in "$B"/tests/test_*; do
		case "$t" in *.o|*.d) continue ;; esac
		suite "$t"
	done
	suite tests/integration.sh
	;;
all)
	for t in "$B"/tests/test_*; do
		case "$t" in *.o|*.d) continue ;; esac
		suite "$t"
	done
	suite build/tsan/ring_stress
	suite tests/layering.sh
	suite tests/integration.sh
	;;
*)
	echo "usage: tests/run.sh [all|tsan|sanitized|asan]" >&2
	exit 2
	;;
esac

echo
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
