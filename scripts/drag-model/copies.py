#!/usr/bin/env python3
"""Sends people's recorded drags to one `tactile puzzle serve`, then a copy of each drag it
accepted, changed as a replay tool would change it, and prints how many copies passed.

    python3 scripts/drag-model/copies.py TACTILE [--data ../shared/captcha-drags/dev] [--every 4]

This is the service's whole judgement of a copy, not the replay memory's alone: a copy passes
when neither the memory nor the drag model nor any rule refuses it. Each change runs on a fresh
service, so one change's copies are never remembered against another's. The changes are the
ones a replay tool makes: the same samples again; times ×0.8 or ×1.25; the travel ×0.6 or ×1.5
(its pixels scaled, a different slider); every sample but the press moved by up to ±3 px and
±5 ms after the widget has placed them (a sample that no longer comes later replaces the one
before it, as the widget keeps samples; the release stays on the hole); and that noise
with the path laid flat across the slider. A finger's strokes are sent as `"pointer": "touch"`.
Uses run_eval.py's service driver and widget emulation (imported from the data folder's parent),
each drag on a fresh puzzle from a fresh client address.
"""
import concurrent.futures as cf
import glob
import json
import os
import random

import service_args

CHANGES = [
    ("the same samples", {}),
    ("times ×0.8", {"pace": 0.8}),
    ("times ×1.25", {"pace": 1.25}),
    ("travel ×0.6", {"scale": 0.6}),
    ("travel ×1.5", {"scale": 1.5}),
    ("±3 px, ±5 ms a sample", {"jitter": (3.0, 5.0)}),
    ("laid flat, ±3 px, ±5 ms", {"jitter": (3.0, 5.0), "flat": True}),
]


def in_order(samples):
    """Samples as the widget keeps them: one that does not come later than the last replaces it."""
    out = [samples[0]]
    for q in samples[1:]:
        if q[0] > out[-1][0]:
            out.append(q)
        elif len(out) > 1:
            out[-1] = q
    return out


def retimed(pts, pace=1.0, scale=1.0, **_):
    """Recorded pointer displacements [[t_ms, dx, dy], …] with times ×pace and travel ×scale."""
    return [[t * pace, dx * scale, dy * scale] for t, dx, dy in pts]


def jittered(track, rng, jitter=(0.0, 0.0), flat=False, **_):
    """What the widget would send, every sample but the press moved by up to jitter (px, ms) and
    laid flat across the slider if `flat`; the release stays on the hole."""
    first = track[0]
    samples = [[first["t"], first["x"], first["y"]]]
    for n, p in enumerate(track[1:], 1):
        x = p["x"] + (0.0 if n == len(track) - 1 else rng.uniform(-jitter[0], jitter[0]))
        y = (first["y"] if flat else p["y"]) + rng.uniform(-jitter[0], jitter[0])
        samples.append([p["t"] + rng.uniform(-jitter[1], jitter[1]), x, y])
    return [{"t": round(t, 2), "x": round(x, 2), "y": round(y, 2)} for t, x, y in in_order(samples)]


def main():
    a, run_eval = service_args.parse(__doc__, options=[
        ("--every", {"type": int, "default": 4, "help": "take every Nth drag of each source"})])

    # The second use goes through the widget's emulation, then the change's per-sample noise.
    emulate, noise = run_eval.widget_answer, {}

    def copied(pts, *puzzle):
        body, width, k = emulate(pts, *puzzle)
        if noise:
            body["track"] = jittered(body["track"], noise["rng"], **noise["change"])
        return body, width, k

    run_eval.widget_answer = copied
    drags = []
    for path in sorted(glob.glob(os.path.join(a.data, "humans", "*.json"))):
        doc = json.load(open(path))
        pointer = "touch" if "touch" in doc.get("device", "") else "mouse"
        drags += [(doc["source"], t["pts"], pointer) for t in doc["tracks"][::a.every]]
    rng = random.Random(7)
    print(f"{len(drags)} people's drags; each change on a fresh service")
    print(f"{'copy of an accepted drag':28} {'copies':>7} {'passed':>7}   by source (%)")
    for name, change in CHANGES:
        service = run_eval.HTTP(a.tactile)
        try:
            noise.clear()
            with cf.ThreadPoolExecutor(a.jobs) as pool:
                first = list(pool.map(lambda d: service.check("a", d[1], d[2]), drags))
                kept = [(d, retimed(d[1], **change)) for d, f in zip(drags, first) if f.get("passed")]
                if "jitter" in change:
                    noise.update(rng=rng, change=change)
                second = list(pool.map(lambda dc: service.check("b", dc[1], dc[0][2]), kept))
        finally:
            service.close()
        by_source = {}
        for (d, _), s in zip(kept, second):
            by_source.setdefault(d[0], []).append(bool(s.get("passed")))
        passed = sum(sum(v) for v in by_source.values())
        detail = ", ".join(f"{s} {100.0 * sum(v) / len(v):.0f}" for s, v in sorted(by_source.items()))
        print(f"{name:28} {len(kept):7} {100.0 * passed / max(1, len(kept)):6.1f}%   {detail}")


if __name__ == "__main__":
    main()
