#!/usr/bin/env bash
# Installs what is missing, builds and opens the showcase app. On a machine without a display
# it installs Xvfb and runs the app on a virtual one (for screenshots and scripted tests).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
    scripts/setup.sh --with-display
    echo "showcase.sh: no display; running the app on a virtual one (xvfb-run)" >&2
    exec xvfb-run -a "$0" "$@"
fi
scripts/setup.sh
swift build --product showcase
scripts/build-translations.sh
exec "$(swift build --show-bin-path)/showcase" "$@"
