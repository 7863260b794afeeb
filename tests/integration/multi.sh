# tests/integration/multi.sh: several devices at once. On lavapipe there is one
# Vulkan device: the engines run two and four times on the same entry (two
# and four logical devices), which exercises N engines, their logs, the
# per-device table, a device lost among others, and the outlier rule's exit.
# Sourced by tests/integration.sh, which provides lib.sh's helpers.

t_two_and_four_engines_should_measure_side_by_side() {
	for n in 2 4; do
		args=$(printf -- '-1 %.0s' $(seq $n))
		t0=$(date +%s%N)
		# shellcheck disable=SC2086
		"$FS" $args --duration 2 --format json --outlier 99.9 >"$T/m$n.json" 2>"$T/m$n.err" &
		pid=$!
		# each engine's thread, the telemetry's and the signals' go by name
		# (bench/node.sh reads each one's CPU time by it)
		for _ in $(seq 200); do grep -q "^{\"dev\":$n,\"type\":\"sample\"" "$T/m$n.json" 2>/dev/null && break; sleep 0.05; done
		cat /proc/$pid/task/*/comm >"$T/comm$n" 2>/dev/null
		wait $pid || die "N=$n: exit $?: $(cat "$T/m$n.err")"
		wall_ms=$((($(date +%s%N) - t0) / 1000000))
		for k in $(seq $n); do
			grep -qx "fs-engine $k" "$T/comm$n" || die "N=$n: no thread fs-engine $k: $(tr '\n' ' ' <"$T/comm$n")"
		done
		grep -qx fs-signals "$T/comm$n" && grep -qx fs-telemetry "$T/comm$n" ||
			die "N=$n: threads $(tr '\n' ' ' <"$T/comm$n")"
		python3 - "$T/m$n.json" "$n" "$wall_ms" <<'PY' || exit 1
import json, os, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
n = int(sys.argv[2])
sessions = [r for r in recs if r["type"] == "session"]
assert [s["dev"] for s in sessions] == list(range(1, n + 1)), sessions
for d in range(1, n + 1):
    samples = [r for r in recs if r["type"] == "sample" and r["dev"] == d]
    assert len(samples) >= 10 and samples[0]["groups"] == 1 and any(s["verified"] for s in samples), d
rows = [r for r in recs if r["type"] == "device_summary"]
assert [r["dev"] for r in rows] == list(range(1, n + 1)), rows
assert all(r["ok"] and r["median"] > 0 and r["checks_passed"] >= 2 for r in rows), rows
# each device's first sample, after launch and within the run
wall = float(sys.argv[3])
assert all(0 < r["first_sample_ms"] < wall for r in rows), (wall, rows)
node = recs[-1]
assert node["type"] == "node" and node["devices"] == n and node["failed"] is False and node["outliers"] == 0, node
assert node["host_shared"] is False and "host_sum" not in node, node  # fp32 crosses no host path
PY
	done
	# each engine wrote a log of its own
	[ "$(ls "$XDG_STATE_HOME/flopscope/"*.jsonl | wc -l)" -ge 6 ] || die "logs: $(ls "$XDG_STATE_HOME/flopscope/")"
	"$FS" -1 -1 --duration 1 --no-log --outlier 99.9 >"$T/t.out" 2>&1 || die "table: exit $?"
	grep -q '^Measuring 2 devices at once: fp32, 1 s at the 20 ms target' "$T/t.out" || die "$(cat "$T/t.out")"
	[ "$(grep -c '^   [12]  llvmpipe' "$T/t.out")" = 2 ] || die "no row per device: $(cat "$T/t.out")"
	grep -Eq '^first sample after launch: 1: [0-9.]+ (ms|s), 2: [0-9.]+ (ms|s)$' "$T/t.out" ||
		die "no first samples: $(cat "$T/t.out")"
	# the table fits 80 columns (the name alone where the whole one is long)
	grep -E '^ dev  device|^ +[0-9]+  llvmpipe|^outlier rule' "$T/t.out" | awk 'length > 80' | grep -q . &&
		die "over 80 columns: $(cat "$T/t.out")"
	grep -Eq '^   1  llvmpipe  ' "$T/t.out" || die "the name: $(cat "$T/t.out")"
}

# Host transfers on several devices at once: each figure is a share of the
# host's path, not the link's (four H100s' h2d read 54% of the PCIe peak each
# at once, 80% alone): the table, the JSON and the node view say so, with the
# sum; a replay of the run's logs says it too, logs of separate runs do not.
t_host_transfers_at_once_should_be_called_shares_of_the_host() {
	"$FS" -1 -1 --workload h2d --size 4M --duration 1.5 --outlier 99.9 --format json >"$T/h.json" 2>"$T/h.err" ||
		die "json: exit $?: $(cat "$T/h.err")"
	python3 - "$T/h.json" <<'PY' || exit 1
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
rows = [r for r in recs if r["type"] == "device_summary"]
node = recs[-1]
assert len(rows) == 2 and all(r["median"] > 0 for r in rows), rows
assert node["host_shared"] is True, node
assert abs(node["host_sum"] - sum(r["median"] for r in rows)) < 1e-6 * node["host_sum"], (node, rows)
PY
	python3 tests/schema_check.py run "$T/h.json" >"$T/sch" 2>&1 ||
		die "schema: $(cat "$T/sch")"
	"$FS" -1 -1 --workload d2h --size 4M --duration 1 --no-log --outlier 99.9 >"$T/t.out" 2>&1 || die "table: exit $?"
	grep -Eq '^host: the 2 ran transfers at once, [0-9.]+ [kMG]?B/s in all: each figure is a share of$' "$T/t.out" &&
		grep -q '^  the host, not its link alone (--check measures each link alone)$' "$T/t.out" ||
		die "no host line: $(cat "$T/t.out")"
	awk 'length > 80' "$T/t.out" | grep -q '^host\|^  the host' && die "host line over 80 columns: $(cat "$T/t.out")"
	# the logs of that run replayed together say it; one log twice (not one run) does not
	ls "$XDG_STATE_HOME"/flopscope/*h2d*.jsonl >"$T/logs" 2>/dev/null
	[ "$(wc -l <"$T/logs")" = 2 ] || die "logs: $(ls "$XDG_STATE_HOME/flopscope/")"
	# shellcheck disable=SC2046
	"$FS" --replay $(cat "$T/logs") >"$T/r.out" 2>&1 || die "replay: exit $?: $(cat "$T/r.out")"
	grep -q '^host: the 2 ran transfers at once' "$T/r.out" || die "replay: $(cat "$T/r.out")"
	cp "$(head -1 "$T/logs")" "$T/copy.jsonl"
	"$FS" --replay "$(head -1 "$T/logs")" "$T/copy.jsonl" >"$T/r2.out" 2>&1 || die "a copy: exit $?: $(cat "$T/r2.out")"
	grep -q '^host:' "$T/r2.out" && die "one log twice called one run: $(cat "$T/r2.out")"
	# the same name twice is refused (a device twice)
	"$FS" --replay "$(head -1 "$T/logs")" "$(head -1 "$T/logs")" >"$T/r3.out" 2>&1
	[ $? = 2 ] && grep -q 'is named twice (a log counts once)' "$T/r3.out" || die "named twice: $(cat "$T/r3.out")"
	start_ui "$FS" -1 -1 --workload h2d --size 4M --no-log --outlier 99.9 || return 1
	wait_for '^ +2 llvmpipe.*B/s' || return 1
	wait_for '^ shares of the host \([0-9.]+ [kMG]?B/s in all\) \| outlier rule' || return 1
	TM resize-window -t fs -x 200 -y 60
	wait_for '^ at once: each a share of the host, not its link alone \([0-9.]+ [kMG]?B/s in all\) \| outlier' ||
		return 1
	TM send-keys -t fs q
	wait_exit || return 1
}

# One CSV contract: the same header for one device and for two (dev its
# first column, 1 for one device), every field of a JSON sample a column
# with the same value, parsed by Python's csv module.
t_csv_should_have_one_header_whatever_the_device_count() {
	"$FS" llvm --duration 0.5 --no-log --format csv >"$T/one.csv" 2>/dev/null || die "one: exit $?"
	"$FS" -1 -1 --duration 0.5 --no-log --format csv --outlier 99.9 >"$T/two.csv" 2>/dev/null || die "two: exit $?"
	"$FS" llvm --workload h2d --size 1M --duration 0.5 --no-log --format json >"$T/one.json" 2>/dev/null ||
		die "json: exit $?"
	"$FS" llvm --workload h2d --size 1M --duration 0.5 --no-log --format csv >"$T/h.csv" 2>/dev/null || die "h: exit $?"
	python3 - "$T/one.csv" "$T/two.csv" "$T/one.json" "$T/h.csv" <<'PY' || exit 1
import csv, json, sys
one, two = (list(csv.reader(open(p))) for p in sys.argv[1:3])
assert one[0] == two[0] and one[0][0] == "dev", (one[0], two[0])
assert {r[0] for r in one[1:]} == {"1"} and {r[0] for r in two[1:]} == {"1", "2"}, "dev values"
assert all(len(r) == len(one[0]) for r in one + two), "ragged rows"
head = set(one[0])
samples = [r for r in map(json.loads, open(sys.argv[3])) if r["type"] == "sample"]
for s in samples:
    missing = set(s) - {"type"} - head
    assert not missing, missing
h = list(csv.DictReader(open(sys.argv[4])))
assert h and all(r["size"] == "1048576" and float(r["target_ms"]) == 20 for r in h), h[0]
PY
}

# One device lost among several: the others go on, the table says which
# failed and why, exit 1.
t_a_lost_device_should_not_stop_the_others() {
	FLOPSCOPE_FAULT=device_lost@12:2 "$FS" -1 -1 -1 --duration 2 --no-log --outlier 99.9 >"$T/out" 2>&1
	rc=$?
	[ "$rc" = 1 ] || die "exit $rc: $(cat "$T/out")"
	grep -Eq '^   2  llvmpipe.*FAILED: vkQueueSubmit failed: VK_ERROR_DEVICE_LOST \(injected by FLOPSCOPE_FAULT\)' "$T/out" ||
		die "$(cat "$T/out")"
	[ "$(grep -Ec '^   [13]  llvmpipe.* ok$' "$T/out")" = 2 ] || die "the others: $(cat "$T/out")"
}

# The outlier rule decides the exit status: 4 exactly when a device is named.
# (Two engines sharing one CPU rarely agree within 0.1%; which way it goes
# is the machine's, the consistency between table, JSON and status is ours.)
t_the_outlier_rule_should_name_the_device_and_set_the_status() {
	"$FS" -1 -1 --duration 2 --no-log --format json --outlier 0.1 >"$T/o.json" 2>/dev/null
	rc=$?
	python3 - "$T/o.json" "$rc" <<'PY' || exit 1
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
rc = int(sys.argv[2])
rows = [r for r in recs if r["type"] == "device_summary"]
node = recs[-1]
named = [r["dev"] for r in rows if r["outlier"]]
assert node["outliers"] == len(named), (node, named)
assert rc == (4 if named else 0), (rc, named)
for r in rows:
    below = r["of_peers_median"] < 1 - 0.001
    # named: below by the threshold and by more than its own run's noise
    # (the rule holds it to the larger of its own and its peers'); unsure:
    # below, within it; neither: not below
    assert not r["outlier"] or (below and 1 - r["of_peers_median"] > r["noise"]), r
    assert r["unsure"] == (below and not r["outlier"]), r
assert node["unsure_devices"] == sum(r["unsure"] for r in rows), node
PY
	# a device at a sixteenth of its peer's speed (the test build's
	# FLOPSCOPE_FAULT=slow): 88% below, named, exit 4; 5 s: the runs' noise
	# from 1 s blocks (lavapipe beside the other lane's tests: up to 71% seen)
	FLOPSCOPE_FAULT=slow@1:2 "$FS" -1 -1 --duration 5 --no-log --format json --outlier 3 >"$T/s.json" 2>/dev/null
	rc=$?
	python3 - "$T/s.json" "$rc" >"$T/s.why" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
rows = [r for r in recs if r["type"] == "device_summary"]
# a machine so busy that the slow run's blocks spread past its shortfall:
# the rule rightly cannot tell (as the node view's test skips), nor can this
# (the rule holds it to the larger of its own noise and its peer's)
noise = max(r["noise"] or 0 for r in rows) if len(rows) == 2 else 0
if len(rows) == 2 and rows[1]["unsure"] and 1 - rows[1]["of_peers_median"] <= noise:
    assert int(sys.argv[2]) == 0 and recs[-1]["unsure_devices"] == 1, (sys.argv[2], recs[-1])
    print("%.0f%% below, within the runs' noise of %.0f%%" % (100 * (1 - rows[1]["of_peers_median"]), 100 * noise))
    sys.exit(3)
assert int(sys.argv[2]) == 4 and recs[-1]["outliers"] == 1, (sys.argv[2], recs[-1])
assert [r["outlier"] for r in rows] == [False, True] and rows[1]["of_peers_median"] < 0.6, rows
assert 1 - rows[1]["of_peers_median"] > rows[1]["noise"], rows
PY
	case $? in
	0) ;;
	3) skip "the machine too busy: the slowed device $(cat "$T/s.why")" ;;
	*) exit 1 ;;
	esac
}

# The outlier rule holds a shortfall to the runs' own noise, as a comparison
# with a baseline does: two quiet runs 20% apart name the slow one; two runs
# 15% apart whose 1 s blocks spread over 40% cannot tell, in the table, the
# JSON and the node view (logs written here, levels known).
t_the_outlier_rule_should_hold_a_shortfall_to_the_runs_noise() {
	"$FS" llvm --duration 0.5 --log "$T/real.jsonl" >/dev/null 2>&1 || die "run: exit $?"
	python3 - "$T/real.jsonl" "$T" <<'PY' || exit 1
import json, sys
head = json.loads(open(sys.argv[1]).readline())
def log(path, level):
    with open(path, "w") as out:
        out.write(json.dumps(head) + "\n")
        for seq in range(400): # 8 s at 20 ms
            t = 0.02 * (seq + 1)
            g = level(t) * (1 + 0.002 * (seq % 3 - 1))
            flop = 2000000000
            gpu_ns = int(flop / (g * 1e9) * 1e9)
            out.write(json.dumps({"type": "sample", "seq": seq, "t_ms": t * 1e3, "x": 100, "y": 1, "z": 1,
                "groups": 100, "flop": flop, "gpu_ns": gpu_ns, "cpu_ns": gpu_ns + 400000, "pipelined": True,
                "flops": flop / (gpu_ns * 1e-9), "gpu_timed": True, "steady": True, "verified": seq % 10 == 0,
                "unit": "FLOPS", "work_unit": "FLOP", "groups_unit": "workgroups", "target_ms": 20}) + "\n")
T = sys.argv[2]
log(T + "/q1.jsonl", lambda t: 100)
log(T + "/q2.jsonl", lambda t: 80)
# seconds alternating 70 and 130: the blocks' 10th-90th range is 60% of their median
noisy = lambda t: 70 if int(t) % 2 else 130
log(T + "/n1.jsonl", noisy)
log(T + "/n2.jsonl", lambda t: 0.85 * noisy(t))
PY
	"$FS" --replay "$T/q1.jsonl" "$T/q2.jsonl" --format json --outlier 5 >"$T/q.json" 2>"$T/q.err" ||
		die "quiet: exit $?: $(cat "$T/q.err")"
	"$FS" --replay "$T/n1.jsonl" "$T/n2.jsonl" --format json --outlier 5 >"$T/n.json" 2>"$T/n.err" ||
		die "noisy: exit $?: $(cat "$T/n.err")"
	python3 - "$T/q.json" "$T/n.json" <<'PY' || exit 1
import json, sys
def read(p):
    recs = [json.loads(l) for l in open(p)]
    return [r for r in recs if r["type"] == "device_summary"], recs[-1]
rows, node = read(sys.argv[1])
assert [r["outlier"] for r in rows] == [False, True] and not any(r["unsure"] for r in rows), rows
assert node["outliers"] == 1 and node["unsure_devices"] == 0, node
assert all(r["noise"] < 0.01 for r in rows), rows
rows, node = read(sys.argv[2])
assert [r["unsure"] for r in rows] == [False, True] and not any(r["outlier"] for r in rows), rows
assert node["outliers"] == 0 and node["unsure_devices"] == 1, node
assert all(0.5 < r["noise"] < 0.7 for r in rows), rows
assert abs(rows[1]["of_peers_median"] - 0.85 / 0.925) < 0.01, rows
PY
	"$FS" --replay "$T/n1.jsonl" "$T/n2.jsonl" --headless --outlier 5 >"$T/n.out" 2>&1 || die "table: exit $?"
	grep -Eq '^ +2  llvmpipe.* unsure$' "$T/n.out" && grep -q "1 more than 5% below within it: cannot tell" "$T/n.out" ||
		die "$(cat "$T/n.out")"
	# the node view, at the logs' end: the row and the rule's line
	start_ui "$FS" --replay "$T/n1.jsonl" "$T/n2.jsonl" --outlier 5 || return 1
	wait_for '^ flopscope \| REPLAY x1 \| 2 logs: ' || return 1
	TM send-keys -t fs e
	wait_for '^ +2 llvmpipe.* unsure$' || return 1
	wait_for "outlier rule: (0 >5% below peers|no device more than 5% below the median of its identical peers); 1 within the runs' noise: cannot tell" || return 1
	TM send-keys -t fs q
	wait_exit || return 1
}

t_several_devices_should_refuse_what_they_cannot_do() {
	for args in "-1 -1 --log $T/x.jsonl" "--all -1" "-1 -1 --latency" "-1 -1 --list-workloads"; do
		# shellcheck disable=SC2086
		"$FS" $args >"$T/out" 2>&1
		[ $? = 2 ] || die "$args: accepted: $(cat "$T/out")"
	done
	"$FS" --all nosuchdevice --duration 1 --no-log >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'no device named by "nosuchdevice"' "$T/out" || die "$(cat "$T/out")"
	# --all: one engine per physical device (lavapipe: one)
	"$FS" --all llvm --duration 1 --no-log >"$T/out" 2>&1 || die "--all: exit $?: $(cat "$T/out")"
	grep -q '^Measuring 1 device at once' "$T/out" || die "$(cat "$T/out")"
}

# --suite on several devices: each workload on all of them at once, a row per
# device and workload.
t_the_suite_should_run_each_workload_on_every_device_at_once() {
	tsan && skip "two engines on every workload took 145 s of CI's 30 minutes under ThreadSanitizer; two_and_four_engines_should_measure_side_by_side runs engines side by side there, workloads_should_run_checked_with_exact_counts every workload; check-asan and make test run this one"
	"$FS" -1 -1 --suite --duration 0.1 --no-log --format json >"$T/s.json" 2>"$T/s.err" ||
		die "exit $?: $(cat "$T/s.err")"
	# a window that reached no steady sample (two engines on two busy cores,
	# under ThreadSanitizer or beside other work) goes on until one came:
	# every supported row has a median
	python3 - "$T/s.json" <<'PY' || exit 1
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
names = []
for r in rows:
    if r["workload"] not in names:
        names.append(r["workload"])
assert names[0] == "fp32" and "int8-matrix" in names and names[-1] == "power", names
for w in names:
    mine = [r for r in rows if r["workload"] == w]
    assert [r["dev"] for r in mine] == [1, 2], (w, mine)
    for r in mine:
        if "-matrix" in w:
            assert r["supported"] is False and "no cooperative matrices" in r["why"], r
        else:
            assert r["supported"] and r["checks_passed"] >= 1, r
            assert r.get("median", 0) > 0 and r["samples"] > 0, r
PY
	# the table, its logs and their replay: the same engines again, output
	# and files alone (make test's; AddressSanitizer's run above took 71 s
	# of CI's lane with this one)
	sanitized && return 0
	XDG_STATE_HOME="$T/st" "$FS" -1 -1 --suite --duration 0.1 >"$T/s.out" 2>&1 || die "table: exit $?"
	grep -q '^Suite on 2 devices at once, 0.1 s at the 20 ms target each' "$T/s.out" || die "$(head -3 "$T/s.out")"
	grep -Eq '^ fp32 \[1\] +[0-9.]+ [kMGT]?FLOPS' "$T/s.out" && grep -Eq '^ fp32 \[2\] +[0-9.]+ [kMGT]?FLOPS' "$T/s.out" ||
		die "$(cat "$T/s.out")"
	# a file a device, named under the table; one workload's pair replayed side by side
	local a b
	a=$(ls "$T"/st/flopscope/*-llvmpipe-suite.jsonl) && b=$(ls "$T"/st/flopscope/*-llvmpipe-suite-2.jsonl) &&
		[ "$(ls "$T/st/flopscope" | wc -l)" = 2 ] || die "logs: $(ls "$T/st/flopscope")"
	grep -qxF "Session logs (a file a device): $a, $b" "$T/s.out" || die "$(tail -3 "$T/s.out")"
	"$FS" --replay "$b" "$a" --workload int32 --headless >"$T/r.out" 2>&1 || die "replay: exit $?: $(cat "$T/r.out")"
	grep -q '^Replay of 2 devices measured together (run .*), int32:$' "$T/r.out" &&
		grep -Eq '^   2  llvmpipe.* [0-9.]+ [kMGT]?IOPS ' "$T/r.out" || die "$(cat "$T/r.out")"
}

# A suite's row with no sample is a result no one can use (fp16-scalar got
# 0 samples in its 0.3 s window on a loaded machine): a window that reached
# no steady sample goes on, at most RUN_SUITE_EXTEND_S (5 s) longer. Each of
# the first 4 submissions stalled 0.1 s (FLOPSCOPE_FAULT=stall@4, a loaded
# host) outlasts a 0.25 s window: every row still has its median.
t_a_suite_window_without_a_sample_should_go_on_until_one() {
	tsan && skip "a 17-workload suite with stalls, no thread of its own: make test and check-asan run it"
	local t0=$SECONDS
	FLOPSCOPE_FAULT=stall@4 "$FS" llvm --suite --duration 0.001 --no-log --format json >"$T/s.json" 2>"$T/s.err" ||
		die "exit $?: $(cat "$T/s.err")"
	# the stalls took effect: 4 x 0.1 s for each of the 17 runs at least
	[ $((SECONDS - t0)) -ge 5 ] || die "the stalls were not injected (the suite took $((SECONDS - t0)) s)"
	python3 - "$T/s.json" <<'PY' || exit 1
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
runs = [r for r in rows if r.get("supported")]
assert len(runs) >= 10, rows
empty = [r["workload"] for r in runs if not r.get("samples") or not r.get("median", 0) > 0]
assert not empty, "rows without a sample: %s" % empty
PY
}

# The node view: a panel per device and the combined table, in a terminal;
# a device's number zooms it to the full dashboard, whose space pauses every
# device; r, + and w act on all; q prints the table. (--outlier 99.9: two
# engines sharing two CPU cores rarely agree, see above.)
t_node_view_should_show_every_device_zoom_and_act_on_all() {
	start_ui "$FS" -1 -1 -1 -1 --no-log --outlier 99.9 || return 1
	wait_for '^ flopscope \| 4 devices: ' || return 1
	for k in 1 2 3 4; do
		wait_for "^\[$k\] llvmpipe .*(AT TARGET|GROWING)" || return 1
		wait_for "^ +$k llvmpipe.*[0-9.]+ [kMGT]?FLOPS" || return 1
	done
	wait_for '^ outlier rule: no device more than 99.9% below' || return 1
	screen | LC_ALL=C grep -q $'\xe2[\xa0-\xa3]' || die "no Braille plots: $(screen)"
	TM send-keys -t fs 3
	wait_for '\| \[3 of 4\] llvmpipe' || return 1
	wait_for 'FLOPS at the target time' || return 1
	TM send-keys -t fs ' '
	wait_for 'PAUSED' || return 1
	TM send-keys -t fs Escape
	wait_for '^ flopscope \| 4 devices: 4 paused' || return 1
	TM send-keys -t fs ' '
	wait_for 'all 4 resumed' || return 1
	wait_for '^ flopscope \| 4 devices: [0-9] (growing|at target)' || return 1
	TM send-keys -t fs +
	wait_for 'target 50 ms on all 4' || return 1
	wait_for '^ flopscope \| .*\| target 50 ms' || return 1
	TM send-keys -t fs r
	wait_for 'all 4 restarting from 1 workgroup' || return 1
	for size in 80x24 200x60 100x30; do
		TM resize-window -t fs -x "${size%x*}" -y "${size#*x}"
		wait_for '\[4\] llvmpipe' || return 1
		wait_for '^ +4 llvmpipe' || return 1
	done
	TM send-keys -t fs w
	wait_for '^ flopscope \| 4 devices: .*\| fp64 \|' || return 1
	TM send-keys -t fs q
	wait_exit || return 1
	[ "$(cat "$T/exit")" = 0 ] || die "exit status $(cat "$T/exit"): $(screen)"
	TM capture-pane -p -t fs -S -100 >"$T/final"
	# every run of the session, in order: fp32, then fp64 after w
	grep -q '^4 devices at once, fp32:' "$T/final" && grep -q '^4 devices at once, fp64:' "$T/final" ||
		die "$(cat "$T/final")"
	[ "$(sed -n '/^4 devices at once, fp64:/,$p' "$T/final" | grep -Ec '^ +[1-4]  llvmpipe.* ok$')" = 4 ] ||
		die "$(cat "$T/final")"
	# each device's first sample after launch, for the run the command line
	# started; none for the run after w, which no launch preceded
	[ "$(grep -Ec '^first sample after launch: 1: [0-9.]+ m?s, 2: [0-9.]+ m?s, 3: [0-9.]+ m?s, 4: [0-9.]+ m?s$' "$T/final")" = 1 ] &&
		sed -n '/^4 devices at once, fp32:/,/^4 devices at once, fp64:/p' "$T/final" | grep -q '^first sample after launch' ||
		die "first samples: $(cat "$T/final")"
	[ "$(TM display -p -t fs '#{alternate_on}')" = 0 ] || die "terminal left in the alternate screen"
}

# Quitting the node view is no verdict unless one was asked for: an
# outlier the table names exits 0, unless --outlier was given on the command
# line (then 4, as a headless run). The second device reads a sixteenth of
# the first's speed (the test build's FLOPSCOPE_FAULT=slow): 88% below, past
# the rule (3%, from the config file, then given) and the runs' noise.
t_quitting_the_node_view_should_be_a_verdict_only_when_asked() {
	export XDG_CONFIG_HOME="$T/cfg"
	"$FS" --outlier 3 --save-config >/dev/null 2>&1 || die "--save-config: exit $?"
	local rc
	for given in "" "--outlier 3"; do
		# shellcheck disable=SC2086
		start_ui FLOPSCOPE_FAULT=slow@1:2 "$FS" -1 -1 --no-log $given || return 1
		wait_for '^ +2 llvmpipe.*[0-9.]+ [kMGT]?FLOPS' || return 1
		# 5 s: each run's noise from its 1 s blocks (its samples' before 4)
		sleep 5
		local deadline=$((SECONDS + 30))
		until screen | grep -Eq '^ +2 llvmpipe.* OUTLIER$'; do
			if [ $SECONDS -ge $deadline ]; then
				# as at the quit below: runs spread past the shortfall
				screen | grep -Eq '^ +2 llvmpipe.* unsure$' &&
					skip "the machine too busy: lavapipe's runs spread past the shortfall for 30 s: $(screen | grep 'outlier rule')"
				die "no OUTLIER in 30 s; screen was:"$'\n'"$(screen)"
			fi
			sleep 0.1
		done
		TM send-keys -t fs q
		wait_exit || return 1
		rc=$(cat "$T/exit")
		TM capture-pane -p -t fs -S -60 >"$T/final"
		# a machine so busy that its own run's blocks spread past 88%: the
		# rule rightly cannot tell, and this test cannot either
		grep -Eq '^ +2  llvmpipe.* unsure$' "$T/final" &&
			skip "the machine too busy: lavapipe's runs spread past the 88% shortfall at the quit: $(grep 'within it' "$T/final")"
		grep -q '^outlier rule: 1 device more than 3% below' "$T/final" || die "the rule at 3%: $(cat "$T/final")"
		grep -Eq '^ +2  llvmpipe.* OUTLIER$' "$T/final" && grep -Eq '^ +1  llvmpipe.* ok$' "$T/final" ||
			die "the table: $(cat "$T/final")"
		[ "$rc" = "$([ -n "$given" ] && echo 4 || echo 0)" ] || die "outlier named, --outlier '$given': exit $rc"
	done
}

# Eight devices on 80x24: every panel and row shows; one device lost among
# them is said in its panel and row, the others go on; exit 1.
t_node_view_should_fit_eight_and_show_a_lost_one() {
	local args
	args=$(printf -- '-1 %.0s' $(seq 8))
	# shellcheck disable=SC2086
	start_ui FLOPSCOPE_FAULT=device_lost@8:5 "$FS" $args --no-log --outlier 99.9 || return 1
	TM resize-window -t fs -x 80 -y 24
	for k in 1 2 3 4 5 6 7 8; do
		wait_for "\[$k\] llvmpipe" || return 1
	done
	wait_for '^ +5 llvmpipe.*FAILED' || return 1
	wait_for 'vkQueueSubmit failed: VK_ERROR_DEVICE' || return 1
	wait_for '^ flopscope \| 8 devices: .*1 error' || return 1
	TM send-keys -t fs q
	wait_exit || return 1
	[ "$(cat "$T/exit")" = 1 ] || die "exit status $(cat "$T/exit"): $(screen)"
	# the row's error wraps at 80 columns: read with the wrapped lines joined
	for _ in $(seq 50); do
		TM capture-pane -p -J -t fs | grep -q 'FAILED: vkQueueSubmit failed: VK_ERROR_DEVICE_LOST' && return 0
		sleep 0.1
	done
	die "no error in the table: $(TM capture-pane -p -J -t fs)"
}

# A node view too small for its devices says the size it needs there, in
# lines a small terminal shows whole (one 120-character line, cut at 80
# columns, said "80x24 at least" to a terminal of 80x24); at that size it
# draws. Sixteen logs replayed (copies of one), no device started.
t_a_node_view_too_small_should_say_the_size_it_needs() {
	python3 tests/data/mklog.py fp32 "$T/d1.jsonl" || die "mklog"
	local k logs=()
	for k in $(seq 16); do
		[ "$k" = 1 ] || cp "$T/d1.jsonl" "$T/d$k.jsonl"
		logs+=("$T/d$k.jsonl")
	done
	UI_W=80 UI_H=24 start_ui "$FS" --replay "${logs[@]}" --theme mono || return 1
	wait_for '^terminal too small for 16 devices$' || return 1
	wait_for '^need 80x36 \(wider: fewer rows\),$' || return 1
	screen | grep -qx 'have 80x24' || die "$(screen)"
	TM resize-window -t fs -x 80 -y 36
	wait_for '^ flopscope \| REPLAY .* \| 16 logs: ' || return 1
	TM resize-window -t fs -x 160 -y 24
	wait_for '^need 160x28 \(wider: fewer rows\),$' || return 1
	TM send-keys -t fs q
	wait_exit || return 1
	[ "$(cat "$T/exit")" = 0 ] || die "exit $(cat "$T/exit")"
}

# Two physical devices (lavapipe's manifest twice): the picker marks both
# with space, Enter starts them together; d goes back; a marks every
# physical device once.
t_picker_should_start_every_marked_device() {
	cp /usr/share/vulkan/icd.d/lvp_icd.x86_64.json "$T/a.json" && cp "$T/a.json" "$T/b.json" || die "no lavapipe manifest"
	start_ui VK_ICD_FILENAMES="$T/a.json:$T/b.json" "$FS" --no-log --outlier 99.9 || return 1
	wait_for '\[ \] +2: llvmpipe' || return 1
	TM send-keys -t fs ' '
	wait_for '\[x\] +1: llvmpipe' || return 1
	TM send-keys -t fs ' '
	wait_for '\[x\] +2: llvmpipe' || return 1
	TM send-keys -t fs Enter
	wait_for '^ flopscope \| 2 devices: ' || return 1
	wait_for '^\[2\] llvmpipe' || return 1
	TM send-keys -t fs d
	wait_for 'pick a device' || return 1
	wait_for '\[ \] +1: llvmpipe' || return 1
	TM send-keys -t fs a
	wait_for '\[x\] +2: llvmpipe' || return 1
	TM send-keys -t fs Enter
	wait_for '^ flopscope \| 2 devices: ' || return 1
	TM send-keys -t fs q
	wait_exit || return 1
	[ "$(cat "$T/exit")" = 0 ] || die "exit status $(cat "$T/exit"): $(screen)"
	wait_for '^2 devices at once, fp32:' || return 1
}

# A multi-device run's logs share a node id and carry each device's number;
# --replay takes them together (in the devices' order whatever order they
# are named in): the table, JSON, and the node view in a terminal; --compare
# takes two such runs as several sessions a side.
t_multi_device_logs_should_replay_and_compare_together() {
	for run in a b; do
		XDG_STATE_HOME="$T/$run" "$FS" -1 -1 -1 --duration 1.5 --outlier 99.9 >/dev/null 2>&1 || die "run $run: exit $?"
	done
	local logs
	mapfile -t logs < <(ls -r "$T"/a/flopscope/*.jsonl)
	[ ${#logs[@]} = 3 ] || die "logs: ${logs[*]}"
	python3 - "${logs[@]}" <<'PY' || exit 1
import json, sys
s = [json.loads(open(p).readline()) for p in sys.argv[1:]]
assert len({x["node"] for x in s}) == 1 and all(x["devices"] == 3 for x in s), s
assert sorted(x["ordinal"] for x in s) == [1, 2, 3], s
PY
	"$FS" --replay "${logs[@]}" --headless --outlier 99.9 >"$T/r.out" 2>&1 || die "replay: exit $?: $(cat "$T/r.out")"
	grep -q '^Replay of 3 devices measured together (run [0-9TZ]*-[0-9]*, 3 devices then), fp32:' "$T/r.out" ||
		die "$(cat "$T/r.out")"
	# the devices' order: each listed log is the one of that number
	for k in 1 2 3; do
		f=$(sed -n "s/^  $k: \([^ ]*\) (.*/\1/p" "$T/r.out")
		grep -q "\"ordinal\":$k," "$f" || die "row $k is $f"
		grep -Eq "^ +$k  llvmpipe.* ok$" "$T/r.out" || die "$(cat "$T/r.out")"
	done
	"$FS" --replay "${logs[@]}" --format json >"$T/r.json" || die "json: exit $?"
	python3 -c '
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
rows = [r for r in recs if r["type"] == "device_summary"]
assert [r["dev"] for r in rows] == [1, 2, 3] and all(r["ok"] and r["median"] > 0 for r in rows), rows
# each named as its log recorded it, as every record names a device
assert all(r["device"].startswith("llvmpipe") and r["uuid"] and r["gpu"] is None for r in rows), rows
assert recs[-1]["type"] == "node" and recs[-1]["devices"] == 3' "$T/r.json" || die "json"
	python3 tests/schema_check.py run "$T/r.json" >/dev/null || die "the replay records against run.schema.json"
	"$FS" --replay "${logs[0]}" "$T"/b/flopscope/*.jsonl --headless >"$T/x.out" 2>&1 || die "mixed: exit $?"
	grep -q '^Replay of 4 logs side by side (not one run' "$T/x.out" || die "$(cat "$T/x.out")"
	"$FS" --replay "${logs[0]}" "$T/nosuch.jsonl" --headless >"$T/n.out" 2>&1
	[ $? = 2 ] && grep -q 'cannot open .*nosuch.jsonl: No such file' "$T/n.out" || die "missing: $(cat "$T/n.out")"
	"$FS" llvm --workload copy --size 1M --duration 0.5 --log "$T/copy.jsonl" >/dev/null 2>&1 || die "copy run"
	"$FS" --replay "${logs[0]}" "$T/copy.jsonl" --headless >"$T/u.out" 2>&1
	[ $? = 2 ] && grep -q 'is in FLOPS, .*copy.jsonl in B/s: one table holds one unit' "$T/u.out" || die "$(cat "$T/u.out")"
	"$FS" --replay "${logs[@]}" --format csv >"$T/c.out" 2>&1
	[ $? = 2 ] && grep -q 'csv does not apply to several replays' "$T/c.out" || die "$(cat "$T/c.out")"
	"$FS" --compare "$T"/a/flopscope/*.jsonl -- "$T"/b/flopscope/*.jsonl >"$T/cmp.out" 2>&1 ||
		die "compare: exit $?: $(cat "$T/cmp.out")"
	grep -q 'over 3 and 3 sessions\|Welch' "$T/cmp.out" || die "$(cat "$T/cmp.out")"
	# the node view plays them together; q prints the table
	start_ui "$FS" --replay "${logs[@]}" --outlier 99.9 || return 1
	wait_for '^ flopscope \| REPLAY x[0-9.]+ \| 3 logs: ' || return 1
	wait_for '^\[3\] llvmpipe' || return 1
	wait_for '^ +3 llvmpipe.*[0-9.]+ [kMGT]?FLOPS' || return 1
	TM send-keys -t fs 2
	wait_for 'REPLAY x1 .*\[2 of 3\] llvmpipe' || return 1
	TM send-keys -t fs Escape
	wait_for '^ flopscope \| REPLAY x[0-9.]+ \| 3 logs: ' || return 1
	# the one-device replay's keys, on every log, in its own key bar and help
	wait_for '< > speed  left/right seek  \. step  e end' || return 1
	TM send-keys -t fs '<'
	wait_for 'replay speed x0.5 on all 3' || return 1
	TM send-keys -t fs e
	wait_for 'the end: [0-9.]+ [um]?s of [0-9.]+ [um]?s' || return 1
	wait_for '^ flopscope \| REPLAY x0\.5 \| 3 logs: 3 done' || return 1
	TM send-keys -t fs Left
	wait_for '^at [0-9.]+ [um]?s of ' || return 1
	TM send-keys -t fs .
	wait_for 'paused, one sample on' || return 1
	wait_for '^ flopscope \| REPLAY x0\.5 \| 3 logs: 3 paused' || return 1
	TM send-keys -t fs '?'
	wait_for 'a replay of several logs' || return 1
	wait_for '10 s back / on' || return 1
	TM send-keys -t fs x
	# at the end the live table's words are the printed table's: each
	# device's changes (power-state/other) and status
	TM send-keys -t fs e
	wait_for '^ flopscope \| REPLAY x0\.5 \| 3 logs: 3 done' || return 1
	sleep 0.5
	screen | awk '/^ +[123] llvmpipe/ { print $1, $(NF - 1), $NF }' >"$T/live"
	TM send-keys -t fs q
	wait_exit || return 1
	[ "$(cat "$T/exit")" = 0 ] || die "exit status $(cat "$T/exit")"
	TM capture-pane -p -t fs -S -100 | awk '/^ +[123]  llvmpipe/ { print $1, $(NF - 1), $NF }' >"$T/printed"
	[ "$(wc -l <"$T/live")" = 3 ] && cmp -s "$T/live" "$T/printed" ||
		die "the live table's words differ from the printed one's: $(paste "$T/live" "$T/printed")"
	# long paths wrap: the header may be above the pane, in its history
	TM capture-pane -p -t fs -S -100 | grep -q '^Replay of 3 devices measured together' ||
		die "$(TM capture-pane -p -t fs -S -100)"
	# each log is read once: the table after the view comes from that read,
	# so logs gone meanwhile still give it (a second read found none)
	mkdir -p "$T/g" && cp "${logs[@]}" "$T/g/" || die "copy"
	start_ui "$FS" --replay "$T"/g/*.jsonl --outlier 99.9 || return 1
	wait_for '^ +3 llvmpipe.*[0-9.]+ [kMGT]?FLOPS' || return 1
	rm -f "$T"/g/*.jsonl
	TM send-keys -t fs q
	wait_exit || return 1
	[ "$(cat "$T/exit")" = 0 ] || die "gone logs: exit status $(cat "$T/exit"): $(TM capture-pane -p -t fs -S -100)"
	TM capture-pane -p -t fs -S -100 | grep -Eq '^ +3  llvmpipe.* ok$' || die "$(TM capture-pane -p -t fs -S -100)"
}

# The node view judged a device by its whole run's median: a GPU burned by
# another process from the middle of a view read "of peers 100%", "ok",
# while it ran at 30% of them. Each device's level now (its last 3 s) is
# held to its peers' levels now by the same rule: the second device slowed
# to a sixteenth after its 300th submission (the test build's
# FLOPSCOPE_FAULT=slow) is named live, "OUTLIER now", before its run's
# median says it, and the rule line leads with it.
t_the_node_view_should_name_a_device_far_below_its_peers_now() {
	# three engines on two cores under AddressSanitizer never settled: every
	# CI rehearsal (10-16) said SKIP here after 32-63 s of the sanitizer
	# stage's longest lane. The level now and the rule are pure code (test_ui_pure's
	# history_level_now_should_be_the_last_seconds_median and the outlier
	# rule's tests run under both sanitizers), the view's screens the other
	# node-view tests'
	sanitized && skip "three engines under a sanitizer never settle on two cores (each CI rehearsal: SKIP after 32-63 s); make test runs it"
	# lavapipe on its own count of threads (one a CPU; the lanes' one each):
	# three one-thread engines on two cores shared them unevenly, one core
	# to one of them, and the rule rightly could not tell (alone on the
	# 2-core machine: 1 of 2 runs passed with one thread each, 6 of 7 with
	# the default; the others said SKIP)
	start_ui LP_NUM_THREADS="$(nproc)" FLOPSCOPE_FAULT=slow@300:2 "$FS" -1 -1 -1 --no-log || return 1
	wait_for '^ +2 llvmpipe.*[0-9.]+ [kMGT]?FLOPS' || return 1
	# the slowdown starts at sample 300 (about 6 s in): named within
	# seconds where the machine lets the rule tell; 30 s to say it cannot
	local deadline=$((SECONDS + 30)) shown
	# one capture for the row and the rule line: a screen read again later
	# can have the runs' noise past the shortfall (make test beside a make
	# -j2: the row said OUTLIER now, the next read's rule "cannot tell")
	until shown=$(screen) && grep -Eq '^ +2 llvmpipe.* OUTLIER now [0-9]+%$' <<<"$shown"; do
		if [ $SECONDS -ge $deadline ]; then
			# the runs' noise on a loaded machine can spread past the shortfall;
			# a slow start can let the run's median name it first (its status
			# then the run's OUTLIER): this test cannot tell either way
			screen | grep -Eq 'within the runs. noise|unsure|^ +2 llvmpipe.* OUTLIER$' &&
				skip "the machine too busy: lavapipe's runs spread past the shortfall: $(screen | grep 'outlier rule')"
			die "no OUTLIER now in 30 s; screen was:"$'\n'"$(screen)"
		fi
		sleep 0.1
	done
	grep -Eq '^ now: \[2\] at [0-9]+% of its peers. level now' <<<"$shown" || die "the rule line: $(tail -3 <<<"$shown")"
	TM send-keys -t fs q
	wait_exit || return 1
	[ "$(cat "$T/exit")" = 0 ] || die "exit $(cat "$T/exit")"
}
