#!/usr/bin/env python3
"""Writes the track of a simulated hand's drag for a puzzle made by `tactile puzzle new`, so the
README's `tactile puzzle check … --track drag.json` can be tried without a client. The
verifier's drag model refuses it (a simulation is not a person); add
`--skip-drag-model-for-tests yes` to the check to try the rest of the flow.

Usage: scripts/make-track.py out/challenge.json X [--seed N] [--out drag.json]

X is where you drop the piece's left edge, in background pixels: look at out/background.jpg
for the hole. The track goes from the piece's start to about X as a hand does (speeding up,
slowing, missing a little, settling); the script prints the --x to give with it (where the
track ends). Horizontal puzzles only, as `puzzle new` makes them by default.
"""
import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Browser"))
from hand import answer_body  # noqa: E402  (the one drag-curve generator of the Python tools)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("challenge", help="the challenge.json that `tactile puzzle new` wrote")
    parser.add_argument("x", type=float, help="where to drop the piece's left edge, in pixels")
    parser.add_argument("--seed", type=int, default=None, help="the same drag every time")
    parser.add_argument("--out", default="drag.json", help="the track file (default drag.json)")
    args = parser.parse_args()
    try:
        with open(args.challenge) as handle:
            challenge = json.load(handle)
    except (OSError, ValueError) as error:
        sys.exit(f"make-track.py: cannot read {args.challenge}: {error}")
    if challenge.get("axis", "horizontal") != "horizontal":
        sys.exit(f"make-track.py: the puzzle's axis is {challenge.get('axis')!r}; only horizontal puzzles are supported")
    width = challenge.get("imageWidth", 0) - challenge.get("pieceWidth", 0)
    if not 0 <= args.x <= width:
        sys.exit(f"make-track.py: x must be 0…{width} (the picture less the piece), got {args.x:g}")
    body = answer_body(challenge, args.x, random.Random(args.seed))
    with open(args.out, "w") as handle:
        json.dump(body["track"], handle)
        handle.write("\n")
    print(f"{body['x']:g}")


if __name__ == "__main__":
    main()
