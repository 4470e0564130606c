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
    return answer_body(challenge, hole_x, rng)


if __name__ == "__main__":
    import json

    print(json.dumps(answer({"pieceY": 140}, 300, 140, random.Random(1))))
