#!/usr/bin/env python3
"""The paced client of scripts/soak-serve.sh: a steady mix of captcha traffic at a fixed rate.

Every 1/RATE seconds one request is due (an open loop: a slow answer does not delay the next
request, it only adds to the backlog, which is reported). It is, in order of preference:

  * 1 in 100: a malformed request (bad JSON, oversized fields or bodies, unknown ids, wrong
    methods, unknown paths, replays), from clients of their own so that their failures do not
    lock out the others;
  * the next step of a flow under way: the background, the piece, the answer (looked up at
    /test/answer/{id}, serve --reveal-answers-for-tests, then a person's drag onto the hole,
    human_track.py) and the token's siteverify;
  * else a new flow: POST /v1/challenges.

Each request kind has the status (and, where the contract answers 200 to a refusal, the
body) it must get; anything else counts as unexpected. Clients rotate through enough
X-Forwarded-For addresses that none reaches the site's default limits (30 puzzles, 10
answers a minute). Every 10 s it samples the service's VmRSS from /proc/PID/status.

Prints a report and exits 1 when a request got an unexpected answer or the RSS grew more than
10 % after the warm-up (from its first sample after the warm-up to the largest after it).

Usage: soak_client.py --base URL --sitekey KEY --secret SECRET --pid PID
                      [--seconds 600] [--rate 100] [--warmup 60] [--seed 1]
"""
import argparse
import collections
import http.client
import json
import math
import os
import queue
import random
import socket
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import human_track  # noqa: E402

JSON = {"Content-Type": "application/json"}


class Outcome:
    """What a request got: status, parsed JSON body (or None) and the raw body's start."""

    def __init__(self, status, body, content_type):
        self.status = status
        self.content_type = content_type or ""
        self.raw = body[:200]
        try:
            self.json = json.loads(body) if self.content_type.startswith("application/json") else None
        except ValueError:
            self.json = None

    def field(self, name):
        return self.json.get(name) if isinstance(self.json, dict) else None

    def codes(self):
        return self.field("error-codes") or []


class Soak:
    def __init__(self, options):
        self.options = options
        url = urllib.parse.urlsplit(options.base)
        self.host, self.port = url.hostname, url.port
        self.rng = random.Random(options.seed)
        self.lock = threading.Lock()
        self.ready = collections.deque()  # next steps of flows under way
        self.jobs = queue.Queue()
        self.counts = collections.Counter()  # (kind, status)
        self.unexpected = collections.Counter()  # (kind, what)
        self.examples = {}
        self.latencies = collections.defaultdict(list)
        self.spent_tokens = collections.deque(maxlen=100)
        self.answered_ids = collections.deque(maxlen=100)
        self.late = 0
        self.max_backlog = 0
        self.rss = []  # (seconds since start, kB)
        # Each flow client gives at most about 3 flows a minute (the site's default limits are
        # 30 puzzles and 10 answers a minute per client).
        flows_per_minute = options.rate * 60 / 6
        self.flow_clients = max(1000, math.ceil(flows_per_minute / 3))
        self.flow_count = 0
        self.malformed_count = 0

    # ------------------------------------------------------------------ requests

    def call(self, connection, method, path, body=None, headers=None):
        data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
        connection.request(method, path, data, headers or {})
        response = connection.getresponse()
        return Outcome(response.status, response.read(), response.getheader("Content-Type"))

    def page(self, client):
        return {"Origin": "http://localhost", "X-Forwarded-For": client, **JSON}

    def client_for_flow(self):
        self.flow_count += 1
        n = self.flow_count % self.flow_clients
        return f"10.{50 + n // 62500}.{n // 250 % 250}.{n % 250 + 1}"

    def client_for_malformed(self):
        with self.lock:
            self.malformed_count += 1
            n = self.malformed_count % 1000
        return f"10.40.{n // 250}.{n % 250 + 1}"

    # A step returns (kind, outcome, what went wrong or None, the flow's next step or None).

    def step_create(self, connection, flow):
        out = self.call(connection, "POST", "/v1/challenges", {"sitekey": self.options.sitekey},
                        self.page(flow["client"]))
        if out.status != 201 or not out.field("id"):
            return "create", out, "not 201 with an id", None
        flow["challenge"] = out.json
        return "create", out, None, self.step_background

    def step_background(self, connection, flow):
        out = self.call(connection, "GET", flow["challenge"]["background"])
        if out.status != 200 or not out.content_type.startswith("image/"):
            return "background", out, "not 200 with an image", None
        return "background", out, None, self.step_piece

    def step_piece(self, connection, flow):
        out = self.call(connection, "GET", flow["challenge"]["piece"])
        if out.status != 200 or out.content_type != "image/png":
            return "piece", out, "not 200 with a PNG", None
        return "piece", out, None, self.step_reveal

    def step_reveal(self, connection, flow):
        out = self.call(connection, "GET", f"/test/answer/{flow['challenge']['id']}")
        if out.status != 200 or out.field("x") is None:
            return "reveal", out, "not 200 with the answer", None
        flow["hole"] = out.json
        return "reveal", out, None, self.step_answer

    def step_answer(self, connection, flow):
        challenge = flow["challenge"]
        body = human_track.answer(challenge, flow["hole"]["x"], flow["hole"]["y"], flow["rng"])
        out = self.call(connection, "POST", f"/v1/challenges/{challenge['id']}/answer", body,
                        self.page(flow["client"]))
        with self.lock:
            self.answered_ids.append(challenge["id"])
        if out.status != 200 or out.field("success") is not True or not out.field("token"):
            return "answer", out, "not 200 with success and a token", None
        flow["token"] = out.field("token")
        return "answer", out, None, self.step_verify

    def step_verify(self, connection, flow):
        out = self.call(connection, "POST", "/v1/siteverify",
                        {"secret": self.options.secret, "response": flow["token"]}, JSON)
        with self.lock:
            self.spent_tokens.append(flow["token"])
        if out.status != 200 or out.field("success") is not True:
            return "verify", out, "not 200 with success", None
        return "verify", out, None, None

    def malformed(self, connection, rng):
        """One malformed request, chosen at random: (kind, outcome, wrong or None)."""
        client = self.client_for_malformed()
        page = self.page(client)
        unknown = "%032x" % rng.getrandbits(128)
        secret = self.options.secret
        with self.lock:
            spent = self.spent_tokens[-1] if self.spent_tokens else None
            answered = self.answered_ids[-1] if self.answered_ids else None

        def status(*codes):
            return lambda out: None if out.status in codes else f"not {'/'.join(map(str, codes))}"

        def refusal(code):
            def check(out):
                ok = out.status == 200 and out.field("success") is False and code in out.codes()
                return None if ok else f"not 200 refusing with {code}"
            return check

        def post(path, body, headers=page):
            return lambda: self.call(connection, "POST", path, body, headers)

        def get(path):
            return lambda: self.call(connection, "GET", path)

        track = [{"x": i, "y": 100, "t": i * 16} for i in range(20)]
        answer_path = f"/v1/challenges/{unknown}/answer"
        cases = [
            ("bad-json-challenge", post("/v1/challenges", b'{"sitekey": '), status(400)),
            ("oversized-sitekey", post("/v1/challenges", {"sitekey": "k" * 20_000}), status(400)),
            ("oversized-action", post("/v1/challenges", {"sitekey": self.options.sitekey,
                                                          "action": "a" * 300}), status(400)),
            ("oversized-body", lambda: self.call_with_continue("/v1/challenges", b" " * 1_100_000, page),
             status(413)),
            ("bad-json-answer", post(answer_path, b'{"x": 1, "track": ['), status(400)),
            ("oversized-track", lambda: self.call(connection, "POST", answer_path, {
                "x": 1, "track": [{"x": i * 0.01, "y": 0, "t": i * 16} for i in range(12_000)]}, page),
             status(400)),
            ("answer-unknown-id", post(answer_path, {"x": 19, "track": track}), refusal("expired")),
            ("image-unknown-id", get(f"/v1/challenges/{unknown}/background"), status(404)),
            ("image-bad-id", get("/v1/challenges/%2e%2e%2fetc/piece"), status(404)),
            ("wrong-method", lambda: self.call(connection, *rng.choice([
                ("GET", "/v1/siteverify"), ("PUT", "/v1/challenges"), ("DELETE", answer_path),
                ("POST", "/healthz")]), b"{}", JSON), status(405)),
            ("unknown-path", get("/v1/nothing-here"), status(404)),
            ("verify-bad-token", post("/v1/siteverify", {"secret": secret, "response": "x" * 500}, JSON),
             refusal("invalid-input-response")),
            ("verify-bad-json", post("/v1/siteverify", b"{secret", JSON), refusal("bad-request")),
            ("verify-wrong-secret", post("/v1/siteverify", {"secret": "not-the-secret-at-all",
                                                            "response": spent or "x"}, JSON),
             refusal("invalid-input-secret")),
        ]
        if answered:
            cases.append(("answer-replayed", post(f"/v1/challenges/{answered}/answer",
                                                  {"x": 19, "track": track}), refusal("expired")))
        if spent:
            cases.append(("verify-replayed", post("/v1/siteverify", {"secret": secret, "response": spent},
                                                  JSON), refusal("timeout-or-duplicate")))
        kind, send, check = rng.choice(cases)
        try:
            out = send()
        except (OSError, http.client.HTTPException) as error:
            connection.close()
            return kind, None, f"{type(error).__name__}: {error}"
        return kind, out, check(out)

    def call_with_continue(self, path, body, headers):
        """POSTs a large body the way HTTP clients do (curl among them): with Expect:
        100-continue, sending the body only after the service's 100 Continue, so that a
        refusal of the declared length arrives instead of a reset connection."""
        with socket.create_connection((self.host, self.port), timeout=15) as sock:
            lines = [f"POST {path} HTTP/1.1", f"Host: {self.host}:{self.port}",
                     f"Content-Length: {len(body)}", "Expect: 100-continue", "Connection: close"]
            lines += [f"{name}: {value}" for name, value in headers.items()]
            sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
            stream = sock.makefile("rb")

            def head():
                status = int(stream.readline().split()[1])
                fields = {}
                for line in iter(stream.readline, b""):
                    if line in (b"\r\n", b"\n"):
                        break
                    name, _, value = line.decode("latin-1").partition(":")
                    fields[name.strip().lower()] = value.strip()
                return status, fields

            status, fields = head()
            if status == 100:
                sock.sendall(body)
                status, fields = head()
            content = stream.read(int(fields.get("content-length", "0")))
            return Outcome(status, content, fields.get("content-type"))

    # ------------------------------------------------------------------ running

    def record(self, kind, out, wrong, started):
        elapsed = time.monotonic() - started
        with self.lock:
            status = out.status if out else "no answer"
            self.counts[(kind, status)] += 1
            self.latencies[kind].append(elapsed)
            if wrong:
                self.unexpected[(kind, f"{status}: {wrong}")] += 1
                self.examples.setdefault((kind, status), out.raw if out else wrong)

    def worker(self):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=15)
        rng = random.Random(self.rng.random())
        while True:
            job = self.jobs.get()
            if job is None:
                return
            due, step, flow = job
            started = time.monotonic()
            if started - due > 0.1:
                with self.lock:
                    self.late += 1
            try:
                if step is None:
                    kind, out, wrong = self.malformed(connection, rng)
                    following = None
                else:
                    kind, out, wrong, following = step(connection, flow)
            except (OSError, http.client.HTTPException) as error:
                connection.close()
                kind = "malformed" if step is None else step.__name__.replace("step_", "")
                out, wrong, following = None, f"{type(error).__name__}: {error}", None
            self.record(kind, out, wrong, started)
            if following:
                with self.lock:
                    self.ready.append((following, flow))

    def sampler(self, start, stop):
        path = f"/proc/{self.options.pid}/status"
        while True:
            try:
                with open(path) as status:
                    for line in status:
                        if line.startswith("VmRSS:"):
                            self.rss.append((time.monotonic() - start, int(line.split()[1])))
            except OSError:
                self.rss.append((time.monotonic() - start, None))
            if stop.wait(10):
                return

    def run(self):
        options = self.options
        workers = [threading.Thread(target=self.worker, daemon=True) for _ in range(options.workers)]
        for worker in workers:
            worker.start()
        start = time.monotonic()
        stop = threading.Event()
        sampler = threading.Thread(target=self.sampler, args=(start, stop), daemon=True)
        sampler.start()
        total = int(options.seconds * options.rate)
        next_report = start + 60
        for index in range(total):
            due = start + index / options.rate
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            if self.rng.random() < 0.01:
                self.jobs.put((due, None, None))
            else:
                with self.lock:
                    job = self.ready.popleft() if self.ready else None
                if job is None:
                    flow = {"client": self.client_for_flow(), "rng": random.Random(self.rng.random())}
                    job = (self.step_create, flow)
                self.jobs.put((due, *job))
            self.max_backlog = max(self.max_backlog, self.jobs.qsize())
            if time.monotonic() >= next_report:
                next_report += 60
                with self.lock:
                    done = sum(self.counts.values())
                    bad = sum(self.unexpected.values())
                rss = self.rss[-1][1] if self.rss else None
                print(f"  {int(time.monotonic() - start)} s: {done} requests, {bad} unexpected, "
                      f"RSS {rss} kB, backlog {self.jobs.qsize()}", file=sys.stderr, flush=True)
        elapsed = time.monotonic() - start
        for _ in workers:
            self.jobs.put(None)
        for worker in workers:
            worker.join(20)
        stop.set()
        sampler.join(5)
        return elapsed

    def report(self, elapsed):
        options = self.options
        done = sum(self.counts.values())
        print(f"\nsoak: {done} requests in {elapsed:.0f} s ({done / elapsed:.1f}/s, target "
              f"{options.rate:g}/s); {self.late} started over 100 ms late, largest backlog "
              f"{self.max_backlog}; {self.flow_clients} flow clients")
        by_status = collections.Counter()
        for (kind, status), count in self.counts.items():
            by_status[status] += count
        print("requests by status: " + ", ".join(
            f"{status}: {by_status[status]}" for status in sorted(by_status, key=str)))
        print(f"\n{'kind':<22} {'requests':>9} {'unexpected':>10} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  statuses")
        kinds = sorted({kind for kind, _ in self.counts})
        for kind in kinds:
            times = sorted(self.latencies[kind])
            statuses = ", ".join(f"{s}: {c}" for (k, s), c in sorted(self.counts.items(), key=str) if k == kind)
            bad = sum(c for (k, _), c in self.unexpected.items() if k == kind)

            def at(q):
                return times[min(len(times) - 1, int(q * len(times)))] * 1000

            print(f"{kind:<22} {len(times):>9} {bad:>10} {at(0.5):>8.1f} {at(0.99):>8.1f} "
                  f"{times[-1] * 1000:>8.1f}  {statuses}")
        unexpected = sum(self.unexpected.values())
        print(f"\nunexpected answers: {unexpected}")
        for (kind, what), count in sorted(self.unexpected.items()):
            print(f"  {kind}: {what} ({count}×)")
        for (kind, status), example in sorted(self.examples.items(), key=str)[:10]:
            print(f"  e.g. {kind} {status}: {example!r}")

        samples = [(t, kb) for t, kb in self.rss if kb is not None]
        print("\nRSS every 10 s (MiB): " + " ".join(f"{kb / 1024:.0f}" for _, kb in samples))
        after = [kb for t, kb in samples if t >= options.warmup]
        grew = False
        if len(after) >= 2:
            first, last, peak = after[0], after[-1], max(after)
            grew = peak > first * 1.10
            print(f"RSS after the {options.warmup:g} s warm-up: first {first / 1024:.1f} MiB, last "
                  f"{last / 1024:.1f} MiB, max {peak / 1024:.1f} MiB: "
                  f"{'grew by more than' if grew else 'stayed within'} 10 % "
                  f"(max {100 * (peak / first - 1):+.1f} %)")
        else:
            print("RSS: too few samples after the warm-up to judge")
        if any(kb is None for _, kb in self.rss):
            print("the service's /proc status could not be read at some samples (did it exit?)")
            unexpected += 1
        return 1 if unexpected or grew else 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--base", required=True)
    parser.add_argument("--sitekey", required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--rate", type=float, default=100)
    parser.add_argument("--warmup", type=float, default=60)
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args(argv)
    soak = Soak(options)
    try:
        elapsed = soak.run()
    except KeyboardInterrupt:
        print("soak_client.py: interrupted", file=sys.stderr)
        return 130
    return soak.report(elapsed)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
