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
# shellcheck source=Tests/Accessibility/session.sh
source Tests/Accessibility/session.sh

read_arguments "$@"

echo "-- a. catalogues"
make_work
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
default_app
find_atspi_python
for tool in Xvfb dbus-run-session dbus-send xdotool import /usr/libexec/at-spi-bus-launcher; do
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
start_xvfb "$work"

# Chinese by LANGUAGE alone: no LANG, no LC_*, no catalogue directory given.
unset LANG LC_ALL LC_MESSAGES TACTILE_LOCALEDIR
export LANGUAGE=zh_CN
status=0
run_on_atspi_bus "${TRANSLATIONS_TIMEOUT:-300}" Tests/Translations/test_translations.py \
    "$(realpath "$app")" po/zh_CN.po "$shots" "${checks[@]}" || status=$?
exit "$status"
