#!/usr/bin/env bash
# Installs the Debian packages Tactile needs to build, test and run, when missing.
# Usage: scripts/setup.sh [--with-display] [--with-browser] [--with-peers] [--with-photos]
#                         [--with-bench] [--with-accessibility] [--with-desktop] [--with-promtool]
#                         [--with-node]
#   --with-display  also installs Xvfb, xdotool and ImageMagick for headless UI checks.
#   --with-browser  also installs Chromium, its driver, Selenium, a Chinese font, and Pillow
#                   and NumPy (the photo test reads pixels) for the browser tests of the
#                   captcha widget.
#   --with-peers    also installs Chipmunk2D, Box2D 2.4, a C++ compiler and CMake (which
#                   builds a Box2D v3 checkout) for `scripts/bench.sh`.
#   --with-photos   also installs scikit-image's sample photos (python3-skimage), which the
#                   puzzle solver tests and `tactile bench puzzle` cut puzzles from.
#   --with-bench    also installs wrk, for `scripts/bench-serve.sh` and `scripts/soak-serve.sh`.
#   --with-accessibility  also installs the AT-SPI bus and registry, pyatspi, D-Bus (for
#                   dbus-run-session), Xvfb and xdotool for `Tests/Accessibility/run.sh`.
#   --with-desktop  also installs desktop-file-utils, AppStream and xmllint for
#                   `scripts/validate-desktop.sh`.
#   --with-promtool also installs Prometheus, whose promtool checks the service's /metrics.
#   --with-node     also installs Node.js, which checks the browser widget's syntax and runs its unit tests.
# gettext (msgfmt) is always installed: the showcase's translations are compiled before it
# runs (`scripts/build-translations.sh`) and when it is installed (`scripts/install.sh`).
set -euo pipefail

packages=(
  pkg-config
  libcairo2-dev
  libpango1.0-dev
  libgdk-pixbuf-2.0-dev
  libgif-dev
  libgtk-4-dev
  libadwaita-1-dev
  libsodium-dev
  libmicrohttpd-dev
  libhiredis-dev
  redis-server
  libturbojpeg0-dev
  libsoup-3.0-dev
  gettext
)
for option in "$@"; do
  case "$option" in
    --with-display) packages+=(xvfb xauth xdotool imagemagick) ;;
    --with-browser) packages+=(chromium chromium-driver python3-selenium fonts-wqy-microhei python3-pil python3-numpy) ;;
    --with-peers) packages+=(libchipmunk-dev libbox2d-dev g++ cmake) ;;
    --with-photos) packages+=(python3-skimage) ;;
    --with-bench) packages+=(wrk) ;;
    --with-accessibility) packages+=(at-spi2-core python3-pyatspi dbus xvfb xdotool) ;;
    --with-desktop) packages+=(desktop-file-utils appstream libxml2-utils) ;;
    --with-promtool) packages+=(prometheus) ;;
    --with-node) packages+=(nodejs) ;;
    *) echo "setup.sh: unknown option $option" >&2; exit 2 ;;
  esac
done

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "Installing: ${missing[*]}" >&2
if [[ $(id -u) -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  echo "error: missing packages (${missing[*]}) and no sudo to install them; run as root" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
