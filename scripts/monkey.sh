#!/usr/bin/env bash
# Monkey test of the showcase app: M minutes of random, seeded clicks, drags, keys, typing,
# window resizes and page switches under a private Xvfb, counting GTK/GLib warnings.
#
# Usage: scripts/monkey.sh [--minutes M] [--seed N] [--app PATH] [--out DIR] [--gdb] [--restart]
#                          [--max-actions N] [--only LIST]
#
#   --minutes M   how long to run (default 10)
#   --seed N      the random seed; the same seed replays the same actions (default: random,
#                 printed at the start and in the summary)
#   --app PATH    the showcase binary (default .build/debug/showcase; it is not built here).
#                 It is copied into the output folder first, so a rebuild cannot swap it.
#   --out DIR     where the logs and screenshots go (default /tmp/monkey-DATE-TIME-seedN)
#   --gdb         run the app under gdb -batch, so a crash leaves a backtrace in app.log
#   --restart     after a crash, start the app again and go on (the run still fails)
#   --max-actions N   stop after action N (replay a run up to a problem)
#   --only LIST   perform only these actions of the seed's sequence, e.g. 65,132,142-144; the
#                 others are drawn but skipped, so the kept ones stay the same (minimising)
#
# Output folder: actions.log (every action with a time stamp; GLib's log lines carry the same
# clock), app.log (the app's stdout and stderr), shots/*.png (start, every minute, at each new
# problem, end), summary.txt (what is printed at the end).
#
# Exits 1 if the app crashed or exited during the run, did not close cleanly at the end, or
# logged any GTK/GLib CRITICAL or WARNING line (each is printed with the 20 actions before it);
# 2 for bad usage or a missing tool. Needs Xvfb, xdotool, ImageMagick (import) and xprop;
# dbus-daemon is used if present. The logic is in scripts/monkey.py (python3, stdlib only).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"   # no cd: --app and --out stay relative to the caller
missing=()
for tool in Xvfb xdotool import xprop python3; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
if ((${#missing[@]})); then
    echo "monkey: missing ${missing[*]} (apt-get install xvfb xdotool imagemagick x11-utils python3)" >&2
    exit 2
fi
exec python3 "$here/monkey.py" "$@"
