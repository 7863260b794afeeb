# flopscope: see README.md. `make` builds build/flopscope; `make test` installs
# what is missing, builds and runs every test; `make run` starts the program.
CC      ?= cc
PKGS    := vulkan ncursesw libcjson
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Wall -Wextra -Werror \
           -Wshadow -Wstrict-prototypes -Wmissing-prototypes -pthread -MMD -MP \
           -Isrc -Iui $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# Debian 12's libshaderc.so.1 does not link (undefined glslang symbols): link it statically.
SHADERC := -lshaderc_combined -lglslang -lMachineIndependent -lOSDependent -lGenericCodeGen \
           -lOGLCompiler -lSPIRV -lSPIRV-Tools-opt -lSPIRV-Tools -lstdc++
LDLIBS  += $(shell pkg-config --libs $(PKGS) 2>/dev/null) $(SHADERC) -lpthread -lm

B       := build
# Pure modules: no Vulkan, no terminal. Unit tests link only these.
PURE    := fmt fileio adapt stats ring devsel cli workload report slog slogread compare svg jump peak devinfo telemetry
ENGINE  := err paths vkctx shader compute engine listing headless offline
# ui/: pure pieces (unit-tested) and the curses screens.
UI_PURE := theme plot layout history
UI      := screen picker dashboard replay ui
OBJ     := $(addprefix $(B)/src/,$(addsuffix .o,$(PURE) $(ENGINE) main)) \
           $(addprefix $(B)/ui/,$(addsuffix .o,$(UI_PURE) $(UI)))
PURE_OBJ:= $(addprefix $(B)/src/,$(addsuffix .o,$(PURE))) $(addprefix $(B)/ui/,$(addsuffix .o,$(UI_PURE)))
UNIT    := $(patsubst tests/unit/%.c,$(B)/tests/%,$(wildcard tests/unit/test_*.c))

# Debian packages needed to build, run and test.
DEB_PKGS := gcc make pkg-config libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers \
            libncurses-dev libcjson-dev libshaderc-dev glslang-dev spirv-tools tmux \
            python3 man-db procps
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

PREFIX  ?= /usr/local
DESTDIR ?=

.PHONY: all deps run test unit integration check-tsan bench clean install uninstall
all: $(B)/flopscope

$(B)/flopscope: $(OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(B)/src/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(B)/ui/%.o: ui/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(B)/tests/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Isrc -Itests -c -o $@ $<

$(B)/tests/test_%: $(B)/tests/test_%.o $(PURE_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(shell pkg-config --libs libcjson) -lpthread -lm

# The ring under ThreadSanitizer: one producer and one consumer thread.
$(B)/tsan/ring_stress: tests/unit/ring_stress.c src/ring.c src/ring.h src/sample.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -fsanitize=thread -pthread -Isrc \
	    -o $@ tests/unit/ring_stress.c src/ring.c

deps:
	@missing=$$(for p in $(DEB_PKGS); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "installing:" $$missing; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

run: deps
	$(MAKE) all
	./$(B)/flopscope $(ARGS)

test: deps
	$(MAKE) all $(UNIT) $(B)/tsan/ring_stress
	tests/run.sh

check-tsan: $(B)/tsan/ring_stress
	tests/run.sh tsan

bench: all
	bench/fp32.sh

# bin/flopscope finds ../share/flopscope/{shaders,themes} beside itself.
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/flopscope/shaders \
	    $(DESTDIR)$(PREFIX)/share/flopscope/themes $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(B)/flopscope $(DESTDIR)$(PREFIX)/bin/flopscope
	install -m 644 shaders/*.comp $(DESTDIR)$(PREFIX)/share/flopscope/shaders/
	install -m 644 themes/*.json $(DESTDIR)$(PREFIX)/share/flopscope/themes/
	install -m 644 docs/flopscope.1 $(DESTDIR)$(PREFIX)/share/man/man1/flopscope.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/flopscope $(DESTDIR)$(PREFIX)/share/man/man1/flopscope.1
	rm -rf $(DESTDIR)$(PREFIX)/share/flopscope

clean:
	rm -rf $(B)

-include $(OBJ:.o=.d) $(UNIT:=.d)
