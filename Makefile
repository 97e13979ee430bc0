# echecs: the two commands of the README, and a few more for developers.
#   make run    install what is missing, build, start the server (SQLite) on 127.0.0.1:8080
#   make test   install what is missing, build, run every test (see scripts/test.sh)
.PHONY: run test deps build web bench bench-perft fuzz format clean

PORT ?= 8080
DB ?= echecs.db

run: deps build web
	build/src/cli/echecs serve --host 127.0.0.1 --port $(PORT) --db $(DB) --web-root web/dist

test:
	sh scripts/test.sh

deps:
	sh scripts/install-deps.sh

build:
	cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
	ninja -C build

web:
	cd web && npm ci --no-audit --no-fund --loglevel=error && npm run build

# Perft speed of the three games, with Stockfish's `go perft` side by side.
bench-perft: build
	build/src/cli/echecs bench perft --stockfish /usr/games/stockfish --repeat 3

bench: build
	build/bench/core_bench
	build/src/cli/echecs bench

fuzz:
	sh fuzz/run.sh 600

format:
	clang-format -i $$(git ls-files 'src/*.cpp' 'src/*.h' 'tests/*.cpp' 'tests/*.h' 'bench/*.cpp' 'fuzz/*.cpp' 'fuzz/*.h')

clean:
	rm -rf build build-asan build-fuzz
