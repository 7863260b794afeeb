# tests/integration/lib.sh: what every integration test shares (sourced).
FS=${FS:-build/flopscope-test}
# NVML's stand-in (tests/fake/nvml.c): LD_LIBRARY_PATH=$FAKE_NVML_DIR with
# FLOPSCOPE_FAKE_NVML="GPU-<uuid>,..." gives devices NVML's indices
FAKE_NVML_DIR=$PWD/build/tests/fake-nvml
# the servers the tests start (Prometheus, node_exporter, Slurm): unpacked
# into the build by make, never installed as services (Makefile, DEB_UNPACK)
export PATH=$PWD/build/test-root/usr/bin:$PWD/build/test-root/usr/sbin:$PATH
# TOP: the run's folder; each test gets T, a folder of its own inside it (the
# runner sets it), so that no test meets another's files
TOP=$(mktemp -d)
T=$TOP
# A failed tmux test must not leave flopscope running: the server goes, with its panes.
trap 'for s in "$TOP"/tmux.*.sock "$TOP"/*/tmux.*.sock; do [ -e "$s" ] && tmux -S "$s" kill-server 2>/dev/null; done; rm -rf "$TOP"' EXIT

# Each test runs in a subshell of its own: die ends it, also from inside a loop.
die() { echo "  $*" >&2; exit 1; }
# skip WHY: the test cannot tell here (a busy machine, a missing privilege):
# "SKIP: name" and the reason, counted apart from passes and failures
skip() { echo "  $*" >&2; exit 77; }
# The workloads' names in the table's order, from --list-workloads: a
# test's list of every workload (or every matrix one: matrix_workloads)
# follows the table, so a new row asks no test to be edited.
workload_names() { "$FS" llvm --list-workloads --format csv | awk -F, 'NR > 1 { print $1 }'; }
matrix_workloads() { workload_names | grep -e '-matrix'; }
# sanitized: the program under test is a sanitizer build (make check-asan,
# check-tsan), which runs 2-10 times slower
sanitized() { case "$FS" in *-asan/* | *-tsan/*) return 0 ;; esac; return 1; }
# tsan: ThreadSanitizer's build (make check-tsan)
tsan() { case "$FS" in *-tsan/*) return 0 ;; esac; return 1; }

# Each integration test runs under one sanitizer (and all of them in make
# test): both suites each took 19-20 minutes of CI's 30, side by side on
# two cores. ThreadSanitizer takes the tests where threads meet: several
# engines at once, a signal or a fault mid-run, the telemetry thread's
# readings (the stand-in NVML), the metrics server's, the check's progress
# and the shader builds; AddressSanitizer every other (files, inputs,
# outputs, verdicts, screens: the error paths where memory leaks). The
# unit tests run under both.
TSAN_TESTS="
two_and_four_engines_should_measure_side_by_side host_transfers_at_once_should_be_called_shares_of_the_host
csv_should_have_one_header_whatever_the_device_count a_lost_device_should_not_stop_the_others
the_outlier_rule_should_name_the_device_and_set_the_status the_outlier_rule_should_hold_a_shortfall_to_the_runs_noise
several_devices_should_refuse_what_they_cannot_do node_view_should_show_every_device_zoom_and_act_on_all
quitting_the_node_view_should_be_a_verdict_only_when_asked node_view_should_fit_eight_and_show_a_lost_one
picker_should_start_every_marked_device multi_device_logs_should_replay_and_compare_together
check_should_apply_the_outlier_rule_among_identical_devices check_should_measure_each_link_alone_then_the_host_together
signals_should_end_every_run_with_its_summary_at_any_moment signals_should_end_headless_runs_with_a_summary
sigint_should_end_with_a_summary sigint_should_close_the_log_with_a_summary
a_stop_should_not_become_a_sample_nor_eat_the_duration a_continue_without_a_stop_should_be_no_stop_on_a_slow_machine
device_faults_should_stop_cleanly_and_keep_the_log dashboard_device_lost_should_show_it_and_restore_the_terminal
every_key_in_every_theme_and_size_should_keep_the_screen_whole dashboard_should_pick_run_pause_resize_and_quit
a_stand_in_nvml_should_bring_the_limit_the_reasons_and_the_violation_counters instant_power_should_be_read_beside_the_average
energy_should_follow_the_power_readings_and_be_null_without the_power_caps_engagement_should_be_an_event_as_it_happens
the_dashboard_should_mark_the_caps_engagement_as_it_happens other_processes_on_the_gpu_should_be_named_where_they_can_be
pcie_replays_should_fail_a_retransmitting_link watch_should_read_the_telemetry_without_load
pipelined_should_keep_every_sample_and_report_duty interval_rows_should_say_an_interval_without_a_dispatch
interval_rows_should_hold_every_sample_once metrics_listen_should_serve_valid_metrics_and_refuse_the_rest
metrics_listen_should_answer_a_scrape_beside_slow_clients prometheus_should_scrape_a_live_session
the_dashboard_should_serve_its_runs_metrics caches_should_make_the_second_start_skip_shaderc
watch_should_serve_the_devices_readings_with_no_load"
# one_sanitizer TEST: skips (exit 77) under the sanitizer that is not the test's
one_sanitizer() {
	sanitized || return 0
	case " $(echo $TSAN_TESTS) " in
	*" ${1#t_} "*) tsan || skip "threads meeting: ThreadSanitizer's (check-tsan and make test run it)" ;;
	*) tsan && skip "no threads meeting of its own: AddressSanitizer's (check-asan and make test run it)" ;;
	esac
	return 0
}
# every run writes a session log by default: keep them in the test's folder
export XDG_STATE_HOME="$TOP/state"
# and read no one's config file but the test's own
export XDG_CONFIG_HOME="$TOP/config"
# the devices' locks of this run's own (devlock.h): two suites side by side
# (check-asan beside check-tsan) never wait for each other's checks
export FLOPSCOPE_LOCK_DIR="$TOP/locks"
mkdir -p "$FLOPSCOPE_LOCK_DIR"
# every run under VK_LAYER_KHRONOS_validation (synchronization validation
# too): any message it reports makes flopscope exit 1, failing the test
export FLOPSCOPE_VALIDATE=1

# A 2 s headless run in CSV, shared by several tests (run once, in TOP, by
# the first test of any lane that asks; the others wait for it).
# The columns named (by the header's keys, in that order) of CSV file $1,
# comma-separated, the header left out: a test reads a record by its keys,
# never by a column's number. (The numeric columns come before the quoted
# device name, whose comma awk would split.)
csv_cols() {
	local f=$1
	shift
	awk -F, -v want="$*" 'NR == 1 { n = split(want, w, " "); for (i = 1; i <= NF; i++) c[$i] = i
	                                for (k = 1; k <= n; k++) if (!(w[k] in c)) { print "no column " w[k] >"/dev/stderr"; exit 2 }
	                                next }
	                      { line = ""; for (k = 1; k <= n; k++) line = line (k > 1 ? "," : "") $(c[w[k]]); print line }' "$f"
}

# The share of every CPU's time (%) other work took over the next second
# (/proc/stat): how busy the machine is, for a test that needs quiet.
cpu_busy_pct() {
	python3 - <<'PY'
import time
def t():
    v = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    return sum(v), v[3] + v[4]
a, ai = t(); time.sleep(1); b, bi = t()
print(round(100 * (1 - (bi - ai) / max(1, b - a))))
PY
}

csv_run() {
	{
		flock 9
		[ -s "$TOP/run.csv" ] ||
			{ "$FS" llvm --format csv --duration 2 >"$TOP/run.csv.new" 2>"$TOP/run.err" &&
				mv "$TOP/run.csv.new" "$TOP/run.csv"; }
	} 9>>"$TOP/run.lock"
	[ -s "$TOP/run.csv" ] || die "headless run failed: $(cat "$TOP/run.err")"
}

# --- the dashboard, driven through tmux -------------------------------------
# each start_ui gets a fresh server on a socket of its own: a server still
# shutting down on a reused socket made "server exited unexpectedly" (flaky)
SOCK="$T/tmux.none.sock"
UI_N=0
TM() { tmux -S "$SOCK" "$@"; }
screen() { TM capture-pane -p -t fs 2>/dev/null; }

# wait_for REGEX [SECONDS]: polls the pane until REGEX shows (bounded).
wait_for() {
	local deadline=$((SECONDS + ${2:-30}))
	while [ $SECONDS -lt $deadline ]; do
		screen | grep -Eq "$1" && return 0
		sleep 0.1
	done
	die "timed out waiting for /$1/; screen was:"$'\n'"$(screen)"
}

# start_ui ARGS...: flopscope in a tmux pane of UI_W x UI_H (120x36) in UI_DIR
# (this folder); its exit status lands in $T/exit.
start_ui() {
	rm -f "$T/exit"
	TM kill-server 2>/dev/null
	UI_N=$((UI_N + 1))
	SOCK="$T/tmux.$BASHPID.$UI_N.sock"
	TM new-session -d -s fs -x "${UI_W:-120}" -y "${UI_H:-36}" -c "${UI_DIR:-$PWD}" "LANG=C.UTF-8 $* ; echo \$? > $T/exit" || die "tmux failed"
	TM set-option -t fs remain-on-exit on >/dev/null
}

wait_exit() {
	local deadline=$((SECONDS + ${1:-20}))
	while [ $SECONDS -lt $deadline ]; do
		[ -s "$T/exit" ] && return 0
		sleep 0.1
	done
	die "flopscope did not exit; screen was:"$'\n'"$(screen)"
}

samples() { screen | sed -n 's/.*| samples \([0-9]*\) |.*/\1/p'; }

# stacks PID: every thread of PID, for a run that hangs: gdb's backtraces
# where gdb is installed, else each thread's name, kernel wait channel and
# state from /proc (with the kernel stack as root).
stacks() {
	local p=$1 t
	echo "  --- stacks of $p: $(tr '\0' ' ' </proc/$p/cmdline 2>/dev/null)"
	if command -v gdb >/dev/null; then
		timeout 60 gdb -p "$p" -batch -nx -ex 'set pagination off' -ex 'thread apply all bt' 2>&1 |
			grep -E '^(Thread|#)' | sed 's/^/  /'
	fi
	for t in /proc/"$p"/task/*; do
		echo "  thread $(basename "$t") $(cat "$t/comm" 2>/dev/null): state $(awk '{print $3}' "$t/stat" 2>/dev/null)," \
			"wchan $(cat "$t/wchan" 2>/dev/null), syscall $(cut -d' ' -f1 "$t/syscall" 2>/dev/null)"
		[ -r "$t/stack" ] && sed 's/^/      /' "$t/stack" 2>/dev/null | head -8
	done
}

# descendants PID: PID's processes, children first
descendants() {
	local c
	for c in $(pgrep -P "$1"); do
		descendants "$c"
		echo "$c"
	done
}

# watched LIMIT CMD...: CMD, run until it ends or LIMIT seconds pass; past
# them, the stacks of every thread of every process it started (a hang,
# found where it happens, CI included), then it is killed: 124 as timeout.
watched() {
	local limit=$1 pid n=0 rc
	shift
	"$@" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if [ $n -ge $((limit * 10)) ]; then
			echo "  $* outlived ${limit} s: the stacks of its processes" >&2
			local p
			for p in $(descendants "$pid") $pid; do stacks "$p" >&2; done
			for p in $(descendants "$pid") $pid; do kill -9 "$p" 2>/dev/null; done
			wait "$pid" 2>/dev/null
			return 124
		fi
		sleep 0.1
		n=$((n + 1))
	done
	wait "$pid"
	rc=$?
	return $rc
}
