#!/bin/bash
# A/A and A/busy comparisons on one device: PAIRS pairs of sessions of one
# configuration, each pair compared (--compare A B --format json), then one
# pair with a busy loop on one core throughout B. Prints each verdict and a
# count; docs/INTERPRETATION.md records a run.
#   bench/aa.sh [DEVICE-WORD] [PAIRS] [SECONDS]   (default: llvm 20 5)
set -u
FS=${FS:-build/flopscope}
DEV=${1:-llvm}
PAIRS=${2:-20}
SECS=${3:-5}
DIR=${KEEP:-$(mktemp -d)}  # KEEP=folder keeps the logs
mkdir -p "$DIR"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$DIR"' EXIT
claimed=0
for i in $(seq "$PAIRS"); do
	for s in a b; do
		"$FS" "$DEV" --duration "$SECS" --log "$DIR/$s$i.jsonl" >/dev/null 2>&1 || { echo "session $s$i failed"; exit 1; }
	done
	v=$("$FS" --compare "$DIR/a$i.jsonl" "$DIR/b$i.jsonl" --format json 2>/dev/null |
		python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["verdict"], "%.4f" % r["ratio"], "%.4f..%.4f" % (r.get("ratio_lo", 0), r.get("ratio_hi", 0)), "spread %.3f" % r["spread"])')
	echo "pair $i: $v"
	case "$v" in cannot_tell*) ;; *) claimed=$((claimed + 1)) ;; esac
done
echo "A/A: $claimed of $PAIRS pairs claimed a difference"
"$FS" "$DEV" --duration "$SECS" --log "$DIR/a0.jsonl" >/dev/null 2>&1
timeout $((SECS + 2)) sh -c 'while :; do :; done' &
"$FS" "$DEV" --duration "$SECS" --log "$DIR/b0.jsonl" >/dev/null 2>&1
wait
"$FS" --compare "$DIR/a0.jsonl" "$DIR/b0.jsonl" | grep -E '^(ratio|verdict)'
