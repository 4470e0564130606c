#!/usr/bin/env bash
# Release-builds `tactile`, compiles the benchmark peers (Chipmunk2D in C, Box2D 2.4 in C++,
# from benchmarks/peers/) and runs `tactile bench dynamics` with them in the same invocation.
# Usage: scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --with-peers

peers=.build/peers
mkdir -p "$peers"
# Chipmunk ships no pkg-config file; its headers are in /usr/include/chipmunk.
cc -O2 -DNDEBUG -o "$peers/chipmunk-bench" benchmarks/peers/chipmunk_bench.c -lchipmunk -lm
c++ -O2 -DNDEBUG -std=c++17 -o "$peers/box2d-bench" benchmarks/peers/box2d_bench.cpp \
  $(pkg-config --cflags --libs box2d)

swift build -c release --product tactile >/dev/null
swift build -c release --product tactile-bench >/dev/null
TACTILE_BENCH_PEERS="$PWD/$peers" "$(swift build -c release --show-bin-path)/tactile" bench dynamics
