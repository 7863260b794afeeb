#!/bin/bash
# Integration tests on the real Vulkan driver (lavapipe on machines without a
# GPU). Each t_* function is one test; it fails by returning non-zero, with a
# reason on stderr. Prints "PASS: name" / "FAIL: name" for tests/run.sh.
set -u
cd "$(dirname "$0")/.."
FS=${FS:-build/flopscope}
T=$(mktemp -d)
# A failed tmux test must not leave flopscope running: the server goes, with its panes.
trap 'for s in "$T"/tmux.*.sock; do tmux -S "$s" kill-server 2>/dev/null; done; rm -rf "$T"' EXIT

# Each test runs in a subshell of its own: die ends it, also from inside a loop.
die() { echo "  $*" >&2; exit 1; }
# every run writes a session log by default: keep them in the test's folder
export XDG_STATE_HOME="$T/state"
# every run under VK_LAYER_KHRONOS_validation (synchronization validation
# too): any message it reports makes flopscope exit 1, failing the test
export FLOPSCOPE_VALIDATE=1

# A 2 s headless run in CSV, shared by several tests (run once).
csv_run() {
	[ -s "$T/run.csv" ] && return 0
	"$FS" llvm --format csv --duration 2 >"$T/run.csv" 2>"$T/run.err" ||
		die "headless run failed: $(cat "$T/run.err")"
}

t_list_should_show_llvmpipe() {
	"$FS" --list >"$T/out" 2>&1 || die "exit $?"
	grep -q '^Compatible devices:$' "$T/out" || die "no header: $(cat "$T/out")"
	grep -Eq '^ +[0-9]+: llvmpipe .*\(compute queue: [0-9]+, type: Cpu\)$' "$T/out" ||
		die "no llvmpipe entry: $(cat "$T/out")"
}

t_list_verbose_should_show_limits_and_features() {
	"$FS" --list --verbose >"$T/out" 2>&1 || die "exit $?"
	for w in 'vendor id' 'driver: ' 'API version' 'device UUID' 'queues in family' \
	         'timestamps: 64 valid bits, period' 'subgroup size' 'max workgroup count 65535' \
	         'memory heap 0' 'float16' 'float64' 'int8'; do
		grep -q "$w" "$T/out" || die "missing \"$w\": $(cat "$T/out")"
	done
}

t_headless_should_have_twenty_samples_starting_at_one_group() {
	csv_run || return 1
	head -1 "$T/run.csv" | grep -q '^seq,t_ms,x,y,z,groups,flop,gpu_ns,cpu_ns,flops' || die "bad header"
	n=$(($(wc -l <"$T/run.csv") - 1))
	[ "$n" -ge 20 ] || die "only $n samples"
	awk -F, 'NR == 2 && $6 != 1 { exit 1 }' "$T/run.csv" || die "first sample is not 1 group"
}

t_headless_should_grow_by_ten_while_under_two_ms() {
	csv_run || return 1
	# until the first dispatch of >= 2 ms, each count is 10x the one before
	awk -F, 'NR > 2 && !done { if ($6 != prev * 10) { print "sample " $1 ": " $6 " after " prev; exit 1 } }
	         NR > 1 { if ($8 >= 2000000) done = 1; prev = $6 }' "$T/run.csv" >"$T/why" ||
		die "growth rule broken: $(cat "$T/why")"
}

t_headless_should_settle_at_the_target() {
	csv_run || return 1
	# steady samples: median dispatch time within 10..40 ms, 80% of them too
	awk -F, 'NR > 1 && $12 == 1 { print $8 / 1e6 }' "$T/run.csv" | sort -n |
		awk '{ t[NR] = $1; if ($1 >= 10 && $1 <= 40) ok++ }
		     END { n = NR; if (n < 10) { print "only " n " steady samples"; exit 1 }
		           m = t[int((n + 1) / 2)]
		           if (m < 10 || m > 40 || ok < 0.8 * n) { print "median " m " ms, " ok "/" n " in range"; exit 1 } }' \
		>"$T/why" || die "$(cat "$T/why")"
}

t_headless_flops_should_be_positive_and_below_the_cpu_peak() {
	csv_run || return 1
	peak=$(tests/cpu_peak.sh) || die "no CPU peak"
	awk -F, -v peak="$peak" 'NR > 1 && !($10 > 0 && $10 < peak) { print "sample " $1 ": " $10 " FLOPS, peak " peak; exit 1 }' \
		"$T/run.csv" >"$T/why" || die "$(cat "$T/why")"
}

t_serial_gpu_time_should_not_exceed_cpu_time() {
	# Gridwise's CPU timing (idle queue, submit, wait) brackets the GPU's
	"$FS" llvm --serial --format csv --duration 1 --no-log >"$T/serial.csv" 2>/dev/null || die "exit $?"
	[ "$(wc -l <"$T/serial.csv")" -ge 20 ] || die "too few samples"
	awk -F, 'NR > 1 && ($11 != 1 || $8 > $9) { print "sample " $1 ": gpu " $8 " ns, cpu " $9 " ns, timed " $11; exit 1 }' \
		"$T/serial.csv" >"$T/why" || die "$(cat "$T/why")"
}

t_pipelined_should_keep_every_sample_and_report_duty() {
	"$FS" llvm --format json --duration 1.5 --no-log >"$T/pipe.json" 2>/dev/null || die "exit $?"
	"$FS" llvm --format json --duration 1.5 --no-log --serial >"$T/ser.json" 2>/dev/null || die "exit $?"
	python3 - "$T/pipe.json" "$T/ser.json" <<'PY' || return 1
import json, sys
for path, pipelined in ((sys.argv[1], True), (sys.argv[2], False)):
    recs = [json.loads(l) for l in open(path)]
    samples = [r for r in recs if r["type"] == "sample"]
    summary = recs[-1]
    assert [s["seq"] for s in samples] == list(range(len(samples))), "seq has gaps"
    steady = [s for s in samples if s["steady"]]
    assert len(steady) >= 20, len(steady)
    # growth is always serial; at the target, pipelined unless --serial
    assert not any(s["pipelined"] for s in samples if not s["steady"]), path
    assert sum(s["pipelined"] for s in steady) >= (len(steady) - 1 if pipelined else 0), path
    if not pipelined:
        assert not any(s["pipelined"] for s in steady), path
    assert 0.5 < summary["duty_cycle"] <= 1.0, summary.get("duty_cycle")
    ends = [s["gpu_end_ns"] for s in steady]
    assert ends == sorted(ends), "dispatches completed out of order"
PY
}

t_headless_should_check_results_on_the_cpu() {
	csv_run || return 1
	awk -F, 'NR == 2 && $13 != 1 { exit 1 }' "$T/run.csv" || die "first sample not checked"
	n=$(awk -F, 'NR > 1 && $13 == 1' "$T/run.csv" | wc -l)
	[ "$n" -ge 3 ] || die "only $n checked samples"
	grep -q 'result checks passed' "$T/run.err" || die "no summary on stderr: $(cat "$T/run.err")"
}

t_table_should_print_the_tutorials_header_and_summary() {
	"$FS" -1 --duration 0.5 >"$T/out" 2>&1 || die "exit $?: $(cat "$T/out")"
	grep -q ' Measurement        Number of         Computation     Performance' "$T/out" || die "no header"
	grep -Eq '^ +[0-9.]+ms +1 +[0-9.]+ [mun]?s +[0-9.]+ [kMGT]?FLOPS +[0-9.]+ [mun]?s$' "$T/out" ||
		die "no first row: $(head -12 "$T/out")"
	grep -q '^Summary: ' "$T/out" || die "no summary"
	grep -q 'GPU/CPU time: median' "$T/out" || die "no GPU/CPU ratio"
}

t_json_should_be_one_object_per_line() {
	"$FS" --format json --duration 0.5 >"$T/out" 2>"$T/err" || die "exit $?"
	python3 - "$T/out" <<'PY' || return 1
import json, sys
lines = open(sys.argv[1]).read().splitlines()
objs = [json.loads(l) for l in lines]
assert all(o["type"] == "sample" for o in objs[:-1]), "non-sample line"
assert objs[-1]["type"] == "summary", "no summary last"
assert objs[0]["groups"] == 1
assert all(o["flops"] > 0 for o in objs[:-1])
PY
}

t_validation_layer_should_report_nothing() {
	"$FS" llvm --validate --duration 1 --format csv >"$T/out" 2>"$T/err" || die "exit $?: $(head -20 "$T/err")"
	if grep -qi 'validation' "$T/err"; then die "$(head -20 "$T/err")"; fi
	[ "$(wc -l <"$T/out")" -ge 5 ] || die "too few samples"
}

t_unknown_device_should_exit_2_and_list_entries() {
	"$FS" radeon --duration 1 >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || die "exit $rc"
	grep -q 'no device name contains "radeon"' "$T/err" || die "no reason: $(cat "$T/err")"
	grep -q 'llvmpipe' "$T/err" || die "entries not listed"
	"$FS" -99 --duration 1 >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || die "-99: exit $rc"
	grep -q 'device 99 does not exist' "$T/err" || die "-99: $(cat "$T/err")"
}

t_bad_usage_should_exit_2() {
	for args in "--target-ms 0" "--duration -3" "--bogus" "-0" "--format xml" "--target-ms"; do
		# shellcheck disable=SC2086
		"$FS" $args >"$T/out" 2>"$T/err"
		rc=$?
		[ "$rc" = 2 ] || die "$args: exit $rc"
		grep -q '^flopscope: ' "$T/err" || die "$args: no message"
	done
}

t_two_modes_should_be_a_usage_error() {
	for args in "llvm --suite --latency" "--list --suite" "llvm --latency --list-workloads" \
		"--replay $T/x.jsonl --suite" "--help --version" "--suite --suite"; do
		# shellcheck disable=SC2086
		timeout 20 "$FS" $args >"$T/out" 2>"$T/err"
		rc=$?
		[ "$rc" = 2 ] || die "$args: exit $rc"
		grep -Eq '^flopscope: (--[a-z-]+ and --[a-z-]+ are two modes: give one|--suite is given twice)$' "$T/err" ||
			die "$args: $(cat "$T/err")"
		[ ! -s "$T/out" ] || die "$args: printed $(head -3 "$T/out")"
	done
}

t_broken_shader_should_name_file_and_line() {
	mkdir -p "$T/sh"
	sed 's/float s = float(slot)/float s = floatt(slot)/' shaders/fma_fp32.comp >"$T/sh/fma_fp32.comp"
	line=$(grep -n 'floatt' "$T/sh/fma_fp32.comp" | cut -d: -f1)
	"$FS" --shader-dir "$T/sh" --duration 1 >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || die "exit $rc"
	grep -q "fma_fp32.comp:$line: error" "$T/err" || die "no file:line $line: $(cat "$T/err")"
}

t_missing_shader_should_exit_2() {
	"$FS" --shader-dir "$T/nowhere" --duration 1 >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || die "exit $rc"
	grep -q 'cannot open .*nowhere/fma_fp32.comp: No such file' "$T/err" || die "$(cat "$T/err")"
}

t_no_vulkan_driver_should_exit_1_naming_lavapipe() {
	VK_DRIVER_FILES=/nonexistent/icd.json VK_ICD_FILENAMES=/nonexistent/icd.json \
		"$FS" --list >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 1 ] || die "exit $rc"
	grep -q 'mesa-vulkan-drivers' "$T/err" || die "$(cat "$T/err")"
}

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

t_help_and_version() {
	"$FS" --help >"$T/out" || die "--help exit $?"
	grep -q '^usage: flopscope' "$T/out" || die "no usage"
	"$FS" --version | grep -Eq '^flopscope [0-9]+\.[0-9]+\.[0-9]+$' || die "bad --version"
}

# --- session logs ----------------------------------------------------------
t_log_should_replay_to_the_same_samples_and_statistics() {
	"$FS" llvm --duration 1.5 --format csv --log "$T/a.jsonl" >"$T/live.csv" 2>"$T/live.err" || die "record failed"
	"$FS" --replay "$T/a.jsonl" --format csv >"$T/replay.csv" 2>"$T/replay.err" || die "replay exit $?"
	cmp -s "$T/live.csv" "$T/replay.csv" || die "samples differ: $(diff "$T/live.csv" "$T/replay.csv" | head -5)"
	grep -A3 '^Summary' "$T/live.err" >"$T/s1"
	grep -A3 '^Summary' "$T/replay.err" >"$T/s2"
	# the same statistics (the live line also counts the warm-up check)
	diff <(sed 1d "$T/s1") <(sed 1d "$T/s2") >/dev/null || die "statistics differ: $(cat "$T/s1" "$T/s2")"
	head -1 "$T/a.jsonl" | python3 -c '
import json, sys
s = json.load(sys.stdin)
for k in ("format", "version", "flopscope", "start_utc", "host", "kernel", "cpu", "device", "vendor_id",
          "device_id", "uuid", "driver_name", "driver_version", "api_version", "queue_family", "workload",
          "flop_per_invocation", "shader_hash", "target_ms", "timing"):
    assert k in s, k
assert s["type"] == "session" and s["timing"] == "gpu"' || die "session record incomplete"
	tail -1 "$T/a.jsonl" | grep -q '"type":"summary"' || die "no closing summary"
	"$FS" --replay "$T/a.jsonl" --headless >"$T/out" || die "table replay failed"
	grep -q ' Measurement        Number of' "$T/out" || die "no table"
}

t_log_after_kill_9_should_read_back_to_the_last_line() {
	"$FS" llvm --duration 0 --log "$T/k.jsonl" >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 600); do [ -f "$T/k.jsonl" ] && [ "$(wc -l <"$T/k.jsonl")" -ge 15 ] && break; sleep 0.05; done
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	lines=$(wc -l <"$T/k.jsonl")
	[ "$lines" -ge 15 ] || die "only $lines lines"
	"$FS" --replay "$T/k.jsonl" --format csv >"$T/k.csv" 2>"$T/k.err" || die "replay exit $?: $(cat "$T/k.err")"
	n=$(($(wc -l <"$T/k.csv") - 1))
	recorded=$(grep -c '"type":"sample"' "$T/k.jsonl")
	# every complete sample line reads back (the last may be cut mid-line)
	[ "$n" -ge $((recorded - 1)) ] && [ "$n" -le "$recorded" ] || die "$n samples from $recorded sample lines"
}

t_sigint_should_close_the_log_with_a_summary() {
	"$FS" llvm --duration 0 --format csv --log "$T/i.jsonl" >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 600); do [ -f "$T/i.jsonl" ] && [ "$(wc -l <"$T/i.jsonl")" -ge 10 ] && break; sleep 0.05; done
	kill -INT "$pid"
	wait "$pid" || die "exit $?"
	tail -1 "$T/i.jsonl" | grep -q '"type":"summary"' || die "last line: $(tail -1 "$T/i.jsonl")"
}

t_log_default_place_and_no_log() {
	"$FS" llvm --duration 0.3 >/dev/null 2>&1 || die "run failed"
	ls "$XDG_STATE_HOME"/flopscope/*-llvmpipe.jsonl >/dev/null 2>&1 || die "no log under $XDG_STATE_HOME/flopscope"
	rm -rf "$XDG_STATE_HOME"
	"$FS" llvm --duration 0.3 --no-log >"$T/out" 2>&1 || die "run failed"
	[ ! -e "$XDG_STATE_HOME" ] || die "--no-log wrote $(ls -R "$XDG_STATE_HOME")"
	grep -q 'Session log' "$T/out" && die "--no-log still names a log"
	return 0
}

t_unwritable_or_full_log_should_exit_2() {
	"$FS" llvm --duration 1 --log /proc/flopscope/x.jsonl >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || die "exit $rc"
	grep -q 'cannot create the log folder /proc/flopscope' "$T/err" || die "$(cat "$T/err")"
	"$FS" llvm --duration 1 --log /dev/full >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || die "/dev/full: exit $rc"
	grep -q 'cannot write the session log /dev/full: No space left on device' "$T/err" || die "$(cat "$T/err")"
}

t_log_filling_up_mid_run_should_say_so_and_keep_measuring() {
	# a 16 KiB file size limit: the log fills up after a few dozen samples
	(ulimit -f 16; exec "$FS" llvm --duration 1.5 --log "$T/full.jsonl" --format csv) >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 1 ] || die "exit $rc"
	grep -q "cannot write the session log $T/full.jsonl: File too large; measuring goes on unrecorded" "$T/err" ||
		die "$(cat "$T/err")"
	[ "$(wc -l <"$T/out")" -ge 40 ] || die "measuring stopped: $(wc -l <"$T/out") lines"
	grep -q '^Summary: ' "$T/err" || die "no summary"
	"$FS" --replay "$T/full.jsonl" --format csv >"$T/r.csv" 2>"$T/r.err" || die "replay exit $?"
	[ "$(wc -l <"$T/r.csv")" -ge 20 ] || die "log kept too little"
}

t_foreign_and_damaged_logs_should_be_named() {
	"$FS" --replay /etc/passwd --headless >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || die "exit $rc"
	grep -q '/etc/passwd:1: not a flopscope session log' "$T/err" || die "$(cat "$T/err")"
	"$FS" llvm --duration 0.5 --no-log --format csv >/dev/null 2>&1 || return 1
	"$FS" llvm --duration 0.5 --log "$T/d.jsonl" >/dev/null 2>&1 || return 1
	sed -i '4s/.*/garbage/' "$T/d.jsonl"
	"$FS" --replay "$T/d.jsonl" --format csv >"$T/out" 2>"$T/err" || die "exit $?"
	grep -q "d.jsonl:4: not a JSON record; reading stopped there, the 2 samples before it are used" "$T/err" ||
		die "$(cat "$T/err")"
	[ "$(wc -l <"$T/out")" = 3 ] || die "expected 2 samples: $(cat "$T/out")"
}

t_compare_should_give_a_verdict() {
	"$FS" llvm --duration 1 --no-log --log "$T/x" >/dev/null 2>&1 && die "--log with --no-log accepted"
	"$FS" llvm --duration 1 --log "$T/c1.jsonl" --format csv >/dev/null 2>&1 || return 1
	"$FS" llvm --duration 1 --log "$T/c2.jsonl" --format csv >/dev/null 2>&1 || return 1
	"$FS" --compare "$T/c1.jsonl" "$T/c2.jsonl" >"$T/out" 2>&1 || die "exit $?: $(cat "$T/out")"
	for w in 'ratio of medians B/A: [0-9.]+ \(95% bootstrap CI [0-9.]+ \.\. [0-9.]+\)' \
	         'Mann-Whitney U test: U = [0-9]+, p = ' '^verdict: (B is (faster|slower) than A by [0-9.]+%|indistinguishable)'; do
		grep -Eq "$w" "$T/out" || die "missing /$w/: $(cat "$T/out")"
	done
	"$FS" --compare "$T/c1.jsonl" /etc/hostname >"$T/out" 2>&1
	[ $? = 2 ] || die "foreign B accepted"
}

t_export_csv_and_svg_should_parse_back() {
	"$FS" llvm --duration 1 --log "$T/e.jsonl" --format csv >/dev/null 2>&1 || return 1
	"$FS" --export "$T/e.jsonl" --csv >"$T/e.csv" || die "csv exit $?"
	"$FS" --export "$T/e.jsonl" --svg "$T/e.svg" || die "svg exit $?"
	python3 - "$T/e.csv" "$T/e.svg" "$T/e.jsonl" <<'PY' || return 1
import csv, json, sys, xml.dom.minidom
rows = list(csv.DictReader(open(sys.argv[1])))
recs = [json.loads(l) for l in open(sys.argv[3]) if '"type":"sample"' in l]
assert len(rows) == len(recs) > 10, (len(rows), len(recs))
for r, j in zip(rows, recs):
    assert int(r["groups"]) == j["groups"] and int(r["gpu_ns"]) == j["gpu_ns"]
    assert abs(float(r["flops"]) / j["flops"] - 1) < 1e-8
doc = xml.dom.minidom.parse(sys.argv[2])
assert doc.documentElement.tagName == "svg"
assert len(doc.getElementsByTagName("polyline")) == 4
texts = " ".join(t.firstChild.data for t in doc.getElementsByTagName("text") if t.firstChild)
assert "FLOPS" in texts and "workgroups" in texts and "llvmpipe" in texts
PY
	"$FS" --export "$T/e.jsonl" >"$T/out" 2>&1
	[ $? = 2 ] || die "--export without --csv/--svg accepted"
}

t_replay_dashboard_should_play_and_speed_up() {
	"$FS" llvm --duration 1 --log "$T/r.jsonl" --format csv >/dev/null 2>&1 || return 1
	start_ui "$FS" --replay "$T/r.jsonl" || return 1
	wait_for 'REPLAY x1' || return 1
	TM send-keys -t fs '>'
	wait_for 'REPLAY x2' || return 1
	wait_for 'flopscope +DONE' || return 1
	wait_for 'median +[0-9.]+ [kMGT]FLOPS' || return 1
	TM send-keys -t fs q
	wait_exit || return 1
	[ "$(cat "$T/exit")" = 0 ] || die "exit status $(cat "$T/exit")"
	screen | grep -q '^Summary: ' || die "no summary after quitting: $(screen)"
}

t_analyze_should_find_the_tutorials_jump() {
	"$FS" --analyze tests/data/tutorial_trace.csv >"$T/out" 2>&1 || die "exit $?: $(cat "$T/out")"
	[ "$(sed -n 1p "$T/out")" = "jump 241.5 ms  3.19 TFLOPS -> 6.15 TFLOPS  x1.93" ] || die "$(cat "$T/out")"
	[ "$(sed -n 2p "$T/out")" = "plateau 254.8 ms  6.13 TFLOPS" ] || die "$(cat "$T/out")"
	[ "$(wc -l <"$T/out")" = 2 ] || die "extra lines: $(cat "$T/out")"
	"$FS" --analyze tests/data/tutorial_trace.csv --format json | python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.stdin]
assert recs[0]["type"] == "jump" and recs[0]["kind"] == "step" and recs[0]["t_ms"] == 241.48, recs[0]
assert abs(recs[0]["ratio"] - 1.928) < 0.001 and recs[0]["samples"] == 3
assert recs[1] == {"type": "plateau", "reached": True, "t_ms": 254.78, "flops": 6.13e12, "samples": 20}, recs[1]' ||
		die "json"
	"$FS" llvm --duration 1 --log "$T/an.jsonl" --format csv >/dev/null 2>&1 || return 1
	"$FS" --analyze "$T/an.jsonl" >"$T/out" 2>&1 || die "log: exit $?"
	grep -Eq '^plateau' "$T/out" || die "$(cat "$T/out")"
	printf 't_ms,groups\n1,2\n' >"$T/bad.csv"
	"$FS" --analyze "$T/bad.csv" >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'bad.csv:1: the header has no t_ms and flops columns' "$T/out" || die "$(cat "$T/out")"
	printf 't_ms,flops\n1,2e9\n2,abc\n' >"$T/bad.csv"
	"$FS" --analyze "$T/bad.csv" >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'bad.csv:3: column 2 is not a number: "abc"' "$T/out" || die "$(cat "$T/out")"
}

t_caches_should_make_the_second_start_skip_shaderc() {
	XDG_CACHE_HOME="$T/cache" "$FS" llvm --duration 0.2 --no-log >"$T/a" 2>&1 || die "first: $(cat "$T/a")"
	grep -q 'start: shader .* (compiled by shaderc)' "$T/a" || die "first run: $(grep start: "$T/a")"
	ls "$T"/cache/flopscope/spirv-*.spv "$T"/cache/flopscope/pipeline-*.bin >/dev/null || die "no cache files"
	XDG_CACHE_HOME="$T/cache" "$FS" llvm --duration 0.2 --no-log >"$T/b" 2>&1 || die "second: $(cat "$T/b")"
	grep -q 'start: shader .* (SPIR-V from the cache), .*pipeline cache loaded' "$T/b" ||
		die "second run: $(grep start: "$T/b")"
	# a damaged cache file is only a slower start
	for f in "$T"/cache/flopscope/*; do printf 'junk' >"$f"; done
	XDG_CACHE_HOME="$T/cache" "$FS" llvm --duration 0.2 --no-log >"$T/c" 2>&1 || die "damaged cache: $(cat "$T/c")"
	grep -q '(compiled by shaderc)' "$T/c" || die "junk SPIR-V was used"
	XDG_CACHE_HOME="$T/nocache" "$FS" llvm --duration 0.2 --no-log --no-cache >"$T/d" 2>&1 || die "--no-cache failed"
	# (Mesa keeps its own shader cache there; flopscope writes nothing)
	[ ! -e "$T/nocache/flopscope" ] || die "--no-cache wrote $(ls -R "$T/nocache/flopscope")"
}

t_suite_should_print_one_row_per_workload() {
	"$FS" llvm --suite --duration 0.5 --no-log >"$T/out" 2>&1 || die "exit $?: $(cat "$T/out")"
	grep -q '^Suite on llvmpipe' "$T/out" || die "$(cat "$T/out")"
	for w in fp32 fp64 int32 fp16 int8dot fp32-scalar fp16-scalar copy h2d h2d-cached d2h d2h-cached d2d; do
		grep -Eq "^ $w +[0-9.]+ [kMGT]?(FLOPS|IOPS|B/s) +[0-9.]+ [kMGT]?(FLOPS|IOPS|B/s) " "$T/out" || die "no $w row: $(cat "$T/out")"
	done
	grep -q 'transfers of 64 MiB$' "$T/out" || die "$(head -1 "$T/out")"
	"$FS" llvm --suite --duration 0.5 --no-log --format json | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
assert [r["workload"] for r in rows] == ["fp32", "fp64", "int32", "fp16", "int8dot", "fp32-scalar", "fp16-scalar",
                                         "copy", "h2d", "h2d-cached", "d2h", "d2h-cached", "d2d"]
assert all(r["supported"] and r["median"] > 0 and r["checks_passed"] >= 2 for r in rows), rows
assert all(r["unit"] == "B/s" for r in rows[7:]) and all(r["size"] == 64 << 20 for r in rows[8:]), rows' || die "json"
}

t_latency_should_time_empty_dispatches_and_count_them() {
	"$FS" llvm --latency >"$T/out" 2>&1 || die "exit $?: $(cat "$T/out")"
	grep -Eq '^  GPU, between the dispatch.s timestamps: median [0-9.]+ us' "$T/out" || die "$(cat "$T/out")"
	grep -Eq '^  CPU, idle queue -> submit -> fence: +median [0-9.]+ us' "$T/out" || die "$(cat "$T/out")"
	grep -q 'all 520 dispatches ran (the workgroup counter reads 520)' "$T/out" || die "$(cat "$T/out")"
	"$FS" llvm --latency --format json | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["type"] == "latency" and r["dispatches"] == 500 and r["all_ran"]
assert 0 < r["gpu_us_median"] <= r["cpu_us_median"], r' || die "json"
}

t_make_install_should_give_a_working_program_and_man_page() {
	# installs the binary under test ($B: build, build-asan, ...) as built: -o all
	# keeps make from rebuilding it with other flags when a source is newer
	make -s -o all install B="$(dirname "$FS")" DESTDIR="$T/root" PREFIX=/opt/fs >"$T/out" 2>&1 ||
		die "install failed: $(cat "$T/out")"
	for f in bin/flopscope share/flopscope/shaders/fma_fp32.comp share/flopscope/themes/dark.json \
	         share/man/man1/flopscope.1; do
		[ -f "$T/root/opt/fs/$f" ] || die "missing $f"
	done
	(cd / && "$T/root/opt/fs/bin/flopscope" llvm --duration 0.3 --no-log >"$T/out" 2>&1) ||
		die "installed program failed: $(cat "$T/out")"
	grep -q '^Summary: ' "$T/out" || die "no summary"
	LC_ALL=C MANWIDTH=80 man --warnings -l "$T/root/opt/fs/share/man/man1/flopscope.1" >"$T/man" 2>"$T/manerr" ||
		die "man failed: $(cat "$T/manerr")"
	[ ! -s "$T/manerr" ] || die "man warnings: $(cat "$T/manerr")"
	for w in SYNOPSIS OPTIONS KEYS FILES 'EXIT STATUS' EXAMPLES; do grep -q "^$w" "$T/man" || die "no $w section"; done
	# every option in --help is in the man page
	for opt in $("$FS" --help | grep -oE -- '--[a-z-]+' | sort -u); do
		grep -q -- "$opt" "$T/man" || die "man page lacks $opt"
	done
}

t_workloads_should_run_checked_with_exact_counts() {
	"$FS" llvm --list-workloads >"$T/out" || die "--list-workloads exit $?"
	for w in fp32 fp64 int32 fp16 int8dot fp32-scalar fp16-scalar; do
		grep -Eq "^  $w +(FLOPS|IOPS) +supported" "$T/out" || die "$(cat "$T/out")"
	done
	for w in fp64 int32 fp16 int8dot fp32-scalar fp16-scalar; do
		"$FS" llvm --workload $w --format json --duration 1 --log "$T/$w.jsonl" >"$T/$w.json" 2>/dev/null || die "$w: exit $?"
		python3 - "$T/$w.json" "$T/$w.jsonl" "$w" <<'PY' || exit 1
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
session = json.loads(open(sys.argv[2]).readline())
assert session["workload"] == sys.argv[3], session["workload"]
samples = [r for r in recs if r["type"] == "sample"]
assert len(samples) >= 10 and recs[-1]["checks_passed"] >= 3
per = session["flop_per_invocation"] * session["local_size"]
assert all(s["flop"] == s["groups"] * per for s in samples), "operation count"
assert all(s["verified"] for s in samples[:2])
PY
	done
	"$FS" llvm --workload fp8 >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'not one of fp32, fp64, int32, fp16, int8dot, fp32-scalar, fp16-scalar, copy, h2d' "$T/out" || die "fp8: $(cat "$T/out")"
	"$FS" llvm --workload int32 --duration 0.5 --no-log | grep -q 'IOPS at target' || die "no IOPS"
}

t_memory_workloads_should_move_checked_bytes() {
	"$FS" llvm --list-workloads >"$T/out" || die "--list-workloads exit $?"
	for w in copy h2d h2d-cached d2h d2h-cached d2d; do
		grep -Eq "^  $w +B/s +supported" "$T/out" || die "$(cat "$T/out")"
	done
	# the copy shader over a 4 MiB buffer: bytes = groups x 16 KiB x 2
	"$FS" llvm --workload copy --size 4M --format json --duration 1 --log "$T/c.jsonl" >"$T/c.json" 2>/dev/null ||
		die "copy: exit $?"
	python3 - "$T/c.json" <<'PY' || exit 1
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
samples = [r for r in recs if r["type"] == "sample"]
assert len(samples) >= 10 and all(s["unit"] == "B/s" for s in samples)
assert all(s["flop"] == s["groups"] * 256 * 4 * 16 * 2 for s in samples), "bytes read + written"
assert recs[-1]["checks_passed"] >= 3 and recs[-1]["flops_median"] > 1e8, recs[-1]
PY
	# each transfer path over a short sweep: every size measured, checked
	# (thousands of copies a submission: too slow under sync validation,
	# which the run after covers on its own)
	for w in h2d d2h-cached d2d; do
		env -u FLOPSCOPE_VALIDATE "$FS" llvm --workload $w --size 16K-1M --format json --log "$T/$w.jsonl" >"$T/$w.json" 2>/dev/null ||
			die "$w: exit $?"
		python3 - "$T/$w.json" "$T/$w.jsonl" $w <<'PY' || exit 1
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
session = json.loads(open(sys.argv[2]).readline())
samples = [r for r in recs if r["type"] == "sample"]
per = 2 if sys.argv[3] == "d2d" else 1
assert all(s["flop"] == s["groups"] * s["size"] * per for s in samples), "bytes counted"
sizes = [r["size"] for r in recs[-1]["sizes"]]
assert sizes == [16384, 65536, 262144, 1048576], sizes
assert all(r["samples"] >= 3 and r["median"] > 0 for r in recs[-1]["sizes"])
# the rules: the first two submissions, and the first steady one of each
# size, are checked (how many every-25th ones fall in depends on the count)
assert all(s["verified"] for s in samples[:2])
for size in sizes:
    assert any(s["verified"] and s["steady"] and s["size"] == size for s in samples), size
assert recs[-1]["checks_passed"] >= len(sizes) + 2, recs[-1]
PY
	done
	for w in d2h h2d-cached d2d; do
		"$FS" llvm --workload $w --size 64K-256K --target-ms 0.5 --validate --no-log >"$T/out" 2>&1 ||
			die "$w under validation: $(tail -3 "$T/out")"
	done
	env -u FLOPSCOPE_VALIDATE "$FS" llvm --workload h2d --size 64K --duration 0.5 --no-log >"$T/out" 2>&1
	grep -Eq '^ +64 KiB +[0-9.]+ .B/s' "$T/out" || die "one size: $(cat "$T/out")"
	# a recorded sweep replays with its table by size; --analyze declines it
	"$FS" --replay "$T/h2d.jsonl" --headless >"$T/out" || die "replay exit $?"
	grep -Eq '^ +16 KiB +[0-9.]+ .B/s' "$T/out" && grep -Eq '^ +1 MiB ' "$T/out" || die "replay: $(tail -8 "$T/out")"
	"$FS" --analyze "$T/h2d.jsonl" | grep -q 'transfer sweep over 4 sizes' || die "analyze of a sweep"
	"$FS" llvm --workload copy --size 64G >"$T/out" 2>&1; [ $? = 2 ] && grep -q 'at most 16G' "$T/out" || die "64G: $(cat "$T/out")"
	"$FS" llvm --workload copy --size 8G >"$T/out" 2>&1; [ $? = 2 ] && grep -q 'is above the' "$T/out" || die "8G: $(cat "$T/out")"
	"$FS" llvm --workload d2d --trials 3 >"$T/out" 2>&1; [ $? = 2 ] && grep -q 'does not apply' "$T/out" || die "trials"
	"$FS" llvm --workload d2d --transfer-queue >"$T/out" 2>&1; [ $? = 2 ] && grep -q 'no transfer-only' "$T/out" || die "tq"
	"$FS" llvm --size 1M >"$T/out" 2>&1; [ $? = 2 ] && grep -q 'memory workload' "$T/out" || die "size on fp32"
}

t_trials_should_divide_times_and_count_every_dispatch() {
	"$FS" llvm --trials 7 --format json --duration 1 --log "$T/t.jsonl" >"$T/t.json" 2>/dev/null || die "exit $?"
	python3 - "$T/t.json" "$T/t.jsonl" <<'PY' || exit 1
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
session = json.loads(open(sys.argv[2]).readline())
assert session["trials"] == 7, session
samples = [r for r in recs if r["type"] == "sample"]
steady = [s for s in samples if s["steady"]]
assert len(steady) >= 5 and all(s["trials"] == 7 for s in samples)
# the loop sizes the submission: 7 dispatches of about target/7 each
med = sorted(s["gpu_ns"] for s in steady)[len(steady) // 2]
assert 0.5 * 20e6 / 7 < med < 2.0 * 20e6 / 7, med
per = session["flop_per_invocation"] * session["local_size"]
assert all(s["flop"] == s["groups"] * per for s in samples), "flop is per dispatch"
# the checked samples saw 7 x groups counted by the shader; the duty cycle
# counts all 7 dispatches of a submission (one would give about 1/7): the
# bound tells the two apart without depending on how loaded the machine is
assert recs[-1]["checks_passed"] >= 3 and 0.5 < recs[-1]["duty_cycle"] <= 1.0001, recs[-1]
PY
	"$FS" llvm --trials 0 >"$T/out" 2>&1; [ $? = 2 ] && grep -q 'out of range' "$T/out" || die "--trials 0: $(cat "$T/out")"
	"$FS" llvm --trials 2.5 >"$T/out" 2>&1; [ $? = 2 ] && grep -q 'whole number' "$T/out" || die "--trials 2.5"
}

# --- faults and signals ------------------------------------------------------
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

# start_ui ARGS...: flopscope in a 120x36 tmux pane; its exit status lands in $T/exit.
start_ui() {
	rm -f "$T/exit"
	TM kill-server 2>/dev/null
	UI_N=$((UI_N + 1))
	SOCK="$T/tmux.$BASHPID.$UI_N.sock"
	TM new-session -d -s fs -x 120 -y 36 "LANG=C.UTF-8 $* ; echo \$? > $T/exit" || die "tmux failed"
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

t_dashboard_should_pick_run_pause_resize_and_quit() {
	start_ui "$FS" || return 1
	wait_for 'pick a device' || return 1
	wait_for '1: llvmpipe .*compute queue: 0, type: Cpu' || return 1
	wait_for 'timestamps: 64 valid bits' || return 1   # details pane
	TM send-keys -t fs Enter
	wait_for 'FLOPS at the target time' || return 1
	wait_for 'median +[0-9.]+ [kMGT]FLOPS' || return 1
	screen | LC_ALL=C grep -q $'\xe2[\xa0-\xa3]' || die "no Braille glyphs: $(screen)"
	wait_for 'flopscope +STEADY' || return 1
	TM send-keys -t fs '?'
	wait_for 'this help' || return 1
	TM send-keys -t fs x
	TM resize-window -t fs -x 20 -y 5
	wait_for 'terminal too small' || return 1
	# resizing again and again while it runs
	for size in 60x20 130x40 80x24 100x30 81x25 200x50 100x30; do
		TM resize-window -t fs -x "${size%x*}" -y "${size#*x}"
		sleep 0.05
	done
	wait_for 'FLOPS at the target time' || return 1
	TM send-keys -t fs ' '
	wait_for 'PAUSED' || return 1
	local a b
	a=$(samples)
	for _ in $(seq 10); do sleep 0.1; b=$(samples); [ "$a" = "$b" ] || break; done
	[ -n "$a" ] && [ "$a" = "$b" ] || die "samples went on while paused: $a -> $b"
	TM send-keys -t fs ' '
	wait_for 'STEADY|GROWING' || return 1
	TM send-keys -t fs w
	wait_for '\| fp64 \|' || return 1
	TM send-keys -t fs w
	wait_for 'IOPS at the target time' || return 1
	TM send-keys -t fs q
	wait_exit || return 1
	[ "$(cat "$T/exit")" = 0 ] || die "exit status $(cat "$T/exit")"
	[ "$(TM display -p -t fs '#{alternate_on}')" = 0 ] || die "terminal left in the alternate screen"
}

t_dashboard_transfer_sweep_should_plot_bandwidth_by_size() {
	start_ui env -u FLOPSCOPE_VALIDATE "$FS" llvm --workload d2h --size 16K-1M --log "$T/sw.jsonl" || return 1
	wait_for 'B/s by copy size' || return 1
	wait_for 'B/s at the target time' || return 1
	wait_for '16 KiB' || return 1
	wait_for 'copies +[0-9]+ a submission' || return 1
	wait_for 'DONE' || return 1   # a sweep ends by itself
	screen | grep -Eq 'size +1 MiB' || die "the last size's statistics: $(screen)"
	TM send-keys -t fs q
	wait_exit || return 1
	[ "$(cat "$T/exit")" = 0 ] || die "exit status $(cat "$T/exit")"
	# the recorded sweep replays with the same plot
	start_ui "$FS" --replay "$T/sw.jsonl" || return 1
	wait_for 'B/s by copy size' || return 1
	TM send-keys -t fs '>'
	TM send-keys -t fs '>'
	wait_for 'flopscope +DONE' || return 1
	wait_for 'size +1 MiB' || return 1
	TM send-keys -t fs q
	wait_exit || return 1
	[ "$(cat "$T/exit")" = 0 ] || die "replay exit status $(cat "$T/exit")"
}

t_dashboard_named_device_should_skip_the_picker_and_stop_on_ctrl_c() {
	start_ui "$FS" llvm || return 1
	wait_for 'FLOPS at the target time' || return 1
	screen | grep -q 'pick a device' && die "picker shown"
	TM send-keys -t fs C-c
	wait_exit || return 1
	[ "$(cat "$T/exit")" = 0 ] || die "exit status $(cat "$T/exit")"
	[ "$(TM display -p -t fs '#{alternate_on}')" = 0 ] || die "terminal not restored"
}

t_make_run_should_open_the_dashboard_on_the_default_device() {
	start_ui make -s run || return 1
	wait_for 'FLOPS at the target time' 120 || return 1
	screen | grep -q 'pick a device' && die "the picker opened"
	wait_for 'llvmpipe' || return 1
	TM send-keys -t fs q
	wait_exit 60 || return 1
	[ "$(cat "$T/exit")" = 0 ] || die "exit status $(cat "$T/exit")"
}

t_dashboard_broken_theme_should_fall_back_with_a_message() {
	printf '{"roles": {"flops_line": {"fg": "purple"}}}' >"$T/bad.json"
	start_ui NO_COLOR=1 "$FS" llvm --theme "$T/bad.json" || return 1
	wait_for 'bad.json: role "flops_line": fg "purple" is not a colour' || return 1
	wait_for 'FLOPS at the target time' || return 1
	TM send-keys -t fs t
	wait_for 'theme dark' || return 1
	TM send-keys -t fs q
	wait_exit || return 1
	[ "$(cat "$T/exit")" = 0 ] || die "exit status $(cat "$T/exit")"
}

t_dashboard_d_should_return_to_the_picker_and_ascii_without_utf8() {
	start_ui LC_ALL=C "$FS" || return 1
	wait_for 'pick a device' || return 1
	TM send-keys -t fs Enter
	wait_for 'FLOPS at the target time' || return 1
	wait_for 'median +[0-9.]+ [kMGT]FLOPS' || return 1
	screen | LC_ALL=C grep -q $'\xe2[\xa0-\xa3]' && die "Braille in the C locale"
	screen | grep -Eq "^ +[0-9.]+ [kMGT]? *\| *[-.'|]" || screen | grep -Eq "[-.'|]{3}" || die "no ASCII plot: $(screen)"
	TM send-keys -t fs d
	wait_for 'pick a device' || return 1
	TM send-keys -t fs Enter
	wait_for 'flopscope +(GROWING|STEADY)' || return 1
	TM send-keys -t fs q
	wait_exit || return 1
	[ "$(cat "$T/exit")" = 0 ] || die "exit status $(cat "$T/exit")"
}

t_dashboard_device_lost_should_show_it_and_restore_the_terminal() {
	start_ui FLOPSCOPE_FAULT=device_lost@15 "$FS" llvm --log "$T/dl.jsonl" || return 1
	wait_for 'VK_ERROR_DEVICE_LOST' || return 1
	wait_for 'flopscope +ERROR' || return 1
	TM send-keys -t fs q
	wait_exit || return 1
	[ "$(cat "$T/exit")" = 1 ] || die "exit status $(cat "$T/exit")"
	[ "$(TM display -p -t fs '#{alternate_on}')" = 0 ] || die "terminal not restored"
	tail -1 "$T/dl.jsonl" | grep -q '"type":"summary"' || die "log not closed"
}

t_dashboard_sigterm_should_restore_the_terminal() {
	start_ui "$FS" llvm --no-log || return 1
	wait_for 'FLOPS at the target time' || return 1
	# only the flopscope this test started: the child of its tmux pane
	pid=$(pgrep -P "$(TM display -p -t fs '#{pane_pid}')" -x flopscope) || die "no process"
	kill -TERM "$pid" || die "cannot signal $pid"
	wait_exit || return 1
	[ "$(cat "$T/exit")" = 0 ] || die "exit status $(cat "$T/exit")"
	[ "$(TM display -p -t fs '#{alternate_on}')" = 0 ] || die "terminal not restored"
	screen | grep -q '^Summary: ' || die "no summary: $(screen)"
}

t_dashboard_without_terminal_type_should_print_the_table() {
	TERM= script -qec "$FS llvm --duration 0.5" /dev/null >"$T/out" 2>&1
	rc=$?
	[ "$rc" = 0 ] || die "exit $rc: $(cat "$T/out")"
	grep -q 'cannot use this terminal (TERM=unset)' "$T/out" || die "no message: $(head -5 "$T/out")"
	grep -q 'Summary: ' "$T/out" || die "no table"
}

names=$(declare -F | awk '{ print $3 }' | grep '^t_')
[ $# -gt 0 ] && names=$(printf "t_%s\n" "${@#t_}")
for t in $names; do
	if ( $t ); then echo "PASS: ${t#t_}"; else echo "FAIL: ${t#t_}"; fi
done
