"""Synthetic scripted drags for training: broad families of the ways drag generators are
built, each with its parameters drawn per drag, so the model learns the kind and not the
files of the recorded bot sets.

Families: aimed submovements (minimum-jerk primary movement and corrections, with tremor,
drift and arc), sums of lognormal speed pulses, Bezier paths under random easing, and a
gravity-and-wind walk. Each is timed by one of several clocks (a fixed event rate with or
without jitter and dropped frames, a sleep per step, whole milliseconds or not) and may be
quantized to whole pixels. Output: pointer displacements [[t_ms, dx, dy], ...] from the press,
as in shared/captcha-drags.

One more family, `tweened` (`tweened_drag`), is the way most public cursor libraries are built:
a curve from the press to the target (a Bezier curve or a spline through random knots, a
smoothed random walk across a straight line, or the line itself), points spaced along it by an
easing ("tween"), optionally distorted point by point, and sent one point per event. Only the
touch model learns from it (train.py).
"""
import math
import random

FAMILIES = ("submovements", "lognormal", "bezier", "wind")
TWEENED = "tweened"


def _minimum_jerk(u):
    return u * u * u * (10 - 15 * u + 6 * u * u)


def _clock(rng):
    """A function giving the next event time (seconds) after t."""
    kind = rng.choice(["rate", "rate", "sleep", "uneven"])
    rate = rng.choice([60.0, 60.0, 75.0, 120.0, 144.0])
    jitter = rng.choice([0.0, rng.uniform(0.0002, 0.003)])
    drop = rng.choice([0.0, rng.uniform(0.01, 0.08)])
    sleep = math.exp(rng.uniform(math.log(0.001), math.log(0.15)))
    sleep_jitter = math.exp(rng.uniform(math.log(0.00005), math.log(0.002)))

    def step(t):
        if kind == "sleep":
            return t + sleep + abs(rng.gauss(0, sleep_jitter))
        if kind == "uneven":
            return t + rng.uniform(0.008, 0.035)
        d = 1 / rate + rng.gauss(0, jitter)
        if rng.random() < drop:
            d *= 2
        return t + max(0.002, d)

    return step


def _sideways(rng, distance):
    arc = rng.gauss(0, 0.015 * distance)
    drift = rng.gauss(0, 2.5)
    waves = [(rng.uniform(0.1, 1.5), rng.uniform(0.5, 5), rng.uniform(0, 6.3)) for _ in range(3)]
    noise = rng.choice([0.0, 0.0, rng.uniform(0.1, 1.0)])

    def at(progress, t):
        s = arc * math.sin(math.pi * progress) + drift * progress
        s += sum(a * math.sin(2 * math.pi * f * t + p) for a, f, p in waves)
        return s + (rng.gauss(0, noise) if noise else 0.0)

    return at


def _progress(rng, family, distance):
    """Progress along the slider (pixels) as a function of time, and the duration."""
    if family == "submovements":
        parts = []
        start, t0 = 0.0, 0.0
        aim = distance * (1 + rng.gauss(-0.02, 0.05))
        for k in range(rng.randint(1, 4)):
            duration = (0.25 + 0.12 * math.log2(abs(aim - start) / 8 + 1)) * rng.uniform(0.7, 1.5)
            pause = 0.0 if k == 0 else rng.uniform(0.03, 0.3)
            skew = rng.uniform(0.7, 1.35)
            parts.append((t0 + pause, duration, start, aim, skew))
            t0 += pause + duration
            start, aim = aim, distance + rng.gauss(0, 1.5)
        wobble, phase = rng.uniform(0, 0.03), rng.uniform(0, 6.3)

        def f(t):
            value = parts[0][2]
            for begin, duration, a, b, skew in parts:
                if t >= begin:
                    u = min(1.0, (t - begin) / duration)
                    s = _minimum_jerk(u ** skew) + wobble * math.sin(math.pi * u) * math.sin(3 * math.pi * u + phase)
                    value = a + (b - a) * s
            return value

        return f, t0
    if family == "lognormal":
        pulses = []
        remaining, t0 = distance, rng.uniform(0.0, 0.1)
        for k in range(rng.randint(1, 3)):
            share = remaining * (rng.uniform(0.85, 1.05) if k == 0 else rng.uniform(0.6, 1.1))
            mu, sigma = math.log(rng.uniform(0.15, 0.45)), rng.uniform(0.15, 0.45)
            pulses.append((t0, share, mu, sigma))
            remaining -= share
            t0 += rng.uniform(0.2, 0.6)
        duration = t0 + rng.uniform(0.3, 0.8)

        def f(t):
            total = 0.0
            for begin, share, mu, sigma in pulses:
                if t > begin:
                    z = (math.log(t - begin) - mu) / (sigma * math.sqrt(2))
                    total += share * 0.5 * (1 + math.erf(z))
            return total

        return f, duration
    if family == "bezier":
        c1, c2 = rng.uniform(-0.3, 0.8), rng.uniform(0.3, 1.3)
        power = rng.uniform(0.5, 2.5)
        ease = rng.choice(["power", "sine", "smooth"])
        duration = rng.uniform(0.4, 2.5)

        def f(t):
            u = min(1.0, t / duration)
            u = {"power": 1 - (1 - u) ** power, "sine": math.sin(math.pi / 2 * u),
                 "smooth": u * u * (3 - 2 * u)}[ease]
            b = 3 * (1 - u) ** 2 * u * c1 + 3 * (1 - u) * u * u * c2 + u ** 3
            return distance * b

        return f, duration
    # wind: a walk pulled towards the target with random gusts, one step per event
    gravity, wind, top = rng.uniform(5, 12), rng.uniform(1, 5), rng.uniform(8, 25)
    xs, x, v, w = [0.0], 0.0, 0.0, 0.0
    while abs(distance - x) > 1 and len(xs) < 400:
        w = w / math.sqrt(3) + rng.uniform(-wind, wind) / math.sqrt(5)
        v += w + gravity * (distance - x) / max(abs(distance - x), 1)
        v = max(-top, min(top, v)) * rng.uniform(0.5, 1.0)
        x += v
        xs.append(x)
    xs.append(distance)
    step = rng.uniform(0.008, 0.03)

    def f(t):
        i = min(len(xs) - 1, int(t / step))
        return xs[i]

    return f, step * (len(xs) - 1)


def drag(rng, family=None):
    """One synthetic drag as [[t_ms, dx, dy], ...]."""
    family = family or rng.choice(FAMILIES)
    distance = rng.uniform(80, 320)
    along, duration = _progress(rng, family, distance)
    across = _sideways(rng, distance)
    clock = _clock(rng)
    whole_pixels = rng.random() < 0.7
    whole_ms = rng.random() < 0.5
    lead = rng.choice([0.0, rng.uniform(0.02, 0.25)])
    t, pts = 0.0, [[0.0, 0.0, 0.0]]
    while t < duration + lead:
        t = clock(t)
        u = max(0.0, t - lead)
        x, y = along(min(u, duration)), across(min(1.0, u / duration), t)
        if whole_pixels:
            x, y = round(x), round(y)
        ms = math.floor(t * 1000) if whole_ms else round(t * 1000, 3)
        if ms <= pts[-1][0]:
            continue
        if [x, y] != pts[-1][1:]:
            pts.append([ms, x, y])
    if len(pts) < 3:
        pts.append([pts[-1][0] + 16, distance, 0.0])
    return pts


def _tween(rng):
    """An easing of 0…1 onto 0…1 of the kinds cursor libraries use: polynomial, sine,
    exponential, circular or overshooting, eased in, out, both, or none."""
    way = rng.choice(["none", "in", "out", "in-out", "out", "in-out"])
    shape = rng.choice(["power", "sine", "exponential", "circular", "overshoot"])
    power = rng.choice([2, 3, 4, 5])

    def eased_in(u):
        if shape == "power":
            return u ** power
        if shape == "sine":
            return 1 - math.cos(math.pi / 2 * u)
        if shape == "exponential":
            return 0.0 if u == 0 else 2 ** (10 * (u - 1))
        if shape == "circular":
            return 1 - math.sqrt(max(0.0, 1 - u * u))
        return u * u * (2.70158 * u - 1.70158)

    def tween(u):
        if way == "none":
            return u
        if way == "in":
            return eased_in(u)
        if way == "out":
            return 1 - eased_in(1 - u)
        return eased_in(2 * u) / 2 if u < 0.5 else 1 - eased_in(2 - 2 * u) / 2

    return tween


def _de_casteljau(points, u):
    while len(points) > 1:
        points = [((1 - u) * a[0] + u * b[0], (1 - u) * a[1] + u * b[1])
                  for a, b in zip(points, points[1:])]
    return points[0]


def _catmull_rom(points, u):
    segments = len(points) - 1
    s = min(segments - 1e-9, u * segments)
    i, v = int(s), s - int(s)
    p0, p1 = points[max(0, i - 1)], points[i]
    p2, p3 = points[i + 1], points[min(segments, i + 2)]
    return tuple(0.5 * (2 * p1[j] + (p2[j] - p0[j]) * v
                        + (2 * p0[j] - 5 * p1[j] + 4 * p2[j] - p3[j]) * v * v
                        + (3 * p1[j] - p0[j] - 3 * p2[j] + p3[j]) * v * v * v) for j in (0, 1))


def _curve(rng, distance):
    """A path from the press (0, 0) to the target as a function of a parameter 0…1."""
    end = (distance, rng.gauss(0, 2))
    height = math.exp(rng.uniform(math.log(1), math.log(0.5 * distance)))
    kind = rng.choice(["bezier", "bezier", "spline", "walk", "line"])
    if kind == "line":
        return lambda u: (end[0] * u, end[1] * u)
    if kind in ("bezier", "spline"):
        knots = [(rng.uniform(-0.2, 1.2) * distance, rng.uniform(-height, height))
                 for _ in range(rng.randint(1, 6))]
        if kind == "bezier":
            controls = [(0.0, 0.0)] + knots + [end]
            return lambda u: _de_casteljau(controls, u)
        through = [(0.0, 0.0)] + sorted(k for k in knots if 0 < k[0] < distance) + [end]
        return lambda u: _catmull_rom(through, u)
    # a random walk across the straight line, smoothed by a Gaussian kernel
    size, walk, s = 200, [], 0.0
    for _ in range(size):
        s += rng.gauss(0, 1)
        walk.append(s)
    sigma = rng.uniform(3, 40)
    reach = int(3 * sigma)
    kernel = [math.exp(-0.5 * (k / sigma) ** 2) for k in range(-reach, reach + 1)]
    weight = sum(kernel)
    smooth = [sum(kernel[k + reach] * walk[min(size - 1, max(0, i + k))]
                  for k in range(-reach, reach + 1)) / weight for i in range(size)]
    scale = height / (max(abs(v) for v in smooth) or 1)

    def walked(u):
        i = min(size - 1, int(u * (size - 1)))
        away = smooth[i] - smooth[0] * (1 - u) - smooth[-1] * u
        return (end[0] * u, end[1] * u + scale * away)

    return walked


def tweened_drag(rng):
    """One drag of the `tweened` family as [[t_ms, dx, dy], ...]."""
    distance = rng.uniform(80, 320)
    curve, tween = _curve(rng, distance), _tween(rng)
    count = int(math.exp(rng.uniform(math.log(15), math.log(150))))
    distort = rng.random() < 0.5
    mean, spread, share = rng.uniform(0, 1), rng.uniform(0.2, 1.5), rng.uniform(0.2, 1.0)
    per_frame = rng.random() < 2 / 3
    rate = rng.choice([60.0, 60.0, 120.0, 30.0])
    clock = _clock(rng)
    whole_pixels = rng.random() < 0.7
    pts, t = [[0.0, 0.0, 0.0]], 0.0
    for i in range(1, count):
        x, y = curve(tween(i / (count - 1)))
        if distort and i < count - 1 and rng.random() < share:
            y += rng.gauss(mean, spread)
            x += rng.gauss(0, spread) * rng.choice([0, 1])
        if whole_pixels:
            x, y = round(x), round(y)
        t = t + max(2.0, rng.gauss(1000 / rate, 1.0)) if per_frame else clock(t / 1000) * 1000
        if [x, y] != pts[-1][1:]:
            pts.append([round(t, 1), x, y])
    if len(pts) < 3:
        pts.append([pts[-1][0] + 16, distance, 0.0])
    return pts
