#!/usr/bin/env bash
# Real people's recorded drags on the showcase's captcha page, replayed with the real pointer
# while the app draws at most ten frames a second (slow-drag.py says how), against a real
# `tactile puzzle serve`. Skipped, saying so, when ../shared/captcha-drags is not there.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product tactile >/dev/null
swift build --product showcase >/dev/null
xvfb-run -a -s "-screen 0 1280x800x24" /usr/bin/python3 Tests/Showcase/slow-drag.py \
    "$(swift build --show-bin-path)"
