#!/usr/bin/env bash
# Installs what is missing, builds and opens the showcase app (needs a display; on a machine
# without one, run it as `xvfb-run -a scripts/showcase.sh`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --product showcase
scripts/build-translations.sh
exec "$(swift build --show-bin-path)/showcase" "$@"
