#!/bin/bash
# Integration tests on the real Vulkan driver (lavapipe on machines without a
# GPU), by feature in tests/integration/*.sh. Each t_* function is one test;
# it fails by returning non-zero, with a reason on stderr. Prints
# "PASS: name" / "FAIL: name" for tests/run.sh.
#   tests/integration.sh              every test
#   tests/integration.sh NAME...      the tests named (with or without t_)
#   FLOPSCOPE_TEST=PATTERN tests/integration.sh   those whose name holds PATTERN
set -u
cd "$(dirname "$0")/.."
. tests/integration/lib.sh
for f in tests/integration/cli.sh tests/integration/headless.sh tests/integration/logs.sh \
         tests/integration/workloads.sh tests/integration/faults.sh tests/integration/dashboard.sh \
         tests/integration/multi.sh tests/integration/fleet.sh tests/integration/slurm.sh tests/integration/files.sh; do
	. "$f"
done

names=$(declare -F | awk '{ print $3 }' | grep '^t_')
[ $# -gt 0 ] && names=$(printf "t_%s\n" "${@#t_}")
[ -n "${FLOPSCOPE_TEST:-}" ] && names=$(printf '%s\n' $names | grep -F -- "$FLOPSCOPE_TEST")
n=0
for t in $names; do
	n=$((n + 1))
	T="$TOP/$n" # short: paths show on an 80-column screen in some tests
	mkdir -p "$T"
	start=$SECONDS
	# each test within a bound (FLOPSCOPE_TEST_TIMEOUT, 300 s; a sanitizer
	# build 600 s): past it, the stacks of every thread of every process it
	# started are printed (watched), and it fails
	( watched "${FLOPSCOPE_TEST_TIMEOUT:-$(sanitized && echo 600 || echo 300)}" $t )
	rc=$?
	[ $rc = 124 ] && echo "  $t outlived its bound: a hang (the stacks are above)" >&2
	took="($((SECONDS - start)) s)" # which tests CI's time goes to
	case $rc in
	0) echo "PASS: ${t#t_} $took" ;;
	77) echo "SKIP: ${t#t_} $took" ;;
	*) echo "FAIL: ${t#t_} $took" ;;
	esac
	# the test's tmux servers go with it
	for s in "$T"/tmux.*.sock; do
		if [ -e "$s" ]; then
			tmux -S "$s" kill-server 2>/dev/null
			rm -f "$s"
		fi
	done
done
exit 0
