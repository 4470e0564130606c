#!/usr/bin/env python3
"""Measures the service's replay memory (`DragFingerprint` in the verifier) on recorded drags:
how many pairs of different people's drags it takes for one another, and how often it catches
a copy of an accepted drag sent again exact, re-timed, re-scaled or jittered.

    python3 scripts/drag-model/memory_check.py [--data ../shared/captcha-drags] [--split dev]

Every human drag of the split becomes the track widget.js sends for a random puzzle
(run_eval.py's emulation); its fingerprint is computed as the Swift one is: at 32 evenly spaced
times strictly inside the drag, the progress along the slider (thousandths of the travel) and the
distance across it from the first sample (tenths of a pixel), each averaged over a tenth of the
duration around the time; and the logarithm of the duration in thousandths. Two fingerprints
match when the durations' logarithms are within 0.36, the progress at the bucketing times within
0.04, and either the mean difference of progress is within 0.001 whatever the wander across
(0.0025 when either drag keeps within 1 px across the slider), or that plus 0.005 times the mean
difference across (px) is within 0.010. Read sample by sample as well: at 32 samples spread
evenly by count, the progress and the distance across (ten-thousandths of the travel), each
averaged with the two samples either side, as shares of the travel; two drags of the same number
of samples, 8 or more, that pass the gates above match too when these readings differ on average
(along, and across) by at most 0.8 px of the shorter travel with a mean difference of progress
within 0.015, or by at most 1 px of the longer travel with the mean difference of progress plus
0.005 times that across (px) within 0.025. Also prints what seeding the memory with every public human drag (both splits) would
cost. Needs numpy.
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
WINDOW = 0.1
LOG_DURATION, BUCKET_PROGRESS, PROGRESS_ALONE, FLAT_PROGRESS, PER_PIXEL, DISTANCE = 0.36, 0.04, 0.001, 0.0025, 0.005, 0.010
FLAT = 1.0  # px: a drag that keeps within this across the slider has no wander to tell it by
BUCKET_POINTS = [7, 15, 23]
FRAME_WINDOW, FEWEST_SAMPLES = 2, 8
SHORTER_PIXELS, SHORTER_PROGRESS, LONGER_PIXELS, LONGER_DISTANCE = 0.8, 0.015, 1.0, 0.025
BYTES = 2 * (4 * POINTS + 3)
READINGS = np.arange(1, POINTS + 1) / (POINTS + 1)


def averages(shares, values):
    """The mean of the line through (shares, values) over WINDOW around each reading, cut at 0 and 1."""
    integrals = np.concatenate([[0.0], np.cumsum(np.diff(shares) * (values[1:] + values[:-1]) / 2)])

    def integral(at):
        low = np.clip(np.searchsorted(shares, at, side="right") - 1, 0, len(shares) - 2)
        value = np.interp(at, shares, values)
        return integrals[low] + (at - shares[low]) * (values[low] + value) / 2

    low = np.maximum(0.0, READINGS - WINDOW / 2)
    high = np.minimum(1.0, READINGS + WINDOW / 2)
    return (integral(high) - integral(low)) / (high - low)


def rounded(values):
    """To the nearest whole number, halves away from zero, as Swift's `rounded()`."""
    return np.sign(values) * np.floor(np.abs(values) + 0.5)


def fingerprint(track):
    t = np.array([p["t"] for p in track], float) / 1000.0
    along = np.array([p["x"] - track[0]["x"] for p in track], float)
    across = np.array([p["y"] - track[0]["y"] for p in track], float)
    if len(track) < 3 or abs(along[-1]) < 1e-6 or t[-1] <= t[0] or np.any(np.diff(t) <= 0):
        return None
    shares = (t - t[0]) / (t[-1] - t[0])
    progress = rounded(averages(shares, along / along[-1]) * 1000)
    sideways = rounded(averages(shares, across) * 10)
    # Sample by sample: the samples nearest evenly spread shares of the count, each averaged
    # with FRAME_WINDOW samples either side (cut at the ends).
    # The travel they are shares of is the mean of the last samples, so that moving the release
    # a few pixels moves every share by little.
    last = len(track) - 1
    reach = along[max(0, last - FRAME_WINDOW):].mean()
    samples = len(track) if abs(reach) >= 1e-6 else 0  # none to compare without a reach
    reach = reach if samples else 1.0
    centres = np.floor(READINGS * last + 0.5).astype(int)
    frame_progress, frame_sideways = [], []
    for c in centres:
        window = slice(max(0, c - FRAME_WINDOW), min(last, c + FRAME_WINDOW) + 1)
        frame_progress.append(along[window].mean() / reach)
        frame_sideways.append(across[window].mean() / abs(reach))
    return (progress, sideways, int(rounded(math.log(t[-1] - t[0]) * 1000)), samples,
            float(rounded(min(abs(reach) * 10, 30000))), rounded(np.array(frame_progress) * 10000),
            rounded(np.array(frame_sideways) * 10000))


def stacked(prints):
    """The fingerprints' parts as arrays, one row a fingerprint."""
    return [np.array([p[k] for p in prints]) for k in range(7)]


def distances(a, others):
    """The distance of fingerprint `a` to each of the others (`stacked`; inf where the duration
    or the bucketing times already differ too much; 0 where the progress alone is close enough,
    or the drags match sample by sample)."""
    progress, sideways, durations, samples, travel, frame_progress, frame_sideways = others
    along = np.abs(progress - a[0]).mean(-1) / 1000
    d = along + PER_PIXEL * np.abs(sideways - a[1]).mean(-1) / 10
    # The progress alone, close enough, matches whatever the wander across (a copy laid flat);
    # for a drag without wander, as close as people's drags never come (the nearest two of dev
    # with one of them within 1 px across are 0.0049 apart).
    flat = (np.abs(sideways).max(-1) < FLAT * 10) | (np.abs(a[1]).max() < FLAT * 10)
    d = np.where((along <= PROGRESS_ALONE) | (flat & (along <= FLAT_PROGRESS)), 0.0, d)
    # Sample by sample: within SHORTER_PIXELS of the shorter travel (a copy's noise is in its own
    # pixels, and a copy sent on another stage is scaled) and close in progress against time, or
    # within LONGER_PIXELS of the longer travel and close in progress and wander against time.
    shares = np.maximum(np.abs(frame_progress - a[5]).mean(-1),
                        np.abs(frame_sideways - a[6]).mean(-1)) / 100000
    frames = (samples == a[3]) & (a[3] >= FEWEST_SAMPLES) & (
        ((along <= SHORTER_PROGRESS) & (np.minimum(travel, a[4]) * shares <= SHORTER_PIXELS))
        | ((d <= LONGER_DISTANCE) & (np.maximum(travel, a[4]) * shares <= LONGER_PIXELS)))
    d = np.where(frames, 0.0, d)
    near = (np.abs(durations - a[2]) <= LOG_DURATION * 1000) & \
           (np.abs(progress[..., BUCKET_POINTS] - a[0][BUCKET_POINTS]).max(-1) <= BUCKET_PROGRESS * 1000)
    return np.where(near, d, np.inf)


def matches(a, b):
    return bool(distances(a, stacked([b]))[0] <= DISTANCE)


def copy(track, rng, pace=1.0, scale=1.0, jitter=(0.0, 0.0), flat=False, stage=1.0):
    """A replay tool's copy of an accepted track: times ×pace, travel ×scale, the whole path
    ×stage (sent on a stage of another width), every sample but the first moved by up to jitter
    (px, ms), laid flat across the slider if `flat`, samples that no longer come later dropped."""
    out = [dict(track[0])]
    for p in track[1:]:
        across = 0.0 if flat else (p["y"] - track[0]["y"]) * stage
        q = {"x": track[0]["x"] + (p["x"] - track[0]["x"]) * scale * stage + rng.uniform(-jitter[0], jitter[0]),
             "y": track[0]["y"] + across + rng.uniform(-jitter[0], jitter[0]),
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
    others = stacked([prints[i] for i in kept])
    collisions = {}
    nearest = np.inf
    for n, i in enumerate(kept[:-1]):
        d = distances(prints[i], [part[n + 1:] for part in others])
        nearest = min(nearest, float(d.min()))
        for m in np.nonzero(d <= DISTANCE)[0]:
            pair = " ~ ".join(sorted((sources[i], sources[kept[n + 1 + m]])))
            collisions[pair] = collisions.get(pair, 0) + 1
    pairs = len(kept) * (len(kept) - 1) // 2
    print(f"{len(kept)} people's drags of {a.split}, {pairs:,} pairs: "
          f"{sum(collisions.values())} taken for one another (the nearest two {nearest:.4f} apart, "
          f"the tolerance {DISTANCE})")
    for pair, count in sorted(collisions.items(), key=lambda kv: -kv[1]):
        print(f"  {pair:60} {count}")
    print("copies of an accepted drag caught (a quarter of the drags, one copy each):")
    for name, change in [("exact", {}), ("re-timed ×0.7", {"pace": 0.7}), ("re-timed ×0.8", {"pace": 0.8}),
                         ("re-timed ×1.25", {"pace": 1.25}), ("re-timed ×1.4", {"pace": 1.4}),
                         ("travel ×0.6", {"scale": 0.6}), ("travel ×1.5", {"scale": 1.5}),
                         ("laid flat across", {"flat": True}),
                         ("laid flat, re-timed ×1.25", {"flat": True, "pace": 1.25}),
                         ("±1 px, ±2 ms a sample", {"jitter": (1, 2)}),
                         ("±3 px, ±5 ms a sample", {"jitter": (3, 5)}),
                         ("±3 px, ±5 ms, stage ×0.8", {"jitter": (3, 5), "stage": 0.8}),
                         ("±3 px, ±5 ms, stage ×1.25", {"jitter": (3, 5), "stage": 1.25}),
                         ("laid flat, ±1 px, ±2 ms", {"flat": True, "jitter": (1, 2)}),
                         ("laid flat, ±3 px, ±5 ms", {"flat": True, "jitter": (3, 5)})]:
        caught, by_source = [], {}
        for i in kept[::4]:
            other = fingerprint(copy(tracks[i], rng, **change))
            hit = other is not None and matches(other, prints[i])
            caught.append(hit)
            by_source.setdefault(sources[i], []).append(hit)
        line = f"  {name:26} {100.0 * np.mean(caught):6.1f} %"
        if change.get("jitter"):
            line += "   " + ", ".join(f"{s} {100.0 * np.mean(h):.0f}" for s, h in sorted(by_source.items()))
        print(line)
    public = sum(len(json.load(open(p))["tracks"])
                 for p in glob.glob(os.path.join(a.data, "*", "humans", "*.json")))
    print(f"seeding the memory with every public human drag (both splits): {public:,} fingerprints, "
          f"{public * BYTES / 1024:.0f} KiB of fingerprints")


if __name__ == "__main__":
    main()
