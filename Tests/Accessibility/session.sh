# shellcheck shell=bash
# Sourced by Tests/Accessibility/run.sh and Tests/Translations/run.sh: what both do around
# their checks of the showcase app over AT-SPI.
#
# read_arguments "$@" sets app (a first argument that is not an option), verbose (--verbose)
#   and checks (every other argument, for the checks themselves).
# default_app sets app to the built showcase when none was given; exits 2 without one.
# find_atspi_python sets python to a python3 with pyatspi; exits 2 without one.
# make_work sets work to a scratch folder, removed at exit with the Xvfb start_xvfb starts.
# run_on_atspi_bus TIMEOUT SCRIPT ARG... runs `python SCRIPT ARG...` in a D-Bus session of its
#   own with the accessibility bus on it, for at most TIMEOUT seconds; its output summed up
#   (run_summarized) unless --verbose was given. Returns its status.
# It sources xvfb.sh (start_xvfb) and summary.sh (run_summarized) too.

# shellcheck source=Tests/Accessibility/xvfb.sh
source Tests/Accessibility/xvfb.sh
# shellcheck source=Tests/Accessibility/summary.sh
source Tests/Accessibility/summary.sh

read_arguments() {
    app=""
    if [[ $# -gt 0 && "$1" != --* ]]; then
        app=$1
        shift
    fi
    verbose=0
    checks=()
    for argument in "$@"; do
        if [[ "$argument" == --verbose ]]; then verbose=1; else checks+=("$argument"); fi
    done
}

default_app() {
    if [[ -z "$app" ]]; then
        app="$(swift build --show-bin-path)/showcase"
    fi
    if [[ ! -x "$app" ]]; then
        echo "run.sh: no showcase binary at $app;" \
            "build it (swift build --product showcase) or pass its path" >&2
        exit 2
    fi
}

find_atspi_python() {
    python=""
    for candidate in /usr/bin/python3 python3; do
        if command -v "$candidate" >/dev/null && "$candidate" -c 'import pyatspi' 2>/dev/null; then
            python=$candidate
            return
        fi
    done
    echo "run.sh: no python3 with pyatspi; run scripts/setup.sh --with-accessibility" >&2
    exit 2
}

# Under set -e a failing command in an EXIT trap turns a passed run into exit 1: nothing here
# may fail.
# shellcheck disable=SC2317  # called by the trap
cleanup_work() {
    if [[ -n "${xvfb_pid:-}" ]]; then
        kill "$xvfb_pid" 2>/dev/null || true
        wait "$xvfb_pid" 2>/dev/null || true
    fi
    rm -rf "$work" || true
}

make_work() {
    work=$(mktemp -d)
    xvfb_pid=""
    trap cleanup_work EXIT
}

# Inside: a session bus of our own (dbus-run-session), then the accessibility bus on it
# (at-spi-bus-launcher; it starts at-spi2-registryd when a check first asks for the desktop).
# shellcheck disable=SC2016  # expanded by the inner bash
atspi_inner='
    set -euo pipefail
    launcher=$1 python=$2
    shift 2
    "$launcher" --launch-immediately &
    launcher_pid=$!
    trap "kill $launcher_pid 2>/dev/null || true; wait $launcher_pid 2>/dev/null || true" EXIT
    for _ in $(seq 100); do
        if address=$(dbus-send --session --print-reply=literal --dest=org.a11y.Bus \
                /org/a11y/bus org.a11y.Bus.GetAddress 2>/dev/null) && [[ -n "${address// /}" ]]; then
            break
        fi
        sleep 0.1
    done
    [[ -n "${address:-}" ]] || { echo "run.sh: the AT-SPI bus did not start" >&2; exit 1; }
    unset NO_AT_BRIDGE
    export GTK_A11Y=atspi
    "$python" "$@"
'

run_on_atspi_bus() {
    local limit=$1 status=0
    shift
    local launcher=/usr/libexec/at-spi-bus-launcher
    local run=(timeout --kill-after=10 "$limit"
        dbus-run-session -- bash -c "$atspi_inner" _ "$launcher" "$python" "$@")
    if ((verbose)); then
        "${run[@]}" || status=$?
    else
        run_summarized "$work/checks.log" "${run[@]}" || status=$?
    fi
    return "$status"
}
