# tests/integration/cli.sh: the command line: devices, usage, shaders, install, caches.
# Sourced by tests/integration.sh, which provides lib.sh's helpers.

t_list_should_show_llvmpipe() {
	"$FS" --list >"$T/out" 2>&1 || die "exit $?"
	grep -q '^Compatible devices:$' "$T/out" || die "no header: $(cat "$T/out")"
	grep -Eq '^ +[0-9]+: llvmpipe .*\(compute queue: [0-9]+, type: Cpu\)$' "$T/out" ||
		die "no llvmpipe entry: $(cat "$T/out")"
}

t_list_verbose_should_show_limits_and_features() {
	"$FS" --list --verbose >"$T/out" 2>&1 || die "exit $?"
	for w in 'vendor id' 'driver: ' 'API version' 'device UUID' 'queues in family 0: 1 (graphics, compute, transfer)' \
	         'timestamps: 64 valid bits, period' 'subgroup size' 'max workgroup count 65535' \
	         'memory heap 0' 'float16 yes, float64 yes, int8 yes, int16 yes, int64 yes, integer dot product yes' \
	         'cooperative matrices: none (the driver lists neither VK_KHR_cooperative_matrix nor VK_NV_cooperative_matrix)'; do
		grep -q "$w" "$T/out" || die "missing \"$w\": $(cat "$T/out")"
	done
	# sizes in the unit that states them whole or above 1 (128 MiB, not 0.12 GiB)
	grep -Eq '^ +largest allocation [1-9][0-9.]* (KiB|MiB|GiB|TiB), storage buffer range [1-9][0-9.]* (KiB|MiB|GiB|TiB)$' "$T/out" ||
		die "sizes: $(grep 'largest allocation' "$T/out")"
}

t_validation_layer_should_report_nothing() {
	"$FS" llvm --validate --duration 1 --format csv >"$T/out" 2>"$T/err" || die "exit $?: $(head -20 "$T/err")"
	if grep -qi 'validation' "$T/err"; then die "$(head -20 "$T/err")"; fi
	[ "$(wc -l <"$T/out")" -ge 5 ] || die "too few samples"
}

t_unknown_device_should_exit_2_and_list_entries() {
	"$FS" radeon --duration 1 >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || die "exit $rc"
	grep -q 'no device name contains "radeon"' "$T/err" || die "no reason: $(cat "$T/err")"
	grep -q 'llvmpipe' "$T/err" || die "entries not listed"
	"$FS" -99 --duration 1 >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || die "-99: exit $rc"
	grep -q 'device 99 does not exist' "$T/err" || die "-99: $(cat "$T/err")"
}

# A device named as nvidia-smi, DCGM and Slurm name it: its UUID (whole,
# GPU- and dashes or not, or a prefix), and --list --format json says each
# entry's; the session log records the one measured. lavapipe has no PCI
# address: one names nothing, with the reason.
t_devices_should_be_chosen_by_uuid_and_listed_in_json() {
	tsan && skip "device selection, no thread of its own: check-asan and make test run it"
	"$FS" --list --format json >"$T/list.json" 2>"$T/err" || die "--list --format json: $(cat "$T/err")"
	uuid=$(python3 - "$T/list.json" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert rows and all(r["type"] == "device" and r["entry"] == i + 1 for i, r in enumerate(rows)), rows
r = [r for r in rows if "llvmpipe" in r["device"]][0]
assert len(r["uuid"]) == 36 and r["pci_bus_id"] is None and r["host"] and r["flopscope"], r
print(r["uuid"])
PY
) || die "list: $(cat "$T/list.json")"
	# the CSV rows come from the same columns: every JSON field, the same value
	"$FS" --list --format csv >"$T/list.csv" 2>"$T/err" || die "--list --format csv: $(cat "$T/err")"
	python3 - "$T/list.json" "$T/list.csv" <<'PY' || die "list csv: $(cat "$T/list.csv")"
import csv, json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
table = list(csv.DictReader(open(sys.argv[2], newline="")))
assert len(table) == len(rows), (len(table), len(rows))
for j, c in zip(rows, table):
    for k, v in j.items():
        if k in ("type", "schema"):
            continue
        want = "" if v is None else str(v)
        assert c[k] == want, (k, c[k], want)
PY
	hex=$(echo "$uuid" | tr -d -)
	for word in "$uuid" "GPU-$uuid" "$(echo "$hex" | tr a-f A-F)" "GPU-${uuid:0:13}"; do
		"$FS" "$word" --duration 0.2 --log "$T/u.jsonl" --format csv >/dev/null 2>"$T/err" ||
			die "$word: exit $?: $(cat "$T/err")"
		grep -q "\"uuid\":\"$uuid\"" "$T/u.jsonl" || die "$word: the log's uuid: $(head -1 "$T/u.jsonl")"
		rm -f "$T/u.jsonl"
	done
	"$FS" GPU-00000000-1111 --duration 0.2 --no-log >/dev/null 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] && grep -q "no device's UUID begins with 000000001111" "$T/err" || die "unknown UUID: $rc $(cat "$T/err")"
	"$FS" 0000:41:00.0 --duration 0.2 --no-log >/dev/null 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] && grep -q 'no device at PCI address 0000:41:00.0' "$T/err" || die "PCI: $rc $(cat "$T/err")"
	"$FS" --all "GPU-$uuid" --duration 0.2 --no-log --format csv >"$T/all.csv" 2>"$T/err" ||
		die "--all UUID: $(cat "$T/err")"
	"$FS" --list -v --format json >/dev/null 2>"$T/err"
	[ $? = 2 ] || die "--list -v --format json was not refused"
}

t_bad_usage_should_exit_2() {
	for args in "--target-ms 0" "--duration -3" "--bogus" "-0" "--format xml" "--target-ms"; do
		# shellcheck disable=SC2086
		"$FS" $args >"$T/out" 2>"$T/err"
		rc=$?
		[ "$rc" = 2 ] || die "$args: exit $rc"
		grep -q '^flopscope: ' "$T/err" || die "$args: no message"
	done
	# a port past 65535 is a port out of range, not a form unknown
	for a in 99999 127.0.0.1:70000 '[::1]:123456'; do
		"$FS" --metrics-listen "$a" llvm --duration 1 --no-log >/dev/null 2>"$T/err"
		rc=$?
		[ "$rc" = 2 ] && grep -q '^flopscope: --metrics-listen: port [0-9]* is out of range (0 .. 65535' "$T/err" ||
			die "--metrics-listen $a: exit $rc: $(cat "$T/err")"
	done
	"$FS" --metrics-listen 80a llvm --duration 1 --no-log >/dev/null 2>"$T/err"
	grep -q 'is not PORT, ADDR:PORT or \[ADDR6\]:PORT' "$T/err" || die "--metrics-listen 80a: $(cat "$T/err")"
}

t_two_modes_should_be_a_usage_error() {
	for args in "llvm --suite --latency" "--list --suite" "llvm --latency --list-workloads" \
		"--replay $T/x.jsonl --suite" "--help --version" "--suite --suite"; do
		# shellcheck disable=SC2086
		timeout 20 "$FS" $args >"$T/out" 2>"$T/err"
		rc=$?
		[ "$rc" = 2 ] || die "$args: exit $rc"
		grep -Eq '^flopscope: (--[a-z-]+ and --[a-z-]+ are two modes: give one|--suite is given twice)$' "$T/err" ||
			die "$args: $(cat "$T/err")"
		[ ! -s "$T/out" ] || die "$args: printed $(head -3 "$T/out")"
	done
}

t_broken_shader_should_name_file_and_line() {
	mkdir -p "$T/sh"
	sed 's/float s = float(slot)/float s = floatt(slot)/' shaders/fma_fp32.comp >"$T/sh/fma_fp32.comp"
	line=$(grep -n 'floatt' "$T/sh/fma_fp32.comp" | cut -d: -f1)
	"$FS" --shader-dir "$T/sh" --duration 1 >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || die "exit $rc"
	grep -q "fma_fp32.comp:$line: error" "$T/err" || die "no file:line $line: $(cat "$T/err")"
}

t_missing_shader_should_exit_2() {
	"$FS" --shader-dir "$T/nowhere" --duration 1 >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] || die "exit $rc"
	grep -q 'cannot open .*nowhere/fma_fp32.comp: No such file' "$T/err" || die "$(cat "$T/err")"
	mkdir -p "$T/blank"
	printf '  \n\n' >"$T/blank/fma_fp32.comp"
	"$FS" --shader-dir "$T/blank" --no-cache --duration 1 >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 2 ] && grep -q 'shader .*blank/fma_fp32.comp is empty' "$T/err" || die "blank: exit $rc: $(head -3 "$T/err")"
	[ "$(wc -l <"$T/out")" -lt 5 ] || die "blank shader: $(wc -l <"$T/out") lines on stdout"
}

t_no_vulkan_driver_should_exit_1_naming_lavapipe() {
	VK_DRIVER_FILES=/nonexistent/icd.json VK_ICD_FILENAMES=/nonexistent/icd.json \
		"$FS" --list >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 1 ] || die "exit $rc"
	grep -q 'mesa-vulkan-drivers' "$T/err" || die "$(cat "$T/err")"
	# a check with no driver could not run (6): flopscope's trouble, no
	# verdict on a device, which a prolog does not drain a node for
	VK_DRIVER_FILES=/nonexistent/icd.json VK_ICD_FILENAMES=/nonexistent/icd.json \
		"$FS" --check --budget 4s --no-log >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = 6 ] && grep -q 'mesa-vulkan-drivers' "$T/err" || die "--check: exit $rc: $(cat "$T/err")"
}

t_help_and_version() {
	"$FS" --help >"$T/out" || die "--help exit $?"
	grep -q '^usage: flopscope' "$T/out" || die "no usage"
	"$FS" --version >"$T/v" || die "--version exit $?"
	grep -Eq '^flopscope [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{7,}(-dirty)?|unknown), Vulkan headers 1\.[0-9]+\.[0-9]+\)$' "$T/v" ||
		die "bad --version: $(cat "$T/v")"
	# the commit it was built from, as git names it (a clean clone in CI)
	if c=$(git describe --always --dirty --abbrev=12 2>/dev/null); then
		grep -q "(commit $c," "$T/v" || die "built from $c, says: $(cat "$T/v")"
	fi
}

# Every exit status of the table (--help's, from error.h's) wherever the
# codes are listed: the man page's EXIT STATUS, README's table, the Slurm
# prolog's table in docs/FLEET.md (the metric's HELP: test_metrics); the
# order where several hold the same in each.
t_every_exit_status_should_be_listed_wherever_the_codes_are() {
	"$FS" --help >"$T/h" || die "--help exit $?"
	python3 - "$T/h" docs/flopscope.1 README.md docs/FLEET.md <<'PY' || exit 1
import re, sys
help_text = " ".join(open(sys.argv[1]).read().split("Exit status:")[1].split())
codes = re.findall(r"(?:^|, )(\d+) ", help_text.split("128+N")[0])
assert codes == [str(c) for c in range(7)], codes
order = re.search(r"then ([\d, ]+\d)", help_text).group(1)
man = open(sys.argv[2]).read().split(".SH EXIT STATUS")[1].split(".SH ")[0]
readme = open(sys.argv[3]).read()
fleet = open(sys.argv[4]).read()
prolog = fleet.split("| exit | node | reason")[1].split("\n\n")[0]
for c in codes:
    assert re.search(r"^\.B %s$" % c, man, re.M), "man page: no %s" % c
    assert re.search(r"^\| %s \| " % c, readme, re.M), "README: no %s" % c
    assert re.search(r"^\| %s \| " % c, prolog, re.M), "FLEET.md's prolog table: no %s" % c
assert "then %s." % order in readme and "then %s and %s." % (order.rsplit(", ", 1)[0], order.rsplit(", ", 1)[1]) in " ".join(man.split()), order
PY
}

# The Debian package, built as a packager would from a clean clone of the
# commit (dpkg-buildpackage; nocheck: the unit tests it would run are make
# test's own), checked by lintian, and its program run from its files alone.
t_debian_package_should_build_from_a_clean_clone_and_run() {
	sanitized && skip "the package builds its own binary: make test runs this"
	command -v dpkg-buildpackage >/dev/null && command -v lintian >/dev/null || die "no dpkg-buildpackage or lintian"
	git clone -q "$PWD" "$T/src" || die "git clone failed"
	# the package builds in a tree of its own: build/ (the test servers make
	# test unpacked there, 122 MiB) is never cleaned by it
	mkdir -p "$T/src/build/test-root" && echo kept >"$T/src/build/test-root/.unpacked"
	(cd "$T/src" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" dpkg-buildpackage -us -uc -b) >"$T/build" 2>&1 ||
		die "dpkg-buildpackage failed: $(tail -20 "$T/build")"
	[ "$(cat "$T/src/build/test-root/.unpacked" 2>/dev/null)" = kept ] || die "the package build removed build/"
	dpkg-deb -f "$(ls "$T"/flopscope_*_amd64.deb | head -1)" Recommends | grep -q bash-completion ||
		die "bash-completion is not recommended: the completion does nothing without it"
	deb=$(ls "$T"/flopscope_*_amd64.deb 2>/dev/null | head -1)
	[ -f "$deb" ] || die "no .deb: $(ls "$T")"
	# lintian: no error; its warnings are printed (the closing note lists them)
	lintian --fail-on error "$T"/flopscope_*.changes >"$T/lintian" 2>&1 || die "lintian: $(cat "$T/lintian")"
	grep -E '^[EW]:' "$T/lintian" | sed 's/^/  lintian: /' >&2
	version=$(dpkg-deb -f "$deb" Version)
	[ "$version" = "$(sed -n 's/^#define FLOPSCOPE_VERSION "\(.*\)"/\1/p' src/core/version.h)" ] ||
		die "package $version, program $(grep FLOPSCOPE_VERSION src/core/version.h)"
	# Depends from shlibs: the Vulkan loader and the libraries linked
	# dynamically; shaderc, linked statically, named in Static-Built-Using
	depends=$(dpkg-deb -f "$deb" Depends)
	for lib in libvulkan1 libncursesw6 libcjson1 libmicrohttpd12; do
		case "$depends" in *"$lib "*) ;; *) die "Depends lacks $lib: $depends" ;; esac
	done
	dpkg-deb -f "$deb" Static-Built-Using | grep -q 'shaderc (= ' || die "no Static-Built-Using"
	dpkg-deb -x "$deb" "$T/root" || die "dpkg -x failed"
	for f in usr/bin/flopscope usr/share/flopscope/shaders/fma_fp32.comp usr/share/flopscope/themes/dark.json \
	         usr/share/man/man1/flopscope.1.gz usr/share/bash-completion/completions/flopscope \
	         usr/share/zsh/vendor-completions/_flopscope usr/lib/sysusers.d/flopscope.conf \
	         lib/systemd/system/flopscope-check.service lib/systemd/system/flopscope-check.timer \
	         lib/systemd/system/flopscope-exporter.service \
	         usr/share/flopscope/fleet/flopscope-alerts.yml usr/share/doc/flopscope/copyright; do
		[ -f "$T/root/$f" ] || die "the package lacks $f"
	done
	# shipped disabled: the postinst re-enables the timer only where an admin
	# had (was-enabled) and starts nothing; the service has no [Install]
	dpkg-deb -e "$deb" "$T/control"
	if grep -q 'deb-systemd-helper enable' "$T/control/postinst"; then
		grep -q 'deb-systemd-helper --quiet was-enabled' "$T/control/postinst" || die "the postinst enables a unit"
	fi
	! grep -q 'deb-systemd-invoke.*start' "$T/control/postinst" || die "the postinst starts a unit"
	! grep -q '^\[Install\]' "$T/root/lib/systemd/system/flopscope-check.service" || die "the service installs itself"
	P="$T/root/usr/bin/flopscope"
	(cd / && "$P" --version) >"$T/v" 2>&1 || die "--version: $(cat "$T/v")"
	grep -q "^flopscope $version (commit $(git rev-parse --short=12 HEAD)," "$T/v" || die "--version: $(cat "$T/v")"
	(cd / && "$P" --list) >"$T/list" 2>&1 && grep -q llvmpipe "$T/list" || die "--list: $(cat "$T/list")"
	(cd / && "$P" llvm --headless --duration 1 --no-log) >"$T/run" 2>&1 || die "run: $(cat "$T/run")"
	grep -q '^Summary: ' "$T/run" || die "no summary: $(tail -5 "$T/run")"
	# the packaged completion offers the workloads
	"$P" llvm --list-workloads | awk 'NR > 1 { print $1 }' | sort >"$T/wl"
	bash -c '. "$1"; COMP_WORDS=(flopscope --workload ""); COMP_CWORD=2; _flopscope; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$T/root/usr/share/bash-completion/completions/flopscope" | sort >"$T/offered"
	cmp -s "$T/wl" "$T/offered" || die "completion: $(diff "$T/wl" "$T/offered")"
	if command -v systemd-analyze >/dev/null; then
		mkdir -p "$T/units"
		sed "s|/usr/bin/flopscope|$P|" "$T/root/lib/systemd/system/flopscope-check.service" \
			>"$T/units/flopscope-check.service"
		sed "s|/usr/bin/flopscope|$P|" "$T/root/lib/systemd/system/flopscope-exporter.service" \
			>"$T/units/flopscope-exporter.service"
		cp "$T/root/lib/systemd/system/flopscope-check.timer" "$T/units/"
		(cd "$T/units" && MANPATH="$T/root/usr/share/man" systemd-analyze verify flopscope-check.service \
			flopscope-check.timer flopscope-exporter.service) >"$T/verify" 2>&1 && [ ! -s "$T/verify" ] ||
			die "systemd-analyze: $(cat "$T/verify")"
	fi
}

# The README's two commands, as make plans them (-n: nothing is run but
# the sub-makes, dry too): no warning of make's, as "-j2 forced in makefile:
# resetting jobserver mode" was (in a bare environment, as a newcomer's
# shell: no make of the test's, no B=build-asan of a sanitizer lane)
t_the_readme_commands_should_plan_without_a_warning_of_make() {
	local cmd
	for cmd in run test; do
		(env -i PATH="$PATH" HOME="$HOME" make -n "$cmd" >"$T/plan" 2>&1) ||
			die "make -n $cmd: exit $?: $(tail -5 "$T/plan")"
		grep -q '^make\(\[[0-9]*\]\)\?: warning' "$T/plan" && die "make -n $cmd: $(grep warning "$T/plan")"
		grep -q -- '-o build/flopscope ' "$T/plan" || grep -q "Nothing to be done\|is up to date\|build/flopscope" "$T/plan" ||
			die "make -n $cmd planned no build: $(tail -5 "$T/plan")"
	done
}

t_make_install_should_give_a_working_program_and_man_page() {
	# installs the binary under test ($B: build, build-asan, ...) as built: -o all
	# keeps make from rebuilding it with other flags when a source is newer
	make -s -o all install B="$(dirname "$FS")" DESTDIR="$T/root" PREFIX=/opt/fs >"$T/out" 2>&1 ||
		die "install failed: $(cat "$T/out")"
	for f in bin/flopscope share/flopscope/shaders/fma_fp32.comp share/flopscope/themes/dark.json \
	         share/man/man1/flopscope.1 share/bash-completion/completions/flopscope share/zsh/vendor-completions/_flopscope \
	         lib/systemd/system/flopscope-check.service lib/systemd/system/flopscope-check.timer \
	         lib/systemd/system/flopscope-exporter.service share/flopscope/fleet/slurm-prolog.sh \
	         share/flopscope/fleet/flopscope-alerts.yml \
	         share/doc/flopscope/LICENSE share/doc/flopscope/FLEET.md; do
		[ -f "$T/root/opt/fs/$f" ] || die "missing $f"
	done
	grep -q '^ExecStart=/opt/fs/bin/flopscope --check' "$T/root/opt/fs/lib/systemd/system/flopscope-check.service" ||
		die "the unit runs $(grep ExecStart "$T/root/opt/fs/lib/systemd/system/flopscope-check.service")"
	grep -q '^ExecStart=/opt/fs/bin/flopscope --watch .*--metrics-listen' \
		"$T/root/opt/fs/lib/systemd/system/flopscope-exporter.service" ||
		die "the exporter runs $(grep ExecStart "$T/root/opt/fs/lib/systemd/system/flopscope-exporter.service")"
	# systemd reads the units without a complaint (it says nothing and exits
	# 0 for a value it cannot parse: its stderr must be empty too)
	if command -v systemd-analyze >/dev/null; then
		mkdir -p "$T/units"
		sed "s|/opt/fs/bin/flopscope|$T/root/opt/fs/bin/flopscope|" \
			"$T/root/opt/fs/lib/systemd/system/flopscope-check.service" >"$T/units/flopscope-check.service"
		sed "s|/opt/fs/bin/flopscope|$T/root/opt/fs/bin/flopscope|" \
			"$T/root/opt/fs/lib/systemd/system/flopscope-exporter.service" >"$T/units/flopscope-exporter.service"
		cp "$T/root/opt/fs/lib/systemd/system/flopscope-check.timer" "$T/units/"
		(cd "$T/units" && MANPATH="$T/root/opt/fs/share/man" systemd-analyze verify flopscope-check.service \
			flopscope-check.timer flopscope-exporter.service) >"$T/verify" 2>&1 && [ ! -s "$T/verify" ] ||
			die "systemd-analyze: $(cat "$T/verify")"
	else
		echo "  (no systemd-analyze here: the units were not verified)" >&2
	fi
	(cd / && "$T/root/opt/fs/bin/flopscope" llvm --duration 0.3 --no-log >"$T/out" 2>&1) ||
		die "installed program failed: $(cat "$T/out")"
	grep -q '^Summary: ' "$T/out" || die "no summary"
	LC_ALL=C MANWIDTH=80 man --warnings -l "$T/root/opt/fs/share/man/man1/flopscope.1" >"$T/man" 2>"$T/manerr" ||
		die "man failed: $(cat "$T/manerr")"
	[ ! -s "$T/manerr" ] || die "man warnings: $(cat "$T/manerr")"
	for w in SYNOPSIS OPTIONS KEYS FILES 'EXIT STATUS' EXAMPLES; do grep -q "^$w" "$T/man" || die "no $w section"; done
	# every option in --help is in the man page
	for opt in $("$FS" --help | grep -oE -- '--[a-z-]+' | sort -u); do
		grep -q -- "$opt" "$T/man" || die "man page lacks $opt"
	done
	# every variable the program reads is in its ENVIRONMENT section
	# (test_cli holds the SYNOPSIS, OPTIONS and EXIT STATUS to the tables)
	sed -n '/^ENVIRONMENT/,/^[A-Z]/p' "$T/man" >"$T/env"
	vars=$(grep -rhoE 'getenv\("[A-Z_]+"\)|paths_xdg_dir\("[A-Z_]+"|"FLOPSCOPE_[A-Z_]+_DIR"' src ui |
		grep -oE '[A-Z_]{3,}' | sort -u)
	[ "$(echo "$vars" | wc -w)" -ge 10 ] || die "found only: $vars"
	# (those the product reads: one of flopscope's own is a string in the
	# installed binary, where the test build's hooks, FLOPSCOPE_FAULT, are
	# compiled out; the compiler may keep HOME as the tail of XDG_*_HOME)
	tr '\0' '\n' <"$T/root/opt/fs/bin/flopscope" >"$T/strings"
	for v in $vars; do
		if [ "${v#FLOPSCOPE_}" = "$v" ] || grep -qaE -- "(^|[^A-Z_])$v\$" "$T/strings"; then
			grep -qw -- "$v" "$T/env" || die "ENVIRONMENT lacks $v"
		else
			grep -qw -- "$v" "$T/env" && die "ENVIRONMENT lists $v, which the product never reads"
		fi
	done
	grep -qaE "(^|[^A-Z_])FLOPSCOPE_SYSFS_ROOT\$" "$T/strings" || die "no variable found in the binary's strings"
}

t_caches_should_make_the_second_start_skip_shaderc() {
	XDG_CACHE_HOME="$T/cache" "$FS" llvm --duration 0.2 --no-log >"$T/a" 2>&1 || die "first: $(cat "$T/a")"
	# shaderc runs on a thread of its own while the device is made, and the
	# pipeline is built from what it compiled: the second run finds the
	# pipeline cache that the first one's SPIR-V named
	grep -q "start: shader .* (compiled by shaderc, beside the device's creation)" "$T/a" ||
		die "first run: $(grep start: "$T/a")"
	ls "$T"/cache/flopscope/spirv-*.spv "$T"/cache/flopscope/pipeline-*.bin >/dev/null || die "no cache files"
	XDG_CACHE_HOME="$T/cache" "$FS" llvm --duration 0.2 --no-log >"$T/b" 2>&1 || die "second: $(cat "$T/b")"
	grep -q 'start: shader .* (SPIR-V from the cache, beside the device.s creation), .*pipeline cache loaded' "$T/b" ||
		die "second run: $(grep start: "$T/b")"
	# a damaged cache file is only a slower start
	for f in "$T"/cache/flopscope/*; do printf 'junk' >"$f"; done
	XDG_CACHE_HOME="$T/cache" "$FS" llvm --duration 0.2 --no-log >"$T/c" 2>&1 || die "damaged cache: $(cat "$T/c")"
	grep -q '(compiled by shaderc' "$T/c" || die "junk SPIR-V was used"
	# an entry that is a link, even the user's own, is never written through
	for f in "$T"/cache/flopscope/*; do
		printf 'mine' >"$f.target" && rm "$f" && ln -s "$f.target" "$f"
	done
	XDG_CACHE_HOME="$T/cache" "$FS" llvm --duration 0.2 --no-log >"$T/c" 2>&1 || die "linked cache: $(cat "$T/c")"
	for f in "$T"/cache/flopscope/*.target; do
		[ "$(cat "$f")" = mine ] || die "written through a link: ${f%.target}"
		[ -L "${f%.target}" ] || die "the link ${f%.target} was replaced"
	done
	XDG_CACHE_HOME="$T/nocache" "$FS" llvm --duration 0.2 --no-log --no-cache >"$T/d" 2>&1 || die "--no-cache failed"
	# (Mesa keeps its own shader cache there; flopscope writes nothing)
	[ ! -e "$T/nocache/flopscope" ] || die "--no-cache wrote $(ls -R "$T/nocache/flopscope")"
}

# The config file: its settings apply, the options override them, a wrong
# line stops with the file, the line and exit 2 (--no-config ignores it);
# --save-config writes what reads back; S in the dashboard saves the theme.
t_config_file_should_apply_save_and_yield_to_options() {
	tsan && skip "the config file, no thread of its own: check-asan and make test run it"
	export XDG_CONFIG_HOME="$T/config" # this test's own: the others read none
	local cfg="$XDG_CONFIG_HOME/flopscope/config"
	mkdir -p "$(dirname "$cfg")"
	printf '# mine\ntarget_ms = 50\noutlier = 3\n' >"$cfg"
	"$FS" llvm --duration 0.5 --no-log >"$T/out" 2>&1 || die "exit $?: $(cat "$T/out")"
	grep -q 'target 50 ms per dispatch' "$T/out" || die "config not applied: $(head -5 "$T/out")"
	"$FS" llvm --duration 0.5 --no-log --target-ms 10 >"$T/out" 2>&1 || die "exit $?"
	grep -q 'target 10 ms per dispatch' "$T/out" || die "the option lost: $(head -5 "$T/out")"
	# a check takes no dashboard preference: its session ran at 20 ms
	XDG_STATE_HOME="$T/state" "$FS" --check llvm --workload fp32 --budget 4s >"$T/out" 2>&1
	[ $? = 5 ] || die "--check (lavapipe, nothing to hold it to: 5): exit $?: $(cat "$T/out")"
	head -1 "$T"/state/flopscope/*-check.jsonl | grep -q '"target_ms":20[,}]' ||
		die "the check took the saved target: $(head -c 600 "$T"/state/flopscope/*-check.jsonl)"
	printf 'target_ms = 50\nfps = 99\n' >"$cfg"
	"$FS" llvm --duration 0.5 --no-log >"$T/out" 2>&1
	[ $? = 2 ] && grep -q "flopscope: $cfg: line 2: fps.*--no-config ignores the file" "$T/out" || die "$(cat "$T/out")"
	"$FS" llvm --duration 0.5 --no-log --no-config >"$T/out" 2>&1 || die "--no-config: exit $?: $(cat "$T/out")"
	grep -q 'target 20 ms per dispatch' "$T/out" || die "$(head -5 "$T/out")"
	rm -f "$cfg"
	"$FS" --save-config --target-ms 5 --theme light >"$T/out" 2>&1 || die "save: exit $?: $(cat "$T/out")"
	grep -q "^settings saved to $cfg$" "$T/out" && grep -q '^target_ms = 5$' "$cfg" && grep -q '^theme = light$' "$cfg" ||
		die "$(cat "$T/out" "$cfg")"
	"$FS" llvm --duration 0.5 --no-log >"$T/out" 2>&1 || die "exit $?"
	grep -q 'target 5 ms per dispatch' "$T/out" || die "saved settings not read back: $(head -5 "$T/out")"
	"$FS" --save-config --format json >"$T/out" 2>&1
	[ $? = 2 ] || die "--save-config --format accepted"
	# S in the dashboard: the theme shown (t switched it), the target
	start_ui "$FS" -1 --no-log || return 1
	wait_for 'FLOPS at the target time' || return 1
	TM send-keys -t fs t
	wait_for 'theme ' || return 1
	TM send-keys -t fs S
	wait_for "settings saved to $cfg" || return 1
	TM send-keys -t fs q
	wait_exit || return 1
	grep -Eq '^theme = (dark|mono)$' "$cfg" && grep -q '^target_ms = 5$' "$cfg" || die "$(cat "$cfg")"
}

# One type a key across every record (issue 58): a reader (jq's select(.outlier),
# a script) reads a key the same way wherever it comes; and the check can
# fail: a schema folder where a count takes a flag's name is refused.
t_a_key_should_have_one_type_in_every_schema() {
	sanitized && skip "the schemas alone: no program runs (make test runs it)"
	python3 tests/schema_types.py docs/schema >"$T/t.out" 2>&1 || die "$(cat "$T/t.out")"
	cp -r docs/schema "$T/bad"
	python3 - "$T/bad/check.schema.json" <<'PY' || die "could not plant a count"
import json, sys
s = json.load(open(sys.argv[1]))
end = [d for d in s["oneOf"] if d.get("properties", {}).get("type", {}).get("const") == "check_end"][0]
end["properties"]["outlier"] = {"$ref": "defs.schema.json#/$defs/count"}
json.dump(s, open(sys.argv[1], "w"))
PY
	python3 tests/schema_types.py "$T/bad" >"$T/b.out" 2>&1 && die "a count named as the fleet's flag passed: $(cat "$T/b.out")"
	grep -q "^outlier: .*boolean in .*fleet.schema.json.*number in .*check.schema.json\|^outlier: .*number in .*check.schema.json.*boolean in" "$T/b.out" ||
		die "the planted key not named: $(cat "$T/b.out")"
}

# Every JSON output is a contract: each kind, as a run on lavapipe writes it,
# is valid under its schema in docs/schema/ (python3-jsonschema, Draft
# 2020-12, unknown fields refused), and a doctored record is not.
t_every_json_output_should_match_its_schema() {
	tsan && skip "the outputs' fields, no thread of their own: check-asan and make test run it"
	local S=tests/schema_check.py st="$T/st" t0 t1
	export XDG_STATE_HOME="$st"
	t0=$(date -u +%s.%N)
	"$FS" llvm --duration 1 --log "$T/a.jsonl" --format json >"$T/head.json" 2>/dev/null || die "headless"
	t1=$(date -u +%s.%N)
	"$FS" llvm --duration 1 --log "$T/b.jsonl" --format csv >/dev/null 2>&1 || die "second log"
	"$FS" -1 -1 --duration 0.5 --no-log --format json >"$T/run.json" 2>/dev/null
	rc=$? # two engines on one lavapipe may differ: 4, the outlier status
	[ "$rc" = 0 ] || [ "$rc" = 4 ] || die "-1 -1: exit $rc"
	"$FS" --list --format json >"$T/list.json" || die "list"
	"$FS" --check llvm --workload fp32,h2d --budget 5s --format json >"$T/check.json" 2>"$T/check.err"
	# a log in the default folder for --logs (the check's is not sure: under
	# ThreadSanitizer its budget can run out before it measures, and then it
	# writes none)
	"$FS" llvm --duration 0.5 --format csv >/dev/null 2>&1 || die "a log in the default folder"
	"$FS" --logs --format json >"$T/logs.json" 2>"$T/logs.err" || die "logs: $(cat "$T/logs.err")"
	"$FS" --compare "$T/a.jsonl" "$T/b.jsonl" --format json >"$T/compare.json" 2>/dev/null
	"$FS" --analyze "$T/a.jsonl" --format json >"$T/analyze.json" 2>/dev/null || die "analyze"
	"$FS" llvm --latency --format json >"$T/latency.json" 2>/dev/null || die "latency"
	"$FS" --replay "$T/a.jsonl" --headless --format json >"$T/replay.json" 2>/dev/null || die "replay"
	for out in "log head.json a.jsonl replay.json $(cd "$st/flopscope" && ls | sed "s|^|st/flopscope/|")" \
	           "run run.json" "list list.json" "check check.json" "logs logs.json" "compare compare.json" \
	           "analyze analyze.json" "latency latency.json"; do
		set -- $out
		local schema=$1
		shift
		(cd "$T" && python3 "$OLDPWD/$S" "$schema" "$@") >"$T/v.out" 2>&1 || die "$schema: $(tail -5 "$T/v.out") [$(ls "$st"/flopscope) $(cat "$T/logs.err")]"
	done
	grep -q '"type":"device_summary"' "$T/run.json" && grep -q '"type":"check_end"' "$T/check.json" ||
		die "outputs incomplete"
	# the records' wall-clock time is the time they were written: the run's
	# summary between the command's start and end, the check's in order
	python3 - "$T/head.json" "$t0" "$t1" "$T/check.json" <<'PY' || die "utc"
import datetime, json, sys
def when(r):
    return datetime.datetime.strptime(r["utc"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc).timestamp()
summary = [json.loads(l) for l in open(sys.argv[1])][-1]
assert summary["type"] == "summary" and summary["schema"] == 2, summary
assert float(sys.argv[2]) - 0.001 <= when(summary) <= float(sys.argv[3]) + 0.001, (summary["utc"], sys.argv[2:4])
check = [json.loads(l) for l in open(sys.argv[4])]
times = [when(r) for r in check]
assert len(times) >= 2 and times == sorted(times), [r["utc"] for r in check]
PY
	# the validator refuses what the schema does not allow
	sed -n 2p "$T/head.json" | sed 's/"rate":/"flops":/' >"$T/bad.json"
	python3 "$S" log "$T/bad.json" >/dev/null 2>&1 && die "a sample without rate passed"
	true
}

# bash's completion, written from the tables: options, every workload the
# program knows, themes, files, and the devices --list shows (-N, the first
# word of the name, the UUID as nvidia-smi writes it).
t_completion_should_offer_options_workloads_themes_and_devices() {
	sanitized && skip "a script written from the tables, no memory or thread of its own: make test runs it"
	"$FS" --completion bash >"$T/c.bash" || die "exit $?"
	bash -n "$T/c.bash" || die "not bash"
	offers() { # WORD...: what completing the last word offers, one a line
		bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _flopscope
			printf "%s\n" "${COMPREPLY[@]}"' _ "$T/c.bash" "$@"
	}
	offers "$FS" --work | grep -qx -- --workload || die "--work: $(offers "$FS" --work)"
	[ "$(offers "$FS" --workload fp16 | sort | tr '\n' ' ')" = "fp16 fp16-matrix fp16-matrix-f16 fp16-scalar " ] ||
		die "--workload fp16: $(offers "$FS" --workload fp16)"
	# every workload --list-workloads names, and no other
	"$FS" llvm --list-workloads | awk 'NR > 1 { print $1 }' | sort >"$T/wl"
	offers "$FS" --workload "" | sort >"$T/offered"
	cmp -s "$T/wl" "$T/offered" || die "workloads: $(diff "$T/wl" "$T/offered")"
	# the same list as JSON (its schema) and CSV, each saying what the table says
	"$FS" llvm --list-workloads --format json >"$T/wl.json" || die "--list-workloads json: exit $?"
	python3 tests/schema_check.py workloads "$T/wl.json" >"$T/sch" 2>&1 || die "schema: $(cat "$T/sch")"
	"$FS" llvm --list-workloads --format csv >"$T/wl.csv" || die "--list-workloads csv: exit $?"
	"$FS" llvm --list-workloads >"$T/wl.txt"
	python3 - "$T/wl.json" "$T/wl.csv" "$T/wl.txt" "$T/wl" <<'PY' || die "--list-workloads: the formats disagree"
import csv, json, sys
js = [json.loads(l) for l in open(sys.argv[1])]
cs = list(csv.DictReader(open(sys.argv[2])))
table = {l.split()[0]: l.split()[2] for l in open(sys.argv[3]).read().splitlines()[1:]}
names = open(sys.argv[4]).read().split()
assert sorted(j["name"] for j in js) == names == sorted(c["workload"] for c in cs), (js, names)
for j, c in zip(js, cs):
    assert j["name"] == c["workload"] and (c["supported"] == "yes") == j["supported"], (j, c)
    assert table[j["name"]] == ("supported" if j["supported"] else "unsupported"), (j, table)
    assert j["supported"] or j["why"] == c["why"], (j, c)
    assert j["device"].startswith("llvmpipe") and c["device"] == j["device"], (j, c)
PY
	offers "$FS" --theme "" | grep -qx mono || die "--theme: $(offers "$FS" --theme "")"
	touch "$T/session-x.jsonl"
	offers "$FS" --replay "$T/sess" | grep -qx "$T/session-x.jsonl" || die "--replay: no file offered"
	offers "$FS" llv | grep -qx llvmpipe || die "llv: $(offers "$FS" llv)"
	offers "$FS" - | grep -qx -- -1 || die "-: no -1"
	uuid=$("$FS" --list --format json | python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["uuid"])')
	[ "$(offers "$FS" GPU-)" = "GPU-$uuid" ] || die "GPU-: $(offers "$FS" GPU-)"
	[ -z "$(offers "$FS" --budget "")" ] || die "--budget offered something"
	# a file name with spaces is one word; a device name from --list is
	# offered as it is, never evaluated (compgen -W ran its $(...))
	touch "$T/two words.jsonl"
	[ "$(offers "$FS" --replay "$T/two" | wc -l)" = 1 ] || die "a name with spaces split: $(offers "$FS" --replay "$T/two")"
	offers "$FS" --replay "$T/two" | grep -qxF "$T/two words.jsonl" || die "--replay: $(offers "$FS" --replay "$T/two")"
	printf '%s\n' '#!/bin/sh' \
		"echo '{\"type\":\"device\",\"entry\":1,\"device\":\"\$(touch\${IFS:0:1}pwned)x* more\",\"uuid\":\"00\",\"pci_bus_id\":null}'" \
		>"$T/fakefs"
	chmod +x "$T/fakefs"
	local got
	got=$(cd "$T" && offers "$T/fakefs" '$')
	[ ! -e "$T/pwned" ] || die "completion ran a command from a device's name"
	[ "$got" = '$(touch${IFS:0:1}pwned)x*' ] || die "the device's name offered as: $got"
	"$FS" --completion fish >/dev/null 2>"$T/err"
	[ $? = 2 ] && grep -q 'not a shell flopscope writes completion for' "$T/err" || die "fish: $(cat "$T/err")"
	# zsh's, driven through a pseudo-terminal as a user types: what compadd is
	# given for the line and a TAB (zpty -n: no newline after it, so the
	# line is never run; without -n "flopscope GPU-..." started a dashboard
	# that outlived the test)
	mkdir -p "$T/zsh"
	"$FS" --completion zsh >"$T/zsh/_flopscope" || die "zsh: exit $?"
	zsh -n "$T/zsh/_flopscope" || die "not zsh"
	zoffers() { # LINE: the matches completing it offers, one a line
		rm -f "$T/zsh/out"
		PATH="$(dirname "$(realpath "$FS")"):$PATH" zsh -f -c '
			zmodload zsh/zpty
			zpty z zsh -f -i
			zpty -w z "PS1=; fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -D"
			zpty -w z "compadd() { local -a m; builtin compadd -O m \"\$@\"; print -rl -- \"\${m[@]}\" >>$2.new; builtin compadd \"\$@\"; }"
			zpty -n -w z "$3"$'"'"'\t'"'"'
			for i in {1..100}; do [[ -e $2.new ]] && break; sleep 0.1; done
			sleep 0.3; zpty -d z; mv $2.new $2 2>/dev/null' _ "$T/zsh" "$T/zsh/out" "$1"
		cat "$T/zsh/out" 2>/dev/null
	}
	zoffers "flopscope --workload " | grep -v '^$' | sort >"$T/zoffered"
	cmp -s "$T/wl" "$T/zoffered" || die "zsh workloads: $(diff "$T/wl" "$T/zoffered")"
	zoffers "flopscope --su" | grep -qx -- --suite || die "zsh --su: $(zoffers "flopscope --su")"
	zoffers "flopscope GPU" | grep -qx "GPU-$uuid" || die "zsh GPU: $(zoffers "flopscope GPU")"
	zoffers "flopscope --theme " | grep -qx mono || die "zsh --theme: $(zoffers "flopscope --theme ")"
}
