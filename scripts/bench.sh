#!/usr/bin/env bash
# Release-builds `tactile`, compiles the benchmark peers (Chipmunk2D in C, Box2D 2.4 in C++,
# from benchmarks/peers/) and runs `tactile bench dynamics` with them in the same invocation.
# With BOX2D_V3_SRC set to a checkout of https://github.com/erincatto/box2d, Box2D v3 too: built
# with CMake in .build/peers (one thread, its SIMD default), never kept in the tree.
# The large scenes (a 10,000-ball pit, a 100-row pyramid, 20 pyramids) run too, on every engine;
# TACTILE_BENCH_LARGE=0 leaves them out; TACTILE_BENCH_SCENES=pyramid,pit1000 runs only the scenes named.
# Usage: scripts/bench.sh   or   BOX2D_V3_SRC=DIR scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --with-peers

peers=.build/peers
mkdir -p "$peers"
# Chipmunk ships no pkg-config file; its headers are in /usr/include/chipmunk.
cc -O2 -DNDEBUG -o "$peers/chipmunk-bench" benchmarks/peers/chipmunk_bench.c -lchipmunk -lm
c++ -O2 -DNDEBUG -std=c++17 -o "$peers/box2d-bench" benchmarks/peers/box2d_bench.cpp \
  $(pkg-config --cflags --libs box2d)

rm -f "$peers/box2d-v3-bench"
if [[ -n "${BOX2D_V3_SRC:-}" ]]; then
  [[ -f "$BOX2D_V3_SRC/include/box2d/box2d.h" ]] || {
    echo "bench.sh: BOX2D_V3_SRC=$BOX2D_V3_SRC is not a Box2D v3 checkout (no include/box2d/box2d.h)" >&2
    exit 2
  }
  cmake -S "$BOX2D_V3_SRC" -B "$peers/box2d-v3-build" -DCMAKE_BUILD_TYPE=Release \
    -DBOX2D_SAMPLES=OFF -DBOX2D_UNIT_TESTS=OFF -DBOX2D_BENCHMARKS=OFF -DBOX2D_VALIDATE=OFF >/dev/null
  cmake --build "$peers/box2d-v3-build" --target box2d -j 2 >/dev/null
  library=$(find "$peers/box2d-v3-build" -name 'libbox2d*.a' | head -n 1)
  cc -O2 -DNDEBUG -std=gnu17 -o "$peers/box2d-v3-bench" benchmarks/peers/box2d_v3_bench.c \
    -I "$BOX2D_V3_SRC/include" "$library" -lm
fi

swift build -c release --product tactile >/dev/null
swift build -c release --product tactile-bench >/dev/null
TACTILE_BENCH_LARGE="${TACTILE_BENCH_LARGE:-1}" TACTILE_BENCH_PEERS="$PWD/$peers" "$(swift build -c release --show-bin-path)/tactile" bench dynamics
