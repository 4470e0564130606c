#!/usr/bin/env python3
"""Replays every recorded drag of the replay attacks twice against one `tactile puzzle serve`
and prints how many passed the first time, the second time, and both times.

    python3 scripts/drag-model/replays.py TACTILE --data ../shared/captcha-drags/holdout

The service remembers the drags it accepted; a replay of a drag it has seen, exact or
perturbed, must fail. The first use of a recording the service has never seen may pass (no
verifier can know a recording it never saw), and so may the second use of one it refused the
first time (it was never accepted, so never remembered: its second use is a first chance on
another puzzle): the figure that counts is how many passed both times. Uses
run_eval.py's service driver and widget emulation (imported from the data folder's parent),
each submission on a fresh puzzle from a fresh client address.
"""
import concurrent.futures as cf
import glob
import json
import os

import service_args


def main():
    a, run_eval = service_args.parse(__doc__, folder="bots")

    service = run_eval.HTTP(a.tactile)
    try:
        print(f"{'replay attack':34} {'n':>5} {'1st use':>8} {'2nd use':>8} {'both':>8}")
        for path in sorted(glob.glob(os.path.join(a.data, "bots", "*replay*.json"))):
            doc = json.load(open(path))
            tracks = doc["tracks"]
            with cf.ThreadPoolExecutor(a.jobs) as pool:
                first = list(pool.map(lambda t: service.check("a", t["pts"]), tracks))
                second = list(pool.map(lambda t: service.check("b", t["pts"]), tracks))

            def rate(results):
                ok = [r for r in results if "error" not in r]
                return 100.0 * sum(r["passed"] for r in ok) / max(1, len(ok))

            pairs = [(f, s) for f, s in zip(first, second) if "error" not in f and "error" not in s]
            both = 100.0 * sum(f["passed"] and s["passed"] for f, s in pairs) / max(1, len(pairs))
            print(f"{doc['source']:34} {len(tracks):5} {rate(first):7.1f}% {rate(second):7.1f}% {both:7.1f}%")
    finally:
        service.close()


if __name__ == "__main__":
    main()
