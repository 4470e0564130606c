#!/usr/bin/env bash
# Checks the desktop integration files in data/: the desktop entry with desktop-file-validate,
# the AppStream metainfo with appstreamcli (offline), and the SVG icons with xmllint when it is
# installed. Exits non-zero on any error or warning; hints and infos are shown, not fatal.
# Usage: scripts/validate-desktop.sh   (scripts/setup.sh --with-desktop installs the tools)
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in desktop-file-validate appstreamcli; do
  if ! command -v "$tool" >/dev/null; then
    echo "validate-desktop.sh: $tool is missing (scripts/setup.sh --with-desktop installs it)" >&2
    exit 1
  fi
done

shopt -s nullglob
entries=(data/*.desktop)
metainfos=(data/*.metainfo.xml)
if ((${#entries[@]} == 0 || ${#metainfos[@]} == 0)); then
  echo "validate-desktop.sh: data/ needs a *.desktop and a *.metainfo.xml file" >&2
  exit 1
fi

status=0

# desktop-file-validate exits 0 on warnings and on some errors ("will be fatal in the future"),
# so its messages are read too.
for entry in "${entries[@]}"; do
  entry_status=0
  output="$(desktop-file-validate "$entry" 2>&1)" || entry_status=1
  [[ -z "$output" ]] || printf '%s\n' "$output"
  if grep -qE ': (error|warning)[: ]' <<<"$output"; then entry_status=1; fi
  if ((entry_status == 0)); then echo "$entry: valid"; else status=1; fi
done

# appstreamcli fails on errors and warnings; infos (I:) and pedantic hints (P:) pass.
for metainfo in "${metainfos[@]}"; do
  output="$(appstreamcli validate --no-net --explain "$metainfo" 2>&1)" || status=1
  printf '%s\n' "$output"
  if grep -qE '^[EW]: ' <<<"$output"; then status=1; fi
done

if command -v xmllint >/dev/null; then
  svg_status=0
  while IFS= read -r -d '' svg; do
    xmllint --noout "$svg" || svg_status=1
  done < <(find data -type f -name '*.svg' -print0 | sort -z)
  if ((svg_status == 0)); then echo "data/**/*.svg: well-formed"; else status=1; fi
else
  echo "validate-desktop.sh: xmllint is missing; the SVG icons are not checked" >&2
fi

exit "$status"
