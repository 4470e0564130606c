#!/usr/bin/env bash
# Runs the accessibility test (Tests/Accessibility/test_atspi.py): what a screen reader sees of
# the showcase app over AT-SPI, page by page. A passed run prints each check's verdict and the
# total; a failed one prints everything: each page's accessible tree and Tab order, the app's
# messages, then the failures.
# Builds nothing; gives the app a private D-Bus session, the AT-SPI bus and an Xvfb display of
# its own (Xvfb picks a free display itself, so runs side by side do not race for one).
# Needs what `scripts/setup.sh --with-accessibility` installs.
#
#   Tests/Accessibility/run.sh [APP] [--page NAME]... [--full] [--verbose]
#
# APP is the showcase binary (default: $(swift build --show-bin-path)/showcase). --page runs
# only that page (repeatable); --full adds the hidden pages' subtrees to the trees;
# --verbose prints everything as it comes, pass or fail. The whole run is bounded by
# A11Y_TIMEOUT seconds (default 600). Prints "N passed, M failed" last; exits non-zero when a
# check fails.
set -euo pipefail
cd "$(dirname "$0")/../.."

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
if [[ -z "$app" ]]; then
    app="$(swift build --show-bin-path)/showcase"
fi
if [[ ! -x "$app" ]]; then
    echo "run.sh: no showcase binary at $app;" \
        "build it (swift build --product showcase) or pass its path" >&2
    exit 2
fi

python=""
for candidate in /usr/bin/python3 python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c 'import pyatspi' 2>/dev/null; then
        python=$candidate
        break
    fi
done
if [[ -z "$python" ]]; then
    echo "run.sh: no python3 with pyatspi; run scripts/setup.sh --with-accessibility" >&2
    exit 2
fi
launcher=/usr/libexec/at-spi-bus-launcher
for tool in Xvfb dbus-run-session dbus-send xdotool "$launcher"; do
    if ! command -v "$tool" >/dev/null; then
        echo "run.sh: $tool is missing; run scripts/setup.sh --with-accessibility" >&2
        exit 2
    fi
done

# Inside: a session bus of our own (dbus-run-session), then the accessibility bus on it
# (at-spi-bus-launcher; it starts at-spi2-registryd when the test first asks for the desktop).
# shellcheck disable=SC2016  # expanded by the inner bash
inner='
    set -euo pipefail
    launcher=$1 python=$2
    shift 2
    "$launcher" --launch-immediately &
    launcher_pid=$!
    trap "kill $launcher_pid 2>/dev/null || true; wait $launcher_pid 2>/dev/null || true" EXIT
    for _ in $(seq 100); do
        if address=$(dbus-send --session --print-reply=literal \
                --dest=org.a11y.Bus \
                /org/a11y/bus org.a11y.Bus.GetAddress 2>/dev/null) \
                && [[ -n "${address// /}" ]]; then
            break
        fi
        sleep 0.1
    done
    if [[ -z "${address:-}" ]]; then
        echo "run.sh: the AT-SPI bus did not start" >&2
        exit 1
    fi
    unset NO_AT_BRIDGE
    export GTK_A11Y=atspi
    # The expectations are the English names: whatever language the machine asks for.
    unset LANGUAGE LC_ALL LC_MESSAGES
    export LANG=C.UTF-8
    "$python" Tests/Accessibility/test_atspi.py "$@"
'
work=$(mktemp -d)
xvfb_pid=""
# Under set -e a failing command in an EXIT trap turns a passed run into exit 1: nothing here
# may fail.
# shellcheck disable=SC2317  # called by the trap
cleanup() {
    if [[ -n "$xvfb_pid" ]]; then
        kill "$xvfb_pid" 2>/dev/null || true
        wait "$xvfb_pid" 2>/dev/null || true
    fi
    rm -rf "$work" || true
}
trap cleanup EXIT
# shellcheck source=Tests/Accessibility/xvfb.sh
source Tests/Accessibility/xvfb.sh
# shellcheck source=Tests/Accessibility/summary.sh
source Tests/Accessibility/summary.sh
start_xvfb "$work"

run=(timeout --kill-after=10 "${A11Y_TIMEOUT:-600}"
    dbus-run-session -- bash -c "$inner" _ "$launcher" "$python" "$(realpath "$app")" "${checks[@]}")
status=0
if ((verbose)); then
    "${run[@]}" || status=$?
else
    run_summarized "$work/checks.log" "${run[@]}" || status=$?
fi
exit "$status"
