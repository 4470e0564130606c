#!/usr/bin/env python3
"""How often a learned image solver finds the hole of the slider captcha: an attack measurement.

A script that meets the captcha must say where the piece fits: x on the background (the
challenge gives y). This plays an attacker who has a few thousand puzzles labelled by hand and
trains a small convolutional network on them, on CPU, in minutes. It starts its own
`tactile puzzle serve` on a free loopback port (answers revealed, rate limits raised) and stops
it at the end, collects puzzles of drawn pictures and of photos (scikit-image's sample photos,
via --pictures), and for each kind trains a siamese network: one branch reads the strip of the
background at the piece's height, the other the piece (colour and alpha); their features are
correlated at every x and a small head scores each x (trained on mirrored and colour-swapped
copies too). It prints, on held-out puzzles, the share whose x lands within 8 px of the
answer (the verifier's tolerance), and the share more than 40 px off (another hole, a decoy
most likely, was picked). The photo model is also tried on puzzles cut from photos it never
saw.

    python3 -m venv /tmp/learned-venv
    /tmp/learned-venv/bin/pip install torch numpy pillow   # or torch from download.pytorch.org/whl/cpu
    /tmp/learned-venv/bin/python benchmarks/learned/learned_solver.py [--train 3000] [--test 500]
        [--minutes 6] [--kinds drawn,photos] [--cache /tmp/learned-solver-cache]

Puzzles are kept in --cache (per kind) and reused by later runs; delete it after changing the
generator. Only the answer (GET /test/answer/{id}) is used as a label: the solver sees what a
browser gets. This is a measurement of an attack, not a test: it is not part of CI.
"""
import argparse
import io
import json
import os
import shutil
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Tests", "Support"))
from harness import site, start_serve  # noqa: E402

SAMPLES = "/usr/lib/python3/dist-packages/skimage/data"
SEEN_PHOTOS = ["astronaut.png", "chelsea.png", "hubble_deep_field.jpg", "ihc.png", "motorcycle_left.png",
               "retina.jpg"]
UNSEEN_PHOTOS = ["coffee.png", "rocket.jpg"]  # for the photo model's test on photos it never saw
STRIDE = 4        # original pixels per x position the network scores
SCALE = 2         # the strip and the piece are read at half size
TOLERANCE, DECOY = 8, 40


# ----------------------------------------------------------------------------- collection

def collect(tactile, folder, count, pictures, workers):
    """Makes sure `folder` holds `count` puzzles: background.jpg, piece.png and a line of
    index.jsonl ({"id", "x", "y"}) each, fetching the missing ones from a serve of our own."""
    os.makedirs(folder, exist_ok=True)
    index = os.path.join(folder, "index.jsonl")
    have = sum(1 for _ in open(index)) if os.path.exists(index) else 0
    if have >= count:
        return
    limits = dict(puzzlesPerMinute=1_000_000, sitePuzzlesPerMinute=1_000_000, answersPerMinute=1_000_000)
    flags = ["--reveal-answers-for-tests", "yes"] + (["--pictures", pictures] if pictures else [])
    with start_serve(tactile, *flags, sites=[site("learned-bench", **limits)]) as serve:
        origin = "http://localhost:" + serve.url.rsplit(":", 1)[1]

        def get(path, body=None):
            request = urllib.request.Request(serve.url + path, data=body and json.dumps(body).encode(),
                                             headers={"Origin": origin, "Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.read()

        def one(_):
            challenge = json.loads(get("/v1/challenges", {"sitekey": "learned-bench"}))
            cid = challenge["id"]
            with open(os.path.join(folder, cid + ".jpg"), "wb") as f:
                f.write(get(f"/v1/challenges/{cid}/background"))
            with open(os.path.join(folder, cid + ".png"), "wb") as f:
                f.write(get(f"/v1/challenges/{cid}/piece"))
            answer = json.loads(get(f"/test/answer/{cid}"))
            return {"id": cid, "x": answer["x"], "y": answer["y"], "pieceY": challenge["pieceY"]}

        started = time.monotonic()
        with ThreadPoolExecutor(workers) as pool, open(index, "a") as out:
            for record in pool.map(one, range(count - have)):
                out.write(json.dumps(record) + "\n")
        print(f"  collected {count - have} puzzles into {folder} in {time.monotonic() - started:.0f} s",
              flush=True)


def load(folder, count):
    """The first `count` puzzles of `folder` as arrays: strips (N,3,48,320) of the background
    at the piece's height, pieces (N,4,48,48), answers x (N,)."""
    records = [json.loads(line) for line in open(os.path.join(folder, "index.jsonl"))][:count]
    strips, pieces, xs = [], [], []
    for r in records:
        background = Image.open(os.path.join(folder, r["id"] + ".jpg")).convert("RGB")
        piece = Image.open(os.path.join(folder, r["id"] + ".png")).convert("RGBA")
        w, h = piece.size
        top = r["pieceY"]  # what the challenge says: the attacker never needs the answer's y
        strip = background.crop((0, top, background.width, top + h))
        strips.append(np.asarray(strip.resize((background.width // SCALE, h // SCALE), Image.BOX)))
        pieces.append(np.asarray(piece.resize((w // SCALE, h // SCALE), Image.BOX)))
        xs.append(r["x"])
    misplaced = sum(r["y"] != r["pieceY"] for r in records)
    if misplaced:
        print(f"  note: {misplaced} answers lie off the challenge's pieceY")
    return (torch.from_numpy(np.stack(strips)).permute(0, 3, 1, 2).contiguous(),
            torch.from_numpy(np.stack(pieces)).permute(0, 3, 1, 2).contiguous(),
            torch.tensor(xs, dtype=torch.float32))


# ----------------------------------------------------------------------------- the network

def convs(channels_in, widths):
    layers, c = [], channels_in
    for i, w in enumerate(widths):
        layers += [nn.Conv2d(c, w, 3, stride=2 if i == 0 else 1, padding=1, bias=False), nn.BatchNorm2d(w),
                   nn.ReLU(inplace=True)]
        c = w
    return nn.Sequential(*layers)


class HoleFinder(nn.Module):
    """Scores each x (every STRIDE pixels) of a strip as the place of the piece: the piece's
    features slide along the strip's (a depthwise correlation), a 1-D head turns them into a
    score per x."""

    def __init__(self, width=32):
        super().__init__()
        self.strip = convs(3, [24, width, width, width])
        self.piece = convs(4, [24, width, width, width])
        self.head = nn.Sequential(nn.BatchNorm1d(width), nn.Conv1d(width, width, 5, padding=2), nn.ReLU(inplace=True),
                                  nn.Conv1d(width, 1, 1))

    def forward(self, strip, piece):
        s, p = self.strip(strip), self.piece(piece)             # (B,C,h,W) and (B,C,h,w)
        b, c = s.shape[:2]
        scores = F.conv2d(s.reshape(1, b * c, *s.shape[2:]), p.reshape(b * c, 1, *p.shape[2:]), groups=b * c)
        return self.head(scores.reshape(b, c, -1) / p[0, 0].numel()).squeeze(1)  # (B, positions)


def normalise(strips, pieces):
    return strips.float() / 255 - 0.5, pieces.float() / 255 - 0.5


def predict_x(model, strips, pieces, batch=128):
    """x per puzzle: the best position, refined by the scores' weighted mean around it."""
    model.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(strips), batch):
            logits = model(*normalise(strips[i:i + batch], pieces[i:i + batch]))
            best = logits.argmax(1)
            offsets = torch.arange(-2, 3)
            near = (best[:, None] + offsets).clamp(0, logits.shape[1] - 1)
            weights = torch.softmax(logits.gather(1, near), 1)
            out.append((weights * near.float()).sum(1) * STRIDE)
    return torch.cat(out)


def train(strips, pieces, xs, minutes, epochs, seed):
    torch.manual_seed(seed)
    model = HoleFinder()
    positions = model(*normalise(strips[:2], pieces[:2])).shape[1]
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    batch = 32
    steps = epochs * (len(xs) // batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps, pct_start=0.15)
    grid = torch.arange(positions, dtype=torch.float32) * STRIDE
    started, step = time.monotonic(), 0
    for epoch in range(epochs):
        model.train()
        order, total = torch.randperm(len(xs)), 0.0
        for i in range(0, len(xs) - batch + 1, batch):
            pick = order[i:i + batch]
            s, p, x = strips[pick], pieces[pick], xs[pick].clone()
            flip = torch.rand(batch) < 0.5  # a mirrored puzzle is a puzzle too
            s[flip], p[flip] = s[flip].flip(-1), p[flip].flip(-1)
            x[flip] = (strips.shape[-1] - pieces.shape[-1]) * SCALE - x[flip]
            colours = torch.randperm(3)  # and so is one with its colours swapped
            s, p = s[:, colours], torch.cat([p[:, colours], p[:, 3:]], 1)
            target = torch.softmax(-((grid[None] - x[:, None]) / STRIDE) ** 2, 1)  # a soft one-hot
            loss = -(target * F.log_softmax(model(*normalise(s, p)), 1)).sum(1).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            step, total = step + 1, total + loss.item()
        elapsed = time.monotonic() - started
        print(f"  epoch {epoch + 1}/{epochs}: loss {total / (len(xs) // batch):.3f}, {elapsed:.0f} s", flush=True)
        if elapsed > minutes * 60 and epoch + 1 < epochs:
            print(f"  stopping: past the {minutes:g}-minute budget")
            break
    return model, time.monotonic() - started


def score(model, strips, pieces, xs):
    error = (predict_x(model, strips, pieces) - xs).abs()
    return {"n": len(xs), "hit": (error <= TOLERANCE).float().mean().item(),
            "near": ((error > TOLERANCE) & (error <= DECOY)).float().mean().item(),
            "decoy": (error > DECOY).float().mean().item(), "median": error.median().item()}


# ----------------------------------------------------------------------------- main

def photo_folder(names):
    folder = tempfile.mkdtemp(prefix="learned-photos-")
    for name in names:
        shutil.copy(os.path.join(SAMPLES, name), folder)
    return folder


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tactile", default=os.path.join(HERE, "..", "..", ".build", "release", "tactile"))
    ap.add_argument("--train", type=int, default=3000, help="training puzzles per kind")
    ap.add_argument("--test", type=int, default=500, help="held-out puzzles per kind")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--minutes", type=float, default=6, help="training budget per kind (checked after each epoch)")
    ap.add_argument("--kinds", default="drawn,photos")
    ap.add_argument("--cache", default="/tmp/learned-solver-cache")
    ap.add_argument("--workers", type=int, default=6, help="parallel requests while collecting")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(2)
    tactile = os.path.abspath(a.tactile)
    rows = []
    for kind in a.kinds.split(","):
        print(f"{kind}:", flush=True)
        photos = photo_folder(SEEN_PHOTOS) if kind == "photos" else None
        folder = os.path.join(a.cache, kind)
        try:
            collect(tactile, folder, a.train + a.test, photos, a.workers)
        finally:
            if photos:
                shutil.rmtree(photos)
        strips, pieces, xs = load(folder, a.train + a.test)
        model, seconds = train(strips[:a.train], pieces[:a.train], xs[:a.train], a.minutes, a.epochs, a.seed)
        test = slice(a.train, a.train + a.test)
        rows.append((kind, a.train, seconds, score(model, strips[test], pieces[test], xs[test])))
        if kind == "photos":
            unseen = photo_folder(UNSEEN_PHOTOS)
            try:
                collect(tactile, os.path.join(a.cache, "photos-unseen"), a.test, unseen, a.workers)
            finally:
                shutil.rmtree(unseen)
            rows.append(("photos, unseen photos", a.train, seconds,
                         score(model, *load(os.path.join(a.cache, "photos-unseen"), a.test))))
    print(f"\nlearned solver, held-out puzzles (within {TOLERANCE} px passes; over {DECOY} px: another hole)")
    print(f"{'puzzles':<22} {'train':>6} {'train s':>8} {'test':>5} {'<=8 px':>7} {'8-40 px':>8} "
          f"{'>40 px':>7} {'median err':>10}")
    for kind, n, seconds, r in rows:
        print(f"{kind:<22} {n:>6} {seconds:>8.0f} {r['n']:>5} {r['hit']:>7.1%} {r['near']:>8.1%} "
              f"{r['decoy']:>7.1%} {r['median']:>8.1f} px")


if __name__ == "__main__":
    main()
