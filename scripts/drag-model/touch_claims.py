#!/usr/bin/env python3
"""Bots' drags sent as a finger's: every bot path re-sampled at a touchscreen's steady frame
cadence (60 or 120 Hz, each frame ±1 ms, no gaps) and answered with "pointer": "touch", through
`tactile puzzle serve` as run_eval.py sends any drag. Claiming a finger must open no door: the
acceptance should stay where the same bots stand as a mouse (0–3 %).

    python3 scripts/drag-model/touch_claims.py TACTILE --data ../shared/captcha-drags/dev

Replays of recorded people's drags are left out (their motion is a person's: the replay memory,
not the drag's shape, stops them). Writes the re-sampled sources to a temporary folder that is
removed afterwards; nothing of the data stays.
"""
import argparse
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile


def interpolate(times, values, at):
    if at <= times[0]:
        return values[0]
    for i in range(1, len(times)):
        if at <= times[i]:
            f = (at - times[i - 1]) / (times[i] - times[i - 1]) if times[i] > times[i - 1] else 1.0
            return values[i - 1] + (values[i] - values[i - 1]) * f
    return values[-1]


def steady(pts, rng):
    """A pointer path [[t_ms, dx, dy], …] re-sampled as a touchscreen would report it."""
    period = 1000.0 / rng.choice([60.0, 120.0])
    times = [p[0] for p in pts]
    out, k = [[0.0, 0.0, 0.0]], 1
    while k * period < times[-1]:
        t = k * period + rng.uniform(-1.0, 1.0)
        out.append([round(t, 3), interpolate(times, [p[1] for p in pts], t),
                    interpolate(times, [p[2] for p in pts], t)])
        k += 1
    out.append([round(max(times[-1], out[-1][0] + 1.0), 3), pts[-1][1], pts[-1][2]])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tactile")
    ap.add_argument("--data", required=True, help="a split folder (with bots/)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    work = tempfile.mkdtemp(prefix="touch-claims-")
    try:
        os.makedirs(os.path.join(work, "bots"))
        for path in sorted(glob.glob(os.path.join(a.data, "bots", "*.json"))):
            doc = json.load(open(path))
            if "replay" in doc["source"]:
                continue
            doc["source"] += "-as-touch"
            doc["device"] = "touch (claimed by a script)"
            for track in doc["tracks"]:
                track["pts"] = steady(track["pts"], rng)
            json.dump(doc, open(os.path.join(work, "bots", os.path.basename(path)), "w"))
        evaluator = os.path.join(os.path.dirname(os.path.abspath(a.data)), "run_eval.py")
        sys.exit(subprocess.call([sys.executable, evaluator, a.tactile, "--data", work]))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
