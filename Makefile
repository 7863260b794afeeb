# flopscope: see README.md. `make` builds build/flopscope; `make test` installs
# what is missing, builds and runs every test; `make run` starts the program.
# every core compiles, as CI's make does (a serial build of make test took
# about a minute of its time on 2 cores); -jN on the command line still wins.
# A sub-make ($(MAKE) in a recipe) shares its parent's job slots: -j there
# would reset them ("-jN forced in makefile: resetting jobserver mode").
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif
CC      ?= cc
PKGS    := vulkan ncursesw libcjson libmicrohttpd libcurl
OPT     ?= -O2 -g
SAN     ?=
CFLAGS  += $(OPT) $(SAN) -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Wall -Wextra -Werror \
           -Wshadow -Wstrict-prototypes -Wmissing-prototypes -pthread -MMD -MP \
           $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# Debian 12's libshaderc.so.1 does not link (undefined glslang symbols): link it statically.
SHADERC := -lshaderc_combined -lglslang -lMachineIndependent -lOSDependent -lGenericCodeGen \
           -lOGLCompiler -lSPIRV -lSPIRV-Tools-opt -lSPIRV-Tools -lstdc++
LDLIBS  += $(shell pkg-config --libs $(PKGS) 2>/dev/null) $(SHADERC) -lpthread -lm

B       ?= build
# The layers (README's layout), each compiled seeing only the headers of the
# layers below it, so a wrong include does not compile:
#   core     pure: no Vulkan, terminal, threads or files
#   session  logs, CSV, SVG, file helpers
#   gpu      the only code that calls Vulkan or shaderc
#   workloads one file per kind of workload, each one table of operations
#   engine   the measuring thread, telemetry
#   ui       curses screens (ui/): core headers, the sample source's, the
#            theme files' (session); never gpu or app
#   app      main, modes, outputs, the interactive runner over the screens
CORE    := fmt sample throttle procs devfeat adapt sched stats interval ring devsel cli cli_num cli_help cli_config workload fmawork powerwork memwork summary televent compare change peak devinfo plot outlier retain metrics verdict fleet spirv_khr burn
SESSION := clock fileio paths csvread records slog slogread session_cols svg svg_draw svg_burn threadname procfs devlock
GPU     := err features vkctx shader memory pipeline submit compute
WORKLOADS := workloads fma copy transfer power kinds
ENGINE  := sysfs inventory tel_registry tel_nvml tel_gpu_sysfs tel_cpu tel_pcie telemetry engine engine_build engine_log engine_set source replay
APP     := interval_out progress report runcfg columns outputs config listing devlist metrics_live interactive headless offline replay_table export compare_cmd analyze loglist suite check_judge check_out check_cmd burn_cmd burn_report burn_remake fleet_read fleet_cmd latency multi watch main
INC_core    := -Isrc/core
INC_session := $(INC_core) -Isrc/session
INC_gpu     := $(INC_session) -Isrc/gpu
INC_workloads := $(INC_gpu) -Isrc/workloads
INC_engine  := $(INC_workloads) -Isrc/engine
INC_ui      := -Isrc/core -Isrc/session -Isrc/engine -Iui
INC_app     := $(INC_engine) -Iui -Isrc/app
# ui/: pure pieces (unit-tested) and the curses screens.
UI_PURE := theme layout history keys
UI      := screen picker panel proc_view dashboard node node_group fleet_view
OBJ     := $(addprefix $(B)/src/core/,$(addsuffix .o,$(CORE))) \
           $(addprefix $(B)/src/session/,$(addsuffix .o,$(SESSION))) \
           $(addprefix $(B)/src/gpu/,$(addsuffix .o,$(GPU))) \
           $(addprefix $(B)/src/workloads/,$(addsuffix .o,$(WORKLOADS))) \
           $(addprefix $(B)/src/engine/,$(addsuffix .o,$(ENGINE))) \
           $(addprefix $(B)/src/app/,$(addsuffix .o,$(APP))) \
           $(addprefix $(B)/ui/,$(addsuffix .o,$(UI_PURE) $(UI)))
# Unit tests link only these: the pure modules, the text outputs (pure
# formatting) and telemetry (its readers run against a fake sysfs).
PURE_OBJ:= $(addprefix $(B)/src/core/,$(addsuffix .o,$(CORE))) \
           $(addprefix $(B)/src/session/,$(addsuffix .o,$(SESSION))) \
           $(addprefix $(B)/ui/,$(addsuffix .o,$(UI_PURE))) \
           $(B)/src/app/report.o $(addprefix $(B)/src/engine/,$(addsuffix .o,sysfs tel_registry tel_nvml tel_gpu_sysfs tel_cpu tel_pcie telemetry replay))
UNIT    := $(patsubst tests/unit/%.c,$(B)/tests/%,$(wildcard tests/unit/test_*.c))

# Debian packages: what building and running need (make deps, make run),
# and what only the tests, sanitizer builds and fuzzers use (make deps-test:
# never installed by make run).
DEB_BUILD := gcc libstdc++-12-dev make pkg-config libvulkan-dev mesa-vulkan-drivers libncurses-dev libcjson-dev \
             libshaderc-dev glslang-dev spirv-tools libmicrohttpd-dev libcurl4-openssl-dev
DEB_TEST  := vulkan-validationlayers tmux python3 python3-jsonschema man-db procps clang libclang-rt-14-dev locales gdb \
             librsvg2-bin chromium cmark-gfm util-linux zsh debhelper lintian git build-essential \
             libhwloc15 liblz4-1 libnuma1 libpam0g libreadline8 libdbus-1-3 libjson-c5 liblua5.1-0 libyaml-0-2 \
             libgcrypt20 libbz2-1.0 zlib1g
# The servers the fleet tests start on loopback (Prometheus, node_exporter,
# Slurm and munge), unpacked into the build: dpkg -x runs no maintainer
# script, so none is installed as a service, enabled or started, on a
# developer's machine or CI's; the libraries they link are in DEB_TEST, and
# tests/run.sh puts their bin/ first on PATH.
DEB_UNPACK := prometheus prometheus-node-exporter prometheus-alertmanager \
              slurmd slurmctld slurm-client slurm-wlm-basic-plugins libslurm38 munge libmunge2
TEST_ROOT := build/test-root
# Units a test package would enable, masked before it is installed (the link
# to /dev/null that `systemctl mask` makes; only where the package is not
# installed yet, and never undone by its scripts): man-db's daily timer
# (man-db comes with the man page test, debhelper and lintian).
MASK_UNITS := man-db:man-db.timer
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

PREFIX  ?= /usr/local
DESTDIR ?=
# Debian 12 keeps units in /lib/systemd/system (the package sets it)
SYSTEMD_UNIT_DIR ?= $(PREFIX)/lib/systemd/system

.PHONY: all objects deps deps-test run test unit integration deb check-asan check-tsan fuzz bench clean install uninstall
all: $(B)/flopscope

# the program's objects, for the symbol rule of tests/layering.sh
objects:
	@echo $(OBJ)

# Sanitizer builds keep every dlclosed library mapped (tests/sanitizers/keep_loaded.c).
SAN_OBJ := $(if $(SAN),$(B)/sanitizers/keep_loaded.o)

$(B)/flopscope: $(OBJ) $(SAN_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

# The test build: the program with its test hook (FLOPSCOPE_FAULT, read in
# compute.c under FLOPSCOPE_TEST_HOOKS), which the product does not have.
HOOK_OBJ := $(B)/hooks/src/gpu/compute.o
$(HOOK_OBJ): src/gpu/compute.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -DFLOPSCOPE_TEST_HOOKS $(INC_gpu) -c -o $@ $<
$(B)/flopscope-test: $(filter-out $(B)/src/gpu/compute.o,$(OBJ)) $(HOOK_OBJ) $(SAN_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

# The planted-leak proof: flopscope that loses blocks of its own (tests/sanitizers/).
$(B)/flopscope-planted: $(OBJ) $(SAN_OBJ) $(B)/sanitizers/planted_leak.o
	$(CC) $(CFLAGS) -Wl,--wrap=vkctx_create,--wrap=shaderc_result_release -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(B)/sanitizers/%.o: tests/sanitizers/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_app) -c -o $@ $<

# The commit the program is built from (git describe), or COMMIT=VERSION given
# by a package build; in a header rewritten only when it changes, so that
# main.o alone is rebuilt for a new commit.
COMMIT ?= $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
$(B)/gen/commit.h: FORCE
	@mkdir -p $(dir $@)
	@printf '#define FLOPSCOPE_COMMIT "%s"\n' '$(COMMIT)' >$@.new; cmp -s $@.new $@ && rm -f $@.new || mv -f $@.new $@
$(B)/src/app/main.o: $(B)/gen/commit.h
$(B)/src/app/main.o: INC_app += -I$(B)/gen
.PHONY: FORCE
FORCE:

$(B)/src/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(INC_$(firstword $(subst /, ,$*))) -c -o $@ $<

$(B)/ui/%.o: ui/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(INC_ui) -c -o $@ $<

$(B)/tests/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_session) -Isrc/engine -Isrc/app -Iui -Itests -c -o $@ $<

$(B)/tests/test_%: $(B)/tests/test_%.o $(PURE_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(shell pkg-config --libs libcjson) -lpthread -lm

# Compiles a shader as the engine does, for spirv-val (tests/integration/workloads.sh).
$(B)/tests/shader_check: tests/unit/shader_check.c $(B)/src/gpu/shader.o $(B)/src/core/spirv_khr.o $(B)/src/core/devfeat.o $(B)/src/session/fileio.o $(B)/src/session/paths.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_gpu) -o $@ $^ $(SHADERC) -lpthread -lm

# NVML's stand-in for the tests (tests/fake/nvml.c), one for every build:
# a plain library, loaded by the sanitizer builds too.
FAKE_NVML := build/tests/fake-nvml/libnvidia-ml.so.1
$(FAKE_NVML): tests/fake/nvml.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -g -Wall -Wextra -Werror -fPIC -shared -Wl,-soname,libnvidia-ml.so.1 -o $@ $< -lm

# The ring under ThreadSanitizer: one producer and one consumer thread.
$(B)/tsan/ring_stress: tests/unit/ring_stress.c src/core/ring.c src/core/ring.h src/core/sample.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -fsanitize=thread -pthread -Isrc/core \
	    -o $@ tests/unit/ring_stress.c src/core/ring.c

# The bare Vulkan start of bench/startup_vs_bare.sh: the same shader, no flopscope.
$(B)/bare_start: bench/bare_start.c
	$(CC) -std=c11 -O2 -g -Wall -Wextra -Werror -o $@ $< $(shell pkg-config --libs vulkan) $(SHADERC) -lpthread -lm

# the packages of $(1) that are not installed, installed (APT_FLAGS: more
# of apt-get's options; CI's throwaway machine passes dpkg's unsafe-io)
APT_FLAGS ?=
# the packages of $(1) that are not installed, installed
define install_missing
	@missing=$$(for p in $(1); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "installing:" $$missing; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $(APT_FLAGS) $$missing; \
	fi
endef

deps:
	$(call install_missing,$(DEB_BUILD))

deps-test:
	@for pu in $(MASK_UNITS); do p=$${pu%%:*} u=/etc/systemd/system/$${pu#*:}; \
	    if ! dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' && [ ! -e $$u ] && [ ! -L $$u ]; then \
	        echo "masking $$u before installing $$p"; \
	        $(SUDO) mkdir -p /etc/systemd/system && $(SUDO) ln -s /dev/null $$u || exit 1; \
	    fi; done
	$(call install_missing,$(DEB_BUILD) $(DEB_TEST))

# the dashboard on the default device; ARGS="..." to choose otherwise
run: deps
	$(MAKE) all
	./$(B)/flopscope $(or $(ARGS),--default-device)

# the unit tests alone (the package build runs them): pure code, no device
unit: $(UNIT)
	@for t in $(UNIT); do $$t || exit 1; done

test: deps-test $(TEST_ROOT)/.unpacked
	$(MAKE) all $(B)/flopscope-test $(UNIT) $(B)/tsan/ring_stress $(B)/tests/shader_check $(FAKE_NVML)
	tests/run.sh

# Debian names the daemons slurmd-wlm ... and links slurmd to them (update-
# alternatives); Slurm reads its node GRES only under its own names, and
# slurmd starts /usr/sbin/slurmstepd: the links are made here too.
# The stamp names the packages unpacked: a package added to DEB_UNPACK
# unpacks the root again (an older checkout's stamp lacks it).
$(TEST_ROOT)/.unpacked: $(if $(filter-out $(shell cat $(TEST_ROOT)/.unpacked 2>/dev/null),$(DEB_UNPACK)),FORCE) | deps-test
	rm -rf $(TEST_ROOT) && mkdir -p $(TEST_ROOT)/debs
	cd $(TEST_ROOT)/debs && { apt-get download $(DEB_UNPACK) || { $(SUDO) apt-get update -qq && apt-get download $(DEB_UNPACK); }; }
	for f in $(TEST_ROOT)/debs/*.deb; do dpkg -x "$$f" $(TEST_ROOT) || exit 1; done
	for d in slurmd slurmctld slurmstepd; do ln -sf $$d-wlm $(TEST_ROOT)/usr/sbin/$$d; done
	rm -rf $(TEST_ROOT)/debs
	echo $(DEB_UNPACK) >$@

# The whole suite against sanitizer builds in their own folders. Leaks and
# races inside the Vulkan driver (Mesa, LLVM), which is not instrumented, are
# suppressed by library in tests/sanitizers/; our own code is not.
SAN_ENV = ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:halt_on_error=1 \
          LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitizers/lsan.supp:print_suppressions=0 \
          UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
          TSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitizers/tsan.supp:halt_on_error=1:second_deadlock_stack=1

check-asan: deps-test $(FAKE_NVML) $(TEST_ROOT)/.unpacked
	$(MAKE) B=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
	    SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	    all build-asan/flopscope-test build-asan/flopscope-planted build-asan/tests/shader_check \
	    $(patsubst $(B)/%,build-asan/%,$(UNIT))
	$(SAN_ENV) B=build-asan tests/run.sh asan

check-tsan: deps-test $(B)/tsan/ring_stress $(FAKE_NVML) $(TEST_ROOT)/.unpacked
	$(MAKE) B=build-tsan OPT="-O1 -g" SAN="-fsanitize=thread" \
	    all build-tsan/flopscope-test build-tsan/tests/shader_check $(patsubst $(B)/%,build-tsan/%,$(UNIT))
	$(SAN_ENV) tests/run.sh tsan
	$(SAN_ENV) B=build-tsan tests/run.sh sanitized

bench: all
	bench/fp32.sh

# bin/flopscope finds ../share/flopscope/{shaders,themes} beside itself.
# The completions are written by the program from its tables.
BASHCOMP := $(PREFIX)/share/bash-completion/completions
ZSHCOMP  := $(PREFIX)/share/zsh/vendor-completions
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/flopscope/shaders \
	    $(DESTDIR)$(PREFIX)/share/flopscope/themes $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(BASHCOMP) $(DESTDIR)$(ZSHCOMP)
	install -m 755 $(B)/flopscope $(DESTDIR)$(PREFIX)/bin/flopscope
	install -m 644 shaders/*.comp $(DESTDIR)$(PREFIX)/share/flopscope/shaders/
	install -m 644 themes/*.json $(DESTDIR)$(PREFIX)/share/flopscope/themes/
	install -m 644 docs/flopscope.1 $(DESTDIR)$(PREFIX)/share/man/man1/flopscope.1
	FLOPSCOPE_THEME_DIR=themes ./$(B)/flopscope --completion bash >$(DESTDIR)$(BASHCOMP)/flopscope
	FLOPSCOPE_THEME_DIR=themes ./$(B)/flopscope --completion zsh >$(DESTDIR)$(ZSHCOMP)/_flopscope
	@# the node check's units and the exporter's (shipped disabled: nothing is enabled here), the
	@# Slurm prolog and the alert rules; the docs and the licence
	install -d $(DESTDIR)$(SYSTEMD_UNIT_DIR) $(DESTDIR)$(PREFIX)/share/flopscope/fleet \
	    $(DESTDIR)$(PREFIX)/share/doc/flopscope
	sed 's|/usr/local/bin/flopscope|$(PREFIX)/bin/flopscope|' docs/fleet/flopscope-check.service \
	    >$(DESTDIR)$(SYSTEMD_UNIT_DIR)/flopscope-check.service
	chmod 644 $(DESTDIR)$(SYSTEMD_UNIT_DIR)/flopscope-check.service
	sed 's|/usr/local/bin/flopscope|$(PREFIX)/bin/flopscope|' docs/fleet/flopscope-exporter.service \
	    >$(DESTDIR)$(SYSTEMD_UNIT_DIR)/flopscope-exporter.service
	chmod 644 $(DESTDIR)$(SYSTEMD_UNIT_DIR)/flopscope-exporter.service
	install -m 644 docs/fleet/flopscope-check.timer $(DESTDIR)$(SYSTEMD_UNIT_DIR)/
	install -m 755 docs/fleet/slurm-prolog.sh $(DESTDIR)$(PREFIX)/share/flopscope/fleet/
	install -m 644 docs/fleet/flopscope-alerts.yml $(DESTDIR)$(PREFIX)/share/flopscope/fleet/
	install -m 644 README.md LICENSE docs/FLEET.md docs/INTERPRETATION.md docs/RELIABILITY.md \
	    $(DESTDIR)$(PREFIX)/share/doc/flopscope/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/flopscope $(DESTDIR)$(PREFIX)/share/man/man1/flopscope.1 \
	    $(DESTDIR)$(BASHCOMP)/flopscope $(DESTDIR)$(ZSHCOMP)/_flopscope \
	    $(DESTDIR)$(SYSTEMD_UNIT_DIR)/flopscope-check.service \
	    $(DESTDIR)$(SYSTEMD_UNIT_DIR)/flopscope-check.timer \
	    $(DESTDIR)$(SYSTEMD_UNIT_DIR)/flopscope-exporter.service
	rm -rf $(DESTDIR)$(PREFIX)/share/flopscope $(DESTDIR)$(PREFIX)/share/doc/flopscope

# The Debian package (debian/), built from the tree as it is into ../
deb:
	dpkg-buildpackage -us -uc -b

# libFuzzer harnesses (clang), each run for FUZZ_SECONDS from tests/fuzz/corpus:
# one a line of FUZZERS, tests/fuzz/fuzz_NAME.c with the sources FUZZ_SRC_NAME.
FUZZ_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -g -O1 \
              -fsanitize=fuzzer,address,undefined $(INC_session) -Iui -Isrc/app $(shell pkg-config --cflags libcjson)
FUZZ_LIBS   = $(shell pkg-config --libs libcjson) -lm
# the pure code but fmawork.c, whose _Float16 Debian 12's clang does not have
# on x86 and which the options do not call
FUZZ_CORE   = $(filter-out src/core/fmawork.c,$(CORE:%=src/core/%.c))
FUZZERS     = theme log csv spirv fleet config cli
FUZZ_SRC_theme  = ui/theme.c src/session/fileio.c
FUZZ_SRC_log    = src/session/slogread.c src/session/session_cols.c src/session/fileio.c src/core/fmt.c src/core/sample.c
FUZZ_SRC_csv    = src/session/csvread.c src/session/fileio.c src/core/sample.c
FUZZ_SRC_spirv  = src/core/spirv_khr.c
FUZZ_SRC_fleet  = src/app/fleet_read.c src/core/fleet.c src/core/outlier.c src/core/stats.c src/core/fmt.c
FUZZ_SRC_config = $(FUZZ_CORE)
FUZZ_SRC_cli    = $(FUZZ_CORE)
.SECONDEXPANSION:
build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c $$(FUZZ_SRC_$$*)
	@mkdir -p build-fuzz
	clang $(FUZZ_CFLAGS) -o $@ $^ $(FUZZ_LIBS)

# fuzz_spirv's seed is the bf16-matrix shader as shaderc writes it (shader_check)
fuzz: deps-test $(FUZZERS:%=build-fuzz/fuzz_%)
	$(MAKE) $(B)/tests/shader_check
	FUZZERS="$(FUZZERS)" tests/fuzz/run.sh

clean:
	rm -rf build build-asan build-tsan build-fuzz build-deb

-include $(OBJ:.o=.d) $(HOOK_OBJ:.o=.d) $(UNIT:=.d)
