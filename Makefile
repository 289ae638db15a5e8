# Resident: the two commands that matter are `make demo` and `make test`.
# Everything is built out of tree under build/.

PHP82        ?= /usr/bin/php8.2
PHP_CONFIG82 ?= php-config8.2
BUILD        := build
EXT82        := $(BUILD)/php-8.2/modules/resident.so
CFLAGS_STORE := -std=c11 -Wall -Wextra -Werror -O2 -g

STORE_SRC := $(wildcard src/store/*.c)
STORE_HDR := $(wildcard src/store/*.h)
EXT_SRC   := $(wildcard src/*.h src/*/*.c src/*/*.h) config.m4

.PHONY: all build tools deps test check demo bench stubs clean install

all: build

# Installs (as root, with apt) what every target needs. `build` and `check`
# do not call it: they need only a C compiler and PHP 8.2's development
# files, and say what is missing (scripts/check-tools.sh).
deps:
	@scripts/install-deps.sh

build: $(EXT82) $(BUILD)/test_store

tools:
	@scripts/check-tools.sh "$(PHP_CONFIG82)" "$(PHP82)" "$(CC)"

$(EXT82): $(EXT_SRC) | tools
	@scripts/build-ext.sh $(PHP_CONFIG82) $(BUILD)/php-8.2 >/dev/null
	@echo "built $(EXT82)"

$(BUILD)/test_store: $(STORE_SRC) $(STORE_HDR) tests/store/test_store.c | tools
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_STORE) $(STORE_SRC) tests/store/test_store.c -o $@ -lpthread

# Every pass (docs/ci.md): store unit tests; PHPT on PHP 8.2 (plain, OPcache
# + JIT, valgrind, a debug ZTS build), on PHP 8.4 debug builds (NTS, ZTS) and
# on PHP 8.5; php-fpm; the sanitizer pass (ASan + UBSan); the reliability
# suites and fuzzers; and the rest.
test: deps
	@$(MAKE) --no-print-directory build
	@PHP82=$(PHP82) scripts/test.sh all

# The quick loop while developing, as any user (no root, no apt): store unit
# tests and PHPT on PHP 8.2.
check: build
	@PHP82=$(PHP82) scripts/test.sh quick

demo: deps
	@$(MAKE) --no-print-directory build
	@bench/demo.sh

bench: deps
	@$(MAKE) --no-print-directory build
	@bench/run.sh

# Installs resident.so into PHP 8.2's extension directory and resident.ini:
# Debian-style (mods-available + phpenmod) when available, else into the
# ini scan directory.
install: $(EXT82)
	install -D -m 0644 $(EXT82) "$$($(PHP_CONFIG82) --extension-dir)/resident.so"
	@if [ -d /etc/php/8.2/mods-available ] && command -v phpenmod >/dev/null; then \
		install -m 0644 resident.ini /etc/php/8.2/mods-available/resident.ini && phpenmod -v 8.2 resident && \
		echo "installed; enabled with phpenmod -v 8.2 resident"; \
	else \
		install -D -m 0644 resident.ini "$$($(PHP_CONFIG82) --ini-dir)/20-resident.ini" && echo "installed"; \
	fi

stubs:
	@scripts/gen-stubs.sh

clean:
	rm -rf $(BUILD)
