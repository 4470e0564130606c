#!/usr/bin/env bash
# Compiles each translation po/LANG.po with `msgfmt --check` into
# .build/locale/LANG/LC_MESSAGES/tactile.mo, where the showcase finds it when it runs from the
# build folder (`.build/<triple>/debug/showcase`; an installed one reads PREFIX/share/locale,
# which scripts/install.sh fills). A catalogue is compiled again only when its .po is newer.
# Needs msgfmt (gettext, which scripts/setup.sh installs).
# Usage: scripts/build-translations.sh [OUTPUT_DIR]   (default .build/locale)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build/locale}"
if ! command -v msgfmt >/dev/null; then
    echo "build-translations.sh: msgfmt is missing; run scripts/setup.sh (it installs gettext)" >&2
    exit 2
fi
valid_language='^[a-z]{2,3}(_[A-Z]{2})?(@[a-z]+)?$'
count=0
for po in po/*.po; do
    [[ -f "$po" ]] || continue
    language="$(basename "$po" .po)"
    if [[ ! "$language" =~ $valid_language ]]; then
        echo "build-translations.sh: $po: '$language' is not a language code like zh_CN" >&2
        exit 2
    fi
    mo="$out/$language/LC_MESSAGES/tactile.mo"
    count=$((count + 1))
    [[ -f "$mo" && "$mo" -nt "$po" ]] && continue
    mkdir -p "$(dirname "$mo")"
    # Written beside, then renamed: a showcase starting meanwhile reads a whole catalogue.
    if ! msgfmt --check --output-file="$mo.tmp" -- "$po"; then
        rm -f -- "$mo.tmp"
        echo "build-translations.sh: msgfmt could not compile $po" >&2
        exit 1
    fi
    mv -f -- "$mo.tmp" "$mo"
    echo "build-translations.sh: $po -> $mo" >&2
done
if ((count == 0)); then
    echo "build-translations.sh: no po/*.po found; the app stays English" >&2
fi
