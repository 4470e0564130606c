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
# shellcheck source=Tests/Accessibility/session.sh
source Tests/Accessibility/session.sh

read_arguments "$@"
default_app
find_atspi_python
for tool in Xvfb dbus-run-session dbus-send xdotool /usr/libexec/at-spi-bus-launcher; do
    if ! command -v "$tool" >/dev/null; then
        echo "run.sh: $tool is missing; run scripts/setup.sh --with-accessibility" >&2
        exit 2
    fi
done
make_work
start_xvfb "$work"
# The expectations are the English names: whatever language the machine asks for.
unset LANGUAGE LC_ALL LC_MESSAGES
export LANG=C.UTF-8
status=0
run_on_atspi_bus "${A11Y_TIMEOUT:-600}" Tests/Accessibility/test_atspi.py "$(realpath "$app")" \
    "${checks[@]}" || status=$?
exit "$status"
