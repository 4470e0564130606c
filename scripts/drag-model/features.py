"""The features the verifier's drag model reads from a track, in Python for training.

This is a line-by-line mirror of `DragFeatures.swift` (TactilePuzzleVerifier), written with plain
loops so that both give the same numbers; `DragModelTests` checks the Swift side against the
vectors `train.py` writes for its fixture tracks. A track is what widget.js sends: a list of
{"x", "y", "t"} with x, y in background pixels and t in milliseconds, strictly increasing.
"""
import math

NAMES = [
    "log_samples", "log_duration", "median_interval", "interval_variation", "regular_intervals",
    "long_intervals", "cross_range", "cross_moves", "cross_correlation", "backtrack", "overshoot",
    "start_speed", "end_speed", "easing_residual", "peak_at", "speed_peaks", "first_step",
    "largest_step", "still_steps", "lead_in", "settle",
    # How the motion changes from frame to frame, for a track read at a steady frame rate (the
    # touch model's; the mouse model reads the names above only).
    "speed_roughness", "jerk", "across_high_frequency", "acceleration_flips",
    "speed_change_correlation", "straight_frames",
]
MOUSE_FEATURES = 21  # the mouse model reads the first 21


def _median(values):
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def _interp(ts, vs, at):
    """Linear interpolation of vs over strictly increasing ts, clamped at both ends."""
    if at <= ts[0]:
        return vs[0]
    if at >= ts[-1]:
        return vs[-1]
    lo, hi = 0, len(ts) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ts[mid] <= at:
            lo = mid
        else:
            hi = mid
    f = (at - ts[lo]) / (ts[hi] - ts[lo])
    return vs[lo] + (vs[hi] - vs[lo]) * f


EASINGS = [
    lambda s: s,
    lambda s: s * s * (3 - 2 * s),
    lambda s: s * s * s * (10 - 15 * s + 6 * s * s),
    lambda s: 1 - (1 - s) * (1 - s),
    lambda s: 1 - (1 - s) * (1 - s) * (1 - s),
    lambda s: 1 - (1 - s) * (1 - s) * ((1 - s) * (1 - s)),
    lambda s: (1 - math.cos(math.pi * s)) / 2,
    lambda s: math.sin(math.pi / 2 * s),
    lambda s: 4 * s * s * s if s < 0.5 else 1 - (2 - 2 * s) * (2 - 2 * s) * (2 - 2 * s) / 2,
]


def features(track, axis="horizontal"):
    """The feature vector of a track of at least 3 samples (along = the slider's axis)."""
    t = [p["t"] / 1000.0 for p in track]
    along = [p["y"] if axis == "vertical" else p["x"] for p in track]
    across = [p["x"] if axis == "vertical" else p["y"] for p in track]
    n = len(t)
    duration = max(t[-1] - t[0], 0.001)
    travel = along[-1] - along[0]
    sign = 1.0 if travel >= 0 else -1.0
    span = max(abs(travel), 1.0)
    x = [(v - along[0]) * sign for v in along]  # progress along the slider, pixels
    dt = [t[i + 1] - t[i] for i in range(n - 1)]
    dx = [x[i + 1] - x[i] for i in range(n - 1)]
    dy = [across[i + 1] - across[i] for i in range(n - 1)]
    m = n - 1
    median = _median(dt)
    total = 0.0
    for d in dt:
        total += d
    mean = total / m
    variance = 0.0
    for d in dt:
        variance += (d - mean) * (d - mean)
    variance /= m
    f = {}
    f["log_samples"] = math.log(n)
    f["log_duration"] = math.log(duration)
    f["median_interval"] = median
    f["interval_variation"] = math.sqrt(variance) / mean
    f["regular_intervals"] = sum(1 for d in dt if abs(d - median) < 0.0005) / m
    f["long_intervals"] = sum(1 for d in dt if d > 0.05) / m
    f["cross_range"] = (max(across) - min(across)) / span
    f["cross_moves"] = sum(1 for d in dy if d != 0) / m
    energy = 0.0
    for d in dy:
        energy += d * d
    lagged = 0.0
    for i in range(m - 1):
        lagged += dy[i] * dy[i + 1]
    f["cross_correlation"] = lagged / energy if energy > 0 else 0.0
    back = 0.0
    for d in dx:
        if d < 0:
            back -= d
    f["backtrack"] = back / span
    f["overshoot"] = (max(x) - x[-1]) / span

    # Speeds over windows of a fifth of the time, against the fastest such window.
    window = duration / 5

    def speed_from(start):
        a = (_interp(t, x, start), _interp(t, across, start))
        b = (_interp(t, x, start + window), _interp(t, across, start + window))
        return math.sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1])) / window

    peak = max(speed_from(t[0] + (duration - window) * k / 20) for k in range(21))
    f["start_speed"] = speed_from(t[0]) / peak if peak > 0 else 1.0
    f["end_speed"] = speed_from(t[0] + duration - window) / peak if peak > 0 else 1.0

    if abs(travel) > 1e-9:
        u = [(v - t[0]) / duration for v in t]
        p = [v / abs(travel) for v in x]
        residuals = []
        for e in EASINGS:
            total = 0.0
            for i in range(n):
                gap = p[i] - e(u[i])
                total += gap * gap
            residuals.append(math.sqrt(total / n))
        f["easing_residual"] = min(residuals)
    else:
        f["easing_residual"] = 1.0

    fastest = 0
    for i in range(1, m):
        if dx[i] / max(dt[i], 0.001) > dx[fastest] / max(dt[fastest], 0.001):
            fastest = i
    f["peak_at"] = (t[fastest + 1] - t[0]) / duration

    # Local maxima of the progress per 50 ms, above a fifth of the largest.
    steps = int(math.floor((t[-1] - t[0]) / 0.05))
    grid = [_interp(t, x, t[0] + 0.05 * k) for k in range(steps + 1)]
    gains = [grid[k + 1] - grid[k] for k in range(steps)]
    peaks = 0
    if len(gains) > 2:
        top = max(gains)
        for k in range(1, len(gains) - 1):
            if gains[k] > gains[k - 1] and gains[k] >= gains[k + 1] and gains[k] > 0.2 * top:
                peaks += 1
    f["speed_peaks"] = float(peaks)
    f["first_step"] = dx[0] / span
    f["largest_step"] = max(abs(d) for d in dx) / span
    f["still_steps"] = sum(1 for d in dx if d == 0) / m
    lead = 1.0
    for i in range(n):
        if abs(x[i]) > 0.02 * span:
            lead = (t[i] - t[0]) / duration
            break
    f["lead_in"] = lead
    settle = 1.0
    for i in range(n - 1, -1, -1):
        if abs(x[i] - x[-1]) > 0.02 * span:
            settle = (t[-1] - t[i]) / duration
            break
    f["settle"] = settle
    for name, value in zip(NAMES[MOUSE_FEATURES:], _frame_motion(x, across)):
        f[name] = value
    return [f[k] for k in NAMES]


def _frame_motion(x, across):
    """How the motion changes from one sample to the next, for a track read at a steady frame
    rate: a generator's path is either smooth as a formula (a tween) or noisy sample by sample
    (distortion added to each point), a sparse one is straight between its points, and a
    finger's is neither. `x` is the progress along the slider, `across` the position across it
    (pixels); the last sample (the release, off the frames' beat) is left out when there are
    more than three. Values: the median change of speed from frame to frame (a share of the mean
    speed); log of the third differences' energy against the first differences' (along); log of
    the second differences' energy against the first (across); the share of the firm
    accelerations (over 0.05 px a frame each) that change sign from the one before; the
    correlation of each change of speed with the next; the share of frames in motion that do not
    bend (second difference under a twentieth of the mean speed)."""
    n = len(x) - 1 if len(x) > 3 else len(x)
    if n < 5:
        return [0.0] * 6
    dx = [x[i + 1] - x[i] for i in range(n - 1)]
    dy = [across[i + 1] - across[i] for i in range(n - 1)]
    speeds = [math.sqrt(dx[i] * dx[i] + dy[i] * dy[i]) for i in range(n - 1)]
    total = 0.0
    for v in speeds:
        total += v
    mean = total / len(speeds) + 1e-9
    changes = [speeds[i + 1] - speeds[i] for i in range(len(speeds) - 1)]
    roughness = _median([abs(c) for c in changes]) / mean
    along_first, along_third, across_first, across_second = 0.0, 0.0, 0.0, 0.0
    for i in range(n - 1):
        along_first += dx[i] * dx[i]
        across_first += dy[i] * dy[i]
    accel = [x[i + 2] - 2 * x[i + 1] + x[i] for i in range(n - 2)]
    bend = [across[i + 2] - 2 * across[i + 1] + across[i] for i in range(n - 2)]
    for i in range(n - 2):
        across_second += bend[i] * bend[i]
    for i in range(n - 3):
        third = accel[i + 1] - accel[i]
        along_third += third * third
    jerk = math.log((along_third + 1e-6) / (along_first + 1e-6))
    high = math.log((across_second + 1e-3) / (across_first + 1e-3))
    firm = [a for a in accel if abs(a) > 0.05]
    flips = 0.0
    if len(firm) > 2:
        flips = sum(1 for i in range(len(firm) - 1) if (firm[i] > 0) != (firm[i + 1] > 0)) / (len(firm) - 1)
    correlation = 0.0
    if len(changes) > 3:
        a, b = changes[1:], changes[:-1]
        ma, mb = 0.0, 0.0
        for i in range(len(a)):
            ma += a[i]
            mb += b[i]
        ma, mb = ma / len(a), mb / len(b)
        sab, saa, sbb = 0.0, 0.0, 0.0
        for i in range(len(a)):
            sab += (a[i] - ma) * (b[i] - mb)
            saa += (a[i] - ma) * (a[i] - ma)
            sbb += (b[i] - mb) * (b[i] - mb)
        if saa > 0 and sbb > 0:
            correlation = sab / math.sqrt(saa * sbb)
    moving, straight = 0, 0
    for i in range(n - 2):
        if speeds[i] > 0.05 * mean or speeds[i + 1] > 0.05 * mean:
            moving += 1
            if math.sqrt(accel[i] * accel[i] + bend[i] * bend[i]) < 0.05 * mean:
                straight += 1
    return [roughness, jerk, high, flips, correlation, straight / moving if moving else 0.0]


STEADY_RATE = 60.0  # frames a second of the steady stream touch and pen tracks are read at


def steady_frames(track):
    """A touchscreen's or a pen's track read at STEADY_RATE frames a second from the press (the
    release kept last), by linear interpolation: what the drag model for those devices reads, so
    that a phone delivering 60, 90 or 120 samples a second (or coalesced events) means the same
    and only the motion counts. Mirrors `DragFeatures.steadyFrames` in Swift."""
    t = [p["t"] / 1000.0 for p in track]
    xs = [p["x"] for p in track]
    ys = [p["y"] for p in track]
    duration = t[-1] - t[0]
    out = []
    k = 0
    while k / STEADY_RATE < duration:
        at = t[0] + k / STEADY_RATE
        out.append({"x": _interp(t, xs, at), "y": _interp(t, ys, at), "t": at * 1000.0})
        k += 1
    out.append({"x": xs[-1], "y": ys[-1], "t": t[-1] * 1000.0})
    return out
