# tests/integration/logs.sh: session logs: write, read back, compare, export, analyze.
# Sourced by tests/integration.sh, which provides lib.sh's helpers.

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
          "work_per_invocation", "shader_hash", "target_ms", "timing"):
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

t_log_default_place_and_no_log() {
	"$FS" llvm --duration 0.3 >/dev/null 2>&1 || die "run failed"
	ls "$XDG_STATE_HOME"/flopscope/*-llvmpipe-fp32.jsonl >/dev/null 2>&1 || die "no log under $XDG_STATE_HOME/flopscope"
	rm -rf "$XDG_STATE_HOME"
	"$FS" llvm --duration 0.3 --no-log >"$T/out" 2>&1 || die "run failed"
	[ ! -e "$XDG_STATE_HOME" ] || die "--no-log wrote $(ls -R "$XDG_STATE_HOME")"
	grep -q 'Session log' "$T/out" && die "--no-log still names a log"
	return 0
}

t_unwritable_log_should_exit_2_and_a_full_one_1() {
	tsan && skip "a file's errors, no thread of their own: check-asan and make test run it"
	"$FS" llvm --duration 1 --log /proc/flopscope/x.jsonl >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || die "exit $rc"
	grep -q 'cannot create the log folder /proc/flopscope' "$T/err" || die "$(cat "$T/err")"
	"$FS" llvm --duration 1 --log /dev/full >"$T/out" 2>"$T/err"
	rc=$?
	# a full disk is the system's failure, not bad input: exit 1 (issue 27)
	[ "$rc" = 1 ] || die "/dev/full: exit $rc"
	grep -q 'cannot write the session log /dev/full: No space left on device (--log PATH' "$T/err" || die "$(cat "$T/err")"
	# nothing was measured: it must not say that measuring goes on
	! grep -q 'measuring goes on' "$T/err" || die "/dev/full: $(cat "$T/err")"
	[ ! -s "$T/out" ] || die "/dev/full: measured: $(head -3 "$T/out")"
	# a folder: it takes a file name (it said "exists already: --force replaces it")
	for force in "" --force; do
		# shellcheck disable=SC2086
		"$FS" llvm --duration 1 --log "$T" $force >"$T/out" 2>"$T/err"
		rc=$?
		[ "$rc" = 2 ] || die "a folder $force: exit $rc"
		grep -q "the session log $T is a folder: --log takes a file name" "$T/err" || die "$(cat "$T/err")"
	done
	# a read-only place (sysfs refuses even root)
	"$FS" llvm --duration 1 --log /sys/flopscope.jsonl >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || die "/sys: exit $rc"
	grep -q 'cannot write the session log /sys/flopscope.jsonl: Permission denied' "$T/err" || die "$(cat "$T/err")"
	[ ! -s "$T/out" ] || die "/sys: measured"
}

t_log_filling_up_mid_run_should_say_so_and_keep_measuring() {
	# an 8 KiB file size limit: the log fills up after about 20 samples (16
	# KiB held all that ThreadSanitizer on a busy machine made in 1.5 s)
	local secs=1.5
	sanitized && secs=3
	(ulimit -f 8; exec "$FS" llvm --duration $secs --log "$T/full.jsonl" --format csv) >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 1 ] || die "exit $rc"
	grep -q "cannot write the session log $T/full.jsonl: File too large; measuring goes on unrecorded" "$T/err" ||
		die "$(cat "$T/err")"
	grep -q '^Summary: ' "$T/err" || die "no summary"
	"$FS" --replay "$T/full.jsonl" --format csv >"$T/r.csv" 2>"$T/r.err" || die "replay exit $?"
	local logged measured
	logged=$(($(wc -l <"$T/r.csv") - 1)) measured=$(($(wc -l <"$T/out") - 1))
	[ "$logged" -ge 10 ] || die "log kept too little: $logged samples"
	# measuring went on past the full log
	[ "$measured" -ge $((logged + 3)) ] || die "measuring stopped: $measured samples, $logged logged"
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
	# the damaged line is skipped and counted; the samples after it are used
	total=$(grep -c '"type":"sample"' "$T/d.jsonl")
	grep -q "d.jsonl: 1 damaged line skipped (the first at line 4); $total samples used" "$T/err" ||
		die "$(cat "$T/err")"
	[ "$(($(wc -l <"$T/out") - 1))" = "$total" ] || die "expected $total samples: $(wc -l <"$T/out") lines"
	# a compare on it says so too, and uses them all
	"$FS" --compare "$T/d.jsonl" "$T/d.jsonl" >"$T/out" 2>"$T/err" || die "compare: exit $?"
	grep -q 'damaged line skipped' "$T/err" || die "compare: $(cat "$T/err")"
	# a log of records this version does not know: refused, said
	{ head -1 "$T/d.jsonl"; echo '{"type":"quantum"}'; } >"$T/q.jsonl"
	"$FS" --replay "$T/q.jsonl" --headless >"$T/out" 2>"$T/err"
	[ $? = 2 ] && grep -q 'no samples this flopscope can read, and 1 record of a type it does not know ("quantum")' "$T/err" ||
		die "unknown types: $(cat "$T/err")"
}

# --compare on real lavapipe sessions: the report, its JSON, a busy loop on
# one of the two cores throughout B found slower (and --fail-if-slower
# failing on it), several sessions a side, and refusals. (That A/A pairs do
# not claim a difference is shown in the unit test over 20 synthetic pairs
# and recorded for real pairs in docs/INTERPRETATION.md: one real pair cannot
# prove it either way.)
# --compare --format csv: its JSON record as one row (each side flattened),
# the same verdict and figures.
t_compare_csv_should_say_what_its_json_says() {
	"$FS" llvm --duration 1.5 --log "$T/a.jsonl" >/dev/null 2>&1 || die "a: exit $?"
	"$FS" llvm --duration 1.5 --log "$T/b.jsonl" >/dev/null 2>&1 || die "b: exit $?"
	# a name with the separator in it: escaped, one file still
	cp "$T/b.jsonl" "$T/x;y\\z.jsonl"
	cp "$T/a.jsonl" "$T/a2.jsonl" # a side's sessions each named once
	"$FS" --compare "$T/a.jsonl" "$T/a2.jsonl" -- "$T/b.jsonl" "$T/x;y\\z.jsonl" --format csv >"$T/s.csv" 2>"$T/c.err" || true
	python3 - "$T/s.csv" "$T" <<'PY' || die "the separator: $(cat "$T/s.csv" "$T/c.err")"
import csv, re, sys
r = list(csv.DictReader(open(sys.argv[1])))[0]
t = sys.argv[2]
assert r["b_files"] == t + "/b.jsonl;" + t.replace("\\", "\\\\") + "/x\\;y\\\\z.jsonl", r["b_files"]
assert [f.replace("\\;", ";").replace("\\\\", "\\") for f in re.split(r"(?<!\\);", r["b_files"])][1] == t + "/x;y\\z.jsonl"
PY
	"$FS" --compare "$T/a.jsonl" "$T/b.jsonl" --format csv >"$T/c.csv" 2>"$T/c.err" || true
	"$FS" --compare "$T/a.jsonl" "$T/b.jsonl" --format json >"$T/c.json" 2>/dev/null || true
	python3 - "$T/c.csv" "$T/c.json" "$T/a.jsonl" <<'PY' || die "$(cat "$T/c.csv" "$T/c.err")"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
j = json.loads(open(sys.argv[2]).read())
assert len(rows) == 1, rows
r = rows[0]
assert r["verdict"] == j["verdict"] and r["why"] == j["why"] and r["a_files"] == sys.argv[3], (r, j)
for k in ("median", "best", "samples", "blocks"):
    assert abs(float(r["a_" + k]) - j["a"][k]) <= 1e-5 * abs(j["a"][k]) + 1e-9, (k, r, j)
assert abs(float(r["ratio"]) - j["ratio"]) <= 1e-5 * j["ratio"] and r["flopscope"] == j["flopscope"], (r, j)
PY
}

t_compare_should_hold_up() {
	# sessions of fixed length, then a single-threaded comparison
	sanitized && skip "20 s of fixed-length sessions, then one thread: make test runs it (--compare runs under the sanitizers in multi_device_logs_should_replay_and_compare_together)"
	"$FS" llvm --duration 1 --no-log --log "$T/x" >/dev/null 2>&1 && die "--log with --no-log accepted"
	for k in 1 2; do
		"$FS" llvm --duration 5 --log "$T/a$k.jsonl" >/dev/null 2>&1 || die "session a$k"
	done
	# B shares both cores with a busy loop each
	timeout 6 sh -c 'while :; do :; done' &
	busy=$!
	timeout 6 sh -c 'while :; do :; done' &
	busy2=$!
	"$FS" llvm --duration 5 --log "$T/b1.jsonl" >/dev/null 2>&1 || die "session b1"
	wait "$busy" "$busy2"
	# Real sessions on a shared VM: A alone may vary by 40% (other tenants),
	# so whether a verdict is due depends on the machine; what must hold is
	# that the verdict follows from the figures printed beside it.
	"$FS" --compare "$T/a1.jsonl" "$T/b1.jsonl" --format json >"$T/j" 2>"$T/err" || die "exit $?: $(cat "$T/err")"
	python3 - "$T/j" <<'PY' || exit 1
import json, sys
r = json.loads(open(sys.argv[1]).read())
assert r["type"] == "compare" and r["unit"] == "FLOPS" and r["workload"] == "fp32", r
assert r["method"] == "block_bootstrap" and r["a"]["best"] > 0, r
if min(r["a"]["blocks"], r["b"]["blocks"]) < 4:
    # on a loaded machine a 5 s session may reach the target late and hold
    # fewer than 4 whole 1 s blocks: then no verdict, and the reason said
    assert r["verdict"] == "cannot_tell" and r["why"].startswith("too short"), r
    print("  (a loaded machine: %d and %d blocks, too short to judge)" % (r["a"]["blocks"], r["b"]["blocks"]), file=sys.stderr)
    sys.exit(0)
assert r["ratio_lo"] <= r["ratio"] <= r["ratio_hi"], r
diff, m = abs(1 - r["ratio"]), r["min_effect_pct"] / 100
assert m == 0.15 and 0 <= r["noise"] <= r["spread"], r
if r["verdict"] == "slower":
    assert r["ratio_hi"] < 1 and diff > max(m, r["noise"]) - 1e-9 and r["best_p90_ratio"] < 1 - m, r
else:
    assert r["verdict"] == "cannot_tell", r
    assert (r["ratio_lo"] <= 1 <= r["ratio_hi"] or diff <= max(m, r["noise"]) + 1e-9 or
            (r["best_p90_ratio"] - 1) * (r["ratio"] - 1) <= 0 or abs(r["best_p90_ratio"] - 1) <= m), r
PY
	# The verdict rule itself, on logs made from a1 with known figures: A's
	# 1 s blocks 2% apart, B the same at 0.6: B is slower by 40%; B at 0.99:
	# below the minimum effect, and within the noise when that is lowered.
	python3 - "$T/a1.jsonl" "$T" <<'PY' || exit 1
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
def write(name, factor, gpu=False):
    with open(sys.argv[2] + "/" + name, "w") as f:
        i = 0
        for r in lines:
            if r.get("type") == "session" and gpu:
                r = dict(r, device_type="DiscreteGpu")
            if r.get("type") == "sample":
                r = dict(r)
                # the 1 s blocks (about 50 samples) differ by 2% from each other
                r["rate"] = 30e9 * factor * (1 + 0.02 * ((i // 50) % 3 - 1))
                i += 1
            f.write(json.dumps(r) + "\n")
write("ka.jsonl", 1.0)
write("kb.jsonl", 0.6)
write("kc.jsonl", 0.99)
write("ga.jsonl", 1.0, True)
write("gc.jsonl", 0.93, True)
PY
	"$FS" --compare "$T/ka.jsonl" "$T/kb.jsonl" >"$T/out" 2>&1 || die "exit $?: $(cat "$T/out")"
	for w in '^1 s batch means of the steady samples +A +B$' '^best block \(least interference\) ' \
	         '^ratio B/A: 0\.6[0-9]* \(95% interval [0-9.]+ \.\. [0-9.]+, bootstrap over 1 s blocks\)' \
	         '^noise in a session \(10th-90th pct\) +[0-9.]+% +[0-9.]+%$' '^minimum effect: 15% \(the default for a CPU device; --min-effect\)$' \
	         '^verdict: B is slower than A by 40\.[0-9]%: the 95% interval excludes 1; the difference \(40\.[0-9]%\) exceeds the minimum effect \(15%\)'; do
		grep -Eq "$w" "$T/out" || die "missing /$w/: $(cat "$T/out")"
	done
	"$FS" --compare "$T/ka.jsonl" "$T/kb.jsonl" --fail-if-slower 10 --format json >"$T/j" 2>"$T/err"
	[ $? = 1 ] || die "--fail-if-slower 10: exit $?: $(cat "$T/j" "$T/err")"
	python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["verdict"] == "slower" and r["failed"] is True and r["ratio_hi"] < 0.9, r' "$T/j" ||
		die "json: $(cat "$T/j")"
	"$FS" --compare "$T/ka.jsonl" "$T/kb.jsonl" --fail-if-slower 99 >/dev/null 2>&1 || die "--fail-if-slower 99 failed"
	"$FS" --compare "$T/ka.jsonl" "$T/kc.jsonl" >"$T/out" 2>&1 || die "exit $?"
	grep -Eq '^verdict: cannot tell: (the 95% interval of the ratio contains 1|the difference \(1.0%\) is below the minimum effect \(15%, --min-effect\))' "$T/out" ||
		die "1% below 15%: $(cat "$T/out")"
	"$FS" --compare "$T/ka.jsonl" "$T/kc.jsonl" --min-effect 0.5 >"$T/out" 2>&1 || die "exit $?"
	grep -Eq "^verdict: cannot tell: (the 95% interval of the ratio contains 1|the difference \(1.0%\) is within one session's noise)" "$T/out" ||
		die "1% within a 4% noise: $(cat "$T/out")"
	"$FS" --compare "$T/ka.jsonl" "$T/kc.jsonl" --min-effect 0 >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'min-effect' "$T/out" || die "--min-effect 0: $(cat "$T/out")"
	# a GPU's default minimum effect is 5%: 7% slower is claimed there, not
	# on a CPU device (15%)
	"$FS" --compare "$T/ga.jsonl" "$T/gc.jsonl" >"$T/out" 2>&1 || die "exit $?"
	grep -q '^minimum effect: 5% (the default for a GPU; --min-effect)$' "$T/out" &&
		grep -q '^verdict: B is slower than A by 7.0%' "$T/out" || die "GPU, 7%: $(cat "$T/out")"
	# several a side: the sessions' own spread, Welch
	"$FS" --compare "$T/a1.jsonl" "$T/a2.jsonl" -- "$T/b1.jsonl" "$T/a2.jsonl" --format json >"$T/j" 2>"$T/err" ||
		die "several: exit $?: $(cat "$T/err")"
	grep -q '"method":"welch_over_sessions"' "$T/j" || die "several: $(cat "$T/j")"
	# other workloads or units: refused, unless --force
	"$FS" llvm --workload fp32-scalar --duration 2 --log "$T/s.jsonl" >/dev/null 2>&1 || die "scalar session"
	"$FS" --compare "$T/a1.jsonl" "$T/s.jsonl" >"$T/out" 2>&1
	[ $? = 2 ] && grep -q "is fp32 (FLOPS), .*s.jsonl is fp32-scalar (FLOPS): not comparable (--force compares them anyway)" "$T/out" ||
		die "workloads: $(cat "$T/out")"
	"$FS" --compare "$T/a1.jsonl" "$T/s.jsonl" --force >"$T/out" 2>&1 || die "--force: exit $?"
	grep -q "warning: .*compared anyway" "$T/out" || die "--force: $(cat "$T/out")"
	"$FS" --compare "$T/a1.jsonl" /etc/hostname >"$T/out" 2>&1
	[ $? = 2 ] || die "foreign B accepted"
}

# The SVG report of a session with level changes (power state and not),
# a stretch without samples, clock and power: rsvg-convert renders it; no
# two labels overlap and none leaves the picture (by the width estimate the
# layout uses, src/session/svg.h); the ticks are round; a gap stays a gap.
t_svg_report_should_render_with_round_ticks_and_no_overlapping_labels() {
	"$FS" llvm --duration 1 --log "$T/real.jsonl" >/dev/null 2>&1 || die "run: exit $?"
	python3 - "$T/real.jsonl" "$T/s.jsonl" <<'PY' || exit 1
import json, sys
session = json.loads(open(sys.argv[1]).readline())
out = open(sys.argv[2], "w")
out.write(json.dumps(session) + "\n")
t, seq = 0.0, 0
def level(t):
    # (GFLOPS, clock MHz, power W): a power-state dip, a stretch without
    # samples (14-18 s), then levels alternating every 0.55 s at one clock
    if t < 4: return 100, 2445, 300
    if t < 8: return 60, 1500, 180
    if t < 14: return 100, 2445, 300
    if t < 18: return None
    if t < 26: return (80 if int((t - 18) / 0.55) % 2 else 50), 2445, 290
    return 90, 2445, 295
while t < 40:
    lv = level(t)
    t += 0.02
    if lv is None:
        continue
    g, mhz, w = lv
    flop = 2000000000
    gpu_ns = int(flop / (g * 1e9) * 1e9)
    out.write(json.dumps({"type": "sample", "seq": seq, "t_ms": t * 1e3, "x": 100, "y": 1, "z": 1,
        "groups": 100, "flop": flop, "gpu_ns": gpu_ns, "cpu_ns": gpu_ns + 400000, "pipelined": True,
        "flops": flop / (gpu_ns * 1e-9), "gpu_timed": True, "steady": True, "verified": seq % 10 == 0,
        "sm_mhz": mhz, "power_w": w, "unit": "FLOPS", "work_unit": "FLOP", "groups_unit": "workgroups",
        "target_ms": 20 if t < 30 else 100}) + "\n")
    seq += 1
PY
	"$FS" --export "$T/s.jsonl" --svg "$T/s.svg" 2>"$T/err" || die "export: exit $?: $(cat "$T/err")"
	rsvg-convert "$T/s.svg" -o "$T/s.png" 2>"$T/rsvg.err" || die "rsvg-convert: $(cat "$T/rsvg.err")"
	[ ! -s "$T/rsvg.err" ] || die "rsvg-convert: $(cat "$T/rsvg.err")"
	head -c 8 "$T/s.png" | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a' || die "not a PNG"
	python3 - "$T/s.svg" <<'PY' || exit 1
import math, re, sys
sys.path.insert(0, "tests")
import svg_labels
SVG = svg_labels.SVG
root, texts = svg_labels.check(sys.argv[1])
# round time ticks: equal 1-2-5 steps from 0
ts = [float(s[:-2]) for s in texts if re.fullmatch(r"\d+(\.\d+)? s", s)]
assert ts[0] == 0 and len(ts) >= 5, ts
step = ts[1] - ts[0]
m = step / 10 ** math.floor(math.log10(step))
assert round(m, 6) in (1, 2, 5) and all(abs(b - a - step) < 1e-9 for a, b in zip(ts, ts[1:len(set(ts))])), ts
# round throughput ticks
g = [float(s.split()[0]) for s in texts if re.fullmatch(r"\d+(\.\d+)? GFLOPS", s)]
assert len(g) >= 3, texts
for v in ("GPU (timestamps)", "CPU (wall)", "target", "shader clock (left axis)", "power (right axis)"):
    assert v in texts, v
stats = " ".join(texts)
assert "median" in stats and "sd" in stats and re.search(r"level changes: [1-9]\d* power state", stats), stats
assert any(s.startswith("1  step at") for s in texts), texts
assert re.search(r"energy [\d.]+ kJ, mean \d+ W, max 300 W", stats) and re.search(r"\d \S*FLOP per joule", stats), stats
numbered = [s for s in texts if re.fullmatch(r"\d+", s)]
assert len(numbered) >= 5, numbered
# the 4 s without samples is a gap: the throughput drawn in several pieces
lines = [p for p in root.iter(SVG + "polyline") if "#1a7f37" in p.get("stroke", "")]
assert len(lines) >= 2, len(lines)
# the target moved 20 -> 100 ms at 30 s: the title names both, each has its
# statistics, and the target line follows (two heights, not one)
assert any("targets 20 ms, 100 ms" in s for s in texts), texts[:3]
assert re.search(r"at 20 ms: median [0-9.]+ GFLOPS of \d+ samples", stats), stats
assert re.search(r"at 100 ms: median [0-9.]+ GFLOPS of \d+ samples", stats), stats
tgt = [p for p in root.iter(SVG + "polyline") if "8 4" in (p.get("stroke-dasharray") or "")]
ys = {round(float(pt.split(",")[1])) for p in tgt for pt in p.get("points").split()}
assert len(ys) == 2, ys
# every change listed whole: no line cut with "..."
assert not any(s.endswith("...") for s in texts), [s for s in texts if s.endswith("...")]
PY
	# a sweep: the chart by size (a tick each size, no overlap), and each
	# size's growth left out of the time plot (gaps, not dips to 0)
	# (thousands of copies a submission: not under sync validation)
	env -u FLOPSCOPE_VALIDATE "$FS" llvm --workload h2d --size 16K-256K --headless --log "$T/sw.jsonl" >/dev/null 2>&1 ||
		die "sweep: exit $?"
	"$FS" --export "$T/sw.jsonl" --svg "$T/sw.svg" 2>"$T/err" || die "export: $(cat "$T/err")"
	rsvg-convert "$T/sw.svg" -o "$T/sw.png" 2>"$T/rsvg.err" && [ ! -s "$T/rsvg.err" ] || die "rsvg: $(cat "$T/rsvg.err")"
	python3 - "$T/sw.svg" <<'PY' || exit 1
import re, sys
import xml.etree.ElementTree as ET
SVG = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
texts = [t.text or "" for t in root.iter(SVG + "text")]
assert "throughput by copy size (log)" in texts, texts[:10]
for lab in ("16 KiB", "64 KiB", "256 KiB"):
    assert lab in texts, (lab, texts)
assert any("a sweep of copy sizes" in s for s in texts)
assert not any(re.match(r"median [0-9]", s) for s in texts), texts
dots = list(root.iter(SVG + "circle"))
assert len(dots) == 3, len(dots)
tput = [p for p in root.iter(SVG + "polyline") if "1.3" in (p.get("stroke-width") or "") and "#1a7f37" in p.get("stroke", "")]
assert len(tput) >= 3, len(tput)   # one stretch a size at least
PY
	# several sweeps (h2d, d2h) in one chart by size, a line and a colour
	# each, named in the legend; a session that is not a sweep is refused
	env -u FLOPSCOPE_VALIDATE "$FS" llvm --workload d2h --size 16K-1M --headless --log "$T/sw2.jsonl" >/dev/null 2>&1 ||
		die "sweep: exit $?"
	"$FS" --export "$T/sw.jsonl" "$T/sw2.jsonl" --svg "$T/sws.svg" 2>"$T/err" || die "export: $(cat "$T/err")"
	rsvg-convert "$T/sws.svg" -o "$T/sws.png" 2>"$T/rsvg.err" && [ ! -s "$T/rsvg.err" ] || die "rsvg: $(cat "$T/rsvg.err")"
	python3 - "$T/sws.svg" <<'PY' || exit 1
import re, sys
sys.path.insert(0, "tests")
import svg_labels
SVG = svg_labels.SVG
root, texts = svg_labels.check(sys.argv[1])
assert "h2d" in texts and "d2h" in texts, texts
assert any("2 sweeps of copy sizes" in s for s in texts), texts[:3]
for lab in ("16 KiB", "256 KiB", "1 MiB"):
    assert lab in texts, (lab, texts)
dots = list(root.iter(SVG + "circle"))
assert len(dots) == 3 + 4, len(dots)   # 16K-256K and 16K-1M, x4 steps
assert len({d.get("fill") for d in dots}) == 2, [d.get("fill") for d in dots]
assert any(re.fullmatch(r"[0-9.]+ [kMG]B/s", s) for s in texts), texts
PY
	"$FS" --export "$T/sw.jsonl" "$T/real.jsonl" --svg "$T/bad.svg" >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'real.jsonl: its session (fp32) is not a sweep of copy sizes' "$T/out" && [ ! -e "$T/bad.svg" ] ||
		die "a run among sweeps: $(cat "$T/out")"
	"$FS" --export "$T/sw.jsonl" "$T/sw2.jsonl" --csv >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'with 2 logs draws their sweeps in one chart' "$T/out" || die "$(cat "$T/out")"
}

# The SVG's dispatch plot takes the dashboard's rule: a stall of 5x the
# target (FLOPSCOPE_FAULT=stall@4 holds each of the first 4 submissions
# 0.1 s) puts it on a log axis, said in its title; a run without one stays
# linear. A transfer at one size is no sweep (no chart by size, its median
# said); a sweep of sizes keeps its chart.
t_svg_should_plot_a_stall_on_a_log_axis_and_one_size_as_no_sweep() {
	FLOPSCOPE_FAULT=stall@4 "$FS" llvm --duration 1.5 --log "$T/st.jsonl" >/dev/null 2>&1 || die "stall run: exit $?"
	"$FS" --export "$T/st.jsonl" --svg "$T/st.svg" || die "export: exit $?"
	grep -q '>dispatch time (log: a dispatch of [0-9.]* ms, [0-9]*x the target)<' "$T/st.svg" ||
		die "no log axis: $(grep -o '>dispatch time[^<]*<' "$T/st.svg")"
	# a run without a stall: linear, unless the machine stalled it (a busy
	# one under a sanitizer held a dispatch 4x the target), then the rule
	# holds to the longest dispatch its log holds
	"$FS" llvm --duration 1 --log "$T/ok.jsonl" >/dev/null 2>&1 || die "run: exit $?"
	"$FS" --export "$T/ok.jsonl" --svg "$T/ok.svg" || die "export: exit $?"
	want=$(python3 -c 'import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if "\"sample\"" in l]
longest = max(max(s["gpu_ns"] if s.get("gpu_timed") else 0, s["cpu_ns"]) for s in r) / 1e6
at = "%.3g s" % (longest / 1e3) if longest >= 1e3 else "%.3g ms" % longest
print(">dispatch time<" if longest <= 4 * max(s["target_ms"] for s in r) else
      ">dispatch time (log: a dispatch of %s, " % at)' "$T/ok.jsonl") ||
		die "ok.jsonl unread"
	grep -qF "$want" "$T/ok.svg" || die "want $want: $(grep -o '>dispatch time[^<]*<' "$T/ok.svg")"
	"$FS" llvm --workload h2d --size 4M --duration 1 --log "$T/one.jsonl" >/dev/null 2>&1 || die "h2d: exit $?"
	"$FS" --export "$T/one.jsonl" --svg "$T/one.svg" || die "export: exit $?"
	grep -q 'by copy size\|a sweep of copy sizes' "$T/one.svg" && die "one size drawn as a sweep"
	grep -q '>median [0-9.]* [kMG]*B/s' "$T/one.svg" || die "no median: $(grep -o '>median[^<]*' "$T/one.svg")"
	"$FS" llvm --workload h2d --size 64K-1M --duration 2 --log "$T/sw.jsonl" >/dev/null 2>&1 || die "sweep: exit $?"
	"$FS" --export "$T/sw.jsonl" --svg "$T/sw.svg" || die "export: exit $?"
	grep -q 'throughput by copy size (log)' "$T/sw.svg" || die "the sweep lost its chart"
	python3 -c 'import sys, xml.dom.minidom as m; [m.parse(p) for p in sys.argv[1:]]' "$T"/st.svg "$T"/one.svg "$T"/sw.svg ||
		die "not XML"
}

t_export_csv_and_svg_should_parse_back() {
	"$FS" llvm --duration 1 --log "$T/e.jsonl" --format csv >/dev/null 2>&1 || return 1
	"$FS" --export "$T/e.jsonl" --csv >"$T/e.csv" || die "csv exit $?"
	"$FS" --export "$T/e.jsonl" --svg "$T/e.svg" || die "svg exit $?"
	python3 - "$T/e.csv" "$T/e.svg" "$T/e.jsonl" <<'PY' || return 1
import csv, json, sys, xml.dom.minidom
rows = list(csv.DictReader(open(sys.argv[1])))
recs = [json.loads(l) for l in open(sys.argv[3]) if '"type":"sample"' in l]
session = json.loads(open(sys.argv[3]).readline())
# a 1 s run: 7 samples under AddressSanitizer beside check-tsan
assert len(rows) == len(recs) >= 3, (len(rows), len(recs))
# every row names its device, as the session record does
for r in rows:
    assert (r["device"], r["uuid"], r["pci_bus_id"], r["host"], r["flopscope"]) == (
        session["device"], session["uuid"], session.get("pci_bus_id") or "", session["host"], session["flopscope"]), r
for r, j in zip(rows, recs):
    assert int(r["groups"]) == j["groups"] and int(r["gpu_ns"]) == j["gpu_ns"]
    assert abs(float(r["rate"]) / j["rate"] - 1) < 1e-8 and int(r["work"]) == j["work"]
    assert r["unit"] == j["unit"] == "FLOPS" and r["work_unit"] == j["work_unit"] == "FLOP"
    assert r["groups_unit"] == j["groups_unit"] == "workgroups"
doc = xml.dom.minidom.parse(sys.argv[2])
assert doc.documentElement.tagName == "svg"
assert len(doc.getElementsByTagName("polyline")) >= 4
texts = " ".join(t.firstChild.data for t in doc.getElementsByTagName("text") if t.firstChild)
assert "FLOPS" in texts and "workgroups" in texts and "llvmpipe" in texts
PY
	"$FS" --export "$T/e.jsonl" >"$T/out" 2>&1
	[ $? = 2 ] || die "--export without --csv/--svg accepted"
	# --csv OUT writes the file, the same as standard output
	"$FS" --export "$T/e.jsonl" --csv "$T/o.csv" >"$T/out" 2>&1 || die "--csv OUT: exit $?: $(cat "$T/out")"
	[ ! -s "$T/out" ] && cmp -s "$T/o.csv" "$T/e.csv" || die "--csv OUT differs: $(head -3 "$T/o.csv" "$T/out")"
	"$FS" --export "$T/e.jsonl" --csv "$T/o.csv" >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'exists' "$T/out" || die "--csv over an existing file: $(cat "$T/out")"
	# a stray word where no device is used is refused, not ignored
	"$FS" --export "$T/e.jsonl" --svg "$T/e2.svg" extra >"$T/out" 2>&1
	[ $? = 2 ] && grep -q '"extra": --export reads session logs and uses no device' "$T/out" || die "$(cat "$T/out")"
}

t_analyze_should_find_the_tutorials_step() {
	"$FS" --analyze tests/data/tutorial_trace.csv >"$T/out" 2>&1 || die "exit $?: $(cat "$T/out")"
	[ "$(sed -n 1p "$T/out")" = "level changes: 0 power state, 0 not a power-state change, 1 unexplained; 0 excursions (0.00 s in all: departures, down or up, that came back within 500 ms)" ] || die "$(cat "$T/out")"
	[ "$(sed -n 2p "$T/out")" = "  step at 241.5 ms: 3.18 TFLOPS -> 6.10 TFLOPS (x1.92), held to the end; unexplained: nothing read explains x1.92; no clock reading" ] || die "$(cat "$T/out")"
	[ "$(sed -n 3p "$T/out")" = "plateau 255 ms  6.13 TFLOPS" ] || die "$(cat "$T/out")"
	[ "$(wc -l <"$T/out")" = 3 ] || die "extra lines: $(cat "$T/out")"
	"$FS" --analyze tests/data/tutorial_trace.csv --format json | python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.stdin]
c = recs[0]
assert c["type"] == "change" and c["kind"] == "step" and c["t_ms"] == 241.48 and c["t_end_ms"] == 241.48, c
assert c["cause"] == "unexplained" and c["unit"] == "FLOPS" and c["held_to_end"] is True, c
assert abs(c["ratio"] - 1.918) < 0.001 and c["before"] == 3.18e12 and c["after"] == 6.1e12, c
a = recs[1]
assert a["type"] == "analysis" and a["changes"] == 1 and a["unexplained"] == 1 and a["excursions"] == 0, a
assert a["plateau_reached"] is True and a["plateau_t_ms"] == 254.78 and a["samples"] == 20, a
assert len(recs) == 2' || die "json"
	"$FS" llvm --duration 1 --log "$T/an.jsonl" --format csv >/dev/null 2>&1 || return 1
	"$FS" --analyze "$T/an.jsonl" >"$T/out" 2>&1 || die "log: exit $?"
	grep -Eq '^plateau' "$T/out" || die "$(cat "$T/out")"
	printf 't_ms,groups\n1,2\n' >"$T/bad.csv"
	"$FS" --analyze "$T/bad.csv" >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'bad.csv:1: the header has no t_ms and flops (or rate) columns' "$T/out" || die "$(cat "$T/out")"
	printf 't_ms,flops\n1,2e9\n2,abc\n' >"$T/bad.csv"
	"$FS" --analyze "$T/bad.csv" >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'bad.csv:3: column 2 is not a number: "abc"' "$T/out" || die "$(cat "$T/out")"
}

# Each change and excursion --analyze lists is whole, its cause as its JSON
# record has it: a departure with three parts (a busy CPU, the clock, two
# processes on the GPU) was cut at 200 characters ("2 other processes on ").
t_analyze_should_print_each_change_whole() {
	python3 tests/data/mklog.py fp32 "$T/a.jsonl" || die "mklog"
	python3 - "$T/a.jsonl" "$T/b.jsonl" <<'PY' || exit 1
import json, sys
out = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["type"] == "sample":
        r["other_gpu"], r["other_cpu"] = 0, 5.0
        if 8980 <= r["t_ms"] < 9100:  # mklog's departure at 9 s, longer, with the three
            r["rate"] *= 0.5
            r["sm_mhz"], r["other_gpu"], r["other_cpu"] = 1300.0, 2, 90.0
    out.append(json.dumps(r))
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
	"$FS" --analyze "$T/b.jsonl" >"$T/out" 2>&1 || die "exit $?: $(cat "$T/out")"
	"$FS" --analyze "$T/b.jsonl" --format json >"$T/out.json" 2>&1 || die "json: exit $?: $(cat "$T/out.json")"
	python3 - "$T/out" "$T/out.json" <<'PY' || die "$(cat "$T/out")"
import json, sys
text = open(sys.argv[1]).read().splitlines()
recs = [json.loads(l) for l in open(sys.argv[2])]
exc = [r for r in recs if r["type"] == "excursion"]
chg = [r for r in recs if r["type"] == "change"]
assert len(exc) == 1 and len(chg) == 1, recs
# the departure's three parts, as the record has them
assert exc[0]["why"].count(";") == 2 and "2 other processes on the GPU" in exc[0]["why"], exc[0]
for r, word in ((exc[0], "excursion at"), (chg[0], "step at")):
    line = [l for l in text if l.startswith("  " + word)]
    assert len(line) == 1 and line[0].endswith(": " + r["why"]), (line, r["why"])
PY
}

# A session log never destroys a file: an existing --log is refused (exit 2)
# unless --force; two runs on one --log: the second refuses, the first's log
# stays whole; two default-path runs in the same second get two files.
t_log_should_never_overwrite_or_interleave() {
	"$FS" llvm --duration 0.3 --log "$T/o.jsonl" --format csv >/dev/null 2>&1 || die "first run: exit $?"
	cp "$T/o.jsonl" "$T/o.before"
	"$FS" llvm --duration 0.3 --log "$T/o.jsonl" >"$T/out" 2>&1
	rc=$?
	[ "$rc" = 2 ] && grep -q 'o.jsonl exists already: --force replaces it' "$T/out" || die "exit $rc: $(cat "$T/out")"
	cmp -s "$T/o.jsonl" "$T/o.before" || die "the refused run changed the log"
	"$FS" llvm --duration 0.3 --log "$T/o.jsonl" --force --format csv >/dev/null 2>&1 || die "--force: exit $?"
	[ "$(grep -c '"type":"session"' "$T/o.jsonl")" = 1 ] || die "--force: not one session: $(head -c 300 "$T/o.jsonl")"
	# the same --log twice at once (the first runs until stopped, so that
	# however slow the second one starts, the first still writes)
	rm -f "$T/two.jsonl"
	"$FS" llvm --duration 0 --log "$T/two.jsonl" --format csv >/dev/null 2>"$T/one.err" &
	pid=$!
	for _ in $(seq 200); do [ -s "$T/two.jsonl" ] && break; sleep 0.05; done
	"$FS" llvm --duration 0.3 --log "$T/two.jsonl" --force >"$T/out" 2>&1
	rc=$?
	kill -INT "$pid"
	wait "$pid"
	r1=$?
	[ "$r1" = 130 ] || die "the first run: exit $r1: $(cat "$T/one.err")"
	[ "$rc" = 2 ] && grep -q 'being written by another process' "$T/out" || die "second writer: exit $rc: $(cat "$T/out")"
	[ "$(grep -c '"type":"session"' "$T/two.jsonl")" = 1 ] && tail -1 "$T/two.jsonl" | grep -q '"type":"summary"' ||
		die "the first run's log is damaged"
	# two default-path runs started at once: two logs, none lost
	mkdir -p "$T/twologs"
	XDG_STATE_HOME="$T/twologs" "$FS" llvm --duration 0.5 --format csv >/dev/null 2>&1 &
	XDG_STATE_HOME="$T/twologs" "$FS" llvm --duration 0.5 --format csv >/dev/null 2>&1 &
	wait
	n=$(find "$T/twologs/flopscope" -name '*.jsonl' | wc -l)
	[ "$n" = 2 ] || die "default logs: $n files: $(ls "$T/twologs/flopscope")"
	for f in "$T"/twologs/flopscope/*.jsonl; do
		[ "$(grep -c '"type":"session"' "$f")" = 1 ] && tail -1 "$f" | grep -q '"type":"summary"' || die "$f damaged"
	done
}

# --export --svg never destroys a file: not the input, a device, a symlink,
# nor (without --force) an existing file; the log is left as it was.
t_export_should_never_replace_the_input_a_device_or_a_link() {
	"$FS" llvm --duration 0.3 --log "$T/x.jsonl" --format csv >/dev/null 2>&1 || die "run: exit $?"
	cp "$T/x.jsonl" "$T/x.before"
	ln -s "$T/x.jsonl" "$T/link.svg"
	echo keep >"$T/old.svg"
	for out in "$T/x.jsonl" /dev/null "$T/link.svg" "$T/old.svg" "$T"; do
		"$FS" --export "$T/x.jsonl" --svg "$out" >"$T/out" 2>&1
		rc=$?
		[ "$rc" = 2 ] && grep -q "^flopscope: --svg: " "$T/out" || die "--svg $out: exit $rc: $(cat "$T/out")"
	done
	grep -q 'is the input' <("$FS" --export "$T/x.jsonl" --svg "$T/x.jsonl" 2>&1) || die "input not named"
	cmp -s "$T/x.jsonl" "$T/x.before" || die "the log changed"
	[ -L "$T/link.svg" ] && [ "$(cat "$T/old.svg")" = keep ] || die "a refused output changed"
	"$FS" --export "$T/x.jsonl" --svg "$T/old.svg" --force >"$T/out" 2>&1 || die "--force: $(cat "$T/out")"
	grep -q '<svg' "$T/old.svg" || die "--force did not write the SVG"
	"$FS" --export "$T/x.jsonl" --svg "$T/link.svg" --force >/dev/null 2>&1 && die "--force replaced a link"
	[ -L "$T/link.svg" ] || die "the link was replaced"
}

# A crafted log's strings never reach the terminal as escape sequences.
t_crafted_log_strings_should_be_printed_harmless() {
	# a fixed log (a 0.3 s run under ThreadSanitizer on CI's machine had no
	# second at the target, which --compare refuses)
	python3 tests/data/mklog.py fp32 "$T/craft.jsonl" || die "mklog"
	python3 - "$T/craft.jsonl" "$T/evil.jsonl" <<'PY' || exit 1
import json, sys
lines = open(sys.argv[1]).read().splitlines()
s = json.loads(lines[0])
s["device"] = "GPU \x1b]0;owned\x07\x1b[2J\u009b31m"
s["host"] = "h\x1b[5m"
lines[0] = json.dumps(s)
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
PY
	"$FS" --replay "$T/evil.jsonl" --headless >"$T/out" 2>&1 || die "replay: exit $?"
	"$FS" --compare "$T/evil.jsonl" "$T/craft.jsonl" >>"$T/out" 2>&1 || die "compare: exit $?"
	"$FS" --analyze "$T/evil.jsonl" >>"$T/out" 2>&1 || die "analyze: exit $?"
	grep -q 'GPU ?]0;owned??\[2J??31m' "$T/out" || die "the name is not shown: $(head -5 "$T/out")"
	! LC_ALL=C grep -q $'\x1b\|\x07\|\xc2\x9b' "$T/out" || die "an escape reached the output"
	# bytes that are not UTF-8 (an encoded UTF-16 surrogate, a lead byte
	# past F4, a cut sequence) in the name and the host: every output that
	# embeds them is UTF-8 still (the SVG is XML, the records decode)
	python3 - "$T/craft.jsonl" "$T/bad.jsonl" <<'PY' || exit 1
import sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
lines[0] = lines[0].replace(b'"device":"', b'"device":"GPU \xed\xa0\x80 \xf5\x80 \xc3', 1).replace(b'"host":"', b'"host":"h\xff', 1)
open(sys.argv[2], "wb").write(b"\n".join(lines))
PY
	"$FS" --export "$T/bad.jsonl" --svg "$T/bad.svg" >"$T/out" 2>&1 || die "svg: exit $?: $(cat "$T/out")"
	"$FS" --replay "$T/bad.jsonl" --headless --format json >"$T/bad.json" 2>"$T/out" || die "replay: exit $?: $(cat "$T/out")"
	"$FS" --replay "$T/bad.jsonl" --headless --format csv >"$T/bad.csv" 2>"$T/out" || die "replay csv: exit $?: $(cat "$T/out")"
	"$FS" --replay "$T/bad.jsonl" --headless >"$T/bad.txt" 2>&1 || die "replay text: exit $?: $(cat "$T/bad.txt")"
	grep -q "GPU ??? ?? ?Golden" "$T/bad.txt" && iconv -f UTF-8 -t UTF-8 "$T/bad.txt" >/dev/null ||
		die "the replay's text: $(cat -v "$T/bad.txt" | head -3)"
	python3 - "$T/bad.svg" "$T/bad.json" "$T/bad.csv" <<'PY' || die "not UTF-8: $(cat -v "$T/bad.svg" | grep -m1 GPU)"
import json, sys, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
assert any((t.firstChild.data if t.firstChild else "").startswith("GPU ??? ?? ?Golden")
           for t in doc.getElementsByTagName("text")), "the name not in the SVG"
[json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
open(sys.argv[3], encoding="utf-8").read()
PY
}

# A log larger than the memory the process may use (a 36-hour session at the
# 20 ms target is 6.5 million samples, 2 GB): read in bounded memory, every
# sample in the table and the CSV export, the plot thinned evenly. Under a
# sanitizer (whose shadow memory no ulimit allows) a smaller log, no limit.
t_a_long_log_should_replay_in_bounded_memory() {
	# the replay, export and analysis of a log run on one thread: nothing
	# for ThreadSanitizer to watch (make test and check-asan run it)
	tsan && skip "single-threaded commands: ThreadSanitizer has no second thread to watch; check-asan runs it"
	csv_run
	# 800000 samples: past the plots' thinning (524288) and, at 354 bytes
	# each, a log larger than the limit
	local n=800000 limit=250000
	# a sanitizer build: a log still past the statistics' thinning (16384)
	sanitized && n=40000 limit=unlimited
	"$FS" llvm --duration 1 --log "$T/seed.jsonl" >/dev/null 2>&1 || die "seed run failed"
	python3 tests/long_log.py "$T/seed.jsonl" "$T/long.jsonl" "$n" || die "the long log"
	size=$(stat -c %s "$T/long.jsonl")
	[ "$limit" = unlimited ] || [ "$size" -gt $((limit * 1024)) ] || die "the log ($size B) is smaller than the limit"
	(ulimit -v "$limit"; "$FS" --replay "$T/long.jsonl" --headless --format csv >"$T/l.csv" 2>"$T/l.err") ||
		die "replay: exit $?: $(cat "$T/l.err")"
	[ "$(($(wc -l <"$T/l.csv") - 1))" = "$n" ] || die "replay: $(wc -l <"$T/l.csv") lines for $n samples"
	(ulimit -v "$limit"; "$FS" --export "$T/long.jsonl" --svg "$T/l.svg" 2>"$T/s.err") ||
		die "svg: exit $?: $(cat "$T/s.err")"
	# the plot keeps an even subset, and says so (the table kept none: it printed each)
	grep -q "is long ($n samples): plots and the dashboard replay keep 1 in" "$T/s.err" ||
		[ "$n" -le 524288 ] || die "no note on thinning: $(cat "$T/s.err")"
	grep -q '</svg>' "$T/l.svg" || die "svg incomplete"
	(ulimit -v "$limit"; "$FS" --analyze "$T/long.jsonl" >"$T/a.out" 2>"$T/a.err") ||
		die "analyze: exit $?: $(cat "$T/a.err")"
	grep -q '^plateau' "$T/a.out" || die "analyze: $(cat "$T/a.out")"
}

# Every offline command given what is not a log: a folder, a FIFO nobody
# writes (it must not hang), /dev/zero (no line ends: bounded memory), a
# symbolic-link loop, an empty file. Exit 2 and why, within the timeout. A
# log streamed through a FIFO (zcat log.gz > fifo) reads like the file.
t_offline_inputs_should_be_refused_or_streamed_never_hang() {
	local lim=250000
	sanitized && lim=unlimited
	"$FS" llvm --duration 0.5 --log "$T/good.jsonl" >/dev/null 2>&1 || die "seed run failed"
	mkfifo "$T/fifo"
	ln -s "$T/loop-b" "$T/loop-a"
	ln -s "$T/loop-a" "$T/loop-b"
	: >"$T/empty.jsonl"
	mkdir "$T/dir"
	for input in "$T/dir:is a folder, not a file" "$T/fifo:empty file, not a flopscope session log" \
	             "/dev/zero:has a line of more than 67108864 bytes: not a text log" \
	             "$T/loop-a:Too many levels of symbolic links" "$T/empty.jsonl:empty file"; do
		f=${input%%:*} want=${input#*:}
		for mode in "--replay F --headless" "--compare F $T/good.jsonl" "--export F --csv" "--analyze F"; do
			args=${mode//F/$f}
			# shellcheck disable=SC2086
			(ulimit -v $lim; timeout 20 "$FS" $args) >"$T/out" 2>"$T/err"
			rc=$?
			[ "$rc" = 2 ] || die "$args: exit $rc: $(cat "$T/err")"
			case "$mode:$f" in
			--analyze*:"$T/dir" | --analyze*:"$T/fifo" | --analyze*:/dev/zero)
				grep -q "^flopscope: --analyze: $f is not a regular file" "$T/err" || die "$args: $(cat "$T/err")" ;;
			*) grep -q "^flopscope: .*$want" "$T/err" || die "$args: $(cat "$T/err")" ;;
			esac
		done
	done
	"$FS" --replay "$T/good.jsonl" --headless --format csv >"$T/file.csv" 2>/dev/null || die "replay of the file"
	for mode in "--replay $T/fifo --headless --format csv" "--export $T/fifo --csv"; do
		# a writer that comes half a second after the reader opened the FIFO
		# (read as empty before: the test raced its own writer on a loaded machine)
		(sleep 0.5; cat "$T/good.jsonl" >"$T/fifo") &
		# shellcheck disable=SC2086
		timeout 20 "$FS" $mode >"$T/fifo.csv" 2>"$T/err" || die "$mode: exit $?: $(cat "$T/err")"
		wait
		cmp -s "$T/file.csv" "$T/fifo.csv" || die "$mode: rows differ from the file's"
	done
}

# The default log folder stays bounded: the oldest of flopscope's own logs go
# first (--log-keep, --log-cap); a file of another name, a link, and --log
# files are never touched.
t_old_logs_should_go_oldest_first() {
	local dir="$T/state/flopscope"
	mkdir -p "$dir"
	for k in 01 02 03 04 05 06 07 08; do
		head -c 100000 /dev/zero >"$dir/202601${k}T000000Z-llvmpipe-fp32.jsonl"
	done
	echo keep >"$dir/notes.jsonl"
	ln -s /etc/hostname "$dir/20260101T000001Z-link-fp32.jsonl"
	XDG_STATE_HOME="$T/state" "$FS" llvm --duration 0.3 --log-keep 5 >/dev/null 2>&1 || die "exit $?"
	# 4 old ones and the new one
	[ "$(ls "$dir" | grep -c '^2026010[5-8]T000000Z-llvmpipe-fp32.jsonl$')" = 4 ] || die "$(ls "$dir")"
	[ ! -e "$dir/20260101T000000Z-llvmpipe-fp32.jsonl" ] || die "the oldest stayed"
	[ -e "$dir/notes.jsonl" ] && [ -L "$dir/20260101T000001Z-link-fp32.jsonl" ] || die "a foreign file went"
	[ "$(ls "$dir" | grep -vc '^202601')" -ge 2 ] || die "no new log: $(ls "$dir")"
	# by size: 250 kB holds two of the old 100 kB ones
	XDG_STATE_HOME="$T/state" "$FS" llvm --duration 0.3 --log-cap 250K --log-keep 0 >/dev/null 2>&1 || die "exit $?"
	[ "$(ls "$dir" | grep -c '^202601..T000000Z')" -le 2 ] || die "$(ls -l "$dir")"
	XDG_STATE_HOME="$T/state" "$FS" llvm --duration 0.3 --log-keep 1.5 >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'not a whole number' "$T/out" || die "$(cat "$T/out")"
}

# --logs: the default folder's sessions newest first, with device, workload,
# median and samples from each log's summary; a log cut short says so.
t_logs_should_list_recent_sessions() {
	tsan && skip "a folder's listing, no thread of its own: check-asan and make test run it"
	export XDG_STATE_HOME="$T/s2"
	"$FS" --logs >"$T/out" 2>&1 || die "empty: exit $?"
	grep -q '^No session logs yet' "$T/out" || die "$(cat "$T/out")"
	"$FS" llvm --duration 0.5 >/dev/null 2>&1 || die "fp32 run"
	sleep 1 # the names' times differ
	"$FS" llvm --workload int32 --duration 0.5 >/dev/null 2>&1 || die "int32 run"
	mkdir -p "$XDG_STATE_HOME/flopscope"
	head -1 "$(ls "$XDG_STATE_HOME"/flopscope/*-fp32.jsonl)" >"$XDG_STATE_HOME/flopscope/20200101T000000Z-llvmpipe-fp32.jsonl"
	"$FS" --logs >"$T/out" 2>&1 || die "exit $?: $(cat "$T/out")"
	sed -n 2p "$T/out" | grep -Eq '^20[0-9-]+T[0-9:]+Z +llvmpipe.* int32 +[0-9.]+ [kMGT]?IOPS +[0-9]+  /.*-llvmpipe-int32.jsonl$' ||
		die "newest first: $(cat "$T/out")"
	sed -n 3p "$T/out" | grep -Eq ' fp32 +[0-9.]+ [kMGT]?FLOPS +[0-9]+  /' || die "$(cat "$T/out")"
	# the columns sized to their cells: lavapipe's name (32 characters)
	# whole, and the header's columns where the rows' are
	dev=$(head -1 "$(ls "$XDG_STATE_HOME"/flopscope/*-fp32.jsonl | tail -1)" | python3 -c 'import json, sys; print(json.load(sys.stdin)["device"])')
	sed -n 2,3p "$T/out" | grep -c -F "  $dev  " | grep -qx 2 || die "device name cut: $dev: $(cat "$T/out")"
	python3 - "$T/out" <<'PY' || die "columns: $(cat "$T/out")"
import sys
rows = open(sys.argv[1]).read().splitlines()
head = rows[0]
for r in rows[1:4]:
    for word in ("device", "workload", "log"):
        i = head.index(word)
        assert r[i - 2:i] == "  " and r[i] != " ", (word, r)
PY
	sed -n 4p "$T/out" | grep -q ' cut short ' || die "$(cat "$T/out")"
	grep -q '^3 logs, .* (kept: at most 500 logs and 100 MiB' "$T/out" || die "$(cat "$T/out")"
	"$FS" --logs --format json | python3 -c '
import json, sys
r = [json.loads(l) for l in sys.stdin]
assert [x["workload"] for x in r] == ["int32", "fp32", "fp32"], r
assert r[0]["complete"] and r[0]["unit"] == "IOPS" and r[0]["median"] > 0 and r[0]["samples"] > 0, r
assert r[2]["complete"] is False and "median" not in r[2], r' || die "json"
	"$FS" --logs --format csv >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'format csv does not apply to --logs' "$T/out" || die "$(cat "$T/out")"
}

# Bytes that are not UTF-8 in a device name (a log written by another tool,
# a Latin-1 é) made the SVG invalid XML; a control character (ESC, C1 NEL)
# too. Every label is printable UTF-8: such bytes become '?'.
t_svg_should_stay_valid_xml_whatever_bytes_a_name_holds() {
	"$FS" llvm --duration 0.3 --log "$T/a.jsonl" --format csv >/dev/null 2>&1 || die "seed run"
	LC_ALL=C sed 's/"device":"llvmpipe/"device":"llvm\xe9pipe\\u001b[31m\xc2\x85/' "$T/a.jsonl" >"$T/b.jsonl"
	LC_ALL=C grep -q $'llvm\xe9pipe' "$T/b.jsonl" || die "the name was not planted"
	"$FS" --export "$T/b.jsonl" --svg "$T/b.svg" >"$T/out" 2>&1 || die "export: exit $?: $(cat "$T/out")"
	python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$T/b.svg" 2>"$T/x.err" ||
		die "not XML: $(cat "$T/x.err")"
	grep -q 'llvm?pipe?\[31m?' "$T/b.svg" || die "the name: $(grep -ao 'llvm[^<]*' "$T/b.svg" | head -2)"
	# a long name of valid UTF-8, cut to fit a line (at a byte, one of a
	# character's two): still valid
	local pad
	for pad in "" x; do
		python3 - "$T/a.jsonl" "$T/c.jsonl" "$pad" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
lines[0] = lines[0].replace('"device":"llvmpipe', '"device":"llvmpipe ' + sys.argv[3] + "\u00e9" * 300, 1)
open(sys.argv[2], "w", encoding="utf-8").write("\n".join(lines))
PY
		"$FS" --export "$T/c.jsonl" --svg "$T/c$pad.svg" >"$T/out" 2>&1 || die "export: exit $?: $(cat "$T/out")"
		python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$T/c$pad.svg" 2>"$T/x.err" ||
			die "a long name cut ('$pad'): not XML: $(cat "$T/x.err")"
	done
}

# --analyze reported from times that ran backwards and counted a duplicated
# sample twice, silently. A log (or CSV trace) whose steady samples' times
# do not only go forward is refused, exit 2, the sample named.
t_analyze_should_refuse_times_that_run_backwards_or_repeat() {
	"$FS" llvm --duration 1 --log "$T/m.jsonl" --format csv >"$T/m.csv" 2>/dev/null || die "seed run"
	"$FS" --analyze "$T/m.jsonl" >/dev/null 2>"$T/err" || die "the good log: exit $?: $(cat "$T/err")"
	python3 - "$T" <<'PY'
import sys
T = sys.argv[1]
for name, sep in (("m.jsonl", None), ("m.csv", None)):
    lines = open("%s/%s" % (T, name)).read().splitlines()
    rows = [i for i, l in enumerate(lines) if ('"type":"sample"' in l) or (name.endswith(".csv") and i > 0)]
    k = rows[-5]
    dup = lines[:k + 1] + [lines[k]] + lines[k + 1:]
    swap = list(lines)
    swap[rows[-6]], swap[rows[-4]] = swap[rows[-4]], swap[rows[-6]]
    base, ext = name.split(".")
    open("%s/%s-dup.%s" % (T, base, ext), "w").write("\n".join(dup) + "\n")
    open("%s/%s-swap.%s" % (T, base, ext), "w").write("\n".join(swap) + "\n")
PY
	local f want rc
	# (the CSV reader refuses a trace out of order itself)
	for f in m-dup.jsonl m-dup.csv m-swap.jsonl m-swap.csv; do
		case $f in
		*.jsonl) want='jsonl:[0-9]*: a sample given twice or out of order (its seq repeats or goes back: a duplicated line?, lines out of order or sessions spliced); not analysed' ;;
		*dup*) want='a sample given twice (a duplicated line?); not analysed' ;;
		*) want='the times run backwards at steady sample [0-9]* (\|time runs backwards (t_ms' ;;
		esac
		"$FS" --analyze "$T/$f" >"$T/out" 2>"$T/err"
		rc=$?
		[ $rc = 2 ] && grep -q "$want" "$T/err" || die "$f: exit $rc: $(cat "$T/err" "$T/out" | head -5)"
	done
}

# Energy in every result: a log whose samples carry power readings, a limit
# and reason bits replays to the energy the readings give (each over its
# sample's time), in the summary's text and JSON (the metrics: test_metrics);
# a device without a reading says N/A, its JSON null,
# never 0; a live run reads the limit (RAPL's, from a stand-in sysfs).
t_energy_should_follow_the_power_readings_and_be_null_without() {
	"$FS" llvm --duration 0.5 --log "$T/a.jsonl" --format json >"$T/a.json" 2>"$T/a.err" || die "run: $(cat "$T/a.err")"
	"$FS" llvm --duration 0.3 --no-log >"$T/t.txt" 2>&1 || die "table: exit $?"
	[ "$(grep -c 'energy' "$T/t.txt")" = 1 ] && grep -q '^  energy: N/A (no power reading)$' "$T/t.txt" ||
		die "no N/A: $(cat "$T/t.txt")"
	python3 - "$T/a.json" <<'PY' || exit 1
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])][-1]
keys = ["energy_j", "energy_s", "power_mean_w", "power_max_w", "power_limit_w", "work_per_joule", "clock_reduced_s"]
assert s["type"] == "summary" and all(k in s and s[k] is None for k in keys), s
PY
	python3 - "$T/a.jsonl" "$T/p.jsonl" <<'PY' || exit 1
import json, sys
out = open(sys.argv[2], "w")
n = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") == "sample":
        r["power_w"] = 100.0 + 10 * (n % 3)
        r["power_limit_w"] = 300.0
        r["throttle"] = 4 if n % 2 else 0
        n += 1
    out.write(json.dumps(r) + "\n")
PY
	"$FS" --replay "$T/p.jsonl" --format json >"$T/p.json" 2>/dev/null || die "replay: exit $?"
	"$FS" --replay "$T/p.jsonl" --headless >"$T/p.txt" 2>&1 || die "replay: exit $?"
	python3 - "$T/p.jsonl" "$T/p.json" "$T/p.txt" <<'PY' || exit 1
import json, re, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
smp = [r for r in recs if r.get("type") == "sample"]
dt = [r["cpu_ns"] * r.get("trials", 1) * 1e-9 for r in smp]
joules = sum(r["power_w"] * d for r, d in zip(smp, dt))
capped = sum(d for r, d in zip(smp, dt) if r["throttle"] & 4)
work = sum(r["work"] * r.get("trials", 1) for r in smp)
s = [json.loads(l) for l in open(sys.argv[2])][-1]
assert abs(s["energy_j"] - joules) <= 1e-9 * joules, (s["energy_j"], joules)
assert abs(s["energy_s"] - sum(dt)) <= 1e-9 and s["power_max_w"] == 120 and s["power_limit_w"] == 300, s
assert abs(s["power_mean_w"] - joules / sum(dt)) < 1e-6 and abs(s["work_per_joule"] - work / joules) <= 1e-6 * s["work_per_joule"], s
assert abs(s["clock_reduced_s"]["power_cap"] - capped) < 1e-9 and s["clock_reduced_s"]["hw_slowdown"] == 0, s
txt = open(sys.argv[3]).read()
m = re.search(r"energy: \S+ J over ([\d.]+) s of dispatches, mean (\d+) W, max 120 W of a 300 W limit \(mean (\d+)%\); \S+ \S*FLOP/J", txt)
assert m and abs(float(m[1]) - sum(dt)) < 0.006 and int(m[2]) == round(joules / sum(dt)), txt
assert re.search(r"held by: power cap [\d.]+ s\n", txt), txt
PY
	# a live limit: RAPL's package limit through a stand-in sysfs
	local R="$T/sys"
	mkdir -p "$R/class/powercap/intel-rapl:0"
	echo 1000000 >"$R/class/powercap/intel-rapl:0/energy_uj"
	echo 262143328850 >"$R/class/powercap/intel-rapl:0/max_energy_range_uj"
	echo 250000000 >"$R/class/powercap/intel-rapl:0/constraint_0_power_limit_uw"
	FLOPSCOPE_SYSFS_ROOT=$R "$FS" llvm --duration 0.5 --no-log --format json >"$T/l.json" 2>"$T/l.err" ||
		die "limit: $(cat "$T/l.err")"
	grep -q 'package power and its limit from RAPL' "$T/l.err" || die "$(cat "$T/l.err")"
	python3 - "$T/l.json" <<'PY' || exit 1
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert all(r["power_limit_w"] == 250 for r in recs if r["type"] == "sample"), recs[:3]
assert recs[-1]["power_limit_w"] == 250, recs[-1]
PY
}

# NVML's stand-in serving lavapipe (it lists lavapipe's UUID and gives
# readings): the power limit, the reason bits and the driver's violation
# counters reach the summary, its JSON, the log (its schema), the metrics
# and the check, which passes a power cap with a note and fails a HW
# slowdown, and a thermal violation the driver counted that no sample's
# bits showed. Without FLOPSCOPE_FAKE_NVML_TEL the stand-in reads nothing
# of lavapipe and the CPU's source serves it, as before.
t_a_stand_in_nvml_should_bring_the_limit_the_reasons_and_the_violation_counters() {
	local uuid tel
	uuid=$("$FS" --list --format json | python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["uuid"])')
	export LD_LIBRARY_PATH="$FAKE_NVML_DIR" FLOPSCOPE_FAKE_NVML="GPU-$uuid"
	tel="sm=1755,sm_max=1980,mem=2619,power=690,limit=700,temp=61,reasons=0x4,viol_power=0.8,viol_thermal=0"
	"$FS" llvm --duration 0.3 --no-log >"$T/cpu.txt" 2>&1 || die "without readings: exit $?"
	grep -q 'telemetry: CPU clock' "$T/cpu.txt" || die "without readings, not the CPU's source: $(grep telemetry "$T/cpu.txt")"
	FLOPSCOPE_FAKE_NVML_TEL=$tel "$FS" llvm --workload power --duration 1.5 --log "$T/p.jsonl" \
		--metrics-file "$T/p.prom" >"$T/p.txt" 2>&1 || die "run: exit $?: $(tail -3 "$T/p.txt")"
	grep -q 'telemetry: NVML: .*violation counters' "$T/p.txt" || die "not NVML: $(grep telemetry "$T/p.txt")"
	grep -Eq '^  energy: .* mean 690 W, max 690 W of a 700 W limit \(mean 99%\)' "$T/p.txt" || die "energy: $(cat "$T/p.txt")"
	grep -Eq '^  time at a limit, driver.s count: power [0-9.]+ s, thermal 0.00 s$' "$T/p.txt" ||
		die "counters: $(cat "$T/p.txt")"
	grep -Eq '^  held by: power cap [0-9.]+ s$' "$T/p.txt" || die "reasons: $(cat "$T/p.txt")"
	python3 tests/schema_check.py log "$T/p.jsonl" >/dev/null || die "the log's schema"
	python3 - "$T/p.jsonl" "$T/p.prom" <<'PY' || die "log or metrics"
import json, re, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
sess, smp, s = recs[0], [r for r in recs if r.get("type") == "sample"], recs[-1]
assert sess["sm_max_mhz"] == 1980, sess
assert all(r["viol_power_s"] >= 0 and r["viol_thermal_s"] == 0 and r["throttle"] == 4 for r in smp), smp[0]
want = smp[-1]["viol_power_s"] - smp[0]["viol_power_s"]
v = s["violation_s"]
assert abs(v["power"] - want) < 1e-6 and 0.5 < v["power"] and v["thermal"] == 0, (v, want)
assert s["power_limit_w"] == 700 and s["clock_reduced_s"]["power_cap"] > 1, s
prom = open(sys.argv[2]).read()
m = re.search(r'^flopscope_clock_violation_seconds_total\{[^}]*workload="power",policy="power"\} (\S+)$', prom, re.M)
assert m and abs(float(m.group(1)) - v["power"]) < 1e-6, prom
assert re.search(r'^flopscope_clock_violation_seconds_total\{[^}]*policy="thermal"\} 0$', prom, re.M), prom
assert re.search(r'^flopscope_power_limit_watts\{[^}]*\} 700$', prom, re.M), prom
PY
	# the check: the cap passes with its note; a HW slowdown, or a thermal
	# count the bits never showed, fails, named
	FLOPSCOPE_FAKE_NVML_TEL=$tel "$FS" --check --workload power --budget 6 --no-log --format json >"$T/c1.json" \
		2>"$T/c1.err" || die "capped check: exit $?: $(cat "$T/c1.json" "$T/c1.err")"
	python3 tests/schema_check.py check "$T/c1.json" >/dev/null || die "the check's schema"
	grep -q '"status":"pass".*time at a limit, driver.s count: power .*), as expected at the limit' \
		"$T/c1.json" || die "capped check: $(cat "$T/c1.json")"
	# the clock held at half by HW slowdown from the first sample: the
	# power workload and fp32 fail, named
	FLOPSCOPE_FAKE_NVML_TEL="sm=990,sm_max=1980,power=400,limit=700,reasons=0x8" "$FS" --check --workload power,fp32 \
		--budget 8 --no-log >"$T/c2.txt" 2>&1
	rc=$?
	[ "$rc" = 1 ] && grep -q '^FAIL .* power .*held by: HW slowdown' "$T/c2.txt" || die "HW slowdown: $rc $(cat "$T/c2.txt")"
	# fp32 too, where the budget reached it (rehearsal 19: ThreadSanitizer's
	# lane beside other work spent the 8 s before fp32 measured: said, with the load)
	if grep -q '^FAIL .* fp32 .*not measured: the budget' "$T/c2.txt"; then
		echo "  fp32 not measured within the budget, the CPUs $(cpu_busy_pct)% busy with other work" >&2
	else
		grep -q '^FAIL .* fp32 .*held by: HW slowdown .*, a fault' "$T/c2.txt" || die "HW slowdown on fp32: $(cat "$T/c2.txt")"
	fi
	FLOPSCOPE_FAKE_NVML_TEL="${tel/viol_thermal=0/viol_thermal=0.05}" "$FS" --check --workload power --budget 6 \
		--no-log >"$T/c3.txt" 2>&1
	rc=$?
	[ "$rc" = 1 ] && grep -q "^FAIL .* power .*thermal (time at a limit, driver's count)" "$T/c3.txt" ||
		die "thermal count: $rc $(cat "$T/c3.txt")"
}

# "clock held" once named four things. One phrase each, in every output a
# person reads (the summary, --analyze, the SVG, the man page; the
# dashboard's in the goldens and a_clock_held_from_the_start...): the reason
# bits' "held by", the driver's "time at a limit, driver's count", the
# event's "clock unchanged at" (the stand-in's cap turning on at 1 s, the
# clock still), and a change's cause "not a power-state change"; the old
# words nowhere, the program's strings included.
t_each_kind_of_held_clock_should_have_one_phrase_everywhere() {
	local uuid f
	uuid=$("$FS" --list --format json | python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["uuid"])')
	LD_LIBRARY_PATH="$FAKE_NVML_DIR" FLOPSCOPE_FAKE_NVML="GPU-$uuid" \
		FLOPSCOPE_FAKE_NVML_TEL="sm=1980,sm_max=1980,power=690,limit=700,reasons=0x4,reasons_at=1,viol_power=0.8,viol_thermal=0" \
		"$FS" llvm --duration 2.5 --log "$T/h.jsonl" >"$T/h.txt" 2>&1 || die "run: exit $?: $(cat "$T/h.txt")"
	# the cap turns on 1 s after the library's start: a start slower than
	# that (a loaded machine) sees it from the first sample, a state
	grep -m1 '"type":"sample"' "$T/h.jsonl" | grep -q '"throttle":4' &&
		skip "the first sample came after the stand-in's cap turned on: no event to see"
	"$FS" --analyze "$T/h.jsonl" >"$T/a.txt" 2>&1 || die "analyze: exit $?: $(cat "$T/a.txt")"
	"$FS" --export "$T/h.jsonl" --svg "$T/h.svg" 2>"$T/e.err" || die "export: $(cat "$T/e.err")"
	LC_ALL=C MANWIDTH=200 man -l docs/flopscope.1 2>/dev/null | col -b >"$T/man.txt"
	grep -Eq '^  held by: power cap [0-9.]+ s$' "$T/h.txt" || die "held by: $(cat "$T/h.txt")"
	grep -Eq "^  time at a limit, driver's count: power [0-9.]+ s, thermal 0.00 s$" "$T/h.txt" ||
		die "the driver's count: $(cat "$T/h.txt")"
	for f in h.txt a.txt h.svg; do
		grep -Eq '[0-9.]+ s: power cap on, clock unchanged at 1980 MHz' "$T/$f" || die "the event in $f: $(cat "$T/$f")"
	done
	grep -q 'held by: power cap [0-9.]* s' "$T/h.svg" || die "held by in the SVG"
	grep -q 'level changes: [0-9]* power state, [0-9]* not a power-state change, [0-9]* unexplained' "$T/h.svg" ||
		die "the causes in the SVG"
	for f in "not a power-state change" "held by" "time at a limit, driver's count" "clock unchanged at"; do
		grep -q "^  *$f\$" "$T/man.txt" || die "the man page has no entry for \"$f\""
	done
	strings "$FS" >"$T/strings.txt"
	for f in h.txt a.txt h.svg man.txt strings.txt; do
		grep -Ein 'clock held|clocks reduced|held down|held the clock' "$T/$f" && die "an old word in $f"
	done
	return 0
}

# One count of result checks in every view of a log: its summary record's
# (the warm-up's check too) in the replay's table, its JSON and the table of
# several logs (the last two counted the checked samples: one fewer).
t_every_view_of_a_log_should_give_one_count_of_checks() {
	"$FS" llvm --duration 1.5 --log "$T/c.jsonl" >/dev/null 2>&1 || die "run: exit $?"
	local want
	want=$(tail -1 "$T/c.jsonl" | python3 -c 'import json, sys; print(json.loads(sys.stdin.read())["checks_passed"])')
	[ "$want" -gt "$(grep -c '"verified":true' "$T/c.jsonl")" ] || die "the warm-up's check is not in the summary: $want"
	"$FS" --replay "$T/c.jsonl" --headless >"$T/r.txt" 2>&1 || die "replay: exit $?"
	grep -q ", $want result checks passed" "$T/r.txt" || die "replay: $(grep Summary "$T/r.txt")"
	"$FS" --replay "$T/c.jsonl" --format json 2>/dev/null | tail -1 | grep -q "\"checks_passed\":$want[,}]" ||
		die "json: $("$FS" --replay "$T/c.jsonl" --format json 2>/dev/null | tail -1)"
	cp "$T/c.jsonl" "$T/c2.jsonl" # a second device's log
	"$FS" --replay "$T/c.jsonl" "$T/c2.jsonl" --headless >"$T/n.txt" 2>&1 || die "node table: exit $?"
	[ "$(grep -Ec "^ +[12]  llvmpipe.* $want +[0-9]+/[0-9]+ ok$" "$T/n.txt")" = 2 ] || die "node table: $(cat "$T/n.txt")"
}

# The PCIe link's replays (NVML's replay counter, through the stand-in):
# counted during each transfer's run into the check's text, record and
# CSV, the log's samples and the metrics; more than DCGM's 80 fails the
# transfer as a link retransmitting, fewer do not; an arithmetic row
# carries none.
t_pcie_replays_should_fail_a_retransmitting_link() {
	local uuid b8=8 b5=5 wl=h2d,fp32
	# a sanitizer build starts each run several times slower: under
	# ThreadSanitizer beside check-asan 8 s left fp32 no window, and 24 s
	# left it none after h2d (CI rehearsals): the transfer alone there (an
	# arithmetic row's lack of a count is make test's)
	sanitized && b8=16 b5=15 wl=h2d
	uuid=$("$FS" --list --format json | python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["uuid"])')
	export LD_LIBRARY_PATH="$FAKE_NVML_DIR" FLOPSCOPE_FAKE_NVML="GPU-$uuid"
	FLOPSCOPE_FAKE_NVML_TEL="sm=1755,power=300,replays=5" "$FS" --check --workload $wl --budget "$b8" \
		--format json >"$T/q.json" 2>"$T/q.err"
	rc=$?
	python3 tests/schema_check.py check "$T/q.json" >/dev/null || die "the check's schema"
	python3 - "$T/q.json" "$rc" <<'PY' || die "a quiet link: exit $rc: $(cat "$T/q.json" "$T/q.err")"
import json, sys
rows = {r["workload"]: r for r in map(json.loads, open(sys.argv[1])) if r["type"] == "check"}
# nothing held to a reference (5); on a loaded machine the budget can run
# out before the second workload (make test beside make -j2): 1, and that
# row's one cause says so
fails = [r for r in rows.values() if r["status"] == "fail"]
assert sys.argv[2] == "5" or (sys.argv[2] == "1" and fails and
    all([c["code"] for c in r["causes"]] == ["BUDGET_EXHAUSTED"] for r in fails)), rows
assert rows["h2d"]["pcie_replays"] == 0 and "replays" not in rows["h2d"]["why"], rows["h2d"]
assert "pcie_replays" not in rows.get("fp32", {}), rows["fp32"]
PY
	log=$(find "$XDG_STATE_HOME" -name "*-check.jsonl" | head -1)
	python3 tests/schema_check.py log "$log" >/dev/null || die "the log's schema"
	grep -q '"type":"sample".*"pcie_replays":5' "$log" || die "no replay count in the samples: $(head -3 "$log")"
	FLOPSCOPE_FAKE_NVML_TEL="sm=1755,power=300,replays=5,replay_rate=200" "$FS" --check --workload h2d --budget "$b5" \
		--no-log --metrics-file "$T/r.prom" >"$T/r.txt" 2>&1
	rc=$?
	[ "$rc" = 1 ] && grep -Eq '^FAIL +\[1\] h2d .* ([89][0-9]|[0-9]{3,}) PCIe replays during the run \(more than 80: a link retransmitting\), a fault;.*; PCIe [0-9]+ replays$' "$T/r.txt" ||
		die "a retransmitting link: exit $rc: $(cat "$T/r.txt")"
	grep -Eq '^flopscope_pcie_replays_total\{gpu="0",UUID="GPU-[^"]*"\} [0-9]+$' "$T/r.prom" &&
		grep -q '^# TYPE flopscope_pcie_replays_total counter$' "$T/r.prom" || die "metrics: $(grep replays "$T/r.prom")"
	# the CSV: one more format of the same record, nothing a sanitizer adds
	# to (make test holds it)
	sanitized && return 0
	# 8 s: a 5 s run cut short on a loaded machine read one replay counter only (0 over its run)
	FLOPSCOPE_FAKE_NVML_TEL="sm=1755,power=300,replays=5,replay_rate=200" "$FS" --check --workload h2d --budget 8 \
		--no-log --format csv >"$T/r.csv" 2>/dev/null
	python3 - "$T/r.csv" <<'PY' || die "csv: $(cat "$T/r.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows[0]["status"] == "fail" and int(rows[0]["pcie_replays"]) > 80, rows
PY
}

# Who shares the GPU, shown (NVML's stand-in lists this process and a
# sleep of the test's): the check's record and text name it, the metrics
# count and name it, the dashboard's pane lists it with its user, share of
# the SMs and memory. Pids of another PID namespace (this process not among
# them): counted, never named.
# NVML's instant power (the field NVML_FI_DEV_POWER_INSTANT) beside its
# one-second average: both in every sample of the log, the instant one in
# the metrics as its own family; a driver without the field gives none.
t_instant_power_should_be_read_beside_the_average() {
	local uuid
	uuid=$("$FS" --list --format json | python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["uuid"])')
	LD_LIBRARY_PATH="$FAKE_NVML_DIR" FLOPSCOPE_FAKE_NVML="GPU-$uuid" FLOPSCOPE_FAKE_NVML_TEL="sm=1755,power=301,power_instant=698" \
		"$FS" llvm --duration 0.5 --log "$T/p.jsonl" --metrics-file "$T/p.prom" --format csv >"$T/p.csv" 2>"$T/p.err" ||
		die "exit $?: $(cat "$T/p.err")"
	python3 tests/schema_check.py log "$T/p.jsonl" >/dev/null || die "the log's schema"
	python3 - "$T/p.jsonl" "$T/p.csv" <<'PY' || die "$(head -3 "$T/p.jsonl")"
import csv, json, sys
s = [r for r in map(json.loads, open(sys.argv[1])) if r["type"] == "sample"]
assert s and all(r["power_instant_w"] == 698 and r["power_w"] == 301 for r in s), s[:2]
c = list(csv.DictReader(open(sys.argv[2])))
assert c and all(float(r["power_instant_w"]) == 698 for r in c), c[:1]
PY
	grep -Eq '^flopscope_power_instant_watts\{gpu="0",UUID="GPU-[^"]*"\} 698$' "$T/p.prom" &&
		grep -Eq '^flopscope_power_watts\{gpu="0",UUID="GPU-[^"]*"\} 301$' "$T/p.prom" || die "metrics: $(grep power "$T/p.prom")"
	promtool check metrics <"$T/p.prom" >"$T/pt" 2>&1 || die "promtool: $(cat "$T/pt")"
	# the energy, its mean and the screens read the instant power where there is one
	LD_LIBRARY_PATH="$FAKE_NVML_DIR" FLOPSCOPE_FAKE_NVML="GPU-$uuid" FLOPSCOPE_FAKE_NVML_TEL="sm=1755,power=301,power_instant=698" \
		"$FS" --check --workload fp32 --budget 3 --no-log --format json >"$T/c.json" 2>/dev/null
	python3 -c 'import json, sys; r = json.loads(open(sys.argv[1]).readline()); assert abs(r["power_mean_w"] - 698) < 1e-6 and r["power_max_w"] == 698 and r["energy_source"] == "readings", r' "$T/c.json" ||
		die "the check's mean power: $(head -1 "$T/c.json")"
	# and the energy, from the card's counter where it has one (the stand-in's counts 500 W in 100 ms steps).
	# Its points are the readings (every 250 ms) at their samples' times: a
	# span of a second or two is off by up to a reading's age; under a
	# sanitizer, whose 2 s run had few samples, 15% (a CI rehearsal): 10 s there
	local be=4
	sanitized && be=10
	LD_LIBRARY_PATH="$FAKE_NVML_DIR" FLOPSCOPE_FAKE_NVML="GPU-$uuid" \
		FLOPSCOPE_FAKE_NVML_TEL="sm=1755,power=301,power_instant=698,energy=500" \
		"$FS" --check --workload fp32 --budget $be --no-log --format json >"$T/e.json" 2>/dev/null
	python3 tests/schema_check.py check "$T/e.json" >/dev/null || die "the check's schema"
	# The mean: the counter's 500 W over its span, the instant readings'
	# 698 W over the edges before its first new value and after its last
	# (a reading's age or two each: 545 W over 2.3 s measured): nearer 500
	# than 698, and never below 500, also under ThreadSanitizer, where
	# completions overlap (432 W for 500 over 9.1 s in two CI rehearsals
	# while the counter's joules were divided by the summed dispatch time,
	# not by their own wall span)
	python3 -c 'import json, sys; r = json.loads(open(sys.argv[1]).readline()); assert r["energy_source"] == "counter" and 500 * 0.97 < r["power_mean_w"] < (500 + 698) / 2, r' "$T/e.json" ||
		die "the energy counter: $(head -1 "$T/e.json")"
	LD_LIBRARY_PATH="$FAKE_NVML_DIR" FLOPSCOPE_FAKE_NVML="GPU-$uuid" FLOPSCOPE_FAKE_NVML_TEL="sm=1755,power=301" \
		"$FS" llvm --duration 0.3 --log "$T/n.jsonl" >/dev/null 2>&1 || die "without the field: exit $?"
	grep '"type":"sample"' "$T/n.jsonl" | grep -q power_instant_w && die "an instant power the driver did not give"
	return 0
}

t_other_processes_on_the_gpu_should_be_named_where_they_can_be() {
	local uuid p
	uuid=$("$FS" --list --format json | python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["uuid"])')
	sleep 300 &
	p=$!
	export LD_LIBRARY_PATH="$FAKE_NVML_DIR" FLOPSCOPE_FAKE_NVML="GPU-$uuid" \
		FLOPSCOPE_FAKE_NVML_TEL="sm=1755,sm_max=1980,power=300,limit=700" FLOPSCOPE_FAKE_NVML_PROCS="self:100:50,$p:2048:97"
	"$FS" --check --workload fp32 --budget 5 --no-log --format json --metrics-file "$T/m.prom" >"$T/c.json" 2>"$T/c.err"
	grep -q "\"other_processes\":\"1 at most: $p sleep\"" "$T/c.json" || { kill $p; die "check: $(cat "$T/c.json")"; }
	python3 tests/schema_check.py check "$T/c.json" >/dev/null || { kill $p; die "the check's schema"; }
	# the processes array, as the process table's rows: in the check's
	# record, a measuring run's logged samples and its JSON samples, --watch's
	"$FS" llvm --duration 0.5 --log "$T/p.jsonl" --format json >"$T/p.json" 2>/dev/null
	"$FS" --watch llvm --interval 0.2 --duration 0.2 --format json >"$T/w.json" 2>/dev/null
	python3 - "$p" "$(id -un)" "$T/c.json" "$T/p.jsonl" "$T/p.json" "$T/w.json" <<'PY' || { kill $p; die "processes arrays"; }
import json, sys
pid, user = int(sys.argv[1]), sys.argv[2]
want = {"pid": pid, "name": "sleep", "user": user, "type": "compute", "memory_bytes": 2048 * 2**20, "util_pct": 97,
        "command": "sleep 300"}
for path, kind in zip(sys.argv[3:], ("check", "sample", "sample", "watch")):
    recs = [r for r in map(json.loads, open(path)) if r.get("type") == kind]
    assert recs and all(r.get("processes") == [want] for r in recs), (path, recs[:1])
PY
	python3 tests/schema_check.py watch "$T/w.json" >/dev/null && python3 tests/schema_check.py log "$T/p.jsonl" >/dev/null ||
		{ kill $p; die "schemas of the processes arrays"; }
	# the cause by its code, with its figure, in the record and the metrics
	python3 -c '
import json, sys
c = [json.loads(l) for l in open(sys.argv[1]) if "\"check\"" in l][0]
o = [x for x in c["causes"] if x["code"] == "OTHER_PROCESS"]
assert o and o[0]["severity"] == "warn" and o[0]["figures"]["processes"] == 1 and sys.argv[2] in o[0]["text"], c
' "$T/c.json" "$p sleep" || { kill $p; die "no OTHER_PROCESS cause: $(cat "$T/c.json")"; }
	grep -Eq '^flopscope_check_cause\{[^}]*code="OTHER_PROCESS",severity="warn"\} 1$' "$T/m.prom" ||
		{ kill $p; die "no OTHER_PROCESS in the metrics: $(grep check_cause "$T/m.prom")"; }
	# counted, and their memory (the stand-in's 2048 MiB): no pid or name in
	# a label (a series each new process would make; Prometheus' naming
	# guide): those are the records' and the cause's text
	grep -Eq '^flopscope_other_processes\{[^}]*\} 1$' "$T/m.prom" &&
		grep -Eq '^flopscope_other_processes_memory_bytes\{[^}]*\} 2147483648$' "$T/m.prom" ||
		{ kill $p; die "metrics: $(grep other "$T/m.prom")"; }
	! grep -E "=\"[^\"]*\b($p|sleep)\b" "$T/m.prom" || { kill $p; die "a process in a label"; }
	"$FS" --check --workload fp32 --budget 5 --no-log >"$T/c.txt" 2>&1
	# the cause's words after the verdict's (whichever: lavapipe's peak is
	# held to the stand-in's 1980 MHz, which a quiet CPU may beat), then any
	# other cause's (a slow host's check is cut short at its budget's end)
	grep -Eq "^[A-Z]+ +\[1\] fp32 .*; other processes on the GPU: 1 at most: $p sleep(;|$)" "$T/c.txt" ||
		{ kill $p; die "text: $(cat "$T/c.txt")"; }
	UI_W=120 UI_H=40 start_ui env LD_LIBRARY_PATH="$FAKE_NVML_DIR" FLOPSCOPE_FAKE_NVML="GPU-$uuid" \
		FLOPSCOPE_FAKE_NVML_TEL="sm=1755,sm_max=1980,power=300,limit=700" \
		FLOPSCOPE_FAKE_NVML_PROCS="self:100:50,$p:2048:97" "$(realpath "$FS")" llvm --no-log --theme mono ||
		{ kill $p; return 1; }
	wait_for "1 other process on llvmpipe" || { kill $p; return 1; }
	# the process table (p): each process's row; F9 and y end it (SIGTERM)
	TM send-keys -t fs p
	wait_for "processes on llvmpipe .*: 1" || { kill $p; return 1; }
	wait_for "│ +$p +$(id -un) +compute +97% +2048\\.0 MiB +sleep 300" || { kill $p; return 1; }
	wait_for "GPU memory v" || { kill $p; return 1; }
	TM send-keys -t fs Right
	wait_for "command v" || { kill $p; return 1; }
	TM send-keys -t fs F9
	wait_for "end $p sleep \\($(id -un)\\)\\? y: SIGTERM" || { kill $p; return 1; }
	TM send-keys -t fs y
	wait_for "SIGTERM sent to $p" || { kill $p; return 1; }
	local i=0
	while kill -0 $p 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	kill -0 $p 2>/dev/null && { kill $p; die "the process table's SIGTERM did not end $p"; }
	TM send-keys -t fs Escape
	TM send-keys -t fs q
	wait_exit || return 1
	# one that ignores SIGTERM gets SIGKILL 3 s later, said
	# (not a job of this shell: no notice of its kill)
	(bash -c 'trap "" TERM; exec sleep 300' >/dev/null 2>&1 & echo $! >"$T/ignorer")
	p=$(cat "$T/ignorer")
	UI_W=120 UI_H=40 start_ui env LD_LIBRARY_PATH="$FAKE_NVML_DIR" FLOPSCOPE_FAKE_NVML="GPU-$uuid" \
		FLOPSCOPE_FAKE_NVML_TEL="sm=1755,sm_max=1980,power=300,limit=700" \
		FLOPSCOPE_FAKE_NVML_PROCS="self:100:50,$p:2048:97" "$(realpath "$FS")" llvm --no-log --theme mono ||
		{ kill -9 $p; return 1; }
	wait_for "1 other process on llvmpipe" || { kill -9 $p; return 1; }
	TM send-keys -t fs p
	wait_for "│ +$p +$(id -un) +compute" || { kill -9 $p; return 1; }
	TM send-keys -t fs F9
	wait_for "end $p sleep" || { kill -9 $p; return 1; }
	TM send-keys -t fs y
	wait_for "SIGTERM sent to $p" || { kill -9 $p; return 1; }
	wait_for "$p still ran 3 s after SIGTERM: SIGKILL sent" || { kill -9 $p; return 1; }
	# ended: gone, or a zombie its new parent has not reaped yet
	i=0
	while [ -n "$(awk '$3 != "Z"' /proc/$p/stat 2>/dev/null)" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ -n "$(awk '$3 != "Z"' /proc/$p/stat 2>/dev/null)" ] && { kill -9 $p; die "SIGKILL did not end $p"; }
	TM send-keys -t fs Escape
	TM send-keys -t fs q
	wait_exit || return 1
	FLOPSCOPE_FAKE_NVML_PROCS="4242:1:1,4243:1:1" "$FS" --check --workload fp32 --budget 5 --no-log --format json \
		>"$T/f.json" 2>/dev/null
	grep -q '"other_processes":"1 at most"' "$T/f.json" || die "another namespace's pids: $(cat "$T/f.json")"
}

# Names from the system are sanitized where they are read, for every
# output: a process that names itself with terminal escapes (prctl
# PR_SET_NAME, as any user may) and one whose long name the kernel cut in
# the middle of a multibyte character (15 bytes kept). The check's text,
# JSON and metrics, --watch's CSV and JSON: no control byte reaches them,
# every record decodes, promtool takes the metrics.
t_hostile_process_names_should_reach_no_output_raw() {
	local uuid p q f
	uuid=$("$FS" --list --format json | python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["uuid"])')
	python3 -c 'import ctypes, time; ctypes.CDLL(None).prctl(15, b"\x1b]0;PWN\x07\x1b[2J", 0, 0, 0); time.sleep(300)' &
	p=$!
	python3 -c 'import ctypes, time; ctypes.CDLL(None).prctl(15, "abcdefghijklmn\u00e9".encode(), 0, 0, 0); time.sleep(300)' &
	q=$!
	wait_file() { local i; for i in $(seq 50); do grep -q "$2" "/proc/$1/comm" 2>/dev/null && return 0; sleep 0.1; done; return 1; }
	wait_file $p PWN && wait_file $q abc || { kill $p $q; die "the named processes did not start"; }
	export LD_LIBRARY_PATH="$FAKE_NVML_DIR" FLOPSCOPE_FAKE_NVML="GPU-$uuid" \
		FLOPSCOPE_FAKE_NVML_TEL="sm=1755,sm_max=1980,power=300,limit=700" FLOPSCOPE_FAKE_NVML_PROCS="self:100:50,$p:2048:97,$q:10:1"
	"$FS" --check --workload fp32 --budget 5 --no-log --format json --metrics-file "$T/m.prom" >"$T/c.json" 2>"$T/c.err"
	"$FS" --check --workload fp32 --budget 5 --no-log >"$T/c.txt" 2>&1
	# a run the budget left no time (a loaded machine) names no one: this
	# test cannot tell then
	if grep -q '"code":"BUDGET_EXHAUSTED"' "$T/c.json" || grep -q 'not measured: the budget' "$T/c.txt"; then
		kill $p $q
		skip "the machine too busy: the check's budget ran out before fp32 ran"
	fi
	"$FS" --watch llvm --interval 0.2 --duration 0.6 --format csv >"$T/w.csv" 2>"$T/w.err"
	"$FS" --watch llvm --interval 0.2 --duration 0.6 --format json >"$T/w.json" 2>>"$T/w.err"
	kill $p $q
	for f in c.json c.txt m.prom w.csv w.json; do
		LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$T/$f" && die "$f holds a control byte: $(cat -v "$T/$f" | grep PWN)"
		iconv -f UTF-8 -t UTF-8 "$T/$f" >/dev/null 2>&1 || die "$f is not UTF-8: $(cat -v "$T/$f" | grep abc)"
	done
	python3 - "$T/c.json" "$T/w.json" "$p" "$q" <<'PY' || die "the records: $(cat "$T/c.json" "$T/w.json")"
import json, sys
p, q = sys.argv[3], sys.argv[4]
for path in sys.argv[1:3]:
    recs = [json.loads(l) for l in open(path)]
    who = [r["other_processes"] for r in recs if isinstance(r.get("other_processes"), str) and p in r["other_processes"]]
    assert who, (path, recs)
    assert all(p + " ?]0;PWN??[2J" in w and q + " abcdefghijklmn?" in w for w in who), who
PY
	grep -q "$p ?]0;PWN??\[2J" "$T/c.txt" && grep -q "$p ?]0;PWN??\[2J" "$T/w.csv" || die "the text or CSV: $(cat -v "$T/c.txt" "$T/w.csv")"
	promtool check metrics <"$T/m.prom" >"$T/p.out" 2>&1 || die "promtool: $(cat "$T/p.out")"
}

# The power cap engaging is an event as it happens, whatever the adaptive
# loop does (issue 56): on an H200's power run (tests/data, recorded) the
# cap at 0.12 s and the clock's dip at 0.91 s; on lavapipe with the
# stand-in NVML a cap that turns on 0.6 s after the library starts: the
# summary, its record, the log and --analyze name it, with the clock.
t_the_power_caps_engagement_should_be_an_event_as_it_happens() {
	"$FS" --analyze tests/data/h200_power_cap.csv --format json >"$T/h.json" 2>"$T/h.err" || die "h200: $(cat "$T/h.err")"
	python3 tests/schema_check.py analyze "$T/h.json" >/dev/null || die "the analysis's schema"
	python3 - "$T/h.json" <<'PY' || die "h200: $(cat "$T/h.json")"
import json, sys
ev = [r for r in map(json.loads, open(sys.argv[1])) if r["type"] == "event"]
assert len(ev) == 3, ev
cap = ev[0]
assert round(cap["t_ms"]) == 122 and cap["on"] == ["power_cap"] and cap["off"] == [], cap
assert cap["clock_before_mhz"] == 1980 and cap["clock_after_mhz"] == 1785 and 0.9 < cap["ratio"] < 1, cap
assert cap["why"].startswith("0.12 s: power cap on, clock 1980 -> 1785 MHz, "), cap
assert round(ev[1]["t_ms"]) == 909 and ev[1]["clock_after_mhz"] == 1560 and ev[1]["on"] == [], ev[1]
PY
	local uuid
	uuid=$("$FS" --list --format json | python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["uuid"])')
	export LD_LIBRARY_PATH="$FAKE_NVML_DIR" FLOPSCOPE_FAKE_NVML="GPU-$uuid" \
		FLOPSCOPE_FAKE_NVML_TEL="sm=1755,sm_max=1980,power=650,limit=700,reasons=0x4,reasons_at=0.6"
	"$FS" llvm --duration 1.5 --log "$T/c.jsonl" >"$T/c.txt" 2>&1 || die "run: exit $?: $(cat "$T/c.txt")"
	# the cap turns on 0.6 s after the library's start: a start slower than
	# that (a loaded machine) sees it from the first sample, a state
	grep -m1 '"type":"sample"' "$T/c.jsonl" | grep -q '"throttle":4' &&
		skip "the first sample came after the stand-in's cap turned on: no event to see"
	grep -Eq '^  power-state events: 1 ' "$T/c.txt" &&
		grep -Eq '^    [0-9]+\.[0-9]+ s: power cap on, clock 1980 -> 1755 MHz' "$T/c.txt" || die "the summary: $(cat "$T/c.txt")"
	python3 - "$T/c.jsonl" <<'PY' || die "the log: $(tail -1 "$T/c.jsonl")"
import json, sys
s = [r for r in map(json.loads, open(sys.argv[1])) if r["type"] == "summary"][-1]
assert s["events"] == 1 and s["event_list"][0]["on"] == ["power_cap"], s
assert 0 < s["event_list"][0]["t_ms"] and s["event_list"][0]["clock_after_mhz"] == 1755, s["event_list"]
PY
	python3 tests/schema_check.py log "$T/c.jsonl" >/dev/null || die "the log's schema"
	"$FS" --analyze "$T/c.jsonl" >"$T/a.txt" 2>&1 || die "analyze: $(cat "$T/a.txt")"
	grep -Eq '^power-state events: 1 ' "$T/a.txt" && grep -q ' power cap on, clock 1980 -> 1755 MHz' "$T/a.txt" ||
		die "analyze: $(cat "$T/a.txt")"
}

# Recorded traces (tests/data: the steady samples of real sessions, with
# the telemetry read beside them), analysed: the changes split among their
# causes with the factors the rule gives (docs/INTERPRETATION.md's table):
# the H100 drop beside another process is that process's part, not the
# power cap's; the lavapipe busy loop's, the cores it took.
t_recorded_traces_should_be_apportioned_as_documented() {
	"$FS" --analyze tests/data/h100_two_processes.csv --format json >"$T/h.json" 2>"$T/h.err" || die "h100: $(cat "$T/h.err")"
	"$FS" --analyze tests/data/lavapipe_busy_loop.csv --format json >"$T/l.json" 2>"$T/l.err" || die "lavapipe: $(cat "$T/l.err")"
	python3 - "$T/h.json" "$T/l.json" <<'PY' || die "the factors"
import json, sys
def changes(p):
    return [r for r in map(json.loads, open(p)) if r["type"] == "change"]
h = changes(sys.argv[1])
assert len(h) == 2, h
d, u = h
assert d["cause"] == "not_power_state" and round(d["ratio"], 2) == 0.32, d
assert round(d["shares"]["clock"], 3) == 0.947 and round(d["shares"]["other_gpu"], 2) == 0.34, d
assert d["shares"]["unexplained"] is None and d["why"].startswith("1 other process on the GPU (0 before), about x0.34; "
                                                                  "clock 1980 -> 1875 MHz, power cap x0.95"), d
# the return: NVML still listed the other process, so nothing read explains it
assert round(u["ratio"], 2) == 3.08 and round(u["shares"]["unexplained"], 2) == 2.94 and u["shares"]["other_gpu"] is None, u
l = [c for c in changes(sys.argv[2]) if c["t_ms"] > 1000]
assert len(l) == 2, l
assert round(l[0]["shares"]["other_cpu"], 2) == 0.59 and round(l[0]["shares"]["unexplained"], 2) == 0.87, l[0]
assert round(l[1]["shares"]["other_cpu"], 2) == 1.70 and round(l[1]["shares"]["unexplained"], 2) == 1.16, l[1]
assert all(c["cause"] == "not_power_state" for c in l), l
PY
}
