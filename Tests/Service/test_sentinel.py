"""`tactile puzzle serve` on Redis Sentinel follows a failover and never spends a token twice.

The test starts (Tests/Support/harness.py), on free loopback ports, a Redis primary, one
replica, three Sentinels watching them, and one serve (the binary TACTILE names) on
`redis-sentinel://…/tactile`; Tests/Service/sentinel.sh runs it.

Two clients pass puzzles (the proof of work alone, so no drag is ever a replay of another)
and redeem most of their tokens at once, keeping some for later. Once ten tokens are
redeemed, the primary is killed (SIGKILL). The test checks that:
  - the service passes and redeems again within 10 s of the kill, with no restart;
  - no token is redeemed twice: not during the failover, and not after it (every token
    redeemed before is refused as a duplicate by the new primary);
  - a token passed before the kill and not yet redeemed redeems once after it.
It prints how long siteverify took with the wait for the replica, and on the new primary
(which has no replica left, so the Sentinels confirm it instead), p50 and p95. Plain python3.
"""
import base64
import collections
import hashlib
import json
import os
import re
import sys
import threading
import time
import unittest
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Browser"))
sys.path.insert(0, os.path.join(HERE, "..", "Support"))
from harness import PATIENCE, StartFailure, site, start_redis, start_serve  # noqa: E402
from testrun import run_module  # noqa: E402

SITEKEY = "sentinel-test-site"
ORIGIN = "http://127.0.0.1"
URL = ""
SECRET = ""
PRIMARY = None
STARTED = []  # everything, for the logs of a failed run

# Each Sentinel watches the primary as "tactile"; two must agree that it is down.
SENTINEL = """sentinel monitor tactile 127.0.0.1 {primary} 2
sentinel down-after-milliseconds tactile 1000
sentinel failover-timeout tactile 5000
"""


def setUpModule():
    global URL, SECRET, PRIMARY
    if not os.environ.get("TACTILE"):
        raise unittest.SkipTest("needs TACTILE, the tactile binary (Tests/Service/sentinel.sh sets it)")
    PRIMARY = start_redis("--repl-diskless-sync-delay", "0", name="primary")
    replica = start_redis("--replicaof", "127.0.0.1", PRIMARY.port, name="replica")
    STARTED.extend([PRIMARY, replica])
    # The replica must hold a copy before the test begins (a replica still copying cannot take
    # over with what was told).
    deadline = time.monotonic() + PATIENCE
    while replica.info("replication").get("master_link_status") != "up":
        if time.monotonic() > deadline:
            raise StartFailure(f"the replica did not copy the primary within {PATIENCE} s; the end of its "
                               f"log ({replica.log}):\n{replica.tail()}")
        time.sleep(0.1)
    sentinels = [start_redis(config=SENTINEL.format(primary=PRIMARY.port), sentinel=True, name=f"sentinel{n}")
                 for n in (1, 2, 3)]
    STARTED.extend(sentinels)
    store = "redis-sentinel://" + ",".join(f"127.0.0.1:{s.port}" for s in sentinels) + "/tactile"
    sites = [site(SITEKEY, hostnames=["127.0.0.1"], proofOfWorkDifficulty=8, puzzlesPerMinute=100000,
                  answersPerMinute=100000, sitePuzzlesPerMinute=1000000)]
    SECRET = sites[0]["secret"]
    serve = start_serve(os.environ["TACTILE"], "--store", store, "--reveal-answers-for-tests", "yes", sites=sites)
    STARTED.insert(0, serve)
    URL = serve.url
    print(f"serve at {URL} on {store} (primary :{PRIMARY.port}, replica :{replica.port})", flush=True)


def request(path, data=None, timeout=PATIENCE):
    body = json.dumps(data).encode() if data is not None else None
    req = urllib.request.Request(
        URL + path, data=body, method="POST" if data is not None else "GET",
        headers={"Origin": ORIGIN, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, {}
    except (OSError, ValueError):
        return 0, {}


def solve(salt, bits):
    """The first nonce whose SHA-256(salt:nonce) starts with `bits` zero bits."""
    nonce = 0
    while True:
        digest = hashlib.sha256(f"{salt}:{nonce}".encode()).digest()
        zeros = 0
        for byte in digest:
            if byte == 0:
                zeros += 8
                continue
            zeros += 8 - byte.bit_length()
            break
        if zeros >= bits:
            return str(nonce)
        nonce += 1


def pass_puzzle():
    """A token from one pass (the proof of work alone, at its price), or None."""
    status, challenge = request("/v1/challenges", {"sitekey": SITEKEY})
    if status != 201:
        return None
    status, answer = request(f"/test/answer/{challenge['id']}")
    if status != 200:
        return None
    work = challenge["proofOfWork"]
    body = {"x": answer["x"], "y": answer["y"], "track": [],
            "proofOfWork": {"nonce": solve(work["salt"], work["difficulty"] + 2)}}
    status, verdict = request(f"/v1/challenges/{challenge['id']}/answer", body)
    return verdict.get("token") if status == 200 and verdict.get("success") else None


def claims(token):
    """What a token says of itself (its middle part, base64url JSON), for messages."""
    part = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def siteverify(token):
    _, verdict = request("/v1/siteverify", {"secret": SECRET, "response": token})
    return verdict


class SentinelFailoverTests(unittest.TestCase):
    def test_failover_under_load(self):
        lock = threading.Lock()
        successes = {}  # token -> how many siteverify calls said success
        kept = []  # (token, passed before the kill?)
        timings = []  # siteverify seconds, before the kill (the primary has a replica)
        alone = []  # and after the failover (the new primary has none: no wait)
        killed_at = [None]
        resumed_at = [None]
        stop = threading.Event()

        def client(index):
            count = 0
            while not stop.is_set():
                token = pass_puzzle()
                if token is None:
                    time.sleep(0.1)
                    continue
                count += 1
                if count % 3 == 0:
                    with lock:
                        kept.append((token, killed_at[0] is None))
                    continue
                began = time.monotonic()
                verdict = siteverify(token)
                took = time.monotonic() - began
                with lock:
                    if verdict.get("success"):
                        successes[token] = successes.get(token, 0) + 1
                        if killed_at[0] is None:
                            timings.append(took)
                        elif resumed_at[0] is None:
                            resumed_at[0] = time.monotonic()
                        else:
                            alone.append(took)
                    else:
                        successes.setdefault(token, 0)

        # The replica must be attached before the load: a redemption waits for it.
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            token = pass_puzzle()
            if token and siteverify(token).get("success"):
                break
            time.sleep(0.2)
        else:
            self.fail("no pass and redemption before the kill (is the replica attached?)")

        threads = [threading.Thread(target=client, args=(n,)) for n in range(2)]
        for thread in threads:
            thread.start()
        try:
            deadline = time.monotonic() + PATIENCE
            while time.monotonic() < deadline:
                with lock:
                    if sum(1 for n in successes.values() if n) >= 10:
                        break
                time.sleep(0.05)
            with lock:
                killed_at[0] = time.monotonic()
            PRIMARY.kill()
            deadline = killed_at[0] + PATIENCE
            while time.monotonic() < deadline and resumed_at[0] is None:
                time.sleep(0.05)
            time.sleep(2)  # a little load on the new primary
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=PATIENCE)

        self.assertIsNotNone(resumed_at[0], f"no redemption succeeded within {PATIENCE} s of the kill")
        resumed = resumed_at[0] - killed_at[0]
        def quantiles(values):
            values = sorted(values) or [float("nan")]
            return (values[len(values) // 2] * 1000,
                    values[min(len(values) - 1, int(len(values) * 0.95))] * 1000)

        print("\n    siteverify with the wait for the replica: p50 %.1f ms, p95 %.1f ms (%d calls); "
              "on the new primary, which has no replica (the Sentinels are asked instead, once a "
              "second): p50 %.1f ms, p95 %.1f ms (%d calls)"
              % (*quantiles(timings), len(timings), *quantiles(alone), len(alone)), flush=True)
        print(f"    passed and redeemed again {resumed:.2f} s after the primary was killed", flush=True)
        self.assertLessEqual(resumed, 10)

        # No token twice: neither during the failover nor after it.
        twice = [token for token, n in successes.items() if n > 1]
        self.assertEqual(twice, [], "tokens redeemed twice")
        redeemed = [token for token, n in successes.items() if n == 1]
        again = [token for token in redeemed if siteverify(token).get("success")]
        self.assertEqual(again, [], f"{len(again)} of {len(redeemed)} redeemed tokens passed again")
        # Tokens passed before the kill and kept: each redeems once, now.
        before = [token for token, early in kept if early]
        self.assertTrue(before, "no token was kept from before the kill")
        for token in before:
            verdict = siteverify(token)
            self.assertTrue(verdict.get("success"),
                            f"a token from before the failover was lost: {verdict}; {claims(token)}")
            self.assertEqual(siteverify(token).get("error-codes"), ["timeout-or-duplicate"])
        print(f"    {len(redeemed)} tokens redeemed once each and refused after the failover; "
              f"{len(before)} kept from before it redeemed once", flush=True)


def main():
    status = run_module(__name__)
    if status and STARTED:
        serve = STARTED[0]
        with open(serve.log, errors="replace") as log:
            notices = collections.Counter(line[21:].rstrip() for line in log if re.search(r" (error|store):", line))
        print("--- serve's errors and notices (each once, with its count)", file=sys.stderr)
        for line, count in notices.most_common(10):
            print(f"{count:7} {line}", file=sys.stderr)
        for started, lines in zip(STARTED, (30, 0, 30, 20)):
            if lines:
                print(f"--- {started.name} (last lines of its log)\n{started.tail(lines)}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
