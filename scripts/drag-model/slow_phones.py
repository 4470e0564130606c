#!/usr/bin/env python3
"""Judges people's recorded finger strokes as a slow phone would deliver them, and prints how
many pass: every other frame lost (30 Hz), three frames in ten lost at random, and one stall of
three frames in the middle (a busy page). The press and the release are always kept.

    python3 scripts/drag-model/slow_phones.py TACTILE [--data ../shared/captcha-drags/dev]

A person's drag must pass on a slow machine too. Each way of losing frames runs on a fresh
`tactile puzzle serve`, so the memory of accepted drags never sees one stroke twice. Uses
run_eval.py's service driver and widget emulation (imported from the data folder's parent), each
stroke on a fresh puzzle from a fresh client address, sent as `"pointer": "touch"`.
"""
import collections
import concurrent.futures as cf
import glob
import json
import os
import random

import service_args


def every_other(pts, rng):
    return [pts[0]] + pts[1:-1][1::2] + [pts[-1]]


def lost(pts, rng, share=0.3):
    return [pts[0]] + [p for p in pts[1:-1] if rng.random() >= share] + [pts[-1]]


def stalled(pts, rng, frames=3):
    if len(pts) < frames + 5:
        return pts
    at = rng.randrange(2, len(pts) - frames - 1)
    return pts[:at] + pts[at + frames:]


WAYS = [("as recorded", lambda pts, rng: pts), ("every other frame (30 Hz)", every_other),
        ("3 frames in 10 lost", lost), ("one stall of 3 frames", stalled)]


def main():
    a, run_eval = service_args.parse(__doc__)

    rng = random.Random(11)
    print(f"{'finger strokes':24} {'delivered':28} {'passed':>7}   most refused by")
    for path in sorted(glob.glob(os.path.join(a.data, "humans", "*.json"))):
        doc = json.load(open(path))
        if "touch" not in doc.get("device", ""):
            continue
        for name, way in WAYS:
            strokes = [way(t["pts"], rng) for t in doc["tracks"]]
            service = run_eval.HTTP(a.tactile)
            try:
                with cf.ThreadPoolExecutor(a.jobs) as pool:
                    results = list(pool.map(lambda pts: service.check("s", pts, "touch"), strokes))
            finally:
                service.close()
            judged = [r for r in results if "error" not in r]
            rules = collections.Counter(r["rule"] for r in judged if not r["passed"])
            top = ", ".join(f"{rule[-40:]} {n}" for rule, n in rules.most_common(2))
            share = 100.0 * sum(r["passed"] for r in judged) / max(1, len(judged))
            print(f"{doc['source']:24} {name:28} {share:6.1f}%   {top}")


if __name__ == "__main__":
    main()
