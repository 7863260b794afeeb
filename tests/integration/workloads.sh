# tests/integration/workloads.sh: workloads: every kind checked, exact counts, trials.
# Sourced by tests/integration.sh, which provides lib.sh's helpers.

t_workloads_should_run_checked_with_exact_counts() {
	sanitized && skip "the counts: make test holds them (every workload runs under AddressSanitizer in the_suite_should_run_each_workload_on_every_device_at_once)"
	"$FS" llvm --list-workloads >"$T/out" || die "--list-workloads exit $?"
	for w in fp32 fp64 int32 fp16 int8dot fp32-scalar fp16-scalar fp64-scalar int16 int64; do
		grep -Eq "^  $w +(FLOPS|IOPS) +supported" "$T/out" || die "$(cat "$T/out")"
	done
	# under ThreadSanitizer two of them: every workload runs on the same
	# threads (engine, telemetry, writer), which is what it checks
	local ws="fp64 int32 fp16 int8dot fp32-scalar fp16-scalar fp64-scalar int16 int64"
	tsan && ws="fp16 int64"
	for w in $ws; do
		"$FS" llvm --workload $w --format json --duration 1 --log "$T/$w.jsonl" >"$T/$w.json" 2>/dev/null || die "$w: exit $?"
		python3 - "$T/$w.json" "$T/$w.jsonl" "$w" <<'PY' || exit 1
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
session = json.loads(open(sys.argv[2]).readline())
assert session["workload"] == sys.argv[3], session["workload"]
samples = [r for r in recs if r["type"] == "sample"]
assert len(samples) >= 10 and recs[-1]["checks_passed"] >= 3
per = session["work_per_invocation"] * session["local_size"]
assert all(s["work"] == s["groups"] * per for s in samples), "operation count"
assert all(s["verified"] for s in samples[:2])
PY
	done
	# every workload named, in the table's order (fp32 first, power last)
	local all
	all=$(workload_names | paste -sd, | sed 's/,/, /g')
	case $all in "fp32, fp64, "*", fp16-matrix, "*", power") ;; *) die "--list-workloads: $all" ;; esac
	"$FS" llvm --workload fp8 >"$T/out" 2>&1
	[ $? = 2 ] && grep -qF "not one of $all" "$T/out" || die "fp8: $(cat "$T/out")"
	# tensor cores: lavapipe has no cooperative matrices, and says so
	why='the device has no cooperative matrices (neither VK_KHR_cooperative_matrix nor VK_NV_cooperative_matrix)'
	"$FS" llvm --list-workloads >"$T/lw" || die "--list-workloads: exit $?"
	for w in $(matrix_workloads); do
		# the reason on the first row, "as above" on the rows after it
		[ $w = fp16-matrix ] && want=$why || want="as above"
		grep -E "^  $w +(FLOPS|IOPS) +unsupported +" "$T/lw" | grep -qF "$want" || die "--list-workloads: $w: $(cat "$T/lw")"
		"$FS" llvm --workload $w --duration 1 >"$T/out" 2>&1
		[ $? = 2 ] && grep -q "workload $w cannot run on llvmpipe.*: $why" "$T/out" || die "$w: $(cat "$T/out")"
	done
	"$FS" llvm --workload int32 --duration 0.5 --no-log | grep -q 'IOPS at target' || die "no IOPS"
}

# The cooperative-matrix shaders cannot run on lavapipe: each is compiled
# as the engine compiles it (src/gpu/shader.c, no spirv-opt) for the shapes
# NVIDIA offers, and spirv-val must accept it; a shader with no type, or a
# mismatched shape, must not compile or validate.
t_matrix_shaders_should_compile_to_valid_spirv() {
	tsan && skip "shaderc and spirv-val, no thread of their own: check-asan and make test run it"
	# each make target builds its own (make check-asan alone built none here)
	local sc=${B:-build}/tests/shader_check
	[ -x $sc ] || die "$sc not built"
	for v in "TYPE_FP16_MATRIX 16 16 16" "TYPE_FP16_MATRIX 16 8 16" "TYPE_FP16_MATRIX_F16 16 16 16" \
		"TYPE_INT8_MATRIX 16 16 32" "TYPE_INT8_MATRIX 8 8 32"; do
		set -- $v
		for acc in 1 4; do
			$sc shaders/coopmat.comp "$T/m.spv" $1=1 M_SIZE=$2 N_SIZE=$3 K_SIZE=$4 VEC4S=$acc UNROLL=8 \
				FLOPSCOPE_NO_SPIRV_OPT=1 2>"$T/err" || die "$v: $(cat "$T/err")"
			spirv-val --target-env vulkan1.1 "$T/m.spv" 2>"$T/err" || die "$v: spirv-val: $(cat "$T/err")"
		done
	done
	spirv-dis "$T/m.spv" | grep -q 'OpCapability Int8' || die "int8-matrix declares no Int8"
	$sc shaders/coopmat.comp "$T/m.spv" M_SIZE=16 N_SIZE=16 K_SIZE=16 VEC4S=1 UNROLL=8 2>"$T/err"
	[ $? = 1 ] && grep -q 'define TYPE_FP16_MATRIX, TYPE_FP16_MATRIX_F16, TYPE_INT8_MATRIX or TYPE_STANDIN_MATRIX' "$T/err" ||
		die "$(cat "$T/err")"
	# bf16-matrix: its fp16 stand-in form must validate; rewritten to KHR
	# matrices and bfloat16 (which this spirv-val predates) it must hold
	# exactly the rewrite's changes (tests/bf16_spirv.py reads the words)
	for v in "16 16 16" "16 8 16"; do
		set -- $v
		$sc shaders/coopmat.comp "$T/n.spv" TYPE_STANDIN_MATRIX=1 M_SIZE=$1 N_SIZE=$2 K_SIZE=$3 VEC4S=1 UNROLL=8 \
			FLOPSCOPE_NO_SPIRV_OPT=1 2>"$T/err" || die "bf16 $v: $(cat "$T/err")"
		spirv-val --target-env vulkan1.1 "$T/n.spv" 2>"$T/err" || die "bf16 $v (stand-in): spirv-val: $(cat "$T/err")"
		$sc shaders/coopmat.comp "$T/k.spv" TYPE_STANDIN_MATRIX=1 M_SIZE=$1 N_SIZE=$2 K_SIZE=$3 VEC4S=1 UNROLL=8 \
			FLOPSCOPE_KHR_AS=bf16 2>"$T/err" || die "bf16 $v: $(cat "$T/err")"
		python3 tests/bf16_spirv.py "$T/n.spv" "$T/k.spv" "$1 $2 $3" || die "bf16 $v: the rewrite"
	done
	# a type the rewrite has no row for is refused, named
	$sc shaders/coopmat.comp "$T/k.spv" TYPE_STANDIN_MATRIX=1 M_SIZE=16 N_SIZE=16 K_SIZE=16 VEC4S=1 UNROLL=8 \
		FLOPSCOPE_KHR_AS=int8 2>"$T/err" && die "FLOPSCOPE_KHR_AS=int8 was taken"
	grep -q 'FLOPSCOPE_KHR_AS=int8: no rewrite of fp16 stand-ins to that type' "$T/err" || die "$(cat "$T/err")"
	# bench/peak/coopmat2.sh's workgroup-scope fp16 matrices: the NV form
	# validates, the KHR rewrite keeps fp16
	$sc shaders/coopmat.comp "$T/n.spv" TYPE_FP16_MATRIX=1 WORKGROUP_SCOPE=1 M_SIZE=64 N_SIZE=64 K_SIZE=32 VEC4S=1 \
		UNROLL=16 FLOPSCOPE_NO_SPIRV_OPT=1 2>"$T/err" || die "workgroup scope: $(cat "$T/err")"
	spirv-val --target-env vulkan1.1 "$T/n.spv" 2>"$T/err" || die "workgroup scope: spirv-val: $(cat "$T/err")"
	$sc shaders/coopmat.comp "$T/k.spv" TYPE_FP16_MATRIX=1 WORKGROUP_SCOPE=1 M_SIZE=64 N_SIZE=64 K_SIZE=32 VEC4S=1 \
		UNROLL=16 FLOPSCOPE_KHR=1 2>"$T/err" || die "workgroup scope: $(cat "$T/err")"
	python3 tests/bf16_spirv.py "$T/n.spv" "$T/k.spv" "64 64 32" fp16 || die "workgroup scope: the rewrite"
	# the power workload's matrix form (lavapipe runs its FMA form)
	for v in "16 16 16 4" "16 8 16 8" "16 8 8 1"; do
		set -- $v
		$sc shaders/power.comp "$T/p.spv" MATRIX=1 M_SIZE=$1 N_SIZE=$2 K_SIZE=$3 CHAINS=$4 UNROLL=4 \
			FLOPSCOPE_NO_SPIRV_OPT=1 2>"$T/err" || die "power $v: $(cat "$T/err")"
		spirv-val --target-env vulkan1.1 "$T/p.spv" 2>"$T/err" || die "power $v: spirv-val: $(cat "$T/err")"
	done
	# FLOPSCOPE_POWER_SHARED's shared memory (bench/power.sh) stays in the
	# module: 10240 words a workgroup
	$sc shaders/power.comp "$T/p.spv" MATRIX=1 M_SIZE=16 N_SIZE=8 K_SIZE=16 CHAINS=2 UNROLL=4 SHARED_WORDS=10240 \
		FLOPSCOPE_NO_SPIRV_OPT=1 2>"$T/err" || die "power shared: $(cat "$T/err")"
	spirv-val --target-env vulkan1.1 "$T/p.spv" 2>"$T/err" || die "power shared: spirv-val: $(cat "$T/err")"
	spirv-dis "$T/p.spv" | grep -Eq 'OpTypeArray %uint %uint_10240' || die "power shared: no array of 10240 words"
}

# The power workload: random operands from a seed of the run, checked by
# tiles the CPU recomputes; a tile altered on its way back is refused (the
# group counter right), and the operands differ from run to run.
t_power_should_run_verified_and_refuse_a_corrupted_tile() {
	"$FS" llvm --list-workloads >"$T/lw" || die "--list-workloads: exit $?"
	grep -Eq "^  power +FLOPS +supported" "$T/lw" || die "$(cat "$T/lw")"
	"$FS" llvm --workload power --format json --duration 1 --log "$T/p.jsonl" >"$T/p.json" 2>"$T/err" ||
		die "power: exit $?: $(cat "$T/err")"
	python3 - "$T/p.json" "$T/p.jsonl" <<'PY' || exit 1
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
session = json.loads(open(sys.argv[2]).readline())
assert session["workload"] == "power", session["workload"]
samples = [r for r in recs if r["type"] == "sample"]
assert len(samples) >= 10 and recs[-1]["checks_passed"] >= 3, recs[-1]
per = session["work_per_invocation"] * session["local_size"]
assert all(s["work"] == s["groups"] * per for s in samples), "operation count"
assert all(s["verified"] for s in samples[:2])
PY
	FLOPSCOPE_FAULT=tile@6 "$FS" llvm --workload power --duration 2 --no-log >"$T/out" 2>&1
	[ $? = 3 ] || die "a corrupted tile: exit $?: $(cat "$T/out")"
	grep -q 'verification failed: slot 0: .*, the CPU.s .* (within ' "$T/out" || die "$(cat "$T/out")"
	# the same fault on fp32 is caught too (its slot), and the counter's fault on power
	FLOPSCOPE_FAULT=wrong@6 "$FS" llvm --workload power --duration 2 --no-log >"$T/out" 2>&1
	[ $? = 3 ] && grep -q 'group' "$T/out" || die "a wrong counter: $(cat "$T/out")"
	FLOPSCOPE_POWER_SHAPE=2,4,8 "$FS" llvm --workload power --duration 0.5 --no-log >"$T/out" 2>&1 ||
		die "FLOPSCOPE_POWER_SHAPE: $(cat "$T/out")"
	FLOPSCOPE_POWER_SHAPE=9,4,8 "$FS" llvm --workload power --duration 0.5 --no-log >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'FLOPSCOPE_POWER_SHAPE: "9,4,8": CHAINS 1-8' "$T/out" || die "$(cat "$T/out")"
	FLOPSCOPE_POWER_SHARED=4096 "$FS" llvm --workload power --duration 0.5 --no-log >"$T/out" 2>&1
	[ $? = 2 ] && grep -q "FLOPSCOPE_POWER_SHARED: the matrix form's only (llvmpipe.* runs the FMA form)" "$T/out" ||
		die "$(cat "$T/out")"
}

t_memory_workloads_should_move_checked_bytes() {
	"$FS" llvm --list-workloads >"$T/out" || die "--list-workloads exit $?"
	for w in copy h2d h2d-cached d2h d2h-cached d2d h2h; do
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
assert all(s["work"] == s["groups"] * 256 * 4 * 16 * 2 for s in samples), "bytes read + written"
assert recs[-1]["checks_passed"] >= 3 and recs[-1]["rate_median"] > 1e8, recs[-1]
PY
	# each transfer path over a short sweep: every size measured, checked
	# (thousands of copies a submission: too slow under sync validation,
	# which the run after covers on its own)
	# (under ThreadSanitizer one sweep and one validated run: the same threads)
	local sweeps="h2d d2h-cached d2d h2h" validated="d2h h2d-cached d2d"
	tsan && sweeps="h2d" validated="d2h"
	for w in $sweeps; do
		env -u FLOPSCOPE_VALIDATE "$FS" llvm --workload $w --size 16K-1M --format json --log "$T/$w.jsonl" >"$T/$w.json" 2>/dev/null ||
			die "$w: exit $?"
		python3 - "$T/$w.json" "$T/$w.jsonl" $w <<'PY' || exit 1
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
session = json.loads(open(sys.argv[2]).readline())
samples = [r for r in recs if r["type"] == "sample"]
per = 2 if sys.argv[3] == "d2d" else 1
assert all(s["work"] == s["groups"] * s["size"] * per for s in samples), "bytes counted"
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
	for w in $validated; do
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
per = session["work_per_invocation"] * session["local_size"]
assert all(s["work"] == s["groups"] * per for s in samples), "flop is per dispatch"
# the checked samples saw 7 x groups counted by the shader; the duty cycle
# counts all 7 dispatches of a submission (one would give about 1/7): the
# bound tells the two apart without depending on how loaded the machine is
assert recs[-1]["checks_passed"] >= 3 and 0.5 < recs[-1]["duty_cycle"] <= 1.0001, recs[-1]
PY
	"$FS" llvm --trials 0 >"$T/out" 2>&1; [ $? = 2 ] && grep -q 'out of range' "$T/out" || die "--trials 0: $(cat "$T/out")"
	"$FS" llvm --trials 2.5 >"$T/out" 2>&1; [ $? = 2 ] && grep -q 'whole number' "$T/out" || die "--trials 2.5"
}
