#!/usr/bin/env python3
"""Trains the verifier's two drag models from the `dev/` split of real people's and bots' drags.

    python3 scripts/drag-model/train.py [--data ../shared/captcha-drags] [--check]

Reads `DATA/dev` only (never `holdout/`), turns every recorded pointer motion into the track
widget.js would send for a random puzzle (run_eval.py's emulation, imported from DATA), and fits
gradient-boosted trees (scikit-learn) that tell people's drags from scripts'. Two models, one
for each way a pointer reports:
- the mouse model reads a track as sent: a mouse's bursts, gaps and timer-like clocks are
  evidence. People: the recorded mouse drags. Threshold: keeps 99.5 % of them.
- the touch model (touch and pen) reads the track at a steady 60 frames a second
  (`features.steady_frames`), since a touchscreen's even stream is what people's fingers
  produce and says nothing of who moved: only the motion counts, so a script re-timing its path
  to a touchscreen's cadence gains nothing. People: the finger strokes and the mouse drags
  recorded at a browser's own event rate (standing in for a pen's aimed motion; not the batched
  ones, below). Threshold: keeps 98 % of the finger strokes.
Thresholds come from five-fold cross-validation, folds by recorded drag (finger strokes: by
person, so the figure is for people the model has not seen). Writes, in the verifier's module:
- Verification/Judgement/DragModel.txt and TouchDragModel.txt: the trees and thresholds, as text
  the verifier parses once;
- Tests/TactilePuzzleVerifierTests/Fixtures/drag-model-fixtures.json and
  drag-model-touch-fixtures.json: synthetic tracks (made here, no recorded data) with this
  script's features and scores, which the Swift tests compare against.
Synthetic scripted drags of several families (synthetic.py; 2,400 of each) join the bots, so
the models learn kinds of generator rather than the recorded ones. The touch model also learns
from 1,200 drags made here by HumanCursor, a public generator, itself (libraries.py), as more of
that recorded family: claiming a finger, its drags were the ones the touch model let through
most; from 2,400 drags of the synthetic tweened family (synthetic.py: the way most cursor
libraries are built); and from every finger stroke a second time, as a phone that reports every
other frame delivers it. It reads 27 features, the mouse model the first 21 (features.py: the
last six describe how the motion changes from frame to frame, which means something only at a
steady frame rate). (The mouse model needs none of these: HumanCursor's drags as a mouse's pass
none of its measures, and it stays as it was.) Every source weighs the same
within its class; for the mouse model the people's drags and the scripts' weigh the same in
total too. The touch model's people leave out the mouse drags that come in batches (over a
remote desktop, or through a throttled logger): a browser that reports a finger or a pen has the
touchscreen's own stream, and read at 60 frames a second a batched drag is a row of straight
segments, as a sparse generator's is. Replays of recorded drags are left
out of training: they are people's motion, caught by the verifier's memory of accepted drags,
not by their shape. --check prints the cross-validated figures; for the mouse model, how many
of each person's drags (where the recordings name people) a model trained without that person
keeps; and, for each bot family (recorded or synthetic), how a model trained without it judges
it: the figure for a generator the model has never seen. Needs numpy and scikit-learn (pip or python3-sklearn),
and HumanCursor (pip install HumanCursor==1.1.5, which brings pytweening and selenium).
"""
import argparse
import collections
import json
import math
import os
import random
import re
import sys

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.model_selection import StratifiedGroupKFold

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from features import MOUSE_FEATURES, NAMES, features, steady_frames  # noqa: E402
import libraries  # noqa: E402
import synthetic  # noqa: E402

IMAGE_WIDTH, IMAGE_HEIGHT, PIECE = 640, 360, 96  # the service's default puzzle
DRAWS = 2  # puzzles (hole positions, so stage widths) per recorded drag
SYNTHETIC = 2400  # synthetic scripted drags of each family
RATE = 0.1


class Model:
    """One of the verifier's drag models: which tracks it learns from and how it reads them."""

    def __init__(self, name, trees, depth, keep, devices, reads, file, fixtures, balanced, batched,
                 made_here, width):
        self.name, self.trees, self.depth, self.keep = name, trees, depth, keep
        self.devices = devices  # the recorded people's devices it learns from
        self.balanced = balanced  # people and scripts weigh the same in total
        self.batched = batched  # whether people's batched mouse drags are among its people
        self.made_here = made_here  # whether it learns from the drags made here (below)
        self.width = width  # it reads the first `width` features
        self.judged = name  # the device whose people the threshold keeps
        self.reads = reads  # a track as the model reads it
        self.file, self.fixtures = file, fixtures

    def learns_from(self, row):
        """Whether a training row is among this model's: every script's drag (those made here by
        a library or of the tweened family only if `made_here`), and the people's drags of its
        devices (without the batched ones unless `batched`)."""
        _, bot, source, group, device, _ = row
        if group.startswith(MADE_HERE):
            return self.made_here
        return bot or (device in self.devices and (self.batched or not source.startswith(BATCHED)))


MODELS = [
    Model("mouse", 150, 3, 0.995, {"mouse"}, lambda track: track, "DragModel.txt",
          "drag-model-fixtures.json", balanced=True, batched=True, made_here=False,
          width=MOUSE_FEATURES),
    Model("touch", 300, 4, 0.98, {"mouse", "touch"}, steady_frames, "TouchDragModel.txt",
          "drag-model-touch-fixtures.json", balanced=False, batched=False, made_here=True,
          width=len(NAMES)),
]
# The groups (cross-validation folds) of the drags made here, by a library itself or of the
# synthetic tweened family, start with these; only the touch model learns from them.
LIBRARY = "library-"
TWEENED = "tweened-"
MADE_HERE = (LIBRARY, TWEENED)
LIBRARY_DRAGS = 1200  # HumanCursor drags made here
TWEENED_DRAGS = 2400  # drags of the synthetic tweened family
# People's mouse recordings whose events come in batches: over a remote desktop (balabit, ~100
# ms batches) or through a logger that throttles them (bdci2017, median 27 ms, a tenth over 100 ms).
BATCHED = ("balabit-", "bdci2017-")


def device_of(doc):
    """touch, pen or mouse, from a source's `device` (as run_eval.py reads it)."""
    device = str(doc.get("device") or "mouse").lower()
    return "touch" if "touch" in device else "pen" if device.startswith("pen") else "mouse"


def person_of(track, who):
    """The person a recorded drag names (a finger stroke's user, or `userN` in a recording's
    id), else None."""
    if who:
        return str(who)
    named = re.search(r"user\d+", track.get("id", ""))
    return named.group(0) if named else None


def tracks(data, widget):
    rng = random.Random(20261203)
    rows = []
    for group in ("humans", "bots"):
        folder = os.path.join(data, "dev", group)
        for name in sorted(os.listdir(folder)):
            doc = json.load(open(os.path.join(folder, name)))
            if group == "bots" and "replay" in doc["source"]:
                continue
            device = device_of(doc)
            # Each device's recordings draw their puzzles from their own sequence, so adding
            # one device's recordings leaves the other's draws (and model) as they were.
            draws = rng if device == "mouse" else random.Random(f"20261203 {doc['source']}")
            for number, track in enumerate(doc["tracks"]):
                # A finger stroke's fold is its person's, so thresholds hold for new people.
                who = track.get("meta", {}).get("user") if device != "mouse" else None
                group_name = f"{doc['source']}/" + (f"person-{who}" if who else str(number))
                for _ in range(DRAWS):
                    hole = draws.uniform(PIECE * 0.5, IMAGE_WIDTH - PIECE - 4)
                    top = float(draws.randrange(0, IMAGE_HEIGHT - PIECE))
                    body, _, _ = widget.widget_answer(track["pts"], hole, top, IMAGE_WIDTH, PIECE)
                    if len(body["track"]) < 3:
                        continue
                    rows.append((body["track"], group == "bots", doc["source"], group_name,
                                 device, person_of(track, who)))
                    if device == "touch" and group == "humans":
                        # The same stroke from a phone that reports every other frame (30 a
                        # second): still the person's, in the person's fold.
                        slower = body["track"][::2]
                        if slower[-1] is not body["track"][-1]:
                            slower.append(body["track"][-1])
                        if len(slower) >= 3:
                            rows.append((slower, False, doc["source"], group_name, device,
                                         person_of(track, who)))
    def scripted(pts, draws, source, group):
        """A script's drag on a puzzle drawn from `draws`, as widget.js sends it."""
        hole = draws.uniform(PIECE * 0.5, IMAGE_WIDTH - PIECE - 4)
        top = float(draws.randrange(0, IMAGE_HEIGHT - PIECE))
        body, _, _ = widget.widget_answer(pts, hole, top, IMAGE_WIDTH, PIECE)
        if len(body["track"]) >= 3:
            rows.append((body["track"], True, source, group, "mouse", None))

    for family in synthetic.FAMILIES:
        for number in range(SYNTHETIC):
            scripted(synthetic.drag(rng, family), rng, "synthetic-" + family,
                     f"synthetic-{family}/{number}")
    # More of the recorded HumanCursor family, from the library itself, and the tweened family,
    # with puzzles of their own (so the rows above stay as they were).
    draws = random.Random("20261207 library")
    for number, pts in enumerate(libraries.humancursor_drags(LIBRARY_DRAGS, 20261207)):
        scripted(pts, draws, "bot-humancursor", f"{LIBRARY}humancursor/{number}")
    draws = random.Random("20261207 tweened")
    for number in range(TWEENED_DRAGS):
        scripted(synthetic.tweened_drag(draws), draws, "synthetic-" + synthetic.TWEENED,
                 f"{TWEENED}{number}")
    return rows


def feature_rows(spec, tracks):
    """The features `spec` reads from each track."""
    return np.array([features(spec.reads(track))[:spec.width] for track in tracks])


def fit(model, x, y, w):
    return GradientBoostingClassifier(
        n_estimators=model.trees, max_depth=model.depth, learning_rate=RATE, subsample=0.8,
        random_state=0).fit(x, y, sample_weight=w)


def weights(sources, bots, balanced):
    """Every source weighs the same in total, so big sources do not drown small ones; when
    `balanced`, people's sources together weigh as much as scripts' (there are more bot sources
    than people's, and without it the model keeps fewer of the people it has not seen)."""
    counts = collections.Counter(sources)
    w = np.array([1.0 / counts[s] for s in sources])
    if balanced:
        w = np.where(bots, w / w[bots].sum(), w / w[~bots].sum())
    return w * len(w) / w.sum()


def trees_text(model, spec):
    """One line a node: tree, feature (-1 for a leaf), threshold, left, right, leaf value."""
    lines = [f"# {spec.width} features: {' '.join(NAMES[:spec.width])}",
             f"# {spec.trees} trees of depth {spec.depth}, learning rate {RATE}"]
    base = float(model._raw_predict_init(np.zeros((1, spec.width)))[0, 0])
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


def train(spec, rows, check):
    """Fits one model; writes its text and fixtures unless `check`."""
    mine = [r for r in rows if spec.learns_from(r)]
    x = feature_rows(spec, [r[0] for r in mine])
    y = np.array([r[1] for r in mine])
    sources = [r[2] for r in mine]
    judged = np.array([not r[1] and r[4] == spec.judged for r in mine])
    w = weights(sources, y, spec.balanced)
    scores = np.zeros(len(y))
    groups = [r[3] for r in mine]  # both puzzles of one drag (a person's strokes) in one fold
    folds = StratifiedGroupKFold(5, shuffle=True, random_state=0)
    for train_rows, test_rows in folds.split(x, y, groups):
        scores[test_rows] = fit(spec, x[train_rows], y[train_rows], w[train_rows]).predict_proba(
            x[test_rows])[:, 1]
    people = np.sort(scores[judged])
    threshold = float(people[int(math.ceil(spec.keep * len(people))) - 1]) + 1e-6
    threshold = max(threshold, 0.5)
    print(f"{spec.name} model: threshold {threshold:.4f}; five-fold cross-validated acceptance on dev:")
    for source in sorted(set(sources), key=lambda s: (s.startswith(("bot", "synthetic")), s)):
        mask = np.array([s == source for s in sources])
        print(f"  {source:34} {np.mean(scores[mask] < threshold) * 100:6.1f} %  ({mask.sum()} tracks)")
    if check:
        # How the model does on a generator it has never seen: each bot family (a recorded
        # source or a synthetic family) left out of training in turn, judged by the rest.
        # And on people it has never seen: each person the mouse recordings name (with 20
        # drags or more) left out of training, judged by the rest at the threshold (the touch
        # model's folds are by person already). A model can learn to tell unseen generators
        # apart only as far as it still keeps unseen people.
        if spec.devices == {"mouse"}:
            persons = [r[5] if not r[1] else None for r in mine]
            counts = collections.Counter(p for p in persons if p)
            print(f"{spec.name} model, each named person left out of training, kept by the rest:")
            for who in sorted(p for p, n in counts.items() if n >= 20 * DRAWS):
                mask = np.array([p == who for p in persons])
                left_out = fit(spec, x[~mask], y[~mask], w[~mask])
                kept = np.mean(left_out.predict_proba(x[mask])[:, 1] < threshold) * 100
                recorded = sources[int(np.argmax(mask))].split("-")[0]
                print(f"  {recorded + ' ' + who:34} {kept:6.1f} %  ({mask.sum() // DRAWS} drags)")
        print(f"{spec.name} model, each bot family left out of training, judged by the rest:")
        for source in sorted({s for s, bot in zip(sources, y) if bot}):
            mask = np.array([s == source for s in sources])
            left_out = fit(spec, x[~mask], y[~mask], w[~mask])
            print(f"  {source:34} {np.mean(left_out.predict_proba(x[mask])[:, 1] < threshold) * 100:6.1f} %")
        return
    model = fit(spec, x, y, w)
    text = trees_text(model, spec) + f"\nthreshold {threshold!r}"
    model_path = os.path.join(
        ROOT, "Sources", "TactilePuzzleVerifier", "Verification", "Judgement", spec.file)
    people_count = int((~y).sum())
    with open(model_path, "w") as f:
        f.write("# Written by scripts/drag-model/train.py from the dev split of shared/captcha-drags\n"
                f"# ({spec.name} model: real people's drags and bots' drags; {len(y)} tracks:\n"
                f"# {people_count} people's, {int(y.sum())} scripts'). Do not edit: train again.\n"
                + text + "\n")
    fixtures = []
    for item in fixture_tracks():
        v = features(spec.reads(item["track"]))
        score = float(model.predict_proba(np.array([v[:spec.width]]))[0, 1])
        fixtures.append({"name": item["name"], "track": item["track"], "features": v, "score": score})
    path = os.path.join(ROOT, "Tests", "TactilePuzzleVerifierTests", "Fixtures", spec.fixtures)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    json.dump({"names": NAMES, "threshold": threshold, "tracks": fixtures}, open(path, "w"), indent=1)
    print("wrote", os.path.relpath(model_path, ROOT), "and", os.path.relpath(path, ROOT))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "captcha-drags"))
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--only", choices=[m.name for m in MODELS], help="train one model only")
    a = ap.parse_args()
    sys.path.insert(0, a.data)
    import run_eval as widget  # the widget emulation the evaluation uses

    rows = tracks(a.data, widget)
    for spec in MODELS:
        if not a.only or a.only == spec.name:
            train(spec, rows, a.check)


if __name__ == "__main__":
    main()
