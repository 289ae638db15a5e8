# Resident: the two commands that matter are `make demo` and `make test`.
# Everything is built out of tree under build/.

PHP82        ?= /usr/bin/php8.2
PHP_CONFIG82 ?= php-config8.2
BUILD        := build
EXT82        := $(BUILD)/php-8.2/modules/resident.so
CFLAGS_STORE := -std=c11 -Wall -Wextra -Werror -O2 -g

STORE_SRC := $(wildcard store/*.c)
STORE_HDR := $(wildcard store/*.h)
EXT_SRC   := $(wildcard *.c *.h value/*.c value/*.h) $(STORE_SRC) $(STORE_HDR) config.m4

.PHONY: all build deps test check demo bench stubs clean

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

stubs:
	@scripts/gen-stubs.sh

clean:
	rm -rf $(BUILD)
