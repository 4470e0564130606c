#!/usr/bin/env bash
# What the showcase costs the CPU, page by page: each page is opened on its own Xvfb display,
# set moving the way a person would (Hanoi plays its solution, the cradle swings three balls;
# the pattern lock, the captcha and About wait for input), and the app's CPU time is read
# from /proc over a stretch of seconds. Prints percent of one core per page; the goal is at
# most 15 % on every page.
#
#   scripts/cpu-per-page.sh [APP] [SECONDS]
#
# APP defaults to the debug build's showcase; SECONDS (default 10) is how long each page is
# measured. The renderer is the app's own choice unless GSK_RENDERER is set (try
# GSK_RENDERER=gl to see what OpenGL on the CPU costs). Needs what
# `scripts/setup.sh --with-display` installs.
set -euo pipefail
cd "$(dirname "$0")/.."

app=${1:-$(swift build --show-bin-path)/showcase}
seconds=${2:-10}
[[ -x "$app" ]] || { echo "cpu-per-page.sh: $app is not built (swift build --product showcase)" >&2; exit 2; }
ticks=$(getconf CLK_TCK)

# CPU ticks (user + system) the process has used so far.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

measure() {
    local page=$1 keys=$2
    local display_number
    display_number=$(( 90 + RANDOM % 400 ))
    Xvfb ":$display_number" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
    local xvfb=$!
    sleep 1
    DISPLAY=":$display_number" "$app" --page "$page" >/dev/null 2>&1 &
    local pid=$!
    sleep 4
    if [[ -n "$keys" ]]; then
        # shellcheck disable=SC2086  # several keys, as xdotool takes them
        DISPLAY=":$display_number" xdotool key $keys
    fi
    sleep 1
    local before after
    before=$(cpu_ticks "$pid")
    sleep "$seconds"
    after=$(cpu_ticks "$pid")
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    kill "$xvfb" 2>/dev/null || true
    wait "$xvfb" 2>/dev/null || true
    awk -v used=$(( after - before )) -v hz="$ticks" -v s="$seconds" -v page="$page" \
        'BEGIN { printf "%-8s %5.1f %% of a core\n", page, 100 * used / hz / s }'
}

renderer=${GSK_RENDERER:-chosen by the app}
echo "renderer: $renderer; $seconds s per page"
measure hanoi space
measure cradle 3
measure pattern ""
measure puzzle ""
measure about ""
