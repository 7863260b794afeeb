#!/bin/sh
# Slurm Prolog (slurm.conf: Prolog=/etc/slurm/prolog.d/flopscope.sh,
# PrologFlags=Alloc): a 20 s check of the allocated GPUs before the job
# starts. A non-zero exit drains the node (Slurm sets it DRAIN with the
# reason below), so a GPU that computes wrong values or runs slow never
# takes a job. CUDA_VISIBLE_DEVICES is not set in a prolog; the check covers
# every GPU of the node.
out=$(/usr/local/bin/flopscope --check --budget 20s --no-log \
      --metrics-file /var/lib/prometheus/node-exporter/flopscope.prom 2>&1)
rc=$?
case $rc in
0) exit 0 ;;
3) reason="flopscope: wrong results" ;;
1) reason="flopscope: below threshold" ;;
4) reason="flopscope: an outlier among identical GPUs" ;;
5) reason="flopscope: nothing to hold the GPUs to (give --baseline)" ;;
*) reason="flopscope: exit $rc" ;;
esac
echo "$out" | logger -t flopscope-prolog
scontrol update nodename="$(hostname -s)" state=drain reason="$reason"
exit "$rc"
