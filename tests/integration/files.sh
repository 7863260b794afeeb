# tests/integration/files.sh: flopscope never replaces, truncates or deletes
# a file that is not its own (issue 27: reliability round 3, items 1 and 2).
# Sourced by tests/integration.sh.

# a_session LOG: a short real session, logged to LOG
a_session() {
	[ -s "$1" ] && return 0
	"$FS" llvm --duration 0.3 --log "$1" --format csv >/dev/null 2>"$1.err" || die "session: $(cat "$1.err")"
}

# what_is PATH: the kind of file at PATH, not following a link
what_is() {
	if [ -L "$1" ]; then echo link; elif [ -f "$1" ]; then echo file; elif [ -c "$1" ]; then echo chardev;
	elif [ -p "$1" ]; then echo fifo; elif [ -d "$1" ]; then echo folder; else echo none; fi
}

# nothing_but DIR NAME...: DIR holds exactly these names (no temporary left)
nothing_but() {
	local dir=$1 got want
	shift
	got=$(ls -A "$dir" | sort | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	[ "$got" = "$want" ] || die "$dir holds [$got], not [$want]"
}

# A symbolic link planted where the old code put its temporary
# (PATH.tmp.<pid>, pids easy to guess) is never followed: a link for each of
# the next 400 pids, pointing at a victim; every output replaced whole is
# written, the victim is untouched and no temporary is left.
t_outputs_should_never_follow_a_planted_temporary() {
	a_session "$T/s.jsonl"
	mkdir "$T/out"
	echo secret >"$T/victim"
	# one process plants them all: the next pids are flopscope's
	python3 -c 'import os, sys
for p in range(os.getpid() + 1, os.getpid() + 400):
    for name in ("m.prom", "e.csv", "e.svg"):
        os.symlink(sys.argv[1], "%s/%s.tmp.%d" % (sys.argv[2], name, p))' "$T/victim" "$T/out" || die "planting"
	"$FS" llvm --duration 0.3 --no-log --metrics-file "$T/out/m.prom" >/dev/null 2>"$T/err" || die "metrics: $(cat "$T/err")"
	"$FS" --export "$T/s.jsonl" --csv "$T/out/e.csv" 2>"$T/err" || die "csv: $(cat "$T/err")"
	"$FS" --export "$T/s.jsonl" --svg "$T/out/e.svg" 2>"$T/err" || die "svg: $(cat "$T/err")"
	[ "$(cat "$T/victim")" = secret ] || die "the victim was overwritten: $(head -c 200 "$T/victim")"
	grep -q '^flopscope_build_info' "$T/out/m.prom" && grep -q '^dev,seq,t_ms,' "$T/out/e.csv" &&
		grep -q '<svg' "$T/out/e.svg" || die "an output was not written"
	find "$T/out" -name '.*' -newer "$T/victim" | grep -q . && die "a temporary was left: $(ls -A "$T/out" | grep '^\.')"
	return 0
}

# An output replaced whole is only ever a regular file: as root,
# --metrics-file /dev/null replaced /dev/null (it did so on this machine
# when this test ran against the old binary). A device, a FIFO, a folder are
# refused with exit 2 before anything runs, and are still what they were.
t_outputs_should_refuse_what_is_not_a_regular_file() {
	a_session "$T/s.jsonl"
	mkfifo "$T/fifo"
	mkdir "$T/dir"
	# a device of the test's own, never the system's /dev/null (a regression
	# here, run as root, would replace it for the whole machine)
	local dev="$T/null"
	mknod -m 666 "$dev" c 1 3 2>/dev/null || dev=""
	[ -n "$dev" ] || echo "  (no mknod here: a device not tried)" >&2
	local out kind
	for out in $dev "$T/fifo" "$T/dir"; do
		kind=$(what_is "$out")
		timeout -k 5 20 "$FS" llvm --duration 0.3 --no-log --metrics-file "$out" >/dev/null 2>"$T/err"
		[ $? = 2 ] && grep -q "^flopscope: --metrics-file: .*not a regular file" "$T/err" ||
			die "--metrics-file $out: $(cat "$T/err")"
		[ "$(what_is "$out")" = "$kind" ] || die "$out is now a $(what_is "$out")"
		for opt in --csv --svg; do
			timeout -k 5 20 "$FS" --export "$T/s.jsonl" $opt "$out" --force >/dev/null 2>"$T/err"
			[ $? = 2 ] && grep -q "^flopscope: $opt: " "$T/err" || die "$opt $out: $(cat "$T/err")"
			[ "$(what_is "$out")" = "$kind" ] || die "$opt: $out is now a $(what_is "$out")"
		done
	done
}

# A destination the same command reads is refused, --force or not, and the
# input is left as it was: --log L --metrics-file L, --check --baseline B
# --metrics-file B and --check --baseline B --log B --force each destroyed
# the input with exit 0.
t_outputs_should_never_replace_an_input() {
	a_session "$T/b.jsonl"
	cp "$T/b.jsonl" "$T/b.orig"
	ln "$T/b.jsonl" "$T/hard.jsonl" # the same file by another name
	local args
	while IFS= read -r args; do
		eval "set -- $args"
		timeout -k 5 60 "$FS" "$@" >"$T/out" 2>&1
		[ $? = 2 ] && grep -Eq "is the input|is also --log|each output needs a file of its own" "$T/out" ||
			die "$args: exit $?: $(tail -3 "$T/out")"
		cmp -s "$T/b.jsonl" "$T/b.orig" || die "$args changed the input"
	done <<EOF
llvm --duration 0.3 --log "$T/m.jsonl" --metrics-file "$T/m.jsonl"
--check llvm --workload fp32 --budget 4s --no-log --baseline "$T/b.jsonl" --metrics-file "$T/b.jsonl"
--check llvm --workload fp32 --budget 4s --baseline "$T/b.jsonl" --log "$T/b.jsonl" --force
--check llvm --workload fp32 --budget 4s --baseline "$T/b.jsonl" --log "$T/hard.jsonl" --force
--export "$T/b.jsonl" --csv "$T/hard.jsonl" --force
--export "$T/b.jsonl" --svg "$T/b.jsonl" --force
EOF
	[ ! -e "$T/m.jsonl" ] || die "a refused run left its log"
}

# A symbolic link as the destination: a link of the user's own is written
# at its target, the link kept (a config in a dotfiles folder, a metrics
# path); --metrics-file LINK and --save-config swapped the link for a
# regular file and left the real file stale. A link owned by another user
# is refused: whoever can write in node_exporter's textfile folder cannot
# steer root's output. --force never writes through a link.
t_outputs_should_write_a_link_target_or_refuse() {
	tsan && skip "files and links, no thread of their own: check-asan and make test run it"
	a_session "$T/s.jsonl"
	export XDG_CONFIG_HOME="$T/config"
	mkdir -p "$T/dot" "$T/config/flopscope"
	echo "target_ms = 7" >"$T/dot/config"
	ln -s "$T/dot/config" "$T/config/flopscope/config"
	"$FS" --save-config --target-ms 5 >"$T/out" 2>&1 || die "save: $(cat "$T/out")"
	[ -L "$T/config/flopscope/config" ] || die "the config link was replaced by a $(what_is "$T/config/flopscope/config")"
	grep -q '^target_ms = 5' "$T/dot/config" || die "the target was not written: $(cat "$T/dot/config")"
	rm "$T/config/flopscope/config"
	# the metrics file through the user's link
	echo old >"$T/real.prom"
	ln -s real.prom "$T/m.prom"
	"$FS" llvm --duration 0.3 --no-log --metrics-file "$T/m.prom" >/dev/null 2>"$T/err" || die "metrics: $(cat "$T/err")"
	[ -L "$T/m.prom" ] && grep -q '^flopscope_build_info' "$T/real.prom" || die "link $(what_is "$T/m.prom"): $(head -2 "$T/real.prom")"
	# another user's link: refused, its target untouched
	echo secret >"$T/victim"
	ln -s "$T/victim" "$T/theirs.prom"
	chown -h nobody "$T/theirs.prom" 2>/dev/null || { echo "  (not root: another user's link not tried)" >&2; return 0; }
	"$FS" llvm --duration 0.3 --no-log --metrics-file "$T/theirs.prom" >/dev/null 2>"$T/err"
	[ $? = 2 ] && grep -q 'symbolic link owned by another user' "$T/err" || die "another's link: $(cat "$T/err")"
	[ "$(cat "$T/victim")" = secret ] && [ -L "$T/theirs.prom" ] || die "another's link was followed or replaced"
	# --force never writes through a link: the log, --csv, --svg
	ln -s "$T/victim" "$T/mine.jsonl"
	"$FS" llvm --duration 0.3 --log "$T/mine.jsonl" --force >/dev/null 2>"$T/err"
	[ $? = 2 ] && grep -q 'is a symbolic link' "$T/err" || die "--log LINK --force: $(cat "$T/err")"
	for opt in --csv --svg; do
		"$FS" --export "$T/s.jsonl" $opt "$T/mine.jsonl" --force >/dev/null 2>"$T/err"
		[ $? = 2 ] && grep -q 'symbolic link' "$T/err" || die "$opt LINK --force: $(cat "$T/err")"
	done
	[ "$(cat "$T/victim")" = secret ] && [ -L "$T/mine.jsonl" ] || die "--force wrote through a link"
}

# A file replaced keeps its mode (a metrics file node_exporter's group may
# read); a new one gets the umask's, as any file the user creates.
t_outputs_should_keep_the_mode_and_take_the_umask() {
	a_session "$T/s.jsonl"
	echo old >"$T/m.prom"
	chmod 640 "$T/m.prom"
	"$FS" llvm --duration 0.3 --no-log --metrics-file "$T/m.prom" >/dev/null 2>"$T/err" || die "$(cat "$T/err")"
	[ "$(stat -c %a "$T/m.prom")" = 640 ] || die "mode $(stat -c %a "$T/m.prom"), not 640"
	(umask 027 && "$FS" --export "$T/s.jsonl" --csv "$T/new.csv") || die "export"
	[ "$(stat -c %a "$T/new.csv")" = 640 ] || die "umask 027 gave $(stat -c %a "$T/new.csv")"
	(umask 022 && "$FS" --export "$T/s.jsonl" --csv "$T/new2.csv") || die "export"
	[ "$(stat -c %a "$T/new2.csv")" = 644 ] || die "umask 022 gave $(stat -c %a "$T/new2.csv")"
}

# SIGINT or SIGTERM while an output is being written leaves no temporary
# (Ctrl-C during --export LOG --csv OUT left OUT.tmp.<pid>) and no output:
# the export reads a FIFO whose writer keeps it open, so it is mid-file
# when the signal comes; the process ends by that signal.
t_a_signal_should_leave_no_temporary() {
	a_session "$T/s.jsonl"
	mkfifo "$T/in"
	mkdir "$T/out"
	local sig
	for sig in INT TERM HUP; do
		(head -5 "$T/s.jsonl"; sleep 20) >"$T/in" &
		local feeder=$!
		# a background job of a script starts with SIGINT ignored: restored here
		python3 -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP): signal.signal(s, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$FS" --export "$T/in" --csv "$T/out/e.csv" 2>"$T/err" &
		local pid=$! n=0
		until ls -A "$T/out" | grep -q '^\.e\.csv\.'; do
			n=$((n + 1))
			[ $n -lt 200 ] || die "SIG$sig: no temporary appeared: $(ls -A "$T/out"; cat "$T/err")"
			sleep 0.05
		done
		kill -"$sig" "$pid"
		wait "$pid"
		local rc=$?
		kill "$feeder" 2>/dev/null
		wait "$feeder" 2>/dev/null
		[ "$rc" -gt 128 ] || die "SIG$sig: exit $rc"
		[ -z "$(ls -A "$T/out")" ] || die "SIG$sig left: $(ls -A "$T/out")"
	done
}

# Retention never removes a log that is being written: a second run with
# --log-keep 1 removed the log a first run was still writing, and the first
# ended with exit 0 and its whole session gone. It says how many it spared.
t_retention_should_spare_a_live_log() {
	export XDG_STATE_HOME="$T/state" # a folder of its own: other tests' logs are not this one's
	local dir="$XDG_STATE_HOME/flopscope"
	mkdir -p "$dir"
	head -c 1000 /dev/zero >"$dir/20200101T000000Z-llvmpipe-fp32.jsonl" # an old one, which may go
	"$FS" llvm --duration 0 >/dev/null 2>"$T/a.err" &
	local a=$! n=0 live
	until live=$(ls "$dir" | grep -v '^20200101') && [ -n "$live" ] && [ -s "$dir/$live" ]; do
		n=$((n + 1))
		[ $n -lt 600 ] || { kill $a; die "the first run wrote no log: $(cat "$T/a.err")"; }
		sleep 0.05
	done
	"$FS" llvm --duration 0.3 --log-keep 1 >/dev/null 2>"$T/b.err" || { kill $a; die "second run: $(cat "$T/b.err")"; }
	kill -INT $a
	wait $a
	rc=$?
	[ "$rc" = 130 ] || die "the first run: exit $rc: $(cat "$T/a.err")"
	[ -s "$dir/$live" ] || die "the live log $live was removed: $(ls "$dir")"
	grep -q '"type":"summary"' "$dir/$live" || die "the live log has no summary"
	[ ! -e "$dir/20200101T000000Z-llvmpipe-fp32.jsonl" ] || die "the old log stayed"
	grep -q 'log retention kept 1 old log over --log-keep/--log-cap' "$T/b.err" || die "not said: $(cat "$T/b.err")"
}

# --check --baseline B where B is the oldest log of the default folder:
# retention removed B before the check read it ("cannot open"). A file the
# command names is never removed.
t_retention_should_spare_the_commands_inputs() {
	export XDG_STATE_HOME="$T/state" # a folder of its own: other tests' logs are not this one's
	local dir="$XDG_STATE_HOME/flopscope"
	mkdir -p "$dir"
	a_session "$T/b.jsonl"
	cp "$T/b.jsonl" "$dir/20200101T000000Z-llvmpipe-fp32.jsonl"
	# the verdict is not the question (a loaded machine can leave fp32 no
	# budget: exit 1); a baseline removed would be exit 2, "cannot open"
	"$FS" --check llvm --workload fp32 --budget 4s --threshold 1000 --log-keep 1 \
		--baseline "$dir/20200101T000000Z-llvmpipe-fp32.jsonl" >"$T/out" 2>&1
	local rc=$?
	[ "$rc" -le 1 ] || die "check: exit $rc: $(cat "$T/out")"
	[ -s "$dir/20200101T000000Z-llvmpipe-fp32.jsonl" ] || die "the baseline was removed"
	grep -q 'cannot open' "$T/out" && die "$(cat "$T/out")"
	grep -q 'log retention kept 1 old log' "$T/out" || die "not said: $(cat "$T/out")"
}

# A suite's one file a device is held between two workloads' sessions: a
# run with --log-keep 1 beside it spares it (nothing holds it between two
# sessions otherwise), and a second writer on it is refused.
t_retention_should_spare_a_suites_file_between_sessions() {
	# file locks between processes: nothing for ThreadSanitizer to watch
	tsan && skip "locks between processes, not threads: check-asan and make test run it"
	export XDG_STATE_HOME="$T/state" # a folder of its own: other tests' logs are not this one's
	local dir="$XDG_STATE_HOME/flopscope" n=0 f
	"$FS" llvm --suite --duration 0.3 --format json >"$T/suite.out" 2>"$T/suite.err" &
	local s=$!
	until f=$(ls "$dir" 2>/dev/null | grep -- '-suite\.jsonl$') && [ -n "$f" ] && grep -q '"type":"summary"' "$dir/$f"; do
		n=$((n + 1))
		[ $n -lt 1200 ] || { kill $s; die "no session in the suite's file: $(cat "$T/suite.err")"; }
		sleep 0.05
	done
	"$FS" llvm --duration 0.2 --log-keep 1 >/dev/null 2>"$T/b.err" || { kill $s; die "second run: $(cat "$T/b.err")"; }
	"$FS" llvm --duration 0.2 --log "$dir/$f" --force >/dev/null 2>"$T/c.err"
	local rc=$?
	wait $s || die "the suite: exit $?: $(cat "$T/suite.err")"
	[ "$rc" = 2 ] && grep -q 'being written by another process' "$T/c.err" || die "a second writer: $rc $(cat "$T/c.err")"
	[ -s "$dir/$f" ] || die "the suite's file was removed"
	[ "$(grep -c '"type":"session"' "$dir/$f")" -ge 10 ] || die "sessions lost: $(grep -c '"type":"session"' "$dir/$f")"
}

# A FIFO as the log with no reader: refused with exit 2 at once (it
# blocked, deaf to SIGINT, SIGTERM and Ctrl-C); with a reader it is written.
t_log_fifo_without_a_reader_should_be_refused() {
	mkfifo "$T/log"
	local mode
	for mode in "" --suite; do
		timeout -k 5 20 "$FS" llvm $mode --duration 0.2 --log "$T/log" >/dev/null 2>"$T/err"
		local rc=$?
		[ "$rc" = 2 ] && grep -q 'is a FIFO with no reader' "$T/err" || die "$mode: exit $rc: $(cat "$T/err")"
	done
	cat "$T/log" >"$T/got" &
	local r=$!
	"$FS" llvm --duration 0.3 --log "$T/log" >/dev/null 2>"$T/err" || die "with a reader: $(cat "$T/err")"
	wait $r
	grep -q '"type":"summary"' "$T/got" || die "nothing came through the FIFO"
}

# A closed pipe is a normal end in every mode, as the man page says (the
# readers and --latency exited 1 with "Broken pipe"): exit 0 and nothing said
# when standard output's reader is gone before the first byte; /dev/full is
# still an error (exit 1, said).
t_closed_pipe_should_be_a_normal_end_in_every_mode() {
	a_session "$T/s.jsonl"
	cp "$T/s.jsonl" "$T/s2.jsonl" # a second device's log, for the table of several
	"$FS" --export "$T/s.jsonl" --csv "$T/s.csv" || die "export"
	"$FS" llvm --duration 0.3 >/dev/null 2>&1 || die "a default-folder log"
	local args got
	while IFS= read -r args; do
		eval "set -- $args"
		# the exit with an open sink: a closed pipe changes nothing of it
		# (0 stays 0; an input a loaded machine left short, a session with
		# no steady block for --compare, exits 2 either way) and says nothing
		got=$(python3 -c 'import os, subprocess, sys
r, w = os.pipe(); os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.PIPE, timeout=120)
o = 0 if p.returncode == 0 else subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                               timeout=120).returncode
print(p.returncode, p.stderr.decode().count("Broken pipe") + p.stderr.decode().count("standard output"), o)' "$FS" "$@") ||
			die "$args: the helper failed"
		case "$got" in
		"0 0 0") ;;
		"2 0 2") [ "${args#--compare}" != "$args" ] || die "$args: exit 2 with an open sink too" ;;
		*) die "$args into a closed pipe: exit, complaints, exit with an open sink: $got" ;;
		esac
	done <<EOF2
--logs
--logs --format json
--replay "$T/s.jsonl" --headless
--replay "$T/s.jsonl" --format csv
--replay "$T/s.jsonl" --format json
--replay "$T/s.jsonl" "$T/s2.jsonl" --headless
--export "$T/s.jsonl" --csv
--analyze "$T/s.csv"
--compare "$T/s.jsonl" "$T/s.jsonl"
llvm --latency
llvm --duration 0.3 --format csv --no-log
--list
--list --format json
llvm --list-workloads
llvm --list-workloads --format json
EOF2
	for args in "--logs" "--list --format json" "llvm --list-workloads" "--export $T/s.jsonl --csv" "--analyze $T/s.csv" "--replay $T/s.jsonl --format csv"; do
		"$FS" $args >/dev/full 2>"$T/err"
		[ $? = 1 ] && grep -q 'cannot write to standard output: No space left on device' "$T/err" ||
			die "$args >/dev/full: $(cat "$T/err")"
	done
}

# The config file round trip (issue 27, item 4): what --save-config writes
# reads back as the same settings or is refused (exit 2, the file as it
# was); a key this version does not know is a warning, not exit 2 for every
# command, and a save keeps it; a repeated key is refused as on the command line; a BOM and CRLF
# are read; --version answers whatever the file holds.
t_config_should_round_trip_or_be_refused() {
	export XDG_CONFIG_HOME="$T/cfg"
	local f="$T/cfg/flopscope/config"
	"$FS" --save-config --theme "$T/themes/#1.json" --target-ms 7 >/dev/null 2>"$T/err" || die "save: $(cat "$T/err")"
	grep -qx "theme = $T/themes/#1.json" "$f" || die "$(grep theme "$f")"
	"$FS" --save-config --fps 3 >/dev/null 2>"$T/err" || die "resave: $(cat "$T/err")"
	grep -qx "theme = $T/themes/#1.json" "$f" && grep -qx 'target_ms = 7' "$f" && grep -qx 'fps = 3' "$f" ||
		die "did not read back: $(grep -v '^#' "$f")"
	# a number as given, not rounded to 6 digits (1234.57, 2.34568)
	"$FS" --save-config --target-ms 1234.5678 --outlier 2.3456789 >/dev/null 2>"$T/err" || die "$(cat "$T/err")"
	grep -qx 'target_ms = 1234.5678' "$f" && grep -qx 'outlier = 2.3456789' "$f" ||
		die "rounded: $(grep -v '^#' "$f")"
	"$FS" --save-config --target-ms 7 >/dev/null 2>"$T/err" || die "$(cat "$T/err")"
	cp "$f" "$T/before"
	"$FS" --save-config --theme $'a\nfps = 20' >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'characters a config line keeps' "$T/out" || die "a newline: $(cat "$T/out")"
	"$FS" --save-config --theme 'my #theme' >"$T/out" 2>&1
	[ $? = 2 ] || die "a ' #': $(cat "$T/out")"
	cmp -s "$f" "$T/before" || die "a refused save changed the file"
	"$FS" --version >/dev/null 2>&1 || die "--version after a refused save: exit $?"
	# a newer version's key: a warning naming it; every command goes on
	printf 'fps = 4\nlink_colour = red\n' >"$f"
	"$FS" --list >/dev/null 2>"$T/err" || die "an unknown key: exit $?: $(cat "$T/err")"
	grep -q 'warning: .*line 2: unknown key "link_colour" ignored' "$T/err" || die "not named: $(cat "$T/err")"
	# ... and a save keeps it as it was, beside this version's keys
	"$FS" --save-config --fps 5 >/dev/null 2>"$T/err" || die "save over a newer key: $(cat "$T/err")"
	grep -qx 'link_colour = red' "$f" && grep -qx 'fps = 5' "$f" || die "the newer key was dropped: $(grep -v '^#' "$f")"
	# a repeated key: refused with both lines, as --fps twice is
	printf 'fps = 4\nfps = 5\n' >"$f"
	"$FS" --list >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'line 2: fps given twice (line 1 too)' "$T/out" || die "a repeated key: $(cat "$T/out")"
	"$FS" --version >"$T/out" 2>&1 || die "--version with a bad file: exit $?"
	grep -q '^flopscope ' "$T/out" || die "$(cat "$T/out")"
	# an editor's byte-order mark and CRLF
	printf '\xef\xbb\xbffps = 6\r\ntarget_ms = 8\r\n' >"$f"
	"$FS" --save-config >/dev/null 2>"$T/err" || die "BOM and CRLF: $(cat "$T/err")"
	grep -qx 'fps = 6' "$f" && grep -qx 'target_ms = 8' "$f" || die "BOM and CRLF not read: $(grep -v '^#' "$f")"
}

# Readers say what they did not understand (issue 27, item 6): a log of
# records of unknown types (it read as "Summary: 0 samples", exit 0); a CSV
# whose time runs backwards (said nothing), one with a quoted header (was
# refused); a --check baseline of another workload (said "no baseline").
t_readers_should_say_what_they_do_not_understand() {
	tsan && skip "the readers, no thread of their own: check-asan, make test and the fuzzers run them"
	a_session "$T/s.jsonl"
	sed 's/"type":"sample"/"type":"sample_v9"/' "$T/s.jsonl" >"$T/u.jsonl"
	"$FS" --replay "$T/u.jsonl" --headless >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'records\? of a type it does not know ("sample_v9" ...), written by flopscope' "$T/out" ||
		die "unknown records: $(tail -3 "$T/out")"
	grep -q 'Summary: 0 samples' "$T/out" && die "read as an empty session"
	"$FS" --replay "$T/s.jsonl" --headless >/dev/null 2>"$T/err" || die "a plain log: $(cat "$T/err")"
	grep -q 'does not know' "$T/err" && die "a log of this version's own records warned: $(cat "$T/err")"
	printf 't_ms,flops\n1,10\n2,10\n3,10\n1.5,10\n' >"$T/back.csv"
	"$FS" --analyze "$T/back.csv" >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'back.csv:5: time runs backwards' "$T/out" || die "backwards: $(cat "$T/out")"
	printf '"t_ms","flops"\r\n' >"$T/q.csv"
	for i in $(seq 1 40); do printf '%d,"%d"\r\n' $((i * 20)) 1000 >>"$T/q.csv"; done
	"$FS" --analyze "$T/q.csv" >"$T/out" 2>&1 || die "a quoted header: exit $?: $(cat "$T/out")"
	# 2 s: a steady 1 s block even on a loaded machine (0.5 s left none in
	# a CI rehearsal: "no steady 1 s block to compare with", said first)
	"$FS" llvm --workload int32 --duration 2 --log "$T/i.jsonl" --format csv >/dev/null 2>&1 || die "int32 session"
	"$FS" --check llvm --workload fp32 --budget 4s --no-log --baseline "$T/i.jsonl" >"$T/out" 2>&1
	grep -q 'the --baseline log holds int32, no fp32 session' "$T/out" || die "another workload: $(cat "$T/out")"
}

# A full disk (RLIMIT_FSIZE stands in: writes fail with EFBIG) is the
# system's failure, exit 1, in a plain run and in --suite (the suite called
# every later workload "unsupported" and exited 2, the usage status); a run
# refused at its first line leaves no 0-byte log, and --logs lists an empty
# log without failing (it exited 1).
# limited BLOCKS CMD...: CMD under ulimit -f BLOCKS, its stderr in $T/err
# and stdout in $T/out through pipes (a file of the test's own would be
# limited too); CMD's status
limited() {
	local b=$1
	shift
	( (ulimit -f "$b" && exec "$@") 2>&1 >&3 | cat >"$T/err"
		exit "${PIPESTATUS[0]}") 3>&1 | cat >"$T/out"
	return "${PIPESTATUS[0]}"
}

t_full_disk_should_exit_1_and_leave_no_empty_log() {
	# ThreadSanitizer's runtime lets RLIMIT_FSIZE's SIGXFSZ end the process
	# (exit 153) though flopscope ignores it; the plain and ASan builds run it
	tsan && skip "RLIMIT_FSIZE stands in for a full disk; under TSan SIGXFSZ kills the process"
	export XDG_STATE_HOME="$T/state"
	limited 0 "$FS" llvm --duration 0.2 --log "$T/f.jsonl"
	[ $? = 1 ] && grep -q 'cannot write the session log .*f.jsonl: File too large' "$T/err" || die "plain: $(cat "$T/err")"
	[ ! -e "$T/f.jsonl" ] || die "a 0-byte log was left"
	limited 0 "$FS" llvm --duration 0.2
	[ $? = 1 ] || die "default log: $(cat "$T/err")"
	[ -z "$(ls -A "$T/state/flopscope" 2>/dev/null)" ] || die "left: $(ls -l "$T/state/flopscope")"
	limited 30 "$FS" llvm --suite --duration 0.2 --log "$T/s.jsonl"
	local rc=$?
	[ "$rc" = 1 ] || die "suite on a full disk: exit $rc: $(tail -3 "$T/out")"
	grep -q 'unsupported: cannot write the session log' "$T/out" && die "called unsupported: $(grep unsupported "$T/out" | head -2)"
	grep -q 'failed: cannot write the session log' "$T/out" || die "not said: $(tail -5 "$T/out")"
	grep -q '"type":"summary"' "$T/s.jsonl" || die "the sessions before the disk filled were lost"
	# a check whose log fills the disk mid-run: flopscope's trouble, not a
	# device's verdict: "could not run" (6), said (it was exit 5, silent)
	# 6 KiB: the session record and a few dozen samples (20 KiB outlasted
	# a 4 s check under AddressSanitizer on a loaded machine)
	limited 6 "$FS" --check --workload fp32 --budget 4
	rc=$?
	[ "$rc" = 6 ] || die "check on a full disk: exit $rc: $(cat "$T/out" "$T/err")"
	grep -q '^flopscope: cannot write the session log .*-check.jsonl: File too large; measuring goes on unrecorded (exit 6 unless a device failed)$' \
		"$T/err" || die "not said: $(cat "$T/err")"
	grep -q '^NOREF  \[1\] fp32 .*exit 6$\|in [0-9.]* s of a 4 s budget: exit 6$' "$T/out" || die "the end line: $(cat "$T/out")"
	# an output written whole says why it failed (it said "the output failed")
	limited 2 "$FS" --export "$T/s.jsonl" --workload fp32 --svg "$T/s.svg"
	[ $? = 1 ] && grep -q "cannot write $T/s.svg: File too large" "$T/err" || die "--svg on a full disk: $(cat "$T/err")"
	[ ! -e "$T/s.svg" ] && [ -z "$(ls -A "$T" | grep '^\.s\.svg')" ] || die "an SVG or its temporary was left"
	mkdir -p "$T/state/flopscope"
	: >"$T/state/flopscope/20200101T000000Z-llvmpipe-fp32.jsonl"
	"$FS" --logs >"$T/out" 2>&1 || die "--logs with an empty log: exit $?: $(cat "$T/out")"
	grep -q 'empty: no line recorded' "$T/out" || die "$(cat "$T/out")"
}

# A uid with no passwd entry, HOME or XDG_STATE_HOME (a container started
# with --user) logs into $TMPDIR/flopscope-UID: made private (0700), and
# refused (exit 2, nothing read, written or removed there) while it is
# another user's, open to others, or a link (CWE-379: a folder another user
# made first). Needs root, to be that uid and to make another user's folder.
t_the_last_resort_log_folder_should_be_private() {
	[ "$(id -u)" = 0 ] || skip "needs root: to run as a uid without a passwd entry and plant another user's folder"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
	local u=59123 d fsabs
	getent passwd $u >/dev/null && skip "uid $u has a passwd entry here"
	w=$(mktemp -d) || die "mktemp" # not local: the trap reads it after the function
	trap 'rm -rf "$w"' EXIT
	mkdir -p "$w/tmp" && chmod 755 "$w" && chmod 1777 "$w/tmp"
	d="$w/tmp/flopscope-$u"
	fsabs=$(readlink -f "$FS")
	# the build must be reachable by that uid: where it is not (a clone
	# under root's /root, mode 700, as the README has root run it), a copy
	# of it and its shaders in the test's own folder
	if ! setpriv --reuid $u --regid $u --clear-groups test -x "$fsabs"; then
		mkdir -p "$w/bin" && cp "$fsabs" "$w/bin/" && cp -r shaders "$w/shaders" && chmod -R a+rX "$w/bin" "$w/shaders" ||
			die "cannot copy the build for uid $u"
		fsabs="$w/bin/$(basename "$fsabs")"
		setpriv --reuid $u --regid $u --clear-groups test -x "$fsabs" || die "$fsabs is not reachable by uid $u"
	fi
	as_u() { env -i PATH=/usr/bin:/bin TMPDIR="$w/tmp" FLOPSCOPE_VALIDATE=1 ASAN_OPTIONS="${ASAN_OPTIONS:-}" \
		LSAN_OPTIONS="${LSAN_OPTIONS:-}" TSAN_OPTIONS="${TSAN_OPTIONS:-}" UBSAN_OPTIONS="${UBSAN_OPTIONS:-}" \
		setpriv --reuid $u --regid $u --clear-groups "$fsabs" "$@"; }
	as_u llvm --duration 0.2 --format csv >"$T/out" 2>"$T/err" || die "a fresh folder: exit $?: $(cat "$T/err")"
	[ "$(stat -c '%u %a' "$d")" = "$u 700" ] || die "made as $(stat -c '%u %a' "$d")"
	ls "$d"/*.jsonl >/dev/null 2>&1 || die "no log in $d"
	rm -rf "$d"
	local how
	for how in other open link; do
		rm -rf "$d" "$w/elsewhere"
		case $how in
		other) mkdir -m 700 "$d" && chown 59124 "$d" ;;
		open) mkdir "$d" && chown $u "$d" && chmod 777 "$d" ;;
		link) mkdir -m 700 "$w/elsewhere" && chown $u "$w/elsewhere" && ln -s "$w/elsewhere" "$d" && chown -h $u "$d" ;;
		esac
		: >"$T/planted.jsonl"
		[ $how = link ] || touch -d @946684800 "$d/20000101T000000Z-x-fp32.jsonl"
		as_u llvm --duration 0.2 --format csv --log-keep 1 >"$T/out" 2>"$T/err"
		local rc=$?
		[ $rc = 2 ] || die "$how: exit $rc: $(cat "$T/err")"
		grep -q "the log folder .*flopscope-$u .*refused" "$T/err" || die "$how: $(cat "$T/err")"
		[ -s "$T/out" ] && die "$how: measured though the log was refused"
		[ -z "$(find "$d/" "$w/elsewhere" -newer "$T/planted.jsonl" -name '*.jsonl' 2>/dev/null)" ] || die "$how: a log was written there"
		[ $how = link ] || [ -e "$d/20000101T000000Z-x-fp32.jsonl" ] || die "$how: retention removed a planted log"
		as_u --logs >"$T/out" 2>"$T/err"
		[ $? = 1 ] && grep -q "refused" "$T/err" || die "$how: --logs read it: $(cat "$T/out" "$T/err")"
	done
}

# A log another flopscope is still writing is never an output's destination:
# --metrics-file L, --export B --csv L --force and --svg L --force replaced
# it (the writer's session lost, every run exiting 0); only this process's
# own files were checked. The writer holds the log's lock for its whole run:
# an output tries it and refuses (exit 2), the live log keeps every sample.
t_outputs_should_never_replace_another_runs_live_log() {
	tsan && skip "files and a lock, no thread of their own: check-asan and make test run it"
	a_session "$T/b.jsonl"
	"$FS" llvm --duration 0 --log "$T/live.jsonl" --format csv >/dev/null 2>"$T/a.err" &
	local a=$! n=0 args
	until grep -q '"type":"sample"' "$T/live.jsonl" 2>/dev/null; do
		n=$((n + 1))
		[ $n -lt 600 ] || { kill $a; die "the writer logged no sample: $(cat "$T/a.err")"; }
		sleep 0.05
	done
	while IFS= read -r args; do
		eval "set -- $args"
		timeout -k 5 60 "$FS" "$@" >"$T/out" 2>&1
		local rc=$?
		[ $rc = 2 ] && grep -q "live.jsonl is being written by another process" "$T/out" ||
			{ kill $a; die "$args: exit $rc: $(tail -3 "$T/out")"; }
		head -1 "$T/live.jsonl" | grep -q '"type":"session"' || { kill $a; die "$args replaced the live log"; }
	done <<EOF
llvm --duration 0.3 --no-log --metrics-file "$T/live.jsonl"
--export "$T/b.jsonl" --csv "$T/live.jsonl" --force
--export "$T/b.jsonl" --svg "$T/live.jsonl" --force
EOF
	kill -INT $a
	wait $a
	local rc=$?
	[ "$rc" = 130 ] || die "the writer: exit $rc: $(cat "$T/a.err")"
	head -1 "$T/live.jsonl" | grep -q '"type":"session"' && grep -q '"type":"summary"' "$T/live.jsonl" ||
		die "the live log lost its session: $(head -c 300 "$T/live.jsonl")"
	# a log whose writer has ended is a file like any other: --force replaces it
	"$FS" --export "$T/b.jsonl" --csv "$T/live.jsonl" --force >"$T/out" 2>&1 || die "after the writer: exit $?: $(cat "$T/out")"
}

# Under a locale whose decimal mark is a comma (de_DE.UTF-8, made here with
# localedef) every log was invalid JSON ("t_ms":7,197) and replayed as 0
# samples, JSON, CSV, metrics and SVG broken alike, and "0.5" was not a
# number in an option or the config. Machine outputs and numbers read are
# the same in every locale.
t_a_comma_locale_should_change_no_output_or_number_read() {
	# glibc keeps the composite locale name setlocale(LC_NUMERIC, "C") makes
	# (argz_add_sep's realloc, never freed: LeakSanitizer reports it, glibc's)
	sanitized && skip "the locale's outputs, no thread or memory of flopscope's own (glibc keeps the locale's name: a leak report of glibc's under ASan): make test runs it"
	[ -e /usr/share/i18n/locales/de_DE ] || skip "no de_DE locale source to make one from (Debian's locales package)"
	mkdir -p "$T/loc"
	localedef -i de_DE -f UTF-8 "$T/loc/de_DE.UTF-8" >"$T/ld.out" 2>&1 ||
		skip "localedef could not make de_DE.UTF-8: $(tail -2 "$T/ld.out")"
	de() { env LOCPATH="$T/loc" LC_ALL=de_DE.UTF-8 "$@"; }
	[ "$(de python3 -c 'import locale; locale.setlocale(locale.LC_ALL, ""); print(locale.localeconv()["decimal_point"])')" = , ] ||
		skip "the locale made has no decimal comma"
	export XDG_CONFIG_HOME="$T/config"
	mkdir -p "$XDG_CONFIG_HOME/flopscope"
	printf 'target_ms = 12.5\n' >"$XDG_CONFIG_HOME/flopscope/config"
	de "$FS" llvm --duration 0.5 --log "$T/a.jsonl" --metrics-file "$T/m.prom" --format csv >"$T/a.csv" 2>"$T/a.err" ||
		die "run: exit $?: $(cat "$T/a.err")"
	python3 - "$T/a.jsonl" "$T/a.csv" <<'PY' || exit 1
import csv, json, sys
n = 0
for line in open(sys.argv[1]):
    r = json.loads(line)  # every line valid JSON
    n += r.get("type") == "sample"
assert n > 0, "no sample in the log"
rows = list(csv.DictReader(open(sys.argv[2])))
assert rows and all("," not in r["t_ms"] for r in rows), rows[:1]
float(rows[-1]["rate"]); float(rows[-1]["t_ms"])
PY
	head -1 "$T/a.jsonl" | grep -q '"target_ms":12.5[,}]' || die "the config's 12.5 not read: $(head -c 400 "$T/a.jsonl")"
	promtool check metrics <"$T/m.prom" >"$T/p.out" 2>&1 || die "metrics: $(head -5 "$T/p.out")"
	# what is read back and exported is the same byte for byte as in C
	de "$FS" --replay "$T/a.jsonl" --format csv >"$T/r.csv" 2>"$T/r.err" || die "replay: $(cat "$T/r.err")"
	[ "$(wc -l <"$T/r.csv")" -gt 1 ] || die "the replay has no sample"
	LC_ALL=C "$FS" --replay "$T/a.jsonl" --format csv >"$T/rc.csv" 2>/dev/null
	cmp -s "$T/r.csv" "$T/rc.csv" || die "the replay differs from C's: $(diff "$T/r.csv" "$T/rc.csv" | head -3)"
	de "$FS" --export "$T/a.jsonl" --svg "$T/a.svg" >"$T/s.out" 2>&1 || die "svg: $(cat "$T/s.out")"
	LC_ALL=C "$FS" --export "$T/a.jsonl" --svg "$T/c.svg" >"$T/s.out" 2>&1 || die "svg in C: $(cat "$T/s.out")"
	cmp -s "$T/a.svg" "$T/c.svg" || die "the SVG differs from C's"
	python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$T/a.svg" || die "the SVG is not XML"
	de "$FS" --compare "$T/a.jsonl" "$T/a.jsonl" --min-effect 0.5 >"$T/c.out" 2>&1
	grep -q 'not a number' "$T/c.out" && die "--min-effect 0.5: $(cat "$T/c.out")"
	de "$FS" llvm --duration 0.3 --no-log --format json >"$T/j.out" 2>"$T/j.err" || die "json: $(cat "$T/j.err")"
	python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$T/j.out" || die "JSON output invalid"
}

# --save-config kept a newer version's keys only up to about 2 KB of file,
# dropping the rest without a word, and saved a 260-character --theme that
# every later command refused (exit 2) until the file was edited; a
# 600-character comment failed every command.
t_save_config_should_keep_every_newer_key_and_refuse_what_cannot_read_back() {
	tsan && skip "the config file, no thread of its own: check-asan and make test run it"
	export XDG_CONFIG_HOME="$T/config"
	local cfg="$T/config/flopscope/config" k long
	mkdir -p "$T/config/flopscope"
	{
		printf '# %0600d\n' 0
		for k in $(seq 1 80); do printf 'newer_key_%02d = %s\n' "$k" 0123456789012345678901234567890123456789; done
		printf 'longer_newer = %0700d\n' 7
	} >"$cfg"
	[ "$(wc -c <"$cfg")" -gt 4000 ] || die "the file is too small to tell"
	"$FS" --list >"$T/out" 2>&1 || die "a long comment or key: exit $?: $(tail -2 "$T/out")"
	"$FS" --save-config --target-ms 7 >"$T/out" 2>&1 || die "save: exit $?: $(cat "$T/out")"
	for k in $(seq 1 80); do grep -q "^newer_key_$(printf %02d "$k") = " "$cfg" || die "newer_key_$k dropped"; done
	grep -q "^longer_newer = 0*7$" "$cfg" || die "the long key dropped"
	grep -q '^target_ms = 7$' "$cfg" || die "not saved: $(head -20 "$cfg")"
	cp "$cfg" "$T/before"
	long="$T/$(printf 't%.0s' $(seq 1 260)).json"
	"$FS" --save-config --theme "$long" >"$T/out" 2>&1
	[ $? = 2 ] && grep -q 'longer than the 255 characters a config line keeps' "$T/out" || die "long theme: $(cat "$T/out")"
	cmp -s "$cfg" "$T/before" || die "the refused save changed the file"
	"$FS" --list >"$T/out" 2>&1 || die "after: exit $?: $(tail -2 "$T/out")"
}

# A file the user can name that is a FIFO with an idle writer (a writer that
# holds it open and never writes) hung the start for good, deaf to SIGTERM,
# SIGINT and Ctrl-C: a SPIR-V cache entry, the config, a --theme. Such a
# read is refused (only a regular file is read): the cache is a miss, the
# config and the theme are refused with why; nothing waits.
t_a_fifo_with_an_idle_writer_should_never_hang_a_start() {
	export XDG_CACHE_HOME="$T/cache"
	"$FS" llvm --duration 0.2 --no-log >"$T/out" 2>&1 || die "seed: $(cat "$T/out")"
	local spv
	spv=$(ls "$T"/cache/flopscope/spirv-*.spv | head -1) && [ -f "$spv" ] || die "no SPIR-V cache entry"
	rm "$T"/cache/flopscope/spirv-*.spv
	mkfifo "$spv" "$T/theme.json" "$T/cfg"
	exec 7<>"$spv" 8<>"$T/theme.json" 9<>"$T/cfg" # the idle writers
	watched 20 "$FS" llvm --duration 0.2 --no-log >"$T/out" 2>&1
	local rc=$?
	[ $rc = 0 ] || die "a FIFO as the cache entry: exit $rc: $(tail -5 "$T/out")"
	grep -q '(compiled by shaderc' "$T/out" || die "the FIFO was read as SPIR-V: $(grep start: "$T/out")"
	[ -p "$spv" ] || die "the FIFO was replaced"
	mkdir -p "$T/config/flopscope"
	ln -s "$T/cfg" "$T/config/flopscope/config"
	XDG_CONFIG_HOME="$T/config" watched 20 "$FS" --list >"$T/out" 2>&1
	rc=$?
	[ $rc = 2 ] && grep -q 'config is a FIFO, not a regular file' "$T/out" || die "a FIFO as the config: exit $rc: $(cat "$T/out")"
	# (caches of its own: the FIFO entry above would be said on the screen too)
	export XDG_CACHE_HOME="$T/cache2"
	start_ui "$FS" llvm --no-log --theme "$T/theme.json" || return 1
	wait_for 'theme.json is a FIFO, not a regular file' || return 1
	wait_for 'FLOPS at the target time' || return 1
	TM send-keys -t fs q
	wait_exit || return 1
	[ "$(cat "$T/exit")" = 0 ] || die "exit status $(cat "$T/exit")"
	exec 7>&- 8>&- 9>&-
}

# A cache is a hint. A SPIR-V entry holding another workload's valid shader
# made every later run exit 3 ("the device did not do the work it reports",
# a healthy node drained) and never named the cache; a truncated,
# bit-flipped or header-only entry failed every run with VK_ERROR_UNKNOWN
# until deleted by hand. Each entry is framed with its key, length and
# checksum and refused on any doubt (compiled afresh, replaced, said once);
# one that passes every check and still gives a wrong result is built again
# from its source before the device is blamed.
t_a_damaged_or_foreign_cache_entry_should_be_compiled_afresh() {
	export XDG_CACHE_HOME="$T/c32"
	"$FS" llvm --duration 0.2 --no-log >"$T/out" 2>&1 || die "seed fp32: $(cat "$T/out")"
	XDG_CACHE_HOME="$T/cint" "$FS" llvm --workload int32 --duration 0.2 --no-log >"$T/out" 2>&1 || die "seed int32"
	local f32 fint pc how
	f32=$(ls "$T"/c32/flopscope/spirv-*.spv) && fint=$(ls "$T"/cint/flopscope/spirv-*.spv) &&
		pc=$(ls "$T"/c32/flopscope/pipeline-*.bin) || die "no cache entries"
	cp "$f32" "$T/good.spv"
	for how in foreign truncated flipped header crafted; do
		case $how in
		foreign) cp "$fint" "$f32" ;;
		truncated) head -c $(($(stat -c %s "$T/good.spv") - 8)) "$T/good.spv" >"$f32" ;;
		flipped) python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[200] ^= 4; open(sys.argv[2], "wb").write(b)' "$T/good.spv" "$f32" ;;
		header) head -c 52 "$T/good.spv" >"$f32" ;;
		crafted) # int32's SPIR-V under fp32's own key, length and checksum: every frame check holds
			python3 - "$T/good.spv" "$fint" "$f32" <<'PY'
import struct, sys
good, other, out = (open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read(), sys.argv[3])
magic, fmt, key, _, _ = struct.unpack("<IIQQQ", good[:32])
payload = other[32:]
h = 0xcbf29ce484222325
for c in payload:
    h = ((h ^ c) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
open(out, "wb").write(struct.pack("<IIQQQ", magic, fmt, key, len(payload), h) + payload)
PY
			;;
		esac
		"$FS" llvm --duration 0.2 --no-log >"$T/out" 2>&1
		local rc=$?
		[ $rc = 0 ] || die "$how: exit $rc: $(tail -4 "$T/out")"
		grep -q '(compiled by shaderc' "$T/out" || [ $how = crafted ] || die "$how: the entry was used: $(grep start: "$T/out")"
		grep -q "note: .*spirv-.*was not used\|note: the cached SPIR-V and pipeline were used and their shader failed its result check" "$T/out" ||
			die "$how: not said: $(grep -i 'note\|start:' "$T/out")"
		cmp -s "$f32" "$T/good.spv" || die "$how: the entry was not replaced by a good one"
	done
	# a flipped bit in the pipeline cache: not handed to the driver, said
	python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[len(b) // 2] ^= 1; open(sys.argv[1], "wb").write(b)' "$pc"
	"$FS" llvm --duration 0.2 --no-log >"$T/out" 2>&1 || die "a damaged pipeline cache: exit $?: $(tail -3 "$T/out")"
	grep -q 'note: the pipeline cache entry was not used: its checksum does not hold' "$T/out" || die "$(grep -i 'note\|start:' "$T/out")"
}
