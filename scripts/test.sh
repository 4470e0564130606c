#!/usr/bin/env bash
# Installs what is missing, then checks everything: formatting, build, unit tests, every
# benchmark once, a short fuzzing run of every parser, the captcha widget in a real browser, two service instances
# sharing one Redis, one following a Redis Sentinel failover, one under attack by slow clients, the desktop files, the documentation catalogs, a smoke run of the showcase
# app under Xvfb, people's recorded drags on its captcha page at ten frames a second, the translations (and the app in Chinese), and what a screen reader sees of
# it (AT-SPI).
set -euo pipefail
cd "$(dirname "$0")/.."
# Compiler warnings are errors in every target under Sources (Package.swift reads this), in
# every build below, so that they all share one build.
export TACTILE_WARNINGS_AS_ERRORS=1
scripts/setup.sh --with-display --with-browser --with-photos --with-desktop --with-accessibility --with-promtool --with-node

echo "== format"
swift format lint --strict --recursive Package.swift Sources Tests Fuzz/Package.swift Fuzz/Sources

echo "== layers (the modules and their imports against README's Layout table)"
scripts/check-layers.py

echo "== tests"
swift build --build-tests
# Each test's time, in the xUnit file swift-testing writes beside the one named
# (tests-swift-testing.xml; XCTest writes tests.xml, but only in a parallel run), and the ten
# slowest in the log, pass or fail.
# One test at a time: run side by side, a test's time would count its wait for a free thread
# (on two cores, minutes for a test that takes a millisecond); the run takes about twice as
# long.
# Under Xvfb, so that the GTK adapter's tests (which need a display) run; required here, so that
# they fail rather than skip if the display is missing.
results=.build/test-results
rm -rf "$results"
mkdir -p "$results"
tested=0
TACTILE_REQUIRE_DISPLAY=1 xvfb-run -a swift test --no-parallel --xunit-output "$results/tests.xml" ||
  tested=$?
scripts/slowest-tests.py "$results/tests-swift-testing.xml" "$results/tests.xml" || true
if ((tested != 0)); then exit "$tested"; fi

echo "== bench (every suite once, in the debug build, so that no benchmark breaks unnoticed)"
tactile="$(swift build --show-bin-path)/tactile"
for suite in hanoi dynamics pattern; do
  timeout 600 "$tactile" bench "$suite" | tail -n 2
done
timeout 600 "$tactile" bench puzzle --puzzles 10 | grep -E "check|shadow"

echo "== fuzz (every target briefly, from its seed corpus)"
scripts/fuzz.sh all "${FUZZ_SECONDS:-30}"

echo "== widget (node --check every module, as the ES modules browsers load; node --test its flow, track, replies and proof of work)"
# Web/package.json says "type": "module", so node reads the .js files as the browsers do.
for module in Sources/TactilePuzzleService/Web/widget.js Sources/TactilePuzzleService/Web/widget/*.js; do
  node --check "$module"
done
node --test Tests/Widget/*.test.mjs

echo "== browser (the captcha widget in headless Chromium, against tactile puzzle serve)"
timeout 900 Tests/Browser/run-against-service.sh

echo "== service (two tactile puzzle serve instances sharing one Redis, over HTTP)"
timeout 300 Tests/Service/run.sh

echo "== sentinel (a primary, a replica and three Sentinels; the primary killed under load)"
timeout 300 Tests/Service/sentinel.sh

echo "== slow clients (20 addresses of slow connections and slow bodies; a probe must be served)"
timeout 120 Tests/Service/slow-clients.sh

echo "== desktop files"
scripts/validate-desktop.sh

echo "== docs"
scripts/docs.sh

echo "== showcase"
scripts/ui-smoke.sh

echo "== showcase drags (people's recorded drags at ten frames a second, when the data is there)"
timeout 300 Tests/Showcase/run.sh

echo "== translations (the catalogues against the sources; the app in Chinese, over AT-SPI)"
timeout 300 Tests/Translations/run.sh

echo "== accessibility (what a screen reader sees of each page, over AT-SPI)"
timeout 300 Tests/Accessibility/run.sh
