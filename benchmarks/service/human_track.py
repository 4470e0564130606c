"""A person's drag of the captcha's piece, as the samples POST /v1/challenges/{id}/answer takes.

The hand is Tests/Browser/hand.py's `hand_path`, the one drag-curve generator of the Python
tests (the browser tests move the real pointer along it, the service tests send it as a
track): the piece starts from rest, speeds up, slows into the target, misses a little and
settles onto it, drifts and trembles sideways, with events about 60 times a second.

Used by bench_prep.py and soak_client.py; `python3 human_track.py` prints one answer.
"""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Browser"))
from hand import hand_path  # noqa: E402


def answer(challenge, hole_x, hole_y, rng):
    """The answer body for a horizontal-slider challenge (the service's default): a drag from
    where the piece starts (x 0, the challenge's pieceY) onto the hole at (hole_x, hole_y),
    released where the track ends."""
    if challenge.get("axis", "horizontal") != "horizontal":
        raise ValueError(f"only horizontal puzzles are dragged here, got {challenge['axis']}")
    y0 = challenge["pieceY"]
    track = [{"x": 0, "y": y0, "t": 0}]
    t = 0.0
    for x, y, ms in hand_path(0.0, float(y0), float(hole_x), float(hole_y), rng):
        t += ms
        track.append({"x": round(x, 2), "y": round(y, 2), "t": round(t, 1)})
    return {"x": track[-1]["x"], "y": y0, "track": track}


if __name__ == "__main__":
    import json

    print(json.dumps(answer({"pieceY": 140}, 300, 140, random.Random(1))))
