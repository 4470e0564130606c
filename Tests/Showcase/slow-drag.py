#!/usr/bin/python3
"""Real people's recorded drags, replayed with the real pointer on the showcase's captcha page
while the app draws at most ten frames a second, pass the service's drag rules and model.

The app is stopped for 80 ms of every 100 ms during each drag (SIGSTOP/SIGCONT), as on a slow
machine or under software rendering: the X server queues the pointer's motions with their own
times, and GTK hands them over in bunches, one per frame. A drag passes only if each sample
keeps its event's time; stamped with the frame clock, samples would bunch at a steady 100 ms.

The drags come from ../shared/captcha-drags/dev (or $TACTILE_DRAGS): real people's recordings,
never committed. Without them the test says so and passes. A straight, constant-speed drag is
replayed the same way as a control: it must be refused, so the check can fail.

Runs under Xvfb (Tests/Showcase/run.sh); needs xdotool, ImageMagick's import, Pillow, numpy.
"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

import numpy
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Support"))
from harness import site, start_serve  # noqa: E402

BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug")
DRAGS = os.environ.get("TACTILE_DRAGS") or os.path.join(ROOT, "..", "shared", "captcha-drags")
SOURCES = ["wafer-drags", "sapimouse-drags", "ning-slider-ydonor", "bdci2017-human"]


def people_drags(count):
    """The first `count` recorded drags of people, over a few sources, that last 0.6–4 s and
    travel at least 100 of their pixels, as [(t_ms, dx, dy)]."""
    folder = os.path.join(DRAGS, "dev", "humans")
    chosen = []
    for source in SOURCES:
        for name in sorted(os.listdir(folder)):
            if not name.startswith(source):
                continue
            with open(os.path.join(folder, name)) as file:
                tracks = json.load(file)["tracks"]
            for track in tracks:
                points = track["pts"]
                duration = points[-1][0] - points[0][0]
                travel = points[-1][1] - points[0][1]
                if 600 <= duration <= 4000 and travel >= 100 and len(points) >= 10:
                    chosen.append((source, track["id"], points))
                    break
    return chosen[:count]


def straight_drag():
    """A script's drag: 40 px every 16 ms in a straight line."""
    return [(16 * k, 8 * k, 0) for k in range(41)]


def screenshot():
    path = tempfile.mktemp(suffix=".png")
    subprocess.run(["import", "-window", "root", path], check=True)
    image = numpy.asarray(Image.open(path).convert("RGB")).astype(int)
    os.unlink(path)
    return image


def slider_handle(image):
    """The centre of the slider's handle: the lowest band of rows with many pixels of the
    accent blue in the right part of the window (the left part holds a blue check box; a
    blue sky in the picture lies above the slider)."""
    height, width, _ = image.shape
    blue = (abs(image[:, :, 0] - 53) < 16) & (abs(image[:, :, 1] - 132) < 16) & (
        abs(image[:, :, 2] - 228) < 16)
    blue[:, : width * 2 // 5] = False
    rows = list(numpy.nonzero(blue.sum(axis=1) > 20)[0])
    if not rows:
        return None
    band = [rows[-1]]
    for row in reversed(rows[:-1]):
        if row != band[-1] - 1:
            break
        band.append(row)
    top, bottom = min(band), max(band)
    columns = numpy.nonzero(blue[top : bottom + 1].sum(axis=0) > 0)[0]
    return int(columns.min() + columns.max()) // 2, int(top + bottom) // 2


class Throttle:
    """Stops a process for `stopped` seconds of every `period`, until told to end."""

    def __init__(self, pid, period=0.1, stopped=0.08):
        self.pid, self.period, self.stopped = pid, period, stopped
        self.running = True
        self.thread = threading.Thread(target=self.run)

    def run(self):
        while self.running:
            os.kill(self.pid, signal.SIGSTOP)
            time.sleep(self.stopped)
            os.kill(self.pid, signal.SIGCONT)
            time.sleep(self.period - self.stopped)

    def __enter__(self):
        self.thread.start()

    def __exit__(self, *_):
        self.running = False
        self.thread.join()
        os.kill(self.pid, signal.SIGCONT)


def replay(points, start, scale):
    """Presses at `start`, follows `points` (t in ms, dx, dy in the recording's pixels, dx
    times `scale`) at their own pace in one xdotool process, and releases."""
    x0, y0 = start
    script = [f"mousemove {x0} {y0}", "sleep 0.3", "mousedown 1"]
    last = points[0][0]
    for t, dx, dy in points:
        script.append(f"sleep {max(0, t - last) / 1000:.4f}")
        script.append(f"mousemove {round(x0 + dx * scale)} {round(y0 + dy)}")
        last = t
    script.append("mouseup 1")
    subprocess.run(["xdotool", "-"], input="\n".join(script) + "\n", text=True, check=True)


def wait_for(path, pattern, count, timeout=30, required=True):
    """Waits until `pattern` occurs `count` times in the file; its lines that match (`None`
    on timeout when not `required`)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        with open(path) as file:
            found = [line for line in file if re.search(pattern, line)]
        if len(found) >= count:
            return found
        time.sleep(0.2)
    if not required:
        return None
    raise SystemExit(f"timed out waiting for {count} × {pattern!r} in {path}")


def main():
    if not os.path.isdir(os.path.join(DRAGS, "dev", "humans")):
        print(f"slow-drag: skipped, no recorded drags at {DRAGS}")
        return 0
    people = people_drags(4)
    work = tempfile.mkdtemp()
    # The drag rules are what is judged here, not the price: a site at 16 bits, so that the
    # debug build pays it at once even after the failures (each adds a bit) of the drags
    # before, which land where the recording ends rather than in the hole.
    serve = start_serve(os.path.join(BIN, "tactile"),
                        sites=[site("slow-drag-site", proofOfWorkDifficulty=16)])
    serve_log, url, key = serve.log, serve.url, serve.sites[0]["sitekey"]
    app = None
    try:
        failures = 0
        drags = [(source, ident, points, True) for source, ident, points in people]
        drags.append(("straight line", "control", straight_drag(), False))
        for number, (source, ident, points, person) in enumerate(drags, start=1):
            # A fresh app for each drag: after a pass the page waits for the person.
            app = subprocess.Popen(
                [os.path.join(BIN, "showcase"), "--page", "puzzle", "--captcha-server", url,
                 "--captcha-sitekey", key],
                stdout=open(os.path.join(work, "app.log"), "a"), stderr=subprocess.STDOUT)
            wait_for(serve_log, r"GET /v1/challenges/\{id\}/piece 200", number)
            time.sleep(2)
            handle = slider_handle(screenshot())
            if handle is None:
                raise SystemExit("slow-drag: no slider handle on the screen")
            travel = max(1, max(dx for _, dx, _ in points))
            print(f"slow-drag: {source} {ident}: {len(points)} samples over "
                  f"{points[-1][0] - points[0][0]:.0f} ms", flush=True)
            # A press while the page was still settling can miss the handle: one more try. A
            # handle that moved was pressed, and its answer comes once the price is paid, however
            # slow the machine; one that did not move soon shows a missed press.
            for attempt in range(2):
                with Throttle(app.pid):
                    replay(points, handle, 300 / travel)
                after = slider_handle(screenshot())
                pressed = after is None or abs(after[0] - handle[0]) > 20
                checks = wait_for(serve_log, r" check puzzle=", number, 120 if pressed else 15,
                                  attempt == 1)
                if checks:
                    break
            verdict = checks[-1].strip()
            app.kill()
            app.wait()
            app = None
            # A drag the rules doubt may still pass by paying more: that counts as refused.
            drag_refused = "automated" in verdict or "passed (proof-of-work)" in verdict
            ok = drag_refused != person
            failures += not ok
            print(f"slow-drag: {'ok  ' if ok else 'FAIL'} {verdict.split(' ', 3)[-1]}")
        return 1 if failures else 0
    finally:
        if app:
            app.kill()
        serve.stop()


if __name__ == "__main__":
    sys.exit(main())
