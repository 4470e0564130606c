#!/usr/bin/env bash
# Installs what is missing, then checks everything: formatting, build, unit tests, the
# documentation catalogs, and a smoke run of the showcase app under Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --with-display --with-photos

echo "== format"
swift format lint --strict --recursive Package.swift Sources Tests

echo "== tests"
swift build --build-tests
swift test

echo "== docs"
scripts/docs.sh

echo "== showcase"
scripts/ui-smoke.sh
