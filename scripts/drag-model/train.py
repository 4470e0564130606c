#!/usr/bin/env python3
"""Trains the verifier's drag model from the `dev/` split of real people's and bots' drags.

    python3 scripts/drag-model/train.py [--data ../shared/captcha-drags] [--check]

Reads `DATA/dev` only (never `holdout/`), turns every recorded pointer motion into the track
widget.js would send for a random puzzle (run_eval.py's emulation, imported from DATA), and fits
gradient-boosted trees (scikit-learn) that tell people's drags from scripts'. Writes:
- Sources/TactilePuzzleVerifier/Verification/Judgement/DragModel.txt: the trees and the
  threshold, as text the verifier parses once (a resource of the module);
- Tests/TactilePuzzleTests/Fixtures/drag-model-fixtures.json: synthetic tracks (made here, no
  recorded data) with this script's features and score, which the Swift tests compare against.
Synthetic scripted drags of several families (synthetic.py) join the bots, so the model
learns kinds of generator rather than the recorded ones. Replays of recorded drags are left
out of training: they are people's motion, caught by the
verifier's memory of accepted drags, not by their shape. The threshold is the lowest score
that keeps 99.5 % of people's dev drags in five-fold cross-validation
(folds by recorded drag). --check only prints the
cross-validated figures and, for each recorded bot source,
how a model trained without it judges it. Needs numpy and scikit-learn (pip or python3-sklearn).
"""
import argparse
import json
import math
import os
import random
import sys

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.model_selection import StratifiedGroupKFold

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from features import NAMES, features  # noqa: E402
import synthetic  # noqa: E402

IMAGE_WIDTH, IMAGE_HEIGHT, PIECE = 640, 360, 96  # the service's default puzzle
DRAWS = 2  # puzzles (hole positions, so stage widths) per recorded drag
SYNTHETIC = 300  # synthetic scripted drags of each family
TREES, DEPTH, RATE = 150, 3, 0.1
KEEP_PEOPLE = 0.995


def tracks(data, widget):
    rng = random.Random(20261203)
    rows = []
    for group in ("humans", "bots"):
        folder = os.path.join(data, "dev", group)
        for name in sorted(os.listdir(folder)):
            doc = json.load(open(os.path.join(folder, name)))
            if group == "bots" and "replay" in doc["source"]:
                continue
            for number, track in enumerate(doc["tracks"]):
                for _ in range(DRAWS):
                    hole = rng.uniform(PIECE * 0.5, IMAGE_WIDTH - PIECE - 4)
                    top = float(rng.randrange(0, IMAGE_HEIGHT - PIECE))
                    body, _, _ = widget.widget_answer(track["pts"], hole, top, IMAGE_WIDTH, PIECE)
                    if len(body["track"]) < 3:
                        continue
                    rows.append((features(body["track"]), group == "bots", doc["source"],
                                 f"{doc['source']}/{number}"))
    for family in synthetic.FAMILIES:
        for number in range(SYNTHETIC):
            pts = synthetic.drag(rng, family)
            hole = rng.uniform(PIECE * 0.5, IMAGE_WIDTH - PIECE - 4)
            top = float(rng.randrange(0, IMAGE_HEIGHT - PIECE))
            body, _, _ = widget.widget_answer(pts, hole, top, IMAGE_WIDTH, PIECE)
            if len(body["track"]) >= 3:
                rows.append((features(body["track"]), True, "synthetic-" + family,
                             f"synthetic-{family}/{number}"))
    return rows


def fit(x, y, w):
    return GradientBoostingClassifier(
        n_estimators=TREES, max_depth=DEPTH, learning_rate=RATE, subsample=0.8,
        random_state=0).fit(x, y, sample_weight=w)


def weights(sources):
    """Every source weighs the same in total, so big sources do not drown small ones."""
    counts = {s: sources.count(s) for s in set(sources)}
    w = np.array([1.0 / counts[s] for s in sources])
    return w * len(w) / w.sum()


def trees_text(model):
    """One line a node: tree, feature (-1 for a leaf), threshold, left, right, leaf value."""
    lines = [f"# {len(NAMES)} features: {' '.join(NAMES)}",
             f"# {TREES} trees of depth {DEPTH}, learning rate {RATE}"]
    base = float(model._raw_predict_init(np.zeros((1, len(NAMES))))[0, 0])
    lines.append(f"base {base!r}")
    lines.append(f"rate {RATE!r}")
    for index, estimator in enumerate(model.estimators_[:, 0]):
        tree = estimator.tree_
        for node in range(tree.node_count):
            leaf = tree.children_left[node] == -1
            lines.append(" ".join([
                str(index), str(-1 if leaf else int(tree.feature[node])),
                repr(0.0 if leaf else float(tree.threshold[node])),
                str(int(tree.children_left[node])), str(int(tree.children_right[node])),
                repr(float(tree.value[node][0][0]) if leaf else 0.0)]))
    return "\n".join(lines)


def fixture_tracks():
    """Synthetic tracks (no recorded data): a wandering hand-like one, a straight line, an
    eased one, a jittery one and a short one."""
    rng = random.Random(7)
    out = []
    for kind in ("wander", "linear", "eased", "jitter", "short"):
        n = {"short": 5}.get(kind, 60)
        t, x, y, pts = 0.0, 0.0, 120.0, []
        for i in range(n):
            u = i / (n - 1)
            if kind == "linear":
                x = 300 * u
            elif kind == "eased":
                x = 300 * (1 - (1 - u) ** 3)
            elif kind == "jitter":
                x = 300 * u * u * (3 - 2 * u) + rng.uniform(-2, 2)
                y = 120 + rng.uniform(-2, 2)
            else:
                x += max(0.0, rng.gauss(6, 4)) if u < 0.8 else rng.gauss(0.5, 1.5)
                y += rng.gauss(0, 0.6)
            pts.append({"x": round(x, 2), "y": round(y, 2), "t": round(t, 2)})
            t += 16.0 + rng.uniform(-2, 6) if kind in ("wander", "short") else 16.7
        out.append({"name": kind, "track": pts})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "captcha-drags"))
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    sys.path.insert(0, a.data)
    import run_eval as widget  # the widget emulation the evaluation uses

    rows = tracks(a.data, widget)
    x = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows])
    sources = [r[2] for r in rows]
    w = weights(sources)
    scores = np.zeros(len(y))
    groups = [r[3] for r in rows]  # both puzzles of one drag fall in the same fold
    folds = StratifiedGroupKFold(5, shuffle=True, random_state=0)
    for train, test in folds.split(x, y, groups):
        scores[test] = fit(x[train], y[train], w[train]).predict_proba(x[test])[:, 1]
    people = np.sort(scores[~y])
    threshold = float(people[int(math.ceil(KEEP_PEOPLE * len(people))) - 1]) + 1e-6
    threshold = max(threshold, 0.5)
    print(f"threshold {threshold:.4f}; five-fold cross-validated acceptance on dev:")
    for source in sorted(set(sources), key=lambda s: (s.startswith("bot"), s)):
        mask = np.array([s == source for s in sources])
        print(f"  {source:34} {np.mean(scores[mask] < threshold) * 100:6.1f} %  ({mask.sum()} tracks)")
    if a.check:
        # How the model does on a generator it has never seen: each recorded bot source left
        # out of training in turn (the synthetic families stay in).
        print("each recorded bot source left out of training, judged by the rest:")
        for source in sorted({s for s, bot in zip(sources, y) if bot and not s.startswith("synthetic")}):
            mask = np.array([s == source for s in sources])
            model = fit(x[~mask], y[~mask], w[~mask])
            print(f"  {source:34} {np.mean(model.predict_proba(x[mask])[:, 1] < threshold) * 100:6.1f} %")
        return
    model = fit(x, y, w)
    text = trees_text(model) + f"\nthreshold {threshold!r}"
    model_path = os.path.join(
        ROOT, "Sources", "TactilePuzzleVerifier", "Verification", "Judgement", "DragModel.txt")
    with open(model_path, "w") as f:
        f.write("# Written by scripts/drag-model/train.py from the dev split of shared/captcha-drags\n"
                f"# (real people's drags of six public sources and bots' drags; {len(y)} tracks:\n"
                f"# {int((~y).sum())} people's, {int(y.sum())} scripts'). Do not edit: train again.\n"
                + text + "\n")
    fixtures = []
    for item in fixture_tracks():
        v = features(item["track"])
        score = float(model.predict_proba(np.array([v]))[0, 1])
        fixtures.append({"name": item["name"], "track": item["track"], "features": v, "score": score})
    path = os.path.join(ROOT, "Tests", "TactilePuzzleTests", "Fixtures", "drag-model-fixtures.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    json.dump({"names": NAMES, "threshold": threshold, "tracks": fixtures}, open(path, "w"), indent=1)
    print("wrote", os.path.relpath(model_path, ROOT), "and", os.path.relpath(path, ROOT))


if __name__ == "__main__":
    main()
