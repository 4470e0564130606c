"""The command line the scripts that judge recorded drags through `tactile puzzle serve` share:
the tactile binary, a split folder and a number of jobs; and the evaluator's service driver,
run_eval.py, imported from the split folder's parent (shared/captcha-drags)."""
import argparse
import importlib
import os
import sys

DEV = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "captcha-drags", "dev")


def parse(doc, folder="humans", options=()):
    """The parsed arguments and the run_eval module, for a script whose docstring is `doc`;
    `options` are (name, keyword arguments) of further options."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("tactile")
    ap.add_argument("--data", default=DEV, help=f"a split folder (with {folder}/)")
    ap.add_argument("--jobs", type=int, default=2)
    for name, settings in options:
        ap.add_argument(name, **settings)
    a = ap.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(a.data)))
    return a, importlib.import_module("run_eval")
