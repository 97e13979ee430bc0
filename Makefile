# Shortcuts for developers; the README's two commands are the scripts
# themselves (a fresh machine has no make):
#   make run    = sh scripts/run.sh    (build, start the server on SQLite, 127.0.0.1:8080)
#   make test   = sh scripts/test.sh   (build, run every test)
#   make deb    = the Debian package, ../echecs_<version>_<arch>.deb
.PHONY: run test deps build web deb install bench bench-perft fuzz format clean

PORT ?= 8080
DB ?= echecs.db

run:
	PORT=$(PORT) DB=$(DB) sh scripts/run.sh

test:
	sh scripts/test.sh

deps:
	sh scripts/install-deps.sh

build:
	cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DECHECS_TESTS=ON -DECHECS_BENCH=ON >/dev/null
	ninja -C build

web:
	cd web && npm ci --no-audit --no-fund --loglevel=error && npm run build

deb:
	dpkg-buildpackage -us -uc -b

# PREFIX=/usr/local by default; DESTDIR works as usual.
PREFIX ?= /usr/local
install: build web
	cmake --install build --prefix $(PREFIX)

# Perft speed of the three games, with Stockfish's `go perft` side by side,
# under both slider indexings (magic and PEXT) when the processor has PEXT.
bench-perft: build
	build/src/cli/echecs bench perft --sliders both --stockfish /usr/games/stockfish --repeat 3

bench: build
	build/bench/core_bench
	build/src/cli/echecs bench

fuzz:
	sh fuzz/run.sh 600

format:
	clang-format -i $$(git ls-files 'src/*.cpp' 'src/*.h' 'tests/*.cpp' 'tests/*.h' 'bench/*.cpp' 'fuzz/*.cpp' 'fuzz/*.h')

clean:
	rm -rf build build-asan build-fuzz build-native
