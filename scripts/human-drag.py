#!/usr/bin/env python3
"""Drags the real pointer (xdotool) from one screen point to another the way a hand does.

Usage: scripts/human-drag.py X0 Y0 X1 Y1 [--seed N] [--dry-run]

Presses at (X0, Y0), reaches towards (X1, Y1) the way Tests/Browser/hand.py's hand does
(speeding up from rest, slowing into the target, missing by a little, resting and settling
onto it, drifting sideways), and releases. Events go out about 60 times a second with jitter. Used to
drive the app (or a browser) with the real pointer: the press, the motion and the release reach it
as a person's would. It is a simulated hand, not a person, and the drag model is trained to refuse
hand.py's drags, so a refusal (or a pass as `proof-of-work`) is what to expect of it; whether
people pass is shown by replaying their recorded drags (Tests/Showcase/slow-drag.py).
--dry-run prints the xdotool command instead of running it.
"""
import argparse
import os
import random
import subprocess
import sys

# The one hand: the same drag curve the browser and service tests use.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Browser"))
from hand import hand_path  # noqa: E402


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    for name in ("x0", "y0", "x1", "y1"):
        parser.add_argument(name, type=float)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--dry-run", action="store_true")
    options = parser.parse_args(argv)
    rng = random.Random(options.seed)
    x0, y0 = options.x0, options.y0
    command = ["xdotool", "mousemove", str(round(x0)), str(round(y0)), "sleep", "0.3",
               "mousedown", "1", "sleep", "0.15"]
    for x, y, wait in hand_path(x0, y0, options.x1, options.y1, rng):
        command += ["sleep", f"{wait / 1000:.4f}", "mousemove", str(round(x)), str(round(y))]
    command += ["sleep", "0.12", "mouseup", "1"]
    if options.dry_run:
        print(" ".join(command))
        return 0
    return subprocess.call(command)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
