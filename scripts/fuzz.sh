#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ and runs them, one at a time. See --help.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

targets=(FuzzSVGPath FuzzDragTrack FuzzPatternStore FuzzVerifierState FuzzCommandLine FuzzJSON)

usage() {
    cat <<EOF
Usage: scripts/fuzz.sh [TARGET|all] [SECONDS]

Builds the fuzz package in Fuzz/ (-sanitize=fuzzer,address) and runs each target for
SECONDS (default 30) on its seed corpus, Fuzz/Corpus/TARGET; inputs it finds go to
Fuzz/.build/corpus/TARGET, so the committed corpus never grows.

Targets: ${targets[*]} (default: all).

Prints one line per target: "fuzz TARGET: N runs in S s, 0 crashes". A crash, leak,
timeout (10 s per input) or memory blow-up (2 GiB) saves the input under
Fuzz/.build/artifacts/, prints how to reproduce it and makes the script exit 1.

Environment: FUZZ_RUNS=N stops each target after N inputs instead of after SECONDS.
EOF
}

case "${1:-all}" in
-h | --help) usage; exit 0 ;;
all) selected=("${targets[@]}") ;;
*)
    if [[ " ${targets[*]} " != *" $1 "* ]]; then
        echo "fuzz.sh: unknown target '$1'; one of: ${targets[*]}, all" >&2
        exit 2
    fi
    selected=("$1")
    ;;
esac
seconds="${2:-30}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
    echo "fuzz.sh: SECONDS must be a positive whole number, got '$seconds'" >&2
    exit 2
fi
if [[ -n "${FUZZ_RUNS:-}" ]]; then
    if ! [[ "$FUZZ_RUNS" =~ ^[1-9][0-9]*$ ]]; then
        echo "fuzz.sh: FUZZ_RUNS must be a positive whole number, got '$FUZZ_RUNS'" >&2
        exit 2
    fi
    limit="-runs=$FUZZ_RUNS"
else
    limit="-max_total_time=$seconds"
fi

# Paths are absolute: FuzzCommandLine changes into a temporary directory before it runs.
build="$PWD/Fuzz/.build"
mkdir -p "$build/logs" "$build/artifacts"
# One product at a time: a plain `swift build` would also build the root package's own
# executables, which cannot be compiled with -parse-as-library.
for target in "${selected[@]}"; do
    if ! nice -n 19 swift build -c debug --package-path Fuzz --build-path "$build" \
        --product "$target" -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
        >"$build/logs/build.log" 2>&1
    then
        # The linker's "Cannot export local symbol" and pkg-config's -pthread warnings are noise.
        grep -v -e 'Cannot export local symbol' -e 'prohibited flag' "$build/logs/build.log" >&2
        echo "fuzz.sh: building $target failed (full log: $build/logs/build.log)" >&2
        exit 1
    fi
done

failed=0
for target in "${selected[@]}"; do
    corpus="$build/corpus/$target"
    log="$build/logs/$target.log"
    mkdir -p "$corpus"
    start=$SECONDS
    status=0
    # New inputs go to the first directory; the committed corpus is only read.
    SWIFT_BACKTRACE=enable=no nice -n 19 "$build/debug/$target" "$limit" -timeout=10 \
        -rss_limit_mb=2048 -artifact_prefix="$build/artifacts/$target-" -print_final_stats=1 \
        "$corpus" "$PWD/Fuzz/Corpus/$target" >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    if ((status == 0)); then
        echo "fuzz $target: ${runs:-?} runs in $((SECONDS - start)) s, 0 crashes"
        continue
    fi
    failed=1
    artifact=$(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)
    echo "fuzz $target: FAILED (libFuzzer exit $status) after ${runs:-?} runs in $((SECONDS - start)) s"
    sed -n '/ERROR: \|Fatal error\|==ERROR\|deadly signal/,/SUMMARY/p' "$log" | head -n 40
    echo "  input:     ${artifact:-none saved}"
    echo "  log:       $log"
    if [[ -n "$artifact" ]]; then
        echo "  reproduce: SWIFT_BACKTRACE=enable=no $build/debug/$target $artifact"
    fi
done
exit "$failed"
