# tests/integration/slurm.sh: Slurm for real. munged, slurmctld and slurmd of
# Debian's packages (unpacked into build/test-root by make test: never
# installed as services) run on loopback from the test's folder, with one
# node of two GPUs (GRES on device nodes of the test's own); the prolog is
# docs/fleet/slurm-prolog.sh as FLEET.md documents it. NVML's stand-in knows
# lavapipe as GPU 0, and a GPU 1 that Vulkan does not show (fallen off the
# bus). Sourced by tests/integration.sh, which provides lib.sh's helpers.

SLURM_ROOT=$PWD/build/test-root

# Starts munged, slurmctld and slurmd in $T/slurm, its node's two GPUs GRES
# on device nodes named $1 (nvidia: nvidia0 and nvidia1, as NVIDIA nodes;
# render: renderD128 and renderD129, /dev/dri's as AMD and Intel nodes);
# false with why in $T/why.
slurm_up() {
	local s=$T/slurm r=$SLURM_ROOT host p1 p2 gres=${1:-nvidia}
	mkdir -p "$s"/munge "$s"/state "$s"/spool "$s"/log "$s"/dev || return 1
	chmod 700 "$s/munge"
	head -c 1024 /dev/urandom >"$s/munge/key" && chmod 400 "$s/munge/key" || return 1
	# the GPUs' device nodes: Slurm takes their numbers for its GRES (as /dev/null's: harmless)
	local files
	if [ "$gres" = render ]; then
		mknod "$s/dev/renderD128" c 1 3 && mknod "$s/dev/renderD129" c 1 3 || { echo "mknod refused" >"$T/why"; return 1; }
		files="$s/dev/renderD[128-129]"
	else
		mknod "$s/dev/nvidia0" c 1 3 && mknod "$s/dev/nvidia1" c 1 3 || { echo "mknod refused" >"$T/why"; return 1; }
		files="$s/dev/nvidia[0-1]"
	fi
	export LD_LIBRARY_PATH=$r/usr/lib/x86_64-linux-gnu:$r/usr/lib/x86_64-linux-gnu/slurm-wlm
	export SLURM_CONF=$s/slurm.conf PATH=$r/usr/bin:$r/usr/sbin:$PATH
	"$r/usr/sbin/munged" --foreground --force --socket="$s/munge/sock" --key-file="$s/munge/key" \
		--log-file="$s/munge/log" --pid-file="$s/munge/pid" --seed-file="$s/munge/seed" >"$s/log/munged.out" 2>&1 &
	PIDS="$!"
	trap 'kill $PIDS 2>/dev/null; wait 2>/dev/null' EXIT
	host=$(hostname -s)
	p1=$(free_port)
	p2=$(free_port)
	cat >"$s/slurm.conf" <<CONF
ClusterName=flopscope-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$p1
SlurmdPort=$p2
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$s/munge/sock
CredType=cred/munge
PluginDir=$r/usr/lib/x86_64-linux-gnu/slurm-wlm
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.pid
SlurmctldLogFile=$s/log/slurmctld.log
SlurmdLogFile=$s/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
DefMemPerCPU=100
GresTypes=gpu
ReturnToService=2
PrologFlags=Alloc
Prolog=$s/prolog.sh
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 Gres=gpu:2 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
	echo "NodeName=$host Name=gpu File=$files" >"$s/gres.conf"
	for _ in $(seq 100); do [ -S "$s/munge/sock" ] && break; sleep 0.05; done
	slurmctld -D -c >"$s/log/slurmctld.out" 2>&1 &
	PIDS="$PIDS $!"
	# slurmd starts /usr/sbin/slurmstepd: in a mount namespace of its own,
	# the unpacked one is laid over /usr/sbin (nothing changes outside it)
	unshare -m sh -c "mount -t overlay overlay -o lowerdir=$r/usr/sbin:/usr/sbin /usr/sbin && exec $r/usr/sbin/slurmd -D" \
		>"$s/log/slurmd.out" 2>&1 &
	PIDS="$PIDS $!"
	NODE=$host
	for _ in $(seq 200); do
		scontrol show node "$NODE" 2>/dev/null | grep -q 'State=IDLE ' && return 0
		sleep 0.1
	done
	echo "the node never came up idle: $(scontrol show node "$NODE" 2>&1 | grep -E 'State|Reason'; tail -n 3 "$s"/log/*.out)" >"$T/why"
	return 1
}

# A job's allocation of one GPU (no step runs: the prolog is what is tested); its id.
slurm_alloc() {
	salloc --no-shell -N1 --gres=gpu:1 -t 5 -J "$1" >"$T/salloc.$1" 2>&1
	sed -n 's/^salloc: Granted job allocation \([0-9]*\)$/\1/p' "$T/salloc.$1"
}

node_state() { scontrol show node "$NODE" | grep -o 'State=[^ ]*' | head -1; }

# The prolog as slurm.conf would name it; the site's settings of
# /etc/default/flopscope given in its environment instead.
slurm_prolog() {
	local uuid=$1 nvml="export FLOPSCOPE_FAKE_NVML=\"GPU-$1,GPU-00000000-1111-2222-3333-444444444444\""
	[ "$uuid" = none ] && nvml="export FLOPSCOPE_SYSFS_ROOT=\"$T/sys\""
	mkdir -p "$T/slurm"
	cat >"$T/slurm/prolog.sh" <<PROLOG
#!/bin/sh
export PATH="$SLURM_ROOT/usr/bin:\$PATH"
export LD_LIBRARY_PATH="$FAKE_NVML_DIR:$SLURM_ROOT/usr/lib/x86_64-linux-gnu:$SLURM_ROOT/usr/lib/x86_64-linux-gnu/slurm-wlm"
$nvml
export FLOPSCOPE="$PWD/$FS" FLOPSCOPE_BUDGET=5s FLOPSCOPE_METRICS="$T/slurm/check.\$SLURM_JOB_ID.prom"
export FLOPSCOPE_ARGS="--workload fp32 --baseline $T/base.jsonl --threshold 10"
export XDG_STATE_HOME="$T/state" XDG_CACHE_HOME="$T/cache"
[ -f "$T/slurm/fault" ] && export FLOPSCOPE_FAULT=\$(cat "$T/slurm/fault")
exec "$PWD/docs/fleet/slurm-prolog.sh" 2>"$T/slurm/prolog.\$SLURM_JOB_ID.err"
PROLOG
	chmod +x "$T/slurm/prolog.sh"
}

# A passing check leaves the node to the job and idle after it; a job's
# check covers its own GPUs only, and GPU 1, which Vulkan does not show,
# drains the node for the job that gets it; a GPU computing wrong values
# drains it with flopscope's reason.
t_slurm_prolog_should_check_a_jobs_gpus_and_drain_a_failing_node() {
	[ "$(id -u)" = 0 ] || skip "Slurm's daemons and the device nodes need root"
	sanitized && skip "Slurm runs the plain build's check: make test runs it"
	[ -x "$SLURM_ROOT/usr/sbin/slurmd-wlm" ] || die "$SLURM_ROOT: not unpacked (make test does it)"
	# slurmd finds slurmstepd only in /usr/sbin: the test lays it there in a
	# mount namespace of its own, which a container may not allow
	unshare -m true 2>"$T/unshare" || skip "no mount namespace here (unshare -m: $(cat "$T/unshare"))"
	# and slurmd will not start without the cgroup filesystem (a chroot may lack it)
	mountpoint -q /sys/fs/cgroup || skip "no cgroup filesystem at /sys/fs/cgroup: slurmd cannot start"
	make_baseline
	local uuid a b c
	uuid=$("$FS" --list --format json | python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["uuid"])')
	slurm_prolog "$uuid"
	slurm_up || die "$(cat "$T/why")"

	# 1. GPU 0 (lavapipe), sound: the job runs; the check covered GPU 0 alone
	a=$(slurm_alloc good)
	[ -n "$a" ] || die "no allocation: $(cat "$T/salloc.good")"
	scontrol show job "$a" | grep -q 'JobState=RUNNING' || die "job $a: $(scontrol show job "$a" | grep JobState)"
	[ -s "$T/slurm/check.$a.prom" ] || die "the prolog wrote no metrics: $(cat "$T/slurm/prolog.$a.err")"
	grep -q "^flopscope_check_status{gpu=\"0\",UUID=\"GPU-$uuid\",workload=\"fp32\",status=\"pass\"} 1$" \
		"$T/slurm/check.$a.prom" || die "job $a: $(grep check_status "$T/slurm/check.$a.prom")"
	[ "$(grep -c '^flopscope_device_info' "$T/slurm/check.$a.prom")" = 1 ] || die "more than the job's GPU checked"

	# 2. the next job gets GPU 1, which Vulkan does not show: drained, and why
	b=$(slurm_alloc gone)
	for _ in $(seq 100); do node_state | grep -q DRAIN && break; sleep 0.1; done
	node_state | grep -q DRAIN || die "GPU 1: not drained: $(node_state)"
	scontrol show node "$NODE" | grep -q "Reason=flopscope: cannot check: GPU 1 (SLURM_JOB_GPUS): NVML has no GPU 1 that Vulkan shows" ||
		die "reason: $(scontrol show node "$NODE" | grep Reason)"
	scancel "$a" ${b:+"$b"}
	scontrol update nodename="$NODE" state=resume || die "resume"
	for _ in $(seq 100); do [ "$(node_state)" = State=IDLE ] && break; sleep 0.1; done
	[ "$(node_state)" = State=IDLE ] || die "not idle after the jobs: $(node_state)"

	# 3. GPU 0 computing wrong values: drained with the reason
	echo wrong@3 >"$T/slurm/fault"
	c=$(slurm_alloc wrong)
	for _ in $(seq 100); do node_state | grep -q DRAIN && break; sleep 0.1; done
	scontrol show node "$NODE" >"$T/node.txt"
	grep -q 'State=[A-Z+]*DRAIN' "$T/node.txt" || die "wrong results: not drained: $(grep State "$T/node.txt")"
	grep -q "Reason=flopscope: wrong results (WRONG \[1\] fp32 - verification failed" "$T/node.txt" ||
		die "reason: $(grep Reason "$T/node.txt")"
	cat "$T"/slurm/check.*.prom | grep -q '^flopscope_check_status{gpu="0",.*status="wrong"} 1$' ||
		die "no wrong verdict in the metrics"
	[ -z "$c" ] || scancel "$c"
	rm -f "$T/slurm/fault"
	slurm_down
	slurm_render_node_should_not_drain_for_want_of_nvml
}

# Stops the daemons slurm_up started and removes their folder.
slurm_down() {
	# shellcheck disable=SC2086 # a list of pids
	kill $PIDS 2>/dev/null
	wait 2>/dev/null
	rm -rf "$T/slurm"
}

# An AMD or Intel node: GRES on render nodes (/dev/dri/renderD128, 129: the
# test's own device nodes) and no NVML. Its render nodes (a sysfs fixture)
# are at PCI addresses no Vulkan device has (lavapipe has none), so no map
# is sound: the job's GPUs are every device, with a warning, and the node is
# not drained for want of a map (it was drained on the first GPU job). Run
# after the NVIDIA node's case, in the same test: two slurmd on one host
# would share their cgroup scope.
slurm_render_node_should_not_drain_for_want_of_nvml() {
	local a
	for k in 128 129; do
		mkdir -p "$T/sys/class/drm/renderD$k/device"
		printf 'DRIVER=amdgpu\nPCI_SLOT_NAME=0000:%02x:00.0\n' $((k - 118)) >"$T/sys/class/drm/renderD$k/device/uevent"
	done
	slurm_prolog none
	slurm_up render || die "$(cat "$T/why")"
	a=$(slurm_alloc amd)
	[ -n "$a" ] || die "no allocation: $(cat "$T/salloc.amd")"
	scontrol show job "$a" | grep -q 'JobState=RUNNING' ||
		die "job $a: $(scontrol show job "$a" | grep -E 'JobState|Reason'); $(cat "$T/slurm/prolog.$a.err" 2>/dev/null)"
	node_state | grep -q DRAIN && die "drained: $(scontrol show node "$NODE" | grep Reason)"
	grep -q "^flopscope: warning: SLURM_JOB_GPUS=[01] cannot be tied to devices (NVML .*; none of the 2 DRM render nodes under .* is a device Vulkan shows.*): checking every device$" \
		"$T/slurm/prolog.$a.err" || die "no warning: $(cat "$T/slurm/prolog.$a.err")"
	grep -q '^flopscope_check_status{.*workload="fp32",status="pass"} 1$' "$T/slurm/check.$a.prom" ||
		die "job $a: $(grep check_status "$T/slurm/check.$a.prom")"
	scancel "$a"
}

# The shipped prolog's answer to each of the check's exit statuses, with
# the check, scontrol and logger stood in for (the real Slurm runs above):
# a device verdict (1, 3, 4) or bad input (2) drains the node with the
# reason; 6 (flopscope's own trouble) and 5 (nothing to hold the GPUs to: a
# model flopscope knows no peak of, a new SKU's first job) are logged and
# never drain; a job without GPUs runs no check.
t_slurm_prolog_should_drain_on_a_verdict_and_never_on_no_reference() {
	mkdir -p "$T/bin"
	cat >"$T/bin/check" <<'SH'
#!/bin/sh
echo "$*" >>"$T_DIR/check.args"
case $FAKE_RC in
5) echo 'NOREF    [1] NVIDIA Z9000  fp32  80.1 TFLOPS  no theoretical peak known; 6 result checks passed' ;;
1) echo 'FAIL     [1] NVIDIA Z9000  fp32  40.0 TFLOPS  50.0% of the baseline' ;;
3) echo 'WRONG    [1] NVIDIA Z9000  fp32  - verification failed' ;;
esac
exit "$FAKE_RC"
SH
	printf '#!/bin/sh\necho "$*" >>"$T_DIR/scontrol.args"\n' >"$T/bin/scontrol"
	printf '#!/bin/sh\necho "$*" >>"$T_DIR/logger.args"\n' >"$T/bin/logger"
	chmod +x "$T/bin/check" "$T/bin/scontrol" "$T/bin/logger"
	local rc want
	for rc in 0 1 2 3 4 5 6; do
		rm -f "$T/scontrol.args" "$T/logger.args"
		PATH="$T/bin:$PATH" T_DIR="$T" FAKE_RC=$rc FLOPSCOPE="$T/bin/check" FLOPSCOPE_METRICS="$T/m.prom" \
			SLURM_JOB_GPUS=0 SLURM_JOB_ID=7 SLURMD_NODENAME=n1 sh docs/fleet/slurm-prolog.sh 2>"$T/err"
		local got=$?
		case $rc in 0 | 5 | 6) want=0 ;; *) want=$rc ;; esac
		[ $got = "$want" ] || die "check exit $rc: the prolog exited $got: $(cat "$T/err")"
		if [ "$want" = 0 ]; then
			[ ! -e "$T/scontrol.args" ] || die "check exit $rc drained the node: $(cat "$T/scontrol.args")"
		else
			grep -q '^update nodename=n1 state=drain reason=flopscope: .*job 7, SLURM_JOB_GPUS=0$' "$T/scontrol.args" ||
				die "check exit $rc: not drained: $(cat "$T/scontrol.args" 2>/dev/null)"
		fi
	done
	# the last but one (5) said why it did not drain, with the NOREF line
	rm -f "$T/logger.args"
	PATH="$T/bin:$PATH" T_DIR="$T" FAKE_RC=5 FLOPSCOPE="$T/bin/check" FLOPSCOPE_METRICS="$T/m.prom" \
		SLURM_JOB_GPUS=0 SLURM_JOB_ID=8 sh docs/fleet/slurm-prolog.sh 2>/dev/null
	grep -q 'flopscope held the GPUs to no reference (NOREF \[1\] NVIDIA Z9000 fp32 80.1 TFLOPS .*): not drained; give FLOPSCOPE_ARGS a --baseline, job 8' \
		"$T/logger.args" || die "exit 5 not logged: $(cat "$T/logger.args" 2>/dev/null)"
	rm -f "$T/check.args"
	PATH="$T/bin:$PATH" T_DIR="$T" FAKE_RC=1 FLOPSCOPE="$T/bin/check" SLURM_JOB_ID=9 sh docs/fleet/slurm-prolog.sh ||
		die "a job without GPUs: exit $?"
	[ ! -e "$T/check.args" ] || die "a job without GPUs was checked"
}
