# The README's two commands: `make demo` (set up, build, generate a map from the built-in
# template) and `make test` (set up, build with ASan+UBSan, run every test).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
RELEASE_DIR ?= build/release
TEST_DIR ?= build/asan
OUT ?= out

.PHONY: demo test test-full test-build setup build bench clean

setup:
	./scripts/setup.sh

# The library and the command, nothing else (no tests, no benchmarks): what the demo needs.
build: setup
	cmake -S . -B $(RELEASE_DIR) -DCMAKE_BUILD_TYPE=Release -DRMG_BUILD_TESTS=OFF
	cmake --build $(RELEASE_DIR) -j $(JOBS) --target rmg rmg_tool

demo: build
	mkdir -p $(OUT)
	./$(RELEASE_DIR)/rmg generate --seed 1 -o $(OUT)/map.json -o $(OUT)/map.png -o $(OUT)/map.txt -o $(OUT)/map.h3m

# `make test` leaves out the slow runs over the whole corpus (CTest label corpus-full);
# `make test-full` runs them too, as CI does (.ci/run).
test: test-build
	cd $(TEST_DIR) && ctest --output-on-failure -j $(JOBS) -LE corpus-full

test-full: test-build
	cd $(TEST_DIR) && ctest --output-on-failure -j $(JOBS)

test-build:
	./scripts/setup.sh --test
	cmake -S . -B $(TEST_DIR) -DCMAKE_BUILD_TYPE=Debug -DRMG_SANITIZE=ON
	cmake --build $(TEST_DIR) -j $(JOBS)

bench: build
	cmake --build $(RELEASE_DIR) --target rmg_bench -j $(JOBS)
	./$(RELEASE_DIR)/bench/rmg_bench $(BENCH_ARGS)

clean:
	rm -rf build $(OUT)

# The template workbench in the browser (issue 31, docs/web.md): librmg compiled to WebAssembly
# with one static page, into build/web/site; a third, optional command (it installs Emscripten
# and builds libyaml, zlib and libpng for wasm from Debian's sources). `make web-test` drives the
# page in headless Chromium against the native command.
.PHONY: web web-test
web:
	bash web/build.sh

web-test: web build
	bash tests/web/run.sh $(RELEASE_DIR)/rmg
