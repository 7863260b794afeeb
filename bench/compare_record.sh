#!/bin/bash
# Record sessions for calibrating --compare (docs/INTERPRETATION.md): ROUNDS
# rounds, each one session of every condition, in turn, so that drift over
# the hour falls on every condition alike:
#   q   quiet: nothing else started
#   n   noise: a compile of flopscope (make -j2, again and again) beside it
#   b   busy: a busy loop on one core throughout
#   nb  both
# The logs go to DIR as COND-ROUND.jsonl; bench/compare_calibrate.py then
# compares every pair and counts the claims.
#   bench/compare_record.sh DIR [DEVICE-WORD] [ROUNDS] [SECONDS]   (default: llvm 20 8)
set -u
dir=${1:?folder for the logs}
dev=${2:-llvm}
rounds=${3:-20}
secs=${4:-8}
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dir" || exit 1
# the binary under test, copied: a rebuild meanwhile changes nothing
fs=$dir/flopscope
cp "$src/build/flopscope" "$fs" || exit 1
noise=$(mktemp -d)
pids=()
stop() { for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null; wait "$p" 2>/dev/null; done; pids=(); }
trap 'stop; rm -rf "$noise"' EXIT
trap 'exit 130' INT TERM
git -C "$src" archive HEAD | tar -x -C "$noise" || exit 1
start_noise() { setsid bash -c "cd '$noise' && while :; do make -s -j2 B=nb clean >/dev/null 2>&1; make -s -j2 B=nb >/dev/null 2>&1; done" & pids+=($!); }
start_busy() { setsid sh -c 'while :; do :; done' & pids+=($!); }
echo "recording $rounds rounds of q n b nb, $secs s each, on '$dev' into $dir"
for r in $(seq "$rounds"); do
	for c in q n b nb; do
		case $c in n) start_noise ;; b) start_busy ;; nb) start_noise; start_busy ;; esac
		[ $c = q ] || sleep 1 # the noise under way before the session starts
		"$fs" "$dev" --duration "$secs" --log "$dir/$c-$r.jsonl" >/dev/null 2>"$dir/$c-$r.err" ||
			echo "session $c-$r failed: $(tail -1 "$dir/$c-$r.err")"
		stop
	done
	echo "round $r of $rounds done $(date +%T)"
done
