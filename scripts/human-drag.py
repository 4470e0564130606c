#!/usr/bin/env python3
"""Drags the real pointer (xdotool) from one screen point to another the way a hand does.

Usage: scripts/human-drag.py X0 Y0 X1 Y1 [--seed N] [--dry-run]

Presses at (X0, Y0), reaches towards (X1, Y1) with a smooth movement that speeds up from
rest and slows into the target, misses by a little and corrects, drifts and trembles
sideways, and releases. Events go out about 60 times a second with jitter. Used to check
that a person's drag through the app (or a browser) passes the captcha's trajectory rules.
--dry-run prints the xdotool command instead of running it.
"""
import argparse
import math
import random
import subprocess
import sys


def reach(u, skew):
    u = u ** skew
    return u * u * u * (10 - 15 * u + 6 * u * u)


def plan(x0, y0, x1, y1, rng):
    distance = max(1.0, math.hypot(x1 - x0, y1 - y0))
    ux, uy = (x1 - x0) / distance, (y1 - y0) / distance
    nx, ny = -uy, ux
    miss = rng.gauss(-0.02, 0.05) * distance
    aims = [(x1 + ux * miss, y1 + uy * miss)]
    while math.hypot(aims[-1][0] - x1, aims[-1][1] - y1) > 2.5 and len(aims) < 5:
        aims.append((x1 + rng.gauss(0, 1.0), y1 + rng.gauss(0, 1.0)))
    sway = rng.gauss(0, 0.015 * distance)
    waves = [(rng.uniform(0.3, 1.2), rng.uniform(0.7, 3.5), rng.uniform(0, 6.3)) for _ in range(3)]
    points = []  # (x, y, seconds since the previous event)
    t = 0.0
    start = (x0, y0)
    total = 0.25 + 0.12 * math.log2(distance / 8 + 1)
    for index, aim in enumerate(aims):
        duration = total * rng.uniform(0.8, 1.4) if index == 0 else rng.uniform(0.12, 0.3)
        skew = rng.uniform(0.8, 1.25)
        if index > 0:
            pause = rng.uniform(0.05, 0.25)
            points.append((start[0], start[1], pause))
            t += pause
        elapsed = 0.0
        while elapsed < duration:
            step = max(0.004, 1 / 60 + rng.gauss(0, 0.002))
            elapsed = min(duration, elapsed + step)
            t += step
            s = reach(elapsed / duration, skew)
            x = start[0] + (aim[0] - start[0]) * s
            y = start[1] + (aim[1] - start[1]) * s
            side = sway * math.sin(math.pi * min(1, t / (total * 1.5)))
            side += sum(a * math.sin(2 * math.pi * f * t + p) for a, f, p in waves)
            points.append((x + nx * side, y + ny * side, step))
        start = aim
    return points


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
    for x, y, wait in plan(x0, y0, options.x1, options.y1, rng):
        command += ["sleep", f"{wait:.4f}", "mousemove", str(round(x)), str(round(y))]
    command += ["sleep", "0.12", "mouseup", "1"]
    if options.dry_run:
        print(" ".join(command))
        return 0
    return subprocess.call(command)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
