#!/bin/bash
# Integration tests on the real Vulkan driver (lavapipe on machines without a
# GPU), by feature in tests/integration/*.sh. Each t_* function is one test;
# it fails by returning non-zero, with a reason on stderr. Prints
# "PASS: name (S s, C s CPU, was P s)" / "FAIL: ..." / "SKIP: ..." for tests/run.sh,
# each test's own output (what failed and why) just before its line.
#   tests/integration.sh              every test
#   tests/integration.sh NAME...      the tests named (with or without t_)
#   FLOPSCOPE_TEST=PATTERN tests/integration.sh   those whose name holds PATTERN
#   FLOPSCOPE_TEST_LANES=N            tests run N at a time (3; 1 under a
#                                     sanitizer build, which CI runs two of
#                                     side by side); the ALONE ones after,
#                                     one by one
# Lavapipe computes on one thread in the lanes (LP_NUM_THREADS=1 unless
# set; a sanitizer build keeps its default): the tests' runs last their
# --duration or --budget whatever their throughput, so three lanes of one
# thread each share two cores where two lanes of two threads each waited
# (make test's integration 451 s in two lanes with one thread, 353 s in
# three, on the 2-core machine).
#   FLOPSCOPE_TEST_TIMEOUT=S          each test's bound (300 s; sanitized 600)
# Tests share nothing: each has a folder of its own (T) with its own session
# logs, config and device locks; the longest (by the last run's times, kept
# beside the binary in test-times) start first, so that the lanes end together.
set -u
cd "$(dirname "$0")/.."
. tests/integration/lib.sh
for f in tests/integration/cli.sh tests/integration/headless.sh tests/integration/logs.sh \
         tests/integration/workloads.sh tests/integration/faults.sh tests/integration/dashboard.sh \
         tests/integration/multi.sh tests/integration/fleet.sh tests/integration/slurm.sh tests/integration/files.sh; do
	. "$f"
done

# the tests that measure the machine's quiet, or that need two lavapipes
# within a few % of each other (beside three lanes they said SKIP: "the
# machine too busy"): they run when nothing else does
ALONE="t_a_busy_loop_should_be_a_change_that_is_not_a_power_state \
t_quitting_the_node_view_should_be_a_verdict_only_when_asked \
t_the_node_view_should_name_a_device_far_below_its_peers_now \
t_the_outlier_rule_should_name_the_device_and_set_the_status"

names=$(declare -F | awk '{ print $3 }' | grep '^t_')
[ $# -gt 0 ] && names=$(printf "t_%s\n" "${@#t_}")
[ -n "${FLOPSCOPE_TEST:-}" ] && names=$(printf '%s\n' $names | grep -F -- "$FLOPSCOPE_TEST")
for t in $names; do
	declare -F "$t" >/dev/null || { echo "FAIL: ${t#t_} (no such test)"; names=$(printf '%s\n' $names | grep -vx -- "$t"); }
done

TIMES="$(dirname "$FS")/test-times"
was() { awk -v t="$1" '$1 == t { print $2; f = 1 } END { if (!f) print "" }' "$TIMES" 2>/dev/null; }
# the tests that take 20 s or more on lavapipe (2 cores, two lanes; the
# longest of rehearsal 16's and a profile's times, 2026-11-29): in a fresh
# clone, with no times kept yet, they start first, longest first, so that no
# lane starts a long one while the other ends (CI's make test: 652 s without it)
LONG="t_debian_package_should_build_from_a_clean_clone_and_run t_a_gpu_vulkan_cannot_see_should_fail_the_check_named
t_suite_should_print_one_row_per_workload t_signals_should_end_every_run_with_its_summary_at_any_moment
t_the_suite_should_run_each_workload_on_every_device_at_once t_a_long_log_should_replay_in_bounded_memory
t_check_should_measure_each_link_alone_then_the_host_together t_memory_workloads_should_move_checked_bytes
t_every_key_in_every_theme_and_size_should_keep_the_screen_whole t_the_node_view_should_name_a_device_far_below_its_peers_now
t_node_view_should_show_every_device_zoom_and_act_on_all t_slurm_prolog_should_check_a_jobs_gpus_and_drain_a_failing_node
t_offline_inputs_should_be_refused_or_streamed_never_hang t_check_should_pass_miss_and_catch_wrong_results_by_its_exit_status
t_fleet_should_name_the_slow_gpu_across_hosts_from_prometheus t_pcie_replays_should_fail_a_retransmitting_link
t_svg_should_plot_a_stall_on_a_log_axis_and_one_size_as_no_sweep t_every_json_output_should_match_its_schema
t_a_stand_in_nvml_should_bring_the_limit_the_reasons_and_the_violation_counters
t_check_should_measure_every_workload_a_small_budget_holds t_the_last_resort_log_folder_should_be_private
t_compare_should_hold_up t_workloads_should_run_checked_with_exact_counts t_closed_pipe_should_be_a_normal_end_in_every_mode"
# a name there that is no test would leave its test to the name order, unsaid
for t in $LONG; do
	declare -F "$t" >/dev/null || echo "FAIL: LONG names no test: $t"
done
# the lanes' queue: longest first (a test never timed: a LONG one first, in
# that order, then the rest)
queue=($(for t in $names; do
	case " $ALONE " in *" $t "*) continue ;; esac
	s=$(was "$t")
	if [ -z "$s" ]; then
		s=$(printf '%s\n' $LONG | awk -v t="$t" '$1 == t { print 10000 - NR; f = 1 } END { if (!f) print 0 }')
	fi
	echo "$s $t"
done | sort -k1,1nr -k2 | awk '{ print $2 }'))
alone=($(for t in $names; do case " $ALONE " in *" $t "*) echo "$t" ;; esac; done))

# run N TEST: one test in $TOP/N, its output and line printed whole
run() {
	local n=$1 t=$2 start=$SECONDS rc s
	T="$TOP/$n" # short: paths show on an 80-column screen in some tests
	mkdir -p "$T"
	# each test within a bound: past it, the stacks of every thread of
	# every process it started are printed (watched), and it fails
	( export XDG_STATE_HOME="$T/state" FLOPSCOPE_LOCK_DIR="$T/locks"
	  mkdir -p "$FLOPSCOPE_LOCK_DIR"
	  one_sanitizer $t
	  watched "${FLOPSCOPE_TEST_TIMEOUT:-$(sanitized && echo 600 || echo 300)}" $t
	  rc=$?
	  # the CPU time its processes took (user + system, those ended): what a
	  # test costs the machine's two cores, beside its time on the clock
	  # (times in this shell: a pipeline's own fork has no children)
	  times >"$T/.cpu"
	  exit $rc ) >"$T/.out" 2>&1
	rc=$?
	local cpu
	cpu=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
	                     printf "%.0f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$T/.cpu" 2>/dev/null)
	[ $rc = 124 ] && echo "  $t outlived its bound: a hang (the stacks are above)" >>"$T/.out"
	s=$((SECONDS - start))
	local p
	p=$(was "$t")
	local took="($s s${cpu:+, $cpu s CPU}${p:+, was $p s})" # which tests CI's time goes to
	# the test's tmux servers go with it
	for sock in "$T"/tmux.*.sock; do
		if [ -e "$sock" ]; then
			tmux -S "$sock" kill-server 2>/dev/null
			rm -f "$sock"
		fi
	done
	# whatever the test left running goes with it, after its tmux servers (a failed test's run of
	# --duration 0 measured on through a CI rehearsal's sanitizer stage):
	# every process it started carries its own FLOPSCOPE_LOCK_DIR
	local left what
	for left in $(grep -l -a -x -z -F "FLOPSCOPE_LOCK_DIR=$T/locks" /proc/[0-9]*/environ 2>/dev/null); do
		left=${left#/proc/}
		left=${left%/environ}
		what=$(tr '\0' ' ' </proc/"$left"/cmdline 2>/dev/null | head -c 160)
		kill "$left" 2>/dev/null && echo "  left running by the test, stopped: $what" >>"$T/.out"
	done
	{
		flock 9
		cat "$T/.out" >&2
		case $rc in
		0) echo "PASS: ${t#t_} $took" ;;
		77) echo "SKIP: ${t#t_} $took" ;;
		*) echo "FAIL: ${t#t_} $took" ;;
		esac
		echo "$t $s" >>"$TOP/.times"
	} 9>>"$TOP/.print.lock"
}

# lane: takes the queue's next test until none is left
lane() {
	local i
	while :; do
		{
			flock 8
			i=$(cat "$TOP/.next")
			echo $((i + 1)) >"$TOP/.next"
		} 8>>"$TOP/.queue.lock"
		[ "$i" -lt "${#queue[@]}" ] || return 0
		run $((i + 1)) "${queue[$i]}"
	done
}

lanes=${FLOPSCOPE_TEST_LANES:-$(sanitized && echo 1 || echo 3)}
sanitized || export LP_NUM_THREADS=${LP_NUM_THREADS:-1}
echo 0 >"$TOP/.next"
: >"$TOP/.times"
for ((l = 0; l < lanes; l++)); do
	lane &
done
wait
for ((i = 0; i < ${#alone[@]}; i++)); do
	run $((${#queue[@]} + i + 1)) "${alone[$i]}"
done

# the times kept for the next run: this run's, and the earlier ones of tests
# not run this time
new=$(mktemp "$TIMES.XXXXXX" 2>/dev/null) && {
	awk 'NR == FNR { seen[$1] = 1; print; next } !($1 in seen)' "$TOP/.times" "$TIMES" 2>/dev/null | sort >"$new"
	mv -f "$new" "$TIMES" || rm -f "$new"
}
exit 0
