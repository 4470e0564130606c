#!/usr/bin/env python3
"""Judges every finger stroke of a split through one `tactile puzzle serve`, as widget.js sends
it (`"pointer": "touch"`), and prints how each source's people fare: how many pass every one of
their strokes, how many pass under 90 % of them, and the lowest share of any one person.

    python3 scripts/drag-model/by_person.py TACTILE [--data ../shared/captcha-drags/dev]

A captcha is judged by the people it lets through, one person at a time: a pooled 99 % can hide
a few people who are refused again and again. Uses run_eval.py's service driver and widget
emulation (imported from the data folder's parent), each stroke on a fresh puzzle from a fresh
client address.
"""
import concurrent.futures as cf
import glob
import json
import os
import sys

import service_args


def main():
    a, run_eval = service_args.parse(__doc__)

    service = run_eval.HTTP(a.tactile)
    try:
        print(f"{'finger strokes':26} {'people':>6} {'all pass':>8} {'under 90 %':>10} {'lowest':>7}")
        for path in sorted(glob.glob(os.path.join(a.data, "humans", "*.json"))):
            doc = json.load(open(path))
            if "touch" not in doc.get("device", ""):
                continue
            tracks = doc["tracks"]
            with cf.ThreadPoolExecutor(a.jobs) as pool:
                results = list(pool.map(lambda t: service.check("p", t["pts"], "touch"), tracks))
            people = {}
            for track, result in zip(tracks, results):
                if "error" in result:
                    sys.exit(f"by_person: {doc['source']} {track['id']}: {result['error']}")
                people.setdefault(track["meta"]["user"], []).append(result["passed"])
            shares = sorted(sum(p) / len(p) for p in people.values())
            print(f"{doc['source']:26} {len(shares):6} {sum(s == 1 for s in shares):8} "
                  f"{sum(s < 0.9 for s in shares):10} {100 * shares[0]:6.0f}%")
    finally:
        service.close()


if __name__ == "__main__":
    main()
