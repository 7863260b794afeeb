# tests/integration/faults.sh: faults and signals: device loss, signals, pipes, terminals.
# Sourced by tests/integration.sh, which provides lib.sh's helpers.

t_sigint_should_end_with_a_summary() {
	"$FS" --duration 0 >"$T/out" 2>"$T/err" &
	pid=$!
	for _ in $(seq 100); do grep -q 'ms' "$T/out" 2>/dev/null && break; sleep 0.1; done
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	# ended by SIGINT: 128 + 2, as every mode, after the summary
	[ "$rc" = 130 ] || die "exit $rc: $(cat "$T/err")"
	grep -q '^Summary: ' "$T/out" || die "no summary"
}

t_closed_pipe_should_end_quietly_with_the_log_complete() {
	# `| head` is a normal way to stop reading: exit 0, nothing said, the log whole
	timeout 20 "$FS" llvm --duration 0 --log "$T/p.jsonl" 2>"$T/err" | head -3 >/dev/null
	rc=${PIPESTATUS[0]}
	[ "$rc" = 0 ] || die "exit $rc: $(cat "$T/err")"
	[ ! -s "$T/err" ] || die "said: $(cat "$T/err")"
	tail -1 "$T/p.jsonl" | grep -q '"type":"summary"' || die "log not closed: $(tail -1 "$T/p.jsonl")"
	timeout 20 "$FS" llvm --duration 0 --format csv 2>"$T/err" | head -1 >/dev/null
	[ "${PIPESTATUS[0]}" = 0 ] || die "csv: exit ${PIPESTATUS[0]}"
	# CSV's notes and summary go to stderr, and still do; no error among them
	grep -q '^Summary: ' "$T/err" && ! grep -q 'cannot write' "$T/err" || die "csv: $(cat "$T/err")"
	"$FS" --list 2>"$T/err" | head -1 >/dev/null
	[ "${PIPESTATUS[0]}" = 0 ] && [ ! -s "$T/err" ] || die "--list: $(cat "$T/err")"
	# a full disk is not a closed pipe: exit 1 and why
	"$FS" llvm --duration 0.3 --log "$T/full.jsonl" >/dev/null 2>&1 || die "seed run failed"
	for args in "--help" "--version" "--list" "llvm --duration 0.3 --no-log" "--analyze $T/full.jsonl" \
	            "--replay $T/full.jsonl --headless"; do
		# shellcheck disable=SC2086
		timeout 20 "$FS" $args >/dev/full 2>"$T/err"
		rc=$?
		[ "$rc" = 1 ] || die "$args into /dev/full: exit $rc"
		[ "$(grep -c 'cannot write to standard output: No space left on device' "$T/err")" = 1 ] ||
			die "$args into /dev/full: $(cat "$T/err")"
	done
}

# Every SIGINT, SIGTERM or SIGHUP ends a run with its summary on the terminal
# and in the log, at any moment of it: during the device list, the shader
# (now on its own thread, beside the device's creation), the growth or at
# the target (64 tries at random times from 0 to 580 ms after main() has its
# signal thread; a signal before that cannot be caught). It tried 100: CI's
# 30 minutes took the rest.
t_signals_should_end_every_run_with_its_summary_at_any_moment() {
	local sigs=(INT TERM HUP) fails=0 tries=64
	# a sanitizer build looks for races and leaks at the signal: 12 random
	# moments over the phases, in an eighth of CI's time (make test tries 64)
	sanitized && tries=12
	for i in $(seq $tries); do
		sig=${sigs[$((RANDOM % 3))]}
		env -u FLOPSCOPE_VALIDATE "$FS" llvm --duration 30 --log "$T/g$i.jsonl" >"$T/g.out" 2>"$T/g.err" &
		pid=$!
		# the run begins when main() has its signal thread: a signal before
		# that meets the default action, as for any program (under TSan a
		# rehearsal's 20 ms came before it: exit 143)
		for _ in $(seq 400); do
			grep -qx fs-signals /proc/"$pid"/task/*/comm 2>/dev/null && break
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.005
		done
		delay=$(printf '0.%03d' $((RANDOM % 580)))
		sleep "$delay"
		kill -"$sig" "$pid"
		# within one dispatch (20 ms) once the signal is seen; bounded generously
		for _ in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
		if kill -0 "$pid" 2>/dev/null; then
			kill -9 "$pid"
			echo "  try $i: SIG$sig after $delay s: still running after 10 s" >&2
			fails=$((fails + 1))
			continue
		fi
		wait "$pid"
		rc=$?
		why=""
		# 128 + the signal's number, in every mode
		case $sig in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; esac
		[ "$rc" = "$want" ] || why="exit $rc, not $want"
		grep -q '^Summary: ' "$T/g.out" || why="$why; no summary on stdout"
		tail -1 "$T/g$i.jsonl" 2>/dev/null | grep -q '"type":"summary"' || why="$why; log not closed"
		[ -s "$T/g.err" ] && why="$why; said: $(head -c 200 "$T/g.err")"
		if [ -n "$why" ]; then
			echo "  try $i: SIG$sig after $delay s: $why" >&2
			fails=$((fails + 1))
		fi
		rm -f "$T/g$i.jsonl"
	done
	[ "$fails" = 0 ] || die "$fails of $tries tries failed"
}

# SIGSTOP (or Ctrl-Z) for 2.5 s: no sample's time includes the stop, the gap
# is logged and said, and --duration counts only the time measured.
t_a_stop_should_not_become_a_sample_nor_eat_the_duration() {
	"$FS" llvm --duration 3 --format csv --log "$T/st.jsonl" >"$T/st.csv" 2>"$T/st.err" &
	pid=$!
	for _ in $(seq 600); do [ -f "$T/st.jsonl" ] && [ "$(wc -l <"$T/st.jsonl")" -ge 20 ] && break; sleep 0.05; done
	# a SIGCONT with no stop before it is no stop
	kill -CONT "$pid"
	sleep 0.3
	kill -STOP "$pid"
	sleep 2.5
	kill -CONT "$pid"
	wait "$pid" || die "exit $?: $(cat "$T/st.err")"
	grep -q 'stopped 1 time (SIGSTOP, Ctrl-Z) for 2\.[5-9] s in all: not measured' "$T/st.err" ||
		die "summary: $(cat "$T/st.err")"
	python3 - "$T/st.jsonl" <<'PY' || exit 1
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
gaps = [r for r in recs if r["type"] == "gap"]
samples = [r for r in recs if r["type"] == "sample"]
summ = recs[-1]
assert len(gaps) == 1 and gaps[0]["gap_ms"] >= 2500, gaps
# no sample's times include the stop (each is ~20 ms at the target)
worst = max(max(s["cpu_ns"], s["gpu_ns"]) for s in samples)
assert worst < 2.0e9, "a sample includes the stop: %d ns" % worst
# --duration 3: 3 s measured, besides the stop
assert samples[-1]["t_ms"] - gaps[0]["gap_ms"] >= 3000, (samples[-1]["t_ms"], gaps[0]["gap_ms"])
assert summ["type"] == "summary" and summ["stops"] == 1 and summ["stopped_ms"] == gaps[0]["gap_ms"], summ
PY
	"$FS" --replay "$T/st.jsonl" --headless >"$T/rp.out" 2>"$T/rp.err" || die "replay: $(cat "$T/rp.err")"
	grep -q -- '-- stopped at .* for 2\.[5-9] s (SIGSTOP or Ctrl-Z): not measured --' "$T/rp.out" ||
		die "replay table: no gap line"
	grep -q 'stopped 1 time' "$T/rp.out" || die "replay summary: no stop"
}

# A SIGCONT with no stop before it, while every submission is slow (held
# 0.1 s on the host, as on a busy machine: longer than a stop must be), is
# no stop: a CI run under ThreadSanitizer once counted one as a stop of
# the submission's length.
t_a_continue_without_a_stop_should_be_no_stop_on_a_slow_machine() {
	FLOPSCOPE_FAULT=stall@1000000 "$FS" llvm --duration 2.5 --log "$T/c.jsonl" >"$T/c.err" 2>&1 &
	pid=$!
	for _ in $(seq 600); do [ -f "$T/c.jsonl" ] && [ "$(wc -l <"$T/c.jsonl")" -ge 4 ] && break; sleep 0.05; done
	for _ in 1 2 3 4 5 6; do kill -CONT "$pid"; sleep 0.17; done
	wait "$pid" || die "exit $?: $(cat "$T/c.err")"
	grep -q 'stopped' "$T/c.err" && die "called a stop: $(cat "$T/c.err")"
	python3 - "$T/c.jsonl" <<'PY' || exit 1
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert not [r for r in recs if r["type"] == "gap"], [r for r in recs if r["type"] == "gap"]
assert recs[-1]["type"] == "summary" and not recs[-1].get("stops"), recs[-1]
PY
}

t_sigint_should_close_the_log_with_a_summary() {
	"$FS" llvm --duration 0 --format csv --log "$T/i.jsonl" >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 600); do [ -f "$T/i.jsonl" ] && [ "$(wc -l <"$T/i.jsonl")" -ge 10 ] && break; sleep 0.05; done
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" = 130 ] || die "exit $rc"
	tail -1 "$T/i.jsonl" | grep -q '"type":"summary"' || die "last line: $(tail -1 "$T/i.jsonl")"
}

t_device_faults_should_stop_cleanly_and_keep_the_log() {
	for f in "device_lost@12:VK_ERROR_DEVICE_LOST" "oom@5:VK_ERROR_OUT_OF_DEVICE_MEMORY" \
	         "timeout@8:did not finish a dispatch of .* \\(vkWaitForFences: VK_TIMEOUT\\)"; do
		rm -f "$T/f.jsonl" # a log is never written over
		FLOPSCOPE_FAULT=${f%%:*} "$FS" llvm --duration 3 --log "$T/f.jsonl" --format csv >"$T/f.csv" 2>"$T/f.err"
		rc=$?
		[ "$rc" = 1 ] || die "${f%%:*}: exit $rc"
		grep -Eq "^flopscope: .*${f#*:}" "$T/f.err" || die "${f%%:*}: $(cat "$T/f.err")"
		tail -2 "$T/f.jsonl" | head -1 | grep -q '"type":"error"' || die "${f%%:*}: no error record"
		tail -1 "$T/f.jsonl" | grep -q '"type":"summary"' || die "${f%%:*}: no summary"
		[ "$(($(wc -l <"$T/f.csv") - 1))" = "$(grep -c '"type":"sample"' "$T/f.jsonl")" ] ||
			die "${f%%:*}: printed and logged samples differ"
	done
	# the hook is the test build's alone: the product (flopscope, beside
	# flopscope-test) reads no FLOPSCOPE_FAULT
	local product=${FS%-test}
	[ "$product" != "$FS" ] && [ -x "$product" ] || skip "no product binary beside $FS"
	FLOPSCOPE_FAULT=device_lost@3 "$product" llvm --duration 0.5 --no-log >"$T/p.out" 2>&1 ||
		die "the product took FLOPSCOPE_FAULT: exit $?: $(cat "$T/p.out")"
	grep -q FLOPSCOPE_FAULT "$T/p.out" && die "the product spoke of FLOPSCOPE_FAULT: $(cat "$T/p.out")"
	true
}

t_signals_should_end_headless_runs_with_a_summary() {
	for sig in TERM HUP; do
		rm -f "$T/s.jsonl"
		"$FS" llvm --duration 0 --log "$T/s.jsonl" >"$T/out" 2>"$T/err" &
		pid=$!
		for _ in $(seq 600); do grep -q 'ms ' "$T/out" 2>/dev/null && break; sleep 0.05; done
		kill -$sig "$pid"
		wait "$pid"
		rc=$?
		want=$((128 + $(kill -l "$sig")))
		[ "$rc" = "$want" ] || die "SIG$sig: exit $rc, not $want: $(cat "$T/err")"
		grep -q '^Summary: ' "$T/out" || die "SIG$sig: no summary"
		tail -1 "$T/s.jsonl" | grep -q '"type":"summary"' || die "SIG$sig: log not closed"
	done
}

t_closed_stdin_or_unknown_terminal_should_print_the_table() {
	"$FS" llvm --duration 0.3 --no-log <&- >"$T/out" 2>&1 || die "stdin closed: exit $?"
	grep -q '^Summary: ' "$T/out" || die "stdin closed: $(head -3 "$T/out")"
	TERM=no-such-terminal script -qec "$FS llvm --duration 0.3 --no-log" /dev/null >"$T/out" 2>&1 ||
		die "unknown TERM: exit $?"
	grep -q 'cannot use this terminal (TERM=no-such-terminal)' "$T/out" || die "$(head -3 "$T/out")"
	grep -q 'Summary: ' "$T/out" || die "unknown TERM: no table"
}

# Closed standard streams (cron, `>&-`): the log still gets only the log, and
# replays to every sample; the table goes nowhere.
t_closed_stdout_should_not_send_the_table_into_the_log() {
	"$FS" llvm --duration 0.5 --log "$T/so.jsonl" >&- 2>&- || die "exit $?"
	python3 - "$T/so.jsonl" <<'PY' || exit 1
import json, sys
lines = open(sys.argv[1]).read().splitlines()
recs = [json.loads(l) for l in lines]        # every line is a record: no table in it
assert recs[0]["type"] == "session" and recs[-1]["type"] == "summary", recs[-1]
assert sum(r["type"] == "sample" for r in recs) >= 5
PY
	n=$("$FS" --replay "$T/so.jsonl" --headless | grep -c ' ms\| GFLOPS')
	[ "$n" -ge 5 ] || die "replay read $n samples"
}

# A suite stopped by a signal says its table is incomplete, and its status
# tells a script so (128 + the signal), in words and in JSON.
t_stopped_suite_should_say_its_table_is_incomplete() {
	env -u FLOPSCOPE_VALIDATE "$FS" llvm --suite --no-log --format json >"$T/su.json" 2>"$T/su.err" &
	pid=$!
	for _ in $(seq 200); do grep -q '"workload"' "$T/su.json" 2>/dev/null && break; sleep 0.05; done
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" = 130 ] || die "exit $rc: $(cat "$T/su.err")"
	grep -Eq 'stopped by a signal after [0-9]+ of [0-9]+ workloads; the table is incomplete' "$T/su.err" ||
		die "$(cat "$T/su.err")"
	# the last record says it (read by its keys); the rows are the workloads
	# done, no more: the one the signal cut is no row (16 CSV rows for "15 of
	# 22 workloads")
	python3 - "$T/su.json" <<'PY' || die "rows: $(cat "$T/su.json")"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
rows = [r for r in recs if r["type"] == "suite"]
end = recs[-1]
assert end["type"] == "suite_stopped" and end["signal"] == 2 and "utc" in end, end
assert len({r["workload"] for r in rows}) == end["workloads_done"], (len(rows), end)
PY
}

# A check that could not judge a device for the driver's or flopscope's
# part (its run ended in a lost device) exits 6, not 1: the Slurm prolog
# and the alert rules act on device verdicts only; a device verdict that
# failed beside it still decides (exit 3 for wrong results).
t_a_check_that_could_not_run_should_exit_6_not_1() {
	FLOPSCOPE_FAULT=device_lost@3 "$FS" --check llvm --workload fp32 --budget 5 --no-log >"$T/c.txt" 2>&1
	rc=$?
	[ "$rc" = 6 ] || die "a lost device: exit $rc: $(cat "$T/c.txt")"
	grep -q '^ERROR .* fp32 .*VK_ERROR_DEVICE_LOST' "$T/c.txt" || die "no ERROR row: $(cat "$T/c.txt")"
	grep -q 'exit 6$' "$T/c.txt" || die "the end line: $(tail -1 "$T/c.txt")"
	FLOPSCOPE_FAULT=wrong@3 "$FS" --check llvm --workload fp32 --budget 5 --no-log >"$T/w.txt" 2>&1
	rc=$?
	[ "$rc" = 3 ] || die "wrong results: exit $rc"
}
