"""More drags of a public drag generator than the dev split records, made here by the library
itself: HumanCursor 1.1.5 (PyPI `HumanCursor`), the one whose drags, claiming a finger, the
touch model let through most when it had learned from the 150 recorded ones alone.

A script's author runs the library as often as they like; so can the defender. Each drag is
what HumanCursor's web cursor sends for a slider drag: its own random curve parameters for a
browser window (`generate_random_curve_parameters`), its curve (`HumanizeMouseTrajectory`), and
its whole-pixel moves (`WebAdjuster.move_to`, recorded instead of sent to a browser), one event
per frame as ChromeDriver delivers them. Output: pointer displacements [[t_ms, dx, dy], ...]
from the press, as in shared/captcha-drags. The library is imported, not copied; its package
`__init__` (which needs a display, for pyautogui) is skipped.

    pip install HumanCursor==1.1.5     (with numpy, pytweening and selenium, its dependencies)
"""
import importlib
import importlib.util
import random
import sys
import types

VERSION = "1.1.5"


def _web_adjuster():
    """HumanCursor's WebAdjuster, imported without the package's `__init__`."""
    if "humancursor" not in sys.modules:
        spec = importlib.util.find_spec("humancursor")
        if spec is None or not spec.submodule_search_locations:
            raise SystemExit(
                f"HumanCursor is not installed: pip install HumanCursor=={VERSION} (train.py "
                "learns from more of its drags than the data records)")
        package = types.ModuleType("humancursor")
        package.__path__ = list(spec.submodule_search_locations)
        sys.modules["humancursor"] = package
    return importlib.import_module("humancursor.utilities.web_adjuster")


class _Moves:
    """Stands in for selenium's ActionChains: keeps the moves instead of sending them."""

    def __init__(self):
        self.moves = []

    def move_by_offset(self, x, y):
        self.moves.append((int(x), int(y)))
        return self

    def perform(self):
        pass


def humancursor_drags(count, seed):
    """`count` HumanCursor slider drags, each from a press on a thumb to a hole 80–400 px to the
    right, in a window of a common size; the same drags for the same seed."""
    module = _web_adjuster()
    from selenium.webdriver import Chrome
    import numpy as np

    class Window(Chrome):
        """A browser window of a given size, as far as HumanCursor asks (its size only)."""

        def __init__(self, width, height):
            self.size = {"width": width, "height": height}

        def get_window_size(self, *args):
            return dict(self.size)

        def __del__(self):
            pass

    # The library draws from the global generators: seed them, and put them back afterwards.
    saved_random, saved_numpy = random.getstate(), np.random.get_state()
    random.seed(seed)
    np.random.seed(seed % 2**32)
    rng = random.Random(f"{seed} frames")
    drags = []
    try:
        for _ in range(count):
            width, height = rng.choice([(1280, 720), (1366, 768), (1440, 900), (1920, 1080)])
            start = [rng.uniform(0.2, 0.4) * width, rng.uniform(0.3, 0.7) * height]
            travel = rng.uniform(80, 400)
            adjuster = module.WebAdjuster(Window(width, height))
            moves = _Moves()
            adjuster._WebAdjuster__action = moves
            adjuster.move_to([start[0] + travel, start[1]], origin_coordinates=list(start))
            t, x, y = 0.0, 0.0, 0.0
            pts = [[0.0, 0.0, 0.0]]
            for dx, dy in moves.moves:
                t += max(8.0, rng.gauss(16.7, 2.0)) * (2 if rng.random() < 0.05 else 1)
                x, y = x + dx, y + dy
                pts.append([round(t, 1), x, y])
            drags.append(pts)
    finally:
        random.setstate(saved_random)
        np.random.set_state(saved_numpy)
    return drags
