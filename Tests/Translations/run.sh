#!/usr/bin/env bash
# Checks the translations, then looks at the showcase app in Chinese.
#
#   a. The catalogues against the sources: po/tactile.pot is what scripts/extract-strings.py
#      makes of them now; each po/LANG.po (the languages of po/LINGUAS) translates every
#      message, none fuzzy, with the same placeholders, and keeps no stale entry
#      (check_catalogs.py); msgfmt --check compiles each.
#   b. The built showcase under LANGUAGE=zh_CN with LANG unset (glibc's "C" locale, where
#      gettext would ignore LANGUAGE unless the app handles it), page by page, over AT-SPI
#      (test_translations.py): Chinese sidebar, controls, canvas, and no English message
#      left on screen where a translation exists. A screenshot of each page is kept for a
#      person to look at (TRANSLATION_SHOTS, default a new folder under /tmp; printed). A
#      passed run prints each check's verdict and the total; a failed one prints everything:
#      each page's accessible tree, the app's messages, then the failures.
#
#   Tests/Translations/run.sh [APP] [--page NAME]... [--verbose]
#
# APP is the showcase binary (default: $(swift build --show-bin-path)/showcase, which
# scripts/ui-smoke.sh builds); this script builds nothing but the catalogues
# (scripts/build-translations.sh). It gives the app its own Xvfb display, D-Bus session and
# AT-SPI bus. Needs what `scripts/setup.sh --with-accessibility --with-display --with-browser`
# installs (the last for a Chinese font). --verbose prints everything as it comes, pass or fail.
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

echo "-- a. catalogues"
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

python3 scripts/extract-strings.py --check
python3 scripts/extract-strings.py --output "$work/tactile.pot" 2>/dev/null
languages=()
while read -r language; do
    [[ -n "$language" && "$language" != \#* ]] && languages+=("$language")
done <po/LINGUAS
catalogues=()
for language in "${languages[@]}"; do
    [[ -f "po/$language.po" ]] || { echo "run.sh: po/LINGUAS lists $language, but po/$language.po is missing" >&2; exit 1; }
    catalogues+=("po/$language.po")
done
for po in po/*.po; do
    language=$(basename "$po" .po)
    [[ " ${languages[*]} " == *" $language "* ]] || { echo "run.sh: $po is not listed in po/LINGUAS" >&2; exit 1; }
done
python3 Tests/Translations/check_catalogs.py "$work/tactile.pot" "${catalogues[@]}"
for po in "${catalogues[@]}"; do
    msgfmt --check --statistics --output-file="$work/$(basename "$po" .po).mo" -- "$po"
done

echo "-- b. the showcase in Chinese"
if [[ -z "$app" ]]; then
    app="$(swift build --show-bin-path)/showcase"
fi
if [[ ! -x "$app" ]]; then
    echo "run.sh: no showcase binary at $app; build it (swift build --product showcase) or pass its path" >&2
    exit 2
fi
python=""
for candidate in /usr/bin/python3 python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c 'import pyatspi' 2>/dev/null; then
        python=$candidate
        break
    fi
done
launcher=/usr/libexec/at-spi-bus-launcher
if [[ -z "$python" ]]; then
    echo "run.sh: no python3 with pyatspi; run scripts/setup.sh --with-accessibility" >&2
    exit 2
fi
for tool in Xvfb dbus-run-session dbus-send xdotool import "$launcher"; do
    command -v "$tool" >/dev/null || { echo "run.sh: $tool is missing; run scripts/setup.sh --with-accessibility --with-display" >&2; exit 2; }
done
# Without a font that has Chinese characters every one would be a box (tofu).
if ! fc-list :lang=zh family | grep -q .; then
    echo "run.sh: no font with Chinese characters; run scripts/setup.sh --with-browser (it installs fonts-wqy-microhei)" >&2
    exit 2
fi
# The catalogue where the app looks for it when it runs from the build folder.
scripts/build-translations.sh
shots="${TRANSLATION_SHOTS:-$(mktemp -d /tmp/tactile-zh_CN-XXXXXX)}"
mkdir -p "$shots"

# shellcheck source=Tests/Accessibility/xvfb.sh
source Tests/Accessibility/xvfb.sh
# shellcheck source=Tests/Accessibility/summary.sh
source Tests/Accessibility/summary.sh
start_xvfb "$work"

# Chinese by LANGUAGE alone: no LANG, no LC_*, no catalogue directory given.
unset LANG LC_ALL LC_MESSAGES TACTILE_LOCALEDIR
export LANGUAGE=zh_CN
# Inside a session bus of our own, the accessibility bus (as Tests/Accessibility/run.sh).
# shellcheck disable=SC2016  # expanded by the inner bash
inner='
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
    "$python" Tests/Translations/test_translations.py "$@"
'
run=(timeout --kill-after=10 "${TRANSLATIONS_TIMEOUT:-300}"
    dbus-run-session -- bash -c "$inner" _ "$launcher" "$python"
    "$(realpath "$app")" po/zh_CN.po "$shots" "${checks[@]}")
status=0
if ((verbose)); then
    "${run[@]}" || status=$?
else
    run_summarized "$work/checks.log" "${run[@]}" || status=$?
fi
exit "$status"
