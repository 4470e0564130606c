#!/usr/bin/env python3
"""Measures the service's replay memory (`DragFingerprint` in the verifier) on recorded drags:
how many pairs of different people's drags it takes for one another, and how often it catches
a copy of an accepted drag sent again exact, re-timed, re-scaled or jittered.

    python3 scripts/drag-model/memory_check.py [--data ../shared/captcha-drags] [--split dev]

Every human drag of the split becomes the track widget.js sends for a random puzzle
(run_eval.py's emulation); its fingerprint is computed as the Swift one is (progress at 32
evenly spaced times strictly inside the drag, in thousandths of the travel; the logarithm of
the duration in thousandths). Two fingerprints match when every progress is within the
tolerance and the durations' logarithms are within theirs. Also prints what seeding the
memory with every public human drag (both splits) would cost. Needs numpy.
"""
import argparse
import glob
import json
import math
import os
import random
import sys

import numpy as np

POINTS = 32
TOLERANCE = (15, 360)  # thousandths: progress, log duration (DragFingerprint.tolerance)
BYTES = 2 * (POINTS + 1)


def interpolate(times, values, at):
    return float(np.interp(at, times, values))


def fingerprint(track):
    t = [p["t"] / 1000.0 for p in track]
    along = [p["x"] - track[0]["x"] for p in track]
    travel, duration = along[-1], t[-1] - t[0]
    if len(track) < 3 or abs(travel) < 1e-6 or duration <= 0:
        return None
    if any(b <= a for a, b in zip(t, t[1:])):
        return None
    progress = [math.floor(interpolate(t, along, t[0] + duration * k / (POINTS + 1)) / travel * 1000 + 0.5)
                for k in range(1, POINTS + 1)]
    return np.array(progress), math.floor(math.log(duration) * 1000 + 0.5)


def matches(a, b):
    return abs(a[1] - b[1]) <= TOLERANCE[1] and int(np.max(np.abs(a[0] - b[0]))) <= TOLERANCE[0]


def copy(track, rng, pace=1.0, scale=1.0, jitter=(0.0, 0.0)):
    """A replay tool's copy of an accepted track: times ×pace, travel ×scale, every sample but
    the first moved by up to jitter (px, ms), samples that no longer come later dropped."""
    out = [dict(track[0])]
    for p in track[1:]:
        q = {"x": track[0]["x"] + (p["x"] - track[0]["x"]) * scale + rng.uniform(-jitter[0], jitter[0]),
             "y": p["y"] + rng.uniform(-jitter[0], jitter[0]),
             "t": p["t"] * pace + rng.uniform(-jitter[1], jitter[1])}
        if q["t"] > out[-1]["t"]:
            out.append(q)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                                    "shared", "captcha-drags"))
    ap.add_argument("--split", default="dev")
    a = ap.parse_args()
    sys.path.insert(0, a.data)
    import run_eval as widget

    rng = random.Random(3)
    tracks, sources = [], []
    for path in sorted(glob.glob(os.path.join(a.data, a.split, "humans", "*.json"))):
        doc = json.load(open(path))
        for track in doc["tracks"]:
            hole = rng.uniform(48, 640 - 96 - 4)
            body, _, _ = widget.widget_answer(track["pts"], hole, float(rng.randrange(0, 264)), 640, 96)
            tracks.append(body["track"])
            sources.append(doc["source"])
    prints = [fingerprint(t) for t in tracks]
    kept = [i for i, f in enumerate(prints) if f is not None]
    progress = np.array([prints[i][0] for i in kept])
    durations = np.array([prints[i][1] for i in kept])
    collisions = {}
    for n, i in enumerate(kept[:-1]):
        near = (np.max(np.abs(progress[n + 1:] - progress[n]), axis=1) <= TOLERANCE[0]) & \
               (np.abs(durations[n + 1:] - durations[n]) <= TOLERANCE[1])
        for m in np.nonzero(near)[0]:
            pair = " ~ ".join(sorted((sources[i], sources[kept[n + 1 + m]])))
            collisions[pair] = collisions.get(pair, 0) + 1
    pairs = len(kept) * (len(kept) - 1) // 2
    print(f"{len(kept)} people's drags of {a.split}, {pairs:,} pairs: "
          f"{sum(collisions.values())} taken for one another")
    for pair, count in sorted(collisions.items(), key=lambda kv: -kv[1]):
        print(f"  {pair:60} {count}")
    print("copies of an accepted drag caught (a quarter of the drags, one copy each):")
    for name, change in [("exact", {}), ("re-timed ×0.7", {"pace": 0.7}), ("re-timed ×0.8", {"pace": 0.8}),
                         ("re-timed ×1.25", {"pace": 1.25}), ("re-timed ×1.4", {"pace": 1.4}),
                         ("travel ×0.6", {"scale": 0.6}), ("travel ×1.5", {"scale": 1.5}),
                         ("±1 px, ±2 ms a sample", {"jitter": (1, 2)}),
                         ("±3 px, ±5 ms a sample", {"jitter": (3, 5)})]:
        caught = total = 0
        for i in kept[::4]:
            other = fingerprint(copy(tracks[i], rng, **change))
            total += 1
            caught += other is not None and matches(other, prints[i])
        print(f"  {name:26} {100.0 * caught / total:6.1f} %")
    public = sum(len(json.load(open(p))["tracks"])
                 for p in glob.glob(os.path.join(a.data, "*", "humans", "*.json")))
    print(f"seeding the memory with every public human drag (both splits): {public:,} fingerprints, "
          f"{public * BYTES / 1024:.0f} KiB of fingerprints")


if __name__ == "__main__":
    main()
