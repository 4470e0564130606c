#!/usr/bin/env bash
# Renders every animated preview in docs/ with the command the README prints under it
# ("*Rendered by `tactile render … --out docs/NAME.gif …`.*"), so that the pictures show what
# those commands draw now. Run it after a change to a component's drawing or to the GIF
# encoder, look at the GIFs, and commit them: Tests/TactileCommandsTests/DocsPreviewTests.swift
# renders each again and fails when a committed GIF differs from it.
# Usage: scripts/render-docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product tactile >/dev/null
tactile="$(swift build --show-bin-path)/tactile"

commands="$(grep -o 'Rendered by `tactile render [^`]*`' README.md | sed -e 's/^Rendered by `tactile //' -e 's/`$//')"
rendered=()
while read -r command; do
    [[ -n "$command" ]] || continue
    # shellcheck disable=SC2086 # the README's command, split into its words as a shell would
    set -- $command
    out=""
    previous=""
    for word in "$@"; do
        [[ "$previous" == "--out" ]] && out="$word"
        previous="$word"
    done
    if [[ "$out" != docs/*.gif ]]; then
        echo "render-docs: the README's command \"tactile $command\" does not write a GIF in docs/" >&2
        exit 1
    fi
    echo "tactile $command"
    "$tactile" "$@" >/dev/null
    rendered+=("$out")
done <<<"$commands"

# Every GIF in docs/ has its command in the README.
status=0
for gif in docs/*.gif; do
    if [[ " ${rendered[*]} " != *" $gif "* ]]; then
        echo "render-docs: $gif has no \"Rendered by \`tactile render …\`\" line in the README" >&2
        status=1
    fi
done
ls -l docs/*.gif
exit "$status"
