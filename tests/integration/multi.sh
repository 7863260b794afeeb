# tests/integration/multi.sh: several devices at once. On lavapipe there is one
# Vulkan device: the engines run two and four times on the same entry (two
# and four logical devices), which exercises N engines, their logs, the
# per-device table, a device lost among others, and the outlier rule's exit.
# Sourced by tests/integration.sh, which provides lib.sh's helpers.

t_two_and_four_engines_should_measure_side_by_side() {
	for n in 2 4; do
		args=$(printf -- '-1 %.0s' $(seq $n))
		# shellcheck disable=SC2086
		"$FS" $args --duration 2 --format json --outlier 99.9 >"$T/m$n.json" 2>"$T/m$n.err" ||
			die "N=$n: exit $?: $(cat "$T/m$n.err")"
		python3 - "$T/m$n.json" "$n" "$XDG_STATE_HOME/flopscope" <<'PY' || exit 1
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
node = recs[-1]
assert node["type"] == "node" and node["devices"] == n and node["failed"] == 0 and node["outliers"] == 0, node
PY
	done
	# each engine wrote a log of its own
	[ "$(ls "$XDG_STATE_HOME/flopscope/"*.jsonl | wc -l)" -ge 6 ] || die "logs: $(ls "$XDG_STATE_HOME/flopscope/")"
	"$FS" -1 -1 --duration 1 --no-log --outlier 99.9 >"$T/t.out" 2>&1 || die "table: exit $?"
	grep -q '^Measuring 2 devices at once: fp32, 1 s at the 20 ms target' "$T/t.out" || die "$(cat "$T/t.out")"
	[ "$(grep -c '^   [12]  llvmpipe' "$T/t.out")" = 2 ] || die "no row per device: $(cat "$T/t.out")"
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
    assert r["outlier"] == (r["of_peers_median"] < 1 - 0.001), r
PY
}

t_several_devices_should_refuse_what_they_cannot_do() {
	for args in "-1 -1 --log $T/x.jsonl" "--all -1" "-1 -1 --latency" "-1 -1 --list-workloads"; do
		# shellcheck disable=SC2086
		"$FS" $args >"$T/out" 2>&1
		[ $? = 2 ] || die "$args: accepted: $(cat "$T/out")"
	done
	"$FS" --all nosuchdevice --duration 1 --no-log >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'no device whose name contains "nosuchdevice"' "$T/out" || die "$(cat "$T/out")"
	# --all: one engine per physical device (lavapipe: one)
	"$FS" --all llvm --duration 1 --no-log >"$T/out" 2>&1 || die "--all: exit $?: $(cat "$T/out")"
	grep -q '^Measuring 1 device at once' "$T/out" || die "$(cat "$T/out")"
}

# --suite on several devices: each workload on all of them at once, a row per
# device and workload.
t_the_suite_should_run_each_workload_on_every_device_at_once() {
	"$FS" -1 -1 --suite --duration 0.3 --no-log --format json >"$T/s.json" 2>"$T/s.err" ||
		die "exit $?: $(cat "$T/s.err")"
	python3 - "$T/s.json" <<'PY' || exit 1
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
names = []
for r in rows:
    if r["workload"] not in names:
        names.append(r["workload"])
assert names[0] == "fp32" and "int8-matrix" in names and names[-1] == "h2h", names
for w in names:
    mine = [r for r in rows if r["workload"] == w]
    assert [r["dev"] for r in mine] == [1, 2], (w, mine)
    for r in mine:
        if "-matrix" in w:
            assert r["supported"] is False and "no cooperative matrices" in r["why"], r
        else:
            assert r["supported"] and r["median"] > 0 and r["checks_passed"] >= 1, r
PY
	"$FS" -1 -1 --suite --duration 0.3 --no-log >"$T/s.out" 2>&1 || die "table: exit $?"
	grep -q '^Suite on 2 devices at once, 0.3 s at the 20 ms target each' "$T/s.out" || die "$(head -3 "$T/s.out")"
	grep -Eq '^ fp32 \[1\] +[0-9.]+ [kMGT]?FLOPS' "$T/s.out" && grep -Eq '^ fp32 \[2\] +[0-9.]+ [kMGT]?FLOPS' "$T/s.out" ||
		die "$(cat "$T/s.out")"
}
