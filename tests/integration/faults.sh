# tests/integration/faults.sh: faults and signals: device loss, signals, pipes, terminals.
# Sourced by tests/integration.sh, which provides lib.sh's helpers.

t_sigint_should_end_with_a_summary() {
	"$FS" --duration 0 >"$T/out" 2>"$T/err" &
	pid=$!
	for _ in $(seq 100); do grep -q 'ms' "$T/out" 2>/dev/null && break; sleep 0.1; done
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" = 0 ] || die "exit $rc: $(cat "$T/err")"
	grep -q '^Summary: ' "$T/out" || die "no summary"
}

t_closed_pipe_should_stop_with_a_message() {
	timeout 20 "$FS" --duration 0 2>"$T/err" | head -2 >/dev/null
	rc=${PIPESTATUS[0]}
	[ "$rc" = 1 ] || die "exit $rc"
	grep -q 'cannot write to standard output' "$T/err" || die "$(cat "$T/err")"
}

t_sigint_should_close_the_log_with_a_summary() {
	"$FS" llvm --duration 0 --format csv --log "$T/i.jsonl" >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 600); do [ -f "$T/i.jsonl" ] && [ "$(wc -l <"$T/i.jsonl")" -ge 10 ] && break; sleep 0.05; done
	kill -INT "$pid"
	wait "$pid" || die "exit $?"
	tail -1 "$T/i.jsonl" | grep -q '"type":"summary"' || die "last line: $(tail -1 "$T/i.jsonl")"
}

t_device_faults_should_stop_cleanly_and_keep_the_log() {
	for f in "device_lost@12:VK_ERROR_DEVICE_LOST" "oom@5:VK_ERROR_OUT_OF_DEVICE_MEMORY" \
	         "timeout@8:did not finish a dispatch of .* \\(vkWaitForFences: VK_TIMEOUT\\)"; do
		FLOPSCOPE_FAULT=${f%%:*} "$FS" llvm --duration 3 --log "$T/f.jsonl" --format csv >"$T/f.csv" 2>"$T/f.err"
		rc=$?
		[ "$rc" = 1 ] || die "${f%%:*}: exit $rc"
		grep -Eq "^flopscope: .*${f#*:}" "$T/f.err" || die "${f%%:*}: $(cat "$T/f.err")"
		tail -2 "$T/f.jsonl" | head -1 | grep -q '"type":"error"' || die "${f%%:*}: no error record"
		tail -1 "$T/f.jsonl" | grep -q '"type":"summary"' || die "${f%%:*}: no summary"
		[ "$(($(wc -l <"$T/f.csv") - 1))" = "$(grep -c '"type":"sample"' "$T/f.jsonl")" ] ||
			die "${f%%:*}: printed and logged samples differ"
	done
}

t_signals_should_end_headless_runs_with_a_summary() {
	for sig in TERM HUP; do
		"$FS" llvm --duration 0 --log "$T/s.jsonl" >"$T/out" 2>"$T/err" &
		pid=$!
		for _ in $(seq 600); do grep -q 'ms ' "$T/out" 2>/dev/null && break; sleep 0.05; done
		kill -$sig "$pid"
		wait "$pid"
		rc=$?
		[ "$rc" = 0 ] || die "SIG$sig: exit $rc: $(cat "$T/err")"
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
