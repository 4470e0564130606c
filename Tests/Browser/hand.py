"""A person's drag as a list of points: the one drag-curve generator of the Python tests
(the browser tests move the real pointer along it; the service tests send it as a track).

scripts/human-drag.py drives the real pointer with xdotool along the same curve.
"""
import math


def reach(u, skew):
    u = u ** skew
    return u * u * u * (10 - 15 * u + 6 * u * u)


def hand_path(x0, y0, x1, y1, rng):
    """Points (x, y, ms since the previous) of a person's reach from (x0, y0) to (x1, y1):
    speeding up from rest, slowing into the target, missing it a little, then resting and
    settling onto it before letting go, drifting sideways, events about 60 times a second
    with jitter. (Without the settling, a reach that happens to miss by nothing follows a
    textbook easing curve within a hair, and the verifier rightly calls it a script.)"""
    distance = max(1.0, math.hypot(x1 - x0, y1 - y0))
    ux, uy = (x1 - x0) / distance, (y1 - y0) / distance
    nx, ny = -uy, ux
    miss = rng.gauss(-0.02, 0.04) * distance
    aims = [(x1 + ux * miss, y1 + uy * miss), (x1 + rng.gauss(0, 0.3), y1)]
    sway = rng.gauss(0, 0.012 * distance) + rng.choice((-1, 1)) * 2.5
    waves = [(rng.uniform(0.3, 0.9), rng.uniform(0.7, 3.0), rng.uniform(0, 6.3)) for _ in range(3)]
    points = []
    t = 0.0
    start = (x0, y0)
    total = 0.35 + 0.12 * math.log2(distance / 8 + 1)
    for index, aim in enumerate(aims):
        duration = total * rng.uniform(0.85, 1.2) if index == 0 else rng.uniform(0.15, 0.25)
        skew = rng.uniform(0.8, 1.25)
        if index > 0:
            pause = rng.uniform(0.06, 0.15)
            points.append((points[-1][0], points[-1][1], pause * 1000))
            t += pause
        elapsed = 0.0
        while elapsed < duration:
            step = max(0.008, 1 / 60 + rng.gauss(0, 0.003))
            elapsed = min(duration, elapsed + step)
            t += step
            s = reach(elapsed / duration, skew)
            x = start[0] + (aim[0] - start[0]) * s
            y = start[1] + (aim[1] - start[1]) * s
            side = sway * math.sin(math.pi * min(1, t / (total * 1.5)))
            side += sum(a * math.sin(2 * math.pi * f * t + p) for a, f, p in waves)
            points.append((x + nx * side, y + ny * side, step * 1000))
        start = aim
    return points


def answer_body(challenge, x, rng):
    """The answer a person's drag of a horizontal puzzle's piece from its start to x gives,
    as the widget sends it: samples in background pixels (kept on the picture) and
    milliseconds from the press, released where the track ends."""
    y = challenge["pieceY"]
    max_x = challenge.get("imageWidth", float("inf")) - challenge.get("pieceWidth", 0)
    track = [{"x": 0, "y": y, "t": 0}]
    t = 0.0
    for px, py, ms in hand_path(0.0, float(y), float(x), float(y), rng):
        t += ms
        track.append({"x": round(min(max(px, 0), max_x), 2), "y": round(py, 2), "t": round(t, 1)})
    return {"x": track[-1]["x"], "y": y, "track": track}
