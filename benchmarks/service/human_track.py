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
from hand import answer_body  # noqa: E402


def answer(challenge, hole_x, hole_y, rng):
    """The answer body for a horizontal-slider challenge (the service's default): a drag from
    where the piece starts (x 0, the challenge's pieceY) onto the hole at hole_x, released
    where the track ends. (hole_y is the piece's row on a horizontal puzzle.)"""
    if challenge.get("axis", "horizontal") != "horizontal":
        raise ValueError(f"only horizontal puzzles are dragged here, got {challenge['axis']}")
    body = answer_body(challenge, hole_x, rng)
    return {**body, "track": warped(body["track"], rng)}


def warped(track, rng):
    """The track with its timing bent by a monotone curve of its own and its length scaled:
    thousands of drags from one generator would otherwise be alike enough for the service's
    replay memory to take one for another, which people's drags are not."""
    total = track[-1]["t"] or 1.0
    knots = [0.0] + sorted(rng.uniform(0.05, 0.95) for _ in range(3)) + [1.0]
    scale = total * 2 ** rng.uniform(-1, 1)

    def bend(u):
        # Piecewise linear through (k/4, knots[k]).
        k = min(int(u * 4), 3)
        return knots[k] + (knots[k + 1] - knots[k]) * (u * 4 - k)

    out, last = [], -1.0
    for sample in track:
        t = round(bend(sample["t"] / total) * scale, 1)
        if t <= last:
            t = round(last + 0.1, 1)
        out.append({**sample, "t": t})
        last = t
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(answer({"pieceY": 140}, 300, 140, random.Random(1))))
