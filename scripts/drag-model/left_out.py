#!/usr/bin/env python3
"""How the whole verifier judges a drag generator it was never trained on: each bot family (a
recorded one of the dev split, or a synthetic family) left out of a drag model's training, that
model put in place of the shipped one, and the family's drags sent through `tactile puzzle serve`
as widget.js sends them: as a mouse's (judged by the mouse model), and re-timed to a
touchscreen's cadence claiming a finger (judged by the touch model). `train.py --check` gives
the model alone; this gives what a new generator gets past every rule the service applies too.

    python3 scripts/drag-model/left_out.py TACTILE [--data ../shared/captcha-drags] [--only FAMILY,...] [--models mouse,touch]

The binary and its resource bundles are copied to a temporary folder and the model text there is
replaced (the package manager's resource accessor looks for `<module>.resources` beside the
executable first); the build is left as it is. Models are trained on DATA/dev only, as train.py
trains them, and keep the shipped model's threshold; each recorded family's dev drags are sent,
and 300 new drags of each synthetic family. About a minute a family and model on two cores.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import synthetic  # noqa: E402
import train  # noqa: E402
from touch_claims import steady  # noqa: E402

SYNTHETIC_DRAGS = 300
MODULE = "Tactile_TactilePuzzleVerifier.resources"


def shipped_threshold(spec):
    path = os.path.join(train.ROOT, "Sources", "TactilePuzzleVerifier", "Verification", "Judgement", spec.file)
    return float(re.search(r"^threshold (\S+)$", open(path).read(), re.M).group(1))


def family_doc(data, family, touch):
    """The family's drags in the data format: the recorded dev file, or new synthetic drags;
    re-timed to a touchscreen's cadence and claiming a finger when `touch`."""
    if family.startswith("synthetic-"):
        kind = family[len("synthetic-"):]
        rng = random.Random(f"left out {kind}")
        doc = {"source": family, "kind": "bot", "device": "mouse",
               "tracks": [{"id": str(n), "pts": synthetic.tweened_drag(rng) if kind == synthetic.TWEENED
                           else synthetic.drag(rng, kind)} for n in range(SYNTHETIC_DRAGS)]}
    else:
        doc = json.load(open(os.path.join(data, "dev", "bots", family + ".json")))
    if touch:
        rng = random.Random(f"touch {family}")
        doc["device"] = "touch (claimed by a script)"
        for track in doc["tracks"]:
            track["pts"] = steady(track["pts"], rng)
    return doc


def accepted(evaluator, binary, data, family):
    """The share of the family's drags in `data` that the service at `binary` accepts, percent,
    from run_eval.py's summary of its verdicts."""
    verdicts = os.path.join(data, "verdicts.json")
    run = subprocess.run([sys.executable, evaluator, binary, "--data", data, "--out", verdicts],
                         capture_output=True, text=True)
    if run.returncode != 0 or not os.path.exists(verdicts):
        raise SystemExit(f"run_eval.py failed for {family}:\n{(run.stdout + run.stderr)[-800:]}")
    return json.load(open(verdicts))["summary"][family]["accepted_pct"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tactile")
    ap.add_argument("--data", default=os.path.join(train.ROOT, "..", "shared", "captcha-drags"))
    ap.add_argument("--only", default="", help="comma-separated bot families (default: every one)")
    ap.add_argument("--models", default="mouse,touch", help="mouse, touch or both")
    a = ap.parse_args()
    sys.path.insert(0, a.data)
    import run_eval as widget  # the widget emulation train.py and the evaluation use

    rows = train.tracks(a.data, widget)
    work = tempfile.mkdtemp(prefix="left-out-")
    try:
        binary = os.path.join(work, "tactile")
        shutil.copy2(a.tactile, binary)
        build = os.path.dirname(os.path.abspath(a.tactile))
        for bundle in os.listdir(build):
            if bundle.endswith(".resources"):
                shutil.copytree(os.path.join(build, bundle), os.path.join(work, bundle))
        for spec in train.MODELS:
            if spec.name not in a.models.split(","):
                continue
            mine = [r for r in rows if spec.learns_from(r)]
            x = train.feature_rows(spec, [r[0] for r in mine])
            y = np.array([r[1] for r in mine])
            sources = [r[2] for r in mine]
            w = train.weights(sources, y, spec.balanced)
            threshold = shipped_threshold(spec)
            families = sorted({s for s, bot in zip(sources, y) if bot})
            if a.only:
                families = [f for f in families if f in a.only.split(",")]
            sent = "as a mouse's" if spec.name == "mouse" else "re-timed to a touchscreen's cadence, claiming a finger"
            print(f"{spec.name} model, each bot family left out of training; its drags sent {sent}:")
            print(f"  {'family left out':34} {'model alone':>11} {'verifier':>9}")
            for family in families:
                mask = np.array([s == family for s in sources])
                model = train.fit(spec, x[~mask], y[~mask], w[~mask])
                alone = np.mean(model.predict_proba(x[mask])[:, 1] < threshold) * 100
                with open(os.path.join(work, MODULE, spec.file), "w") as f:
                    f.write(train.trees_text(model, spec) + f"\nthreshold {threshold!r}\n")
                data = os.path.join(work, "data")
                shutil.rmtree(data, ignore_errors=True)
                os.makedirs(os.path.join(data, "humans"))
                os.makedirs(os.path.join(data, "bots"))
                json.dump(family_doc(a.data, family, spec.name == "touch"),
                          open(os.path.join(data, "bots", family + ".json"), "w"))
                passed = accepted(os.path.join(a.data, "run_eval.py"), binary, data, family)
                print(f"  {family:34} {alone:10.1f} % {passed:8.1f} %", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
