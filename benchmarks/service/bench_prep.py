#!/usr/bin/env python3
"""Prepares answers for the answer+verify phase of scripts/bench-serve.sh (not timed).

Asks the service for COUNT challenges, spread over CLIENTS client addresses (X-Forwarded-For,
so the service must trust 127.0.0.1 as a proxy), looks each answer up at /test/answer/{id}
(serve --reveal-answers-for-tests yes), and writes one line per challenge to OUT:

    client <TAB> challenge id <TAB> answer JSON (a person's drag onto the hole, human_track.py)

The answer must come from the client the challenge was issued to; bench_answers.lua sends it
with that X-Forwarded-For. Stops early after --budget seconds (a slow store), so that no
puzzle is near its two-minute lifetime when it is answered; says how many it made.

Usage: bench_prep.py --base URL --sitekey KEY --count N --out FILE
                     [--clients 32] [--threads 8] [--budget 60] [--prefix 10.200] [--seed 1]
"""
import argparse
import http.client
import json
import os
import random
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import human_track  # noqa: E402


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--base", required=True)
    parser.add_argument("--sitekey", required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--prefix", default="10.200", help="first two bytes of client addresses")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args(argv)
    url = urllib.parse.urlsplit(options.base)
    deadline = time.monotonic() + options.budget
    lines = []
    problems = []
    lock = threading.Lock()
    counter = iter(range(options.count))

    def work():
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)

        def call(method, path, body, client):
            headers = {"Origin": "http://localhost", "X-Forwarded-For": client}
            if body is not None:
                headers["Content-Type"] = "application/json"
            connection.request(method, path, None if body is None else json.dumps(body), headers)
            response = connection.getresponse()
            return response.status, response.read()

        while time.monotonic() < deadline:
            with lock:
                index = next(counter, None)
            if index is None:
                return
            client = f"{options.prefix}.{index % options.clients // 250}.{index % options.clients % 250 + 1}"
            try:
                status, body = call("POST", "/v1/challenges", {"sitekey": options.sitekey}, client)
                if status != 201:
                    raise RuntimeError(f"POST /v1/challenges answered {status}: {body[:200]!r}")
                challenge = json.loads(body)
                status, body = call("GET", f"/test/answer/{challenge['id']}", None, client)
                if status != 200:
                    raise RuntimeError(f"GET /test/answer answered {status}: {body[:200]!r}")
                hole = json.loads(body)
            except (OSError, RuntimeError, ValueError, http.client.HTTPException) as error:
                with lock:
                    problems.append(str(error))
                connection.close()
                if len(problems) > 20:
                    return
                continue
            answer = human_track.answer(challenge, hole["x"], hole["y"],
                                        random.Random(options.seed * 1_000_003 + index))
            with lock:
                lines.append(f"{client}\t{challenge['id']}\t{json.dumps(answer, separators=(',', ':'))}\n")

    start = time.monotonic()
    workers = [threading.Thread(target=work) for _ in range(options.threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    with open(options.out, "w") as out:
        out.writelines(lines)
    seconds = time.monotonic() - start
    note = "" if len(lines) == options.count else f" (of {options.count}: the {options.budget:g} s budget ran out)"
    print(f"prepared {len(lines)} answers in {seconds:.1f} s{note}", file=sys.stderr)
    for problem in problems[:5]:
        print(f"bench_prep.py: {problem}", file=sys.stderr)
    return 1 if problems and not lines else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
