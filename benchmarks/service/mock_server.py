#!/usr/bin/env python3
"""TEST DOUBLE — NOT THE SERVICE.

A mock of the HTTP contract of `tactile puzzle serve` (docs: DESIGN.md, "HTTP contract of
`tactile puzzle serve`"), written in Python with the standard library only, so that the
browser widget (Sources/TactilePuzzleService/Web/widget.js), the /demo page and the
browser tests (Tests/Browser) can be developed before the Swift service exists. It is
not secure, not fast, keeps everything in memory and checks drags with a small subset of
the real trajectory rules. Never put it in front of a real site.

What it does, as the contract says:
  POST /v1/challenges             {"sitekey", "action"?} -> 201 challenge (+ "proofOfWork")
  GET  /v1/challenges/{id}/background, /piece   PNGs (a darker hole, one decoy; the piece
                                                with alpha)
  POST /v1/challenges/{id}/answer {"x", "y"?, "track", "input"?} or {"proofOfWork":
                                  {"nonce"}} -> 200 pass/fail, 429 with Retry-After
  POST /v1/siteverify             JSON or form -> Turnstile-style result, tokens redeem once
  GET  /widget.js and /widget/NAME, GET/POST /demo, GET /healthz, GET /metrics, CORS for the
  challenge endpoints (the Origin's host must be one of the site's hostnames).
With --reveal (tests only): GET /test/answer/{id} -> {"x", "y"} and POST /test/expire/{id}.

Usage: benchmarks/service/mock_server.py [--listen 127.0.0.1:8080] [--reveal] [--help]
It prints "listening on http://HOST:PORT" once it accepts connections (port 0 picks one).
"""
import argparse
import base64
import hashlib
import hmac
import html
import json
import math
import os
import re
import secrets
import struct
import sys
import threading
import time
import urllib.parse
import urllib.request
import zlib
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_WEB = os.path.normpath(os.path.join(HERE, "..", "..", "Sources", "TactilePuzzleService", "Web"))
DEV_SITE = {"sitekey": "dev-sitekey", "secret": "dev-secret", "hostnames": ["localhost", "127.0.0.1"]}
MAX_BODY = 1 << 20  # the real service's track limit (DragTrack.maximumBytes)
MAX_SAMPLES = 10_000

# ----------------------------------------------------------------------------- pictures

WIDTH, HEIGHT = 640, 360
SIDE = WIDTH * 15 // 100  # the piece's side: 15 % of the width, as PuzzleOptions says


def png(width, height, rows, channels):
    """Encodes raw rows (bytes, `channels` per pixel) as a PNG (8-bit RGB or RGBA)."""
    colour = {3: 2, 4: 6}[channels]
    raw = b"".join(b"\x00" + bytes(rows[y]) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def landscape():
    """A calm procedural picture (sky, clouds, sun, hills, trees, a pond): rows of RGB bytes."""
    clouds = [(0.18, 0.16, 0.10, 0.035), (0.30, 0.12, 0.07, 0.03), (0.52, 0.25, 0.09, 0.03)]
    trees = [(0.07, 0.70), (0.12, 0.72), (0.61, 0.69), (0.66, 0.71), (0.71, 0.70), (0.90, 0.73)]
    rows = []
    for y in range(HEIGHT):
        row = bytearray(WIDTH * 3)
        v = y / HEIGHT
        for x in range(WIDTH):
            u = x / WIDTH
            r, g, b = 120 + 90 * v, 170 + 50 * v, 235 - 20 * v  # sky
            for cu, cv, ru, rv in clouds:
                k = ((u - cu) / ru) ** 2 + ((v - cv) / rv) ** 2
                if k < 1:
                    w = 0.85 * (1 - k) ** 0.5
                    r, g, b = r + (250 - r) * w, g + (252 - g) * w, b + (255 - b) * w
            d = math.hypot(u - 0.78, (v - 0.22) * HEIGHT / WIDTH)
            if d < 0.07:
                r, g, b = 255, 226, 140
            elif d < 0.12:
                k = (d - 0.07) / 0.05
                r, g, b = r + (255 - r) * (1 - k) * 0.6, g + (226 - g) * (1 - k) * 0.6, b * (0.8 + 0.2 * k)
            far = 0.50 + 0.08 * math.sin(u * 7.0 + 1.0) + 0.04 * math.sin(u * 17.0)
            near = 0.66 + 0.07 * math.sin(u * 4.0 + 2.5) + 0.03 * math.sin(u * 23.0 + 1.0)
            if v > far:
                r, g, b = 92 + 30 * u, 130 + 20 * math.sin(u * 9), 150
            for tu, tv in trees:  # dark conifers standing on the near hill
                top = tv - 0.16
                if top < v < tv + 0.02 and abs(u - tu) < 0.025 * (v - top) / 0.16:
                    r, g, b = 34, 78 + 20 * math.sin(y * 0.7), 48
            if v > near:
                shade = 0.85 + 0.15 * math.sin(u * 40 + v * 25) * math.sin(v * 60)
                r, g, b = 70 * shade + 40 * v, 140 * shade, 60 * shade
            if ((u - 0.36) / 0.2) ** 2 + ((v - 0.92) / 0.06) ** 2 < 1:  # a pond
                ripple = 0.5 + 0.5 * math.sin(y * 1.3 + 6 * math.sin(u * 30))
                r, g, b = 70 + 30 * ripple, 130 + 30 * ripple, 195 + 30 * ripple
            row[3 * x:3 * x + 3] = bytes((int(min(255, r)), int(min(255, g)), int(min(255, b))))
        rows.append(row)
    return rows


def shape_mask(side, inside):
    """Coverage 0…1 per pixel of a side×side square for the predicate inside(u, v), 4×4 samples."""
    mask = []
    for y in range(side):
        line = []
        for x in range(side):
            hits = sum(inside((x + (i + 0.5) / 4) / side, (y + (j + 0.5) / 4) / side)
                       for i in range(4) for j in range(4))
            line.append(hits / 16)
        mask.append(line)
    return mask


def jigsaw(u, v):
    """The classic piece: a square body with knobs on the top and the right, a socket on the left."""
    m, r = 0.17, 0.15
    body = m <= u <= 1 - m and m <= v <= 1 - m
    top = math.hypot(u - 0.5, v - m) < r
    right = math.hypot(u - (1 - m), v - 0.5) < r
    socket = math.hypot(u - m, v - 0.5) < r * 0.8
    return (body and not socket) or top or right


def circle(u, v):
    return math.hypot(u - 0.5, v - 0.5) < 0.4


PIECE_MASK = shape_mask(SIDE, jigsaw)
DECOY_MASK = shape_mask(SIDE, circle)
PICTURE = None  # made on first use, then shared (read-only)


def permuted(rows, order):
    """The picture with its colour channels reordered (more looks from one picture, cheaply)."""
    out = []
    for row in rows:
        new = bytearray(len(row))
        for target, source in enumerate(order):
            new[target::3] = row[source::3]
        out.append(new)
    return out


def cut_hole(rows, mask, x0, y0, darkening=0.55):
    for y in range(len(mask)):
        row = rows[y0 + y]
        for x, a in enumerate(mask[y]):
            if a <= 0:
                continue
            i = 3 * (x0 + x)
            rim = 0.35 if a < 0.999 else 0.0  # a faint light rim so the dent reads as a dent
            for c in range(3):
                value = row[i + c] * (1 - darkening * a)
                row[i + c] = int(min(255, value + rim * 255 * a))


def make_puzzle(rng_bytes, axis):
    """Returns (background PNG, piece PNG, hole (x, y), start (x, y))."""
    global PICTURE
    if PICTURE is None:
        PICTURE = landscape()
    pick = int.from_bytes(rng_bytes(8), "big")
    orders = [(0, 1, 2), (2, 1, 0), (1, 0, 2)]  # day, dusk, violet
    base = permuted(PICTURE, orders[pick % 3]) if pick % 3 else [bytearray(r) for r in PICTURE]

    def randint(lo, hi):
        return lo + int.from_bytes(rng_bytes(4), "big") % (hi - lo + 1)

    margin = max(2, SIDE // 10)
    max_x, max_y = WIDTH - SIDE - margin, HEIGHT - SIDE - margin
    clear = SIDE + SIDE // 4
    if axis == "horizontal":
        y = randint(margin, max_y)
        hole, start = (randint(clear, max_x), y), (0, y)
    elif axis == "vertical":
        x = randint(margin, max_x)
        hole, start = (x, randint(min(clear, max_y), max_y)), (x, 0)
    else:
        while True:
            hole = (randint(margin, max_x), randint(margin, max_y))
            if hole[0] >= clear or hole[1] >= clear:
                break
        start = (0, 0)
    piece_rows = []
    for y in range(SIDE):
        src = base[hole[1] + y]
        out = bytearray(SIDE * 4)
        for x in range(SIDE):
            a = PIECE_MASK[y][x]
            if a > 0:
                r, g, b = src[3 * (hole[0] + x):3 * (hole[0] + x) + 3]
                if a < 0.999:  # a light outline so the piece stands out on any picture
                    r, g, b = (min(255, c + 90) for c in (r, g, b))
                out[4 * x:4 * x + 4] = bytes((r, g, b, int(round(255 * a))))
        piece_rows.append(out)
    # One decoy on the same row (column), clear of the start and the hole.
    for _ in range(32):
        if axis == "horizontal":
            d = (randint(2, WIDTH - SIDE - 2), min(max(hole[1] + randint(-6, 6), 2), HEIGHT - SIDE - 2))
            far = abs(d[0] - hole[0]) > SIDE + 6 and d[0] > SIDE + 6
        elif axis == "vertical":
            d = (min(max(hole[0] + randint(-6, 6), 2), WIDTH - SIDE - 2), randint(2, HEIGHT - SIDE - 2))
            far = abs(d[1] - hole[1]) > SIDE + 6 and d[1] > SIDE + 6
        else:
            d = (randint(2, WIDTH - SIDE - 2), randint(2, HEIGHT - SIDE - 2))
            far = (abs(d[0] - hole[0]) > SIDE + 6 or abs(d[1] - hole[1]) > SIDE + 6) and max(d) > SIDE + 6
        if far:
            cut_hole(base, DECOY_MASK, d[0], d[1], darkening=0.45)
            break
    cut_hole(base, PIECE_MASK, hole[0], hole[1])
    return png(WIDTH, HEIGHT, base, 3), png(SIDE, SIDE, piece_rows, 4), hole, start


# ----------------------------------------------------------------------------- helpers


def rfc3339(t):
    return datetime.fromtimestamp(t, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def leading_zero_bits(digest):
    bits = 0
    for byte in digest:
        if byte == 0:
            bits += 8
            continue
        return bits + 8 - byte.bit_length()
    return bits


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def trajectory_problem(track, x, y, start, axis, width, keyboard):
    """The first rule a track breaks (a subset of TrajectoryRules.swift), or None."""
    if not isinstance(track, list) or not all(
            isinstance(p, dict) and all(is_number(p.get(k)) for k in ("x", "y", "t")) for p in track):
        return "malformed"
    if not track:
        return "too-few-samples"
    pts = [(p["x"] / width, p["y"] / width, (p["t"] - track[0]["t"]) / 1000) for p in track]
    if any(b[2] <= a[2] for a, b in zip(pts, pts[1:])):
        return "malformed"
    end = (x / width, y / width)
    duration = pts[-1][2] - pts[0][2]
    if keyboard:
        if len(pts) - 1 < 3:
            return "too-few-samples"
        if duration < 0.3:
            return "too-quick"
        if math.hypot(pts[-1][0] - end[0], pts[-1][1] - end[1]) > 0.02:
            return "ends-elsewhere"
        gaps = [b[2] - a[2] for a, b in zip(pts[1:], pts[2:])]
        if gaps and max(gaps) - min(gaps) < 0.004:
            return "regular-keys"
        return None
    if len(pts) < 12:
        return "too-few-samples"
    if duration < 0.3:
        return "too-quick"
    if duration > 120:
        return "too-slow"
    gaps = sorted(b[2] - a[2] for a, b in zip(pts, pts[1:]))
    if not 0.001 <= gaps[len(gaps) // 2] <= 0.05:
        return "implausible-sampling"
    origin = (start[0] / width, start[1] / width)
    if math.hypot(pts[0][0] - origin[0], pts[0][1] - origin[1]) > 0.02:
        return "starts-elsewhere"
    across = {"horizontal": 1, "vertical": 0}.get(axis)
    if across is not None and max(abs(p[across] - origin[across]) for p in pts) > 0.12:
        return "off-axis"
    along = {"horizontal": 0, "vertical": 1}.get(axis)
    gap = (abs(pts[-1][along] - end[along]) if along is not None
           else math.hypot(pts[-1][0] - end[0], pts[-1][1] - end[1]))
    if gap > 0.02:
        return "ends-elsewhere"
    if max(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(pts, pts[1:])) > 0.12:
        return "large-jump"
    if across is not None:
        values = [p[across] for p in pts]
        if max(values) - min(values) < 0.0005:
            return "perfectly-steady"
    return None


# ----------------------------------------------------------------------------- state


class Service:
    """Everything the mock remembers, behind one lock."""

    def __init__(self, options, sites):
        self.options = options
        self.sites = {s["sitekey"]: s for s in sites}
        self.by_secret = {s["secret"]: s for s in sites}
        self.key = secrets.token_bytes(32)
        self.lock = threading.Lock()
        self.pending = {}  # id -> challenge record (with the answer)
        self.clients = {}  # client -> {"checks": [], "requests": [], "failures": n, "locked": t}
        self.redeemed = {}  # token nonce -> expiry
        self.idempotent = {}  # (nonce, idempotency_key) -> siteverify result
        self.metrics = {"challenges_issued": 0, "checks_passed": 0, "checks_failed": 0,
                        "checks_limited": 0, "siteverify_success": 0, "siteverify_failure": 0}

    def all_hostnames(self):
        return {h for s in self.sites.values() for h in s["hostnames"]}

    def client(self, name, now):
        record = self.clients.setdefault(name, {"checks": [], "requests": [], "failures": 0, "locked": 0.0})
        since = now - self.options.window
        record["checks"] = [t for t in record["checks"] if t > since]
        record["requests"] = [t for t in record["requests"] if t > since]
        return record

    # Issuing

    def issue(self, sitekey, action, hostname, client):
        now = time.time()
        with self.lock:
            record = self.client(client, now)
            if record["locked"] > now:
                return None, record["locked"]
            if len(record["requests"]) >= self.options.puzzles_per_window:
                return None, record["requests"][0] + self.options.window
            record["requests"].append(now)
            for cid in [c for c, p in self.pending.items() if p["expiresAt"] <= now]:
                del self.pending[cid]
        background, piece, hole, start = make_puzzle(secrets.token_bytes, self.options.axis)
        cid = secrets.token_hex(16)
        record = {"id": cid, "sitekey": sitekey, "action": action, "hostname": hostname, "client": client,
                  "hole": hole, "start": start, "axis": self.options.axis, "issuedAt": now,
                  "expiresAt": now + self.options.lifetime, "background": background, "piece": piece,
                  "pow": None if self.options.no_proof_of_work else
                  {"salt": secrets.token_hex(16), "difficulty": self.options.difficulty}}
        with self.lock:
            self.pending[cid] = record
            self.metrics["challenges_issued"] += 1
        body = {"id": cid, "axis": record["axis"], "imageWidth": WIDTH, "imageHeight": HEIGHT,
                "pieceWidth": SIDE, "pieceHeight": SIDE, "shape": "classic",
                "background": f"/v1/challenges/{cid}/background", "piece": f"/v1/challenges/{cid}/piece",
                "expiresAt": rfc3339(record["expiresAt"])}
        if record["axis"] == "horizontal":
            body["pieceY"] = start[1]
        elif record["axis"] == "vertical":
            body["pieceX"] = start[0]
        if record["pow"]:
            body["proofOfWork"] = dict(record["pow"])
        return body, None

    # Checking

    def check(self, cid, answer, hostname, client):
        """Returns (status, body, retry_after)."""
        now = time.time()
        with self.lock:
            record = self.client(client, now)
            puzzle = self.pending.pop(cid, None)  # single use, whatever the outcome
            if record["locked"] > now or len(record["checks"]) >= self.options.checks_per_window:
                until = record["locked"] if record["locked"] > now else record["checks"][0] + self.options.window
                self.metrics["checks_limited"] += 1
                return 429, {"success": False, "error-codes": ["rate-limited"]}, max(1, math.ceil(until - now))
            record["checks"].append(now)
            rule = self.judge(puzzle, answer, hostname, client, now)
            if rule is None:
                record["failures"] = 0
                self.metrics["checks_passed"] += 1
                token = self.sign(puzzle, now)
                log(f"check {cid[:8]}: passed ({'proof of work' if 'proofOfWork' in answer else answer.get('input', 'pointer')})")
                body = {"success": True, "token": token, "expiresAt": rfc3339(now + self.options.token_lifetime)}
                if "proofOfWork" not in answer:  # where the hole is, so the widget can snap
                    body["x"], body["y"] = puzzle["hole"]
                return 200, body, None
            record["failures"] += 1
            if record["failures"] >= self.options.failures_before_lockout:
                record["locked"], record["failures"] = now + self.options.lockout, 0
            self.metrics["checks_failed"] += 1
            verdict = "expired" if rule in ("unknown-puzzle", "expired") else "not-passed"
            log(f"check {cid[:8]}: {verdict} (rule: {rule})")  # the rule is for the operator only
            return 200, {"success": False, "error-codes": [verdict]}, None

    def judge(self, puzzle, answer, hostname, client, now):
        if puzzle is None:
            return "unknown-puzzle"
        if now >= puzzle["expiresAt"]:
            return "expired"
        if puzzle["client"] != client or puzzle["hostname"] != hostname:
            return "wrong-client"
        if "proofOfWork" in answer:
            pow_ = answer["proofOfWork"]
            nonce = pow_.get("nonce") if isinstance(pow_, dict) else None
            if puzzle["pow"] is None:
                return "proof-of-work-not-offered"
            if not isinstance(nonce, str) or not nonce.isdigit() or len(nonce) > 20:
                return "invalid-attempt"
            digest = hashlib.sha256(f"{puzzle['pow']['salt']}:{nonce}".encode()).digest()
            return None if leading_zero_bits(digest) >= puzzle["pow"]["difficulty"] else "proof-of-work-short"
        x, y = answer.get("x"), answer.get("y", puzzle["start"][1] if puzzle["axis"] == "horizontal" else None)
        if puzzle["axis"] == "vertical" and "x" not in answer:
            x = puzzle["start"][0]
        if not is_number(x) or not is_number(y):
            return "invalid-attempt"
        keyboard = answer.get("input") == "keyboard"
        track = answer.get("track")
        if isinstance(track, list) and len(track) > MAX_SAMPLES:
            return "invalid-attempt"
        problem = trajectory_problem(track, x, y, puzzle["start"], puzzle["axis"], WIDTH, keyboard)
        if problem:
            return problem
        dx, dy = abs(x - puzzle["hole"][0]), abs(y - puzzle["hole"][1])
        off = {"horizontal": dx, "vertical": dy}.get(puzzle["axis"], max(dx, dy))
        return None if off <= 8 else f"wrong-position ({off:.1f} px off)"

    # Tokens

    def sign(self, puzzle, now):
        claims = {"cid": puzzle["id"], "site": puzzle["sitekey"], "host": puzzle["hostname"],
                  "action": puzzle["action"], "iat": now, "exp": now + self.options.token_lifetime,
                  "n": secrets.token_hex(16)}
        payload = b64(json.dumps(claims, separators=(",", ":")).encode())
        mac = hmac.new(self.key, payload.encode(), hashlib.sha256).digest()
        return f"v1.{payload}.{b64(mac)}"

    def siteverify(self, secret, response, idempotency_key):
        def result(codes, claims=None):
            ok = not codes
            with self.lock:
                self.metrics["siteverify_success" if ok else "siteverify_failure"] += 1
            body = {"success": ok, "error-codes": codes}
            if claims:
                body.update({"challenge_ts": rfc3339(claims["iat"]), "hostname": claims["host"],
                             "action": claims["action"] or ""})
            return body

        if not secret:
            return result(["missing-input-secret"])
        site = self.by_secret.get(secret)
        if site is None:
            return result(["invalid-input-secret"])
        if not response:
            return result(["missing-input-response"])
        try:
            version, payload, mac = response.split(".")
            good = hmac.new(self.key, payload.encode(), hashlib.sha256).digest()
            if version != "v1" or len(response) > 2048 or not hmac.compare_digest(unb64(mac), good):
                raise ValueError
            claims = json.loads(unb64(payload))
        except (ValueError, TypeError):
            return result(["invalid-input-response"])
        if claims["site"] != site["sitekey"]:
            return result(["invalid-input-response"])
        now = time.time()
        with self.lock:
            if idempotency_key and (claims["n"], idempotency_key) in self.idempotent:
                return self.idempotent[(claims["n"], idempotency_key)]
            if claims["exp"] <= now or claims["n"] in self.redeemed:
                outcome = None
            else:
                self.redeemed[claims["n"]] = claims["exp"]
                self.redeemed = {n: e for n, e in self.redeemed.items() if e > now}
                outcome = True
        body = result([] if outcome else ["timeout-or-duplicate"], claims if outcome else None)
        if idempotency_key and outcome:
            with self.lock:
                self.idempotent[(claims["n"], idempotency_key)] = body
        return body


def log(message):
    if not OPTIONS.quiet:
        print(f"[mock {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------- HTTP


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "tactile-mock/1"

    def log_message(self, format, *args):
        if OPTIONS.verbose:
            log(format % args)

    # Responses

    def send(self, status, body=b"", content_type="application/json", headers=()):
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        elif isinstance(body, str):
            body = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def read_body(self):
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit():
            return None
        if int(length) > MAX_BODY:
            raise OverflowError
        return self.rfile.read(int(length))

    # CORS: the caller's host must be one of a site's hostnames.

    def caller(self):
        """(origin, hostname) from Origin, or from Referer; (None, None) without either."""
        origin = self.headers.get("Origin")
        if origin and origin != "null":
            return origin, urllib.parse.urlsplit(origin).hostname
        referer = self.headers.get("Referer")
        if referer:
            parts = urllib.parse.urlsplit(referer)
            return None, parts.hostname
        return None, None

    def cors(self, allowed_hosts):
        origin, host = self.caller()
        if origin and host in allowed_hosts:
            return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin"),
                    ("Access-Control-Expose-Headers", "Retry-After, Date")]
        return [("Vary", "Origin")]

    def client_name(self):
        return self.client_address[0]

    # Routing

    def do_OPTIONS(self):
        path = urllib.parse.urlsplit(self.path).path
        origin, host = self.caller()
        if path == "/v1/challenges" or (path.startswith("/v1/challenges/") and path.endswith("/answer")):
            if origin and host in SERVICE.all_hostnames():
                return self.send(204, b"", "text/plain", [
                    ("Access-Control-Allow-Origin", origin), ("Vary", "Origin"),
                    ("Access-Control-Allow-Methods", "POST"),
                    ("Access-Control-Allow-Headers", "Content-Type"),
                    ("Access-Control-Max-Age", "600")])
            return self.send(403, {"error-codes": ["origin-not-allowed"]}, headers=[("Vary", "Origin")])
        self.send(405, {"error-codes": ["bad-request"]}, headers=[("Allow", "GET, POST")])

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        parts = path.strip("/").split("/")
        if path == "/widget.js":
            return self.static("widget.js", "text/javascript; charset=utf-8",
                               [("Access-Control-Allow-Origin", "*"), ("Cache-Control", "no-cache")])
        part = re.fullmatch(r"/widget/([a-z-]+)\.(js|css)", path)
        if part:  # the modules widget.js imports, and its style sheet
            kind = "text/javascript" if part.group(2) == "js" else "text/css"
            return self.static(os.path.join("widget", f"{part.group(1)}.{part.group(2)}"), f"{kind}; charset=utf-8",
                               [("Access-Control-Allow-Origin", "*"), ("Cache-Control", "no-cache")])
        if path == "/demo":
            return self.demo_form()
        if path == "/healthz":
            return self.send(200, "ok\n", "text/plain; charset=utf-8")
        if path == "/metrics":
            with SERVICE.lock:
                lines = [f"# TYPE tactile_{k}_total counter\ntactile_{k}_total {v}" for k, v in SERVICE.metrics.items()]
                lines.append(f"# TYPE tactile_pending_challenges gauge\ntactile_pending_challenges {len(SERVICE.pending)}")
            return self.send(200, "\n".join(lines) + "\n", "text/plain; version=0.0.4")
        if len(parts) == 4 and parts[:2] == ["v1", "challenges"] and parts[3] in ("background", "piece"):
            with SERVICE.lock:
                puzzle = SERVICE.pending.get(parts[2])
            if puzzle is None or puzzle["expiresAt"] <= time.time():
                return self.send(404, {"error-codes": ["expired"]})
            return self.send(200, puzzle[parts[3]], "image/png")
        if OPTIONS.reveal and len(parts) == 3 and parts[:2] == ["test", "answer"]:
            with SERVICE.lock:
                puzzle = SERVICE.pending.get(parts[2])
            if puzzle is None:
                return self.send(404, {"error": "no such pending challenge"})
            return self.send(200, {"x": puzzle["hole"][0], "y": puzzle["hole"][1],
                                   "startX": puzzle["start"][0], "startY": puzzle["start"][1]})
        self.send(404, {"error-codes": ["not-found"]})

    def do_POST(self):
        path = urllib.parse.urlsplit(self.path).path
        parts = path.strip("/").split("/")
        try:
            raw = self.read_body()
        except OverflowError:
            return self.send(413, {"success": False, "error-codes": ["bad-request"]})
        if raw is None:
            return self.send(411, {"success": False, "error-codes": ["bad-request"]})
        if path == "/v1/challenges":
            return self.new_challenge(raw)
        if len(parts) == 4 and parts[:2] == ["v1", "challenges"] and parts[3] == "answer":
            return self.answer(parts[2], raw)
        if path == "/v1/siteverify":
            return self.siteverify(raw)
        if path == "/demo":
            return self.demo_result(raw)
        if OPTIONS.reveal and len(parts) == 3 and parts[:2] == ["test", "expire"]:
            with SERVICE.lock:
                puzzle = SERVICE.pending.get(parts[2])
                if puzzle:
                    puzzle["expiresAt"] = time.time() - 1
            return self.send(200 if puzzle else 404, {"expired": bool(puzzle)})
        self.send(404, {"error-codes": ["not-found"]})

    # Challenge endpoints

    def json_body(self, raw):
        try:
            body = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            return None
        return body if isinstance(body, dict) else None

    def new_challenge(self, raw):
        body = self.json_body(raw)
        cors = self.cors(SERVICE.all_hostnames())
        if body is None or not isinstance(body.get("sitekey"), str):
            return self.send(400, {"success": False, "error-codes": ["bad-request"]}, headers=cors)
        site = SERVICE.sites.get(body["sitekey"])
        action = body.get("action")
        if action is not None and (not isinstance(action, str) or len(action) > 32):
            return self.send(400, {"success": False, "error-codes": ["bad-request"]}, headers=cors)
        if site is None:
            return self.send(400, {"success": False, "error-codes": ["invalid-sitekey"]}, headers=cors)
        _, host = self.caller()
        if host not in site["hostnames"]:
            return self.send(403, {"success": False, "error-codes": ["invalid-hostname"]}, headers=cors)
        challenge, until = SERVICE.issue(site["sitekey"], action, host, self.client_name())
        if challenge is None:
            wait = max(1, math.ceil(until - time.time()))
            return self.send(429, {"success": False, "error-codes": ["rate-limited"]},
                             headers=cors + [("Retry-After", str(wait))])
        self.send(201, challenge, headers=cors)

    def answer(self, cid, raw):
        with SERVICE.lock:
            puzzle = SERVICE.pending.get(cid)
        allowed = SERVICE.all_hostnames() if puzzle is None else SERVICE.sites[puzzle["sitekey"]]["hostnames"]
        cors = self.cors(allowed)
        body = self.json_body(raw)
        if body is None:
            return self.send(400, {"success": False, "error-codes": ["bad-request"]}, headers=cors)
        _, host = self.caller()
        status, result, retry = SERVICE.check(cid, body, host, self.client_name())
        headers = cors + ([("Retry-After", str(retry))] if retry else [])
        self.send(status, result, headers=headers)

    def siteverify(self, raw):
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind == "application/json":
            body = self.json_body(raw)
        else:
            try:
                body = {k: v[0] for k, v in urllib.parse.parse_qs(raw.decode(), strict_parsing=False).items()}
            except UnicodeDecodeError:
                body = None
        if body is None or not all(isinstance(body.get(k, ""), str) for k in ("secret", "response", "idempotency_key")):
            return self.send(200, {"success": False, "error-codes": ["bad-request"]})
        self.send(200, SERVICE.siteverify(body.get("secret"), body.get("response"), body.get("idempotency_key")))

    # The demo site: a sign-up form and the handler a real site would write.

    def static(self, name, content_type, headers=()):
        try:
            with open(os.path.join(OPTIONS.web, name), "rb") as f:
                data = f.read()
        except OSError:
            return self.send(404, {"error-codes": ["not-found"]})
        self.send(200, data, content_type, headers)

    def demo_form(self):
        with open(os.path.join(OPTIONS.web, "demo.html"), encoding="utf-8") as f:
            page = f.read().replace("{{SITEKEY}}", html.escape(DEMO_SITE["sitekey"]))
        self.send(200, page, "text/html; charset=utf-8")

    def demo_result(self, raw):
        form = {k: v[0] for k, v in urllib.parse.parse_qs(raw.decode("utf-8", "replace")).items()}
        # What any site does: send the token and its secret to siteverify, server to server.
        request = urllib.request.Request(
            f"http://{self.server.server_address[0]}:{self.server.server_address[1]}/v1/siteverify",
            data=urllib.parse.urlencode({"secret": DEMO_SITE["secret"],
                                         "response": form.get("tactile-captcha-response", ""),
                                         "remoteip": self.client_address[0]}).encode(),
            headers={"Content-Type": "application/x-www-form-urlencoded"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                verdict = json.load(response)
        except (OSError, ValueError):
            verdict = {"success": False, "error-codes": ["internal-error"]}
        self.send(200, render_result(form, verdict), "text/html; charset=utf-8")


REASONS = {
    "missing-input-secret": "the site sent no secret",
    "invalid-input-secret": "the site's secret is unknown",
    "missing-input-response": "the form carried no captcha token (was the puzzle solved?)",
    "invalid-input-response": "the token is forged, damaged or for another site",
    "timeout-or-duplicate": "the token was already used or has expired",
    "bad-request": "siteverify could not read the request",
    "internal-error": "siteverify could not be reached",
}


def render_result(form, verdict):
    """The result page, from demo-result.html (the Swift demo handler fills the same template)."""
    with open(os.path.join(OPTIONS.web, "demo-result.html"), encoding="utf-8") as f:
        page = f.read()
    ok = verdict.get("success") is True
    name = form.get("name", "").strip()[:80]
    if ok:
        heading = f"Verified — welcome, {name}!" if name else "Verified — welcome!"
        summary = (f"siteverify accepted the token: hostname {verdict.get('hostname', '?')}, "
                   f"action {verdict.get('action') or '(none)'}, solved at {verdict.get('challenge_ts', '?')}.")
    else:
        heading = "Not verified"
        summary = "siteverify refused the token, so the sign-up was not accepted."
    codes = [c for c in verdict.get("error-codes", []) if isinstance(c, str)]
    errors = "".join(f'<li><code>{html.escape(c)}</code> — {html.escape(REASONS.get(c, "unknown reason"))}</li>'
                     for c in codes)
    return (page.replace("{{SUCCESS}}", "true" if ok else "false")
            .replace("{{HEADING}}", html.escape(heading))
            .replace("{{SUMMARY}}", html.escape(summary))
            .replace("{{ERRORS}}", errors))


# ----------------------------------------------------------------------------- main


def parse(argv):
    p = argparse.ArgumentParser(description="TEST DOUBLE of `tactile puzzle serve` (not the service).")
    p.add_argument("--listen", default="127.0.0.1:8080", help="HOST:PORT (port 0 picks a free one)")
    p.add_argument("--sites", help="JSON array of {sitekey, secret, hostnames}; default: the dev site only")
    p.add_argument("--web", default=DEFAULT_WEB, help="where widget.js, demo.html, demo-result.html are")
    p.add_argument("--axis", choices=("horizontal", "vertical", "free"), default="horizontal")
    p.add_argument("--lifetime", type=float, default=120, help="seconds a puzzle can be answered")
    p.add_argument("--token-lifetime", type=float, default=180)
    p.add_argument("--difficulty", type=int, default=12, help="proof-of-work leading zero bits")
    p.add_argument("--no-proof-of-work", action="store_true", help="the site's policy refuses proof of work")
    p.add_argument("--window", type=float, default=60, help="rate-limit window, seconds")
    p.add_argument("--checks-per-window", type=int, default=10)
    p.add_argument("--puzzles-per-window", type=int, default=30)
    p.add_argument("--failures-before-lockout", type=int, default=5)
    p.add_argument("--lockout", type=float, default=60)
    p.add_argument("--reveal", action="store_true", help="tests only: GET /test/answer/{id}, POST /test/expire/{id}")
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--verbose", action="store_true", help="log every request")
    return p.parse_args(argv)


def main(argv):
    global OPTIONS, SERVICE
    OPTIONS = parse(argv)
    host, _, port = OPTIONS.listen.rpartition(":")
    sites = [DEV_SITE]
    if OPTIONS.sites:
        with open(OPTIONS.sites, encoding="utf-8") as f:
            sites = json.load(f)
    SERVICE = Service(OPTIONS, sites)
    global PICTURE, DEMO_SITE
    DEMO_SITE = sites[0]
    PICTURE = landscape()
    server = ThreadingHTTPServer((host or "127.0.0.1", int(port)), Handler)
    server.daemon_threads = True
    bound = server.server_address
    print("TEST DOUBLE of tactile puzzle serve — not the service", flush=True)
    print(f"demo site key {DEMO_SITE['sitekey']}, secret {DEMO_SITE['secret']}", flush=True)
    print(f"listening on http://{bound[0]}:{bound[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


OPTIONS = None
SERVICE = None
DEMO_SITE = DEV_SITE

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
