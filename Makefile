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

.PHONY: all build deps test check demo bench stubs clean install

all: build

deps:
	@scripts/install-deps.sh

build: deps $(EXT82) $(BUILD)/test_store

$(EXT82): $(EXT_SRC)
	@scripts/build-ext.sh $(PHP_CONFIG82) $(BUILD)/php-8.2 >/dev/null
	@echo "built $(EXT82)"

$(BUILD)/test_store: $(STORE_SRC) $(STORE_HDR) tests/store/test_store.c
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_STORE) $(STORE_SRC) tests/store/test_store.c -o $@ -lpthread

# Every pass: store unit tests, PHPT on PHP 8.2 (plain, OPcache + JIT,
# valgrind) and on PHP 8.4 debug builds (NTS, ZTS), ZTS thread harness.
test: build
	@scripts/test.sh all

# The quick loop while developing: store unit tests and PHPT on PHP 8.2.
check: build
	@scripts/test.sh quick

demo: build
	@bench/demo.sh

bench: build
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
