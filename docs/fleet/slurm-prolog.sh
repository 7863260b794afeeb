#!/bin/sh
# Slurm Prolog (slurm.conf: Prolog=/etc/slurm/prolog.d/flopscope.sh and
# PrologFlags=Alloc, so that it runs once a node when the job is granted):
# a short check of the GPUs the job was given (SLURM_JOB_GPUS, NVML's
# indices, which flopscope maps to its devices through their UUIDs) before
# the job runs on them. A job without GPUs is not held up. A non-zero exit
# makes Slurm requeue the job and drain the node; the reason set here says
# what flopscope found, so `scontrol show node` and `sinfo -R` tell why.
# docs/FLEET.md says why a prolog, and what each status means.
#
# Settings (the environment, e.g. from /etc/default/flopscope sourced below):
#   FLOPSCOPE          the program (default: flopscope on PATH)
#   FLOPSCOPE_BUDGET   the check's time (default 10s: added to every job start)
#   FLOPSCOPE_ARGS     more options, e.g. "--baseline /var/lib/flopscope/good.jsonl"
#   FLOPSCOPE_METRICS  its metrics file (default: node_exporter's textfile folder)
[ -r /etc/default/flopscope ] && . /etc/default/flopscope
[ -n "${SLURM_JOB_GPUS:-}" ] || exit 0
fs=${FLOPSCOPE:-flopscope}
metrics=${FLOPSCOPE_METRICS:-/var/lib/prometheus/node-exporter/flopscope.prom}
node=${SLURMD_NODENAME:-$(hostname -s)}
# a folder of its own (mktemp -d, mode 700): no name in it can be planted
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086 # FLOPSCOPE_ARGS is a list of options
"$fs" --check --no-config --no-log --budget "${FLOPSCOPE_BUDGET:-10s}" \
	--metrics-file "$metrics" $FLOPSCOPE_ARGS >"$tmp/out" 2>"$tmp/err"
rc=$?
# its warnings (a job's GPUs it could not tie to devices: it checked every
# device) to the system log and slurmd's, whatever the verdict
grep '^flopscope: warning: ' "$tmp/err" | while IFS= read -r w; do
	logger -t flopscope-prolog "${w#flopscope: }, job $SLURM_JOB_ID" 2>/dev/null
	echo "$w" >&2
done
case $rc in
0) exit 0 ;;
6) # flopscope's, the driver's or the system's trouble, not a device verdict:
	# another check held a GPU, a run ended in an error, an output failed
	logger -t flopscope-prolog "flopscope could not check ($(grep -m1 -E '^ERROR ' "$tmp/out" | tr -s ' ' | cut -c1-120)$(grep '^flopscope: ' "$tmp/err" | tail -n 1 | cut -c12-)): not drained, job $SLURM_JOB_ID" 2>/dev/null
	exit 0 ;;
5) # nothing to hold the GPUs' speed to (a model flopscope knows no peak
	# of, no --baseline, no identical peer): no verdict on a GPU, whose
	# results were still checked (a wrong one is exit 3): a new SKU's
	# first job must not drain its node
	logger -t flopscope-prolog "flopscope held the GPUs to no reference ($(grep -m1 -E '^NOREF ' "$tmp/out" | tr -s ' ' | cut -c1-120)): not drained; give FLOPSCOPE_ARGS a --baseline, job $SLURM_JOB_ID" 2>/dev/null
	exit 0 ;;
3) why="wrong results" ;;
1) why="below threshold or failed" ;;
4) why="an outlier among identical GPUs" ;;
2) why="cannot check: $(grep '^flopscope: ' "$tmp/err" | tail -n 1 | cut -c12-)" ;;
*) why="exit $rc" ;;
esac
# the first line that did not pass: the device, the workload and why
line=$(grep -m1 -E '^(WRONG|FAIL|ERROR|OUTLIER|UNSURE|NOREF) ' "$tmp/out" | tr -s ' ' | cut -c1-160)
reason="flopscope: $why${line:+ ($line)}, job $SLURM_JOB_ID, SLURM_JOB_GPUS=$SLURM_JOB_GPUS"
logger -t flopscope-prolog "$reason" 2>/dev/null
scontrol update nodename="$node" state=drain reason="$reason"
exit "$rc"
