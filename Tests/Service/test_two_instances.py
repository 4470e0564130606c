"""Two `tactile puzzle serve` processes sharing one Redis, tested over HTTP only.

The tests start (Tests/Support/harness.py) their own redis-server on a free loopback port,
persistent (an append-only file, synced on every write, as the service should run it), and two
serve instances on free ports that share it and one sites file (one site, its hostnames
127.0.0.1 and localhost, its limits loose), from the binary TACTILE names.

What they pin, as the HTTP contract of DESIGN.md says: a challenge made on one instance is
served and answered by the other; a token redeems once across both, under 100 concurrent
verifications; with Redis gone every stateful endpoint answers 503 (siteverify answers
internal-error) and nothing passes, and when Redis is back both resume by themselves; when
it comes back empty, both begin a new epoch by themselves, in which nothing from before passes.
SIGHUP reloads the sites file on both (a broken one changes nothing and is logged), and the
metrics pass `promtool check metrics` with a site label.
Nothing here knows how the store lays out its keys.

Answers come from /test/answer/{id} (--reveal-answers-for-tests); the drag track is a hand's,
from Tests/Browser/hand.py (as the browser tests drag). Plain python3, the standard library only.

Run: Tests/Service/run.sh, or TACTILE=/path/to/tactile python3 Tests/Service/test_two_instances.py
"""
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

sys.path.insert(0, os.path.join(ROOT, "Tests", "Browser"))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Support"))
from hand import answer_body  # noqa: E402
from harness import PATIENCE, request, site, start_redis, start_serve  # noqa: E402
from testrun import run_module  # noqa: E402

SITEKEY = "service-test-site"
ORIGIN = "http://127.0.0.1"  # the page the widget would be on: one of the site's hostnames
ACTION = "two-instances"
TIMEOUT = PATIENCE  # seconds for any one request


# ----------------------------------------------------------------------------- the instances

REDIS = None
INSTANCES = []
URLS = []
SECRET = ""


def setUpModule():
    global REDIS, SECRET
    if not os.environ.get("TACTILE"):
        raise unittest.SkipTest("needs TACTILE, the tactile binary (Tests/Service/run.sh sets it)")
    REDIS = start_redis(persistent=True)
    # Limits loose enough for every request of the tests coming from 127.0.0.1.
    sites = [site(SITEKEY, proofOfWorkDifficulty=None, puzzlesPerMinute=1000, answersPerMinute=1000)]
    SECRET = sites[0]["secret"]
    first = start_serve(os.environ["TACTILE"], "--store", REDIS.url, "--reveal-answers-for-tests", "yes",
                        "--skip-drag-model-for-tests", "yes", sites=sites, name="serve1")
    INSTANCES.append(first)
    INSTANCES.append(start_serve(os.environ["TACTILE"], "--store", REDIS.url, "--sites", first.sites_file,
                                 "--reveal-answers-for-tests", "yes", "--skip-drag-model-for-tests", "yes",
                                 name="serve2"))
    URLS.extend(instance.url for instance in INSTANCES)
    print(f"instances at {' '.join(URLS)}, sharing {REDIS.url}", flush=True)


# No tearDownModule: they stop when this process ends (harness.py), after main() has shown
# their logs when a test failed.


# ----------------------------------------------------------------------------- HTTP


def new_challenge(base):
    return request(f"{base}/v1/challenges", {"sitekey": SITEKEY, "action": ACTION}, headers={"Origin": ORIGIN})


def revealed(base, challenge_id):
    reply = request(f"{base}/test/answer/{challenge_id}")
    assert reply.status == 200, reply
    answer = reply.json()
    return answer["x"], answer["y"]


def hand_drag(challenge, x, seed):
    """The answer a person's drag of the piece from its start to x gives (hand.py's), slowed
    by 1.25 to the power `seed`: drags of different seeds differ in length by more than the
    service's replay memory tolerates, so no drag of these tests counts as a replay of
    another."""
    body = answer_body(challenge, x, random.Random(seed))
    stretch = 1.25 ** seed
    if "track" in body:
        body["track"] = [{**sample, "t": sample["t"] * stretch} for sample in body["track"]]
    return body


def answer(base, challenge_id, body):
    return request(f"{base}/v1/challenges/{challenge_id}/answer", body, headers={"Origin": ORIGIN})


def siteverify(base, token, form=False):
    return request(f"{base}/v1/siteverify", {"secret": SECRET, "response": token}, form=form)


# ----------------------------------------------------------------------------- Redis


def wait_until(condition, message, seconds=PATIENCE):
    """Polls `condition` until it is true; fails with `message` when `seconds` pass first."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"after {seconds:g} s: {message}")


def read(path):
    """The text of a file (a serve's log)."""
    with open(path, errors="replace") as file:
        return file.read()


# ----------------------------------------------------------------------------- tests


class TwoInstanceTests(unittest.TestCase):
    """Instance 1 and instance 2 share a Redis; each test uses both."""

    @classmethod
    def setUpClass(cls):
        cls.one, cls.two = URLS

    def pass_puzzle(self, made_on, answered_on, seed):
        """A challenge made on one instance, passed on the other with a hand's drag; the
        challenge and the pass token."""
        reply = new_challenge(made_on)
        self.assertEqual(reply.status, 201, reply)
        challenge = reply.json()
        x, _ = revealed(answered_on, challenge["id"])
        reply = answer(answered_on, challenge["id"], hand_drag(challenge, x, seed))
        self.assertEqual(reply.status, 200, reply)
        result = reply.json()
        self.assertTrue(result["success"], result)
        self.assertTrue(result["token"])
        return challenge, result["token"]

    def test_1_a_challenge_made_on_one_is_served_and_answered_on_the_other(self):
        reply = new_challenge(self.one)
        self.assertEqual(reply.status, 201, reply)
        challenge = reply.json()
        self.assertEqual(challenge["axis"], "horizontal")
        self.assertEqual(reply.headers["Access-Control-Allow-Origin"], ORIGIN)
        # Its images, from the other instance, are the ones its maker serves.
        for kind, types in (("background", ("image/jpeg", "image/png")), ("piece", ("image/png",))):
            theirs = request(self.two + challenge[kind])
            self.assertEqual(theirs.status, 200, f"{kind}: {theirs}")
            self.assertIn(theirs.headers["Content-Type"], types)
            self.assertGreater(len(theirs.body), 1000)
            self.assertEqual(theirs.body, request(self.one + challenge[kind]).body, kind)
        self.assertTrue(request(self.two + challenge["piece"]).body.startswith(b"\x89PNG\r\n\x1a\n"))

        # Answered on the other instance with a person's drag onto the hole.
        x, y = revealed(self.two, challenge["id"])
        self.assertEqual(y, challenge["pieceY"])
        body = hand_drag(challenge, x, seed=1)
        self.assertGreaterEqual(len(body["track"]), 12)
        self.assertLessEqual(abs(body["x"] - x), 8)
        reply = answer(self.two, challenge["id"], body)
        self.assertEqual(reply.status, 200, reply)
        result = reply.json()
        self.assertTrue(result["success"], result)
        token = result["token"]

        # The puzzle is spent on both: a second answer on its maker finds it gone.
        again = answer(self.one, challenge["id"], hand_drag(challenge, x, seed=2))
        self.assertEqual(again.status, 200, again)
        self.assertEqual(again.json(), {"success": False, "error-codes": ["expired"]})

        # The token verifies on the maker, once; the other instance then refuses it.
        verdict = siteverify(self.one, token).json()
        self.assertTrue(verdict["success"], verdict)
        self.assertEqual((verdict["hostname"], verdict["action"], verdict["error-codes"]), ("127.0.0.1", ACTION, []))
        self.assertRegex(verdict["challenge_ts"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")
        duplicate = siteverify(self.two, token, form=True).json()
        self.assertEqual(duplicate, {"success": False, "error-codes": ["timeout-or-duplicate"]})

    def test_2_a_token_redeems_once_under_100_concurrent_verifications_on_both(self):
        _, token = self.pass_puzzle(self.two, self.one, seed=3)
        count = 100
        start = threading.Barrier(count, timeout=TIMEOUT)
        results = [None] * count

        def verify(index):
            try:
                start.wait()
                # Spread over both instances, as JSON and as a form.
                reply = siteverify(URLS[index % 2], token, form=index % 4 >= 2)
                results[index] = (reply.status, reply.json())
            except Exception as error:  # reported below with the others
                results[index] = ("exception", repr(error))

        threads = [threading.Thread(target=verify, args=(i,)) for i in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(3 * TIMEOUT)
        statuses = [r[0] for r in results if r]
        self.assertEqual(statuses, [200] * count, [r for r in results if not r or r[0] != 200][:5])
        successes = [i for i, (_, body) in enumerate(results) if body["success"]]
        self.assertEqual(len(successes), 1, results[:5])
        self.assertTrue(all(body.get("hostname") == "127.0.0.1" for _, body in (results[i] for i in successes)))
        refusals = [body for _, body in results if not body["success"]]
        self.assertEqual(len(refusals), count - 1)
        self.assertEqual({json.dumps(body, sort_keys=True) for body in refusals},
                         {json.dumps({"success": False, "error-codes": ["timeout-or-duplicate"]}, sort_keys=True)})

    def test_3_without_redis_nothing_passes_and_both_resume_when_it_is_back(self):
        for base in URLS:
            self.assertEqual(request(f"{base}/healthz").status, 200)
        # Made before the outage: a pass token not yet verified, and a challenge not yet answered.
        _, token = self.pass_puzzle(self.one, self.two, seed=4)
        reply = new_challenge(self.two)
        self.assertEqual(reply.status, 201, reply)
        pending = reply.json()
        x, _ = revealed(self.one, pending["id"])
        drag = hand_drag(pending, x, seed=5)

        REDIS.kill()

        for base in URLS:
            with self.subTest(instance=base):
                self.assertEqual(request(f"{base}/healthz").status, 503)
                self.assertEqual(new_challenge(base).status, 503)
                # Images come from Redis, except on the instance that made them, which keeps a
                # copy of its own: they show nothing the browser did not have.
                for kind in ("background", "piece"):
                    expected = 200 if base == self.two else 503
                    self.assertEqual(request(base + pending[kind]).status, expected, kind)
                # The right answer with a person's drag does not pass: there is nothing to check it against.
                self.assertEqual(answer(base, pending["id"], drag).status, 503)
                # siteverify keeps its 200 and says why, as the contract's error codes do.
                reply = siteverify(base, token)
                self.assertEqual(reply.status, 200, reply)
                self.assertEqual(reply.json(), {"success": False, "error-codes": ["internal-error"]})
                reply = siteverify(base, token, form=True)
                self.assertEqual(reply.json(), {"success": False, "error-codes": ["internal-error"]})

        # Redis back on the same port with its data: both resume by themselves.
        REDIS.restart()
        for base in URLS:
            wait_until(lambda: request(f"{base}/healthz").status == 200, f"{base}/healthz stays 503")

        # Nothing was spent during the outage: the token from before verifies, once, and the
        # challenge from before is answered now (on the other instance).
        verdict = siteverify(self.two, token).json()
        self.assertTrue(verdict["success"], verdict)
        self.assertEqual(siteverify(self.one, token).json()["error-codes"], ["timeout-or-duplicate"])
        self.assertEqual(request(self.two + pending["piece"]).status, 200)
        stale = answer(self.one, pending["id"], drag)
        self.assertEqual(stale.status, 200, stale)
        self.assertTrue(stale.json()["success"], stale)

        # And a whole pass works again across both.
        _, token = self.pass_puzzle(self.one, self.two, seed=6)
        verdict = siteverify(self.one, token).json()
        self.assertTrue(verdict["success"], verdict)
        self.assertEqual(siteverify(self.two, token).json()["error-codes"], ["timeout-or-duplicate"])

    def test_4_a_redis_that_lost_its_data_heals_in_a_new_epoch(self):
        _, token = self.pass_puzzle(self.one, self.two, seed=7)
        reply = new_challenge(self.one)
        self.assertEqual(reply.status, 201, reply)
        pending = reply.json()
        x, _ = revealed(self.one, pending["id"])
        drag = hand_drag(pending, x, seed=8)
        REDIS.kill()
        for name in os.listdir(REDIS.directory):
            path = os.path.join(REDIS.directory, name)
            if os.path.isdir(path):
                shutil.rmtree(path)
            else:
                os.remove(path)
        REDIS.restart()
        lost_at = time.monotonic()
        # Both serve again within seconds, with no restart: /healthz takes up the new epoch.
        for base in URLS:
            wait_until(lambda: request(f"{base}/healthz").status == 200,
                       f"{base}/healthz stays 503 after Redis came back empty")
        healed = time.monotonic() - lost_at
        print(f"\n    both instances healthy {healed:.2f} s after Redis came back empty", flush=True)
        # Nothing issued before the loss passes: not the token, not the pending challenge.
        for base in URLS:
            with self.subTest(instance=base):
                reply = siteverify(base, token)
                self.assertEqual(reply.json(), {"success": False, "error-codes": ["invalid-input-response"]})
        stale = answer(self.two, pending["id"], drag)
        self.assertEqual(stale.status, 200, stale)
        self.assertFalse(stale.json()["success"], stale)
        # The new epoch works across both, and a token redeems once.
        _, token = self.pass_puzzle(self.two, self.one, seed=9)
        verdict = siteverify(self.one, token).json()
        self.assertTrue(verdict["success"], verdict)
        self.assertEqual(siteverify(self.two, token).json()["error-codes"], ["timeout-or-duplicate"])

    def test_5_sighup_reloads_the_sites_and_a_broken_file_changes_nothing(self):
        path = INSTANCES[0].sites_file
        with open(path) as file:
            original = file.read()
        sites = json.loads(original)
        added = {"sitekey": "service-added-site", "secret": "service-added-secret-0123456789",
                 "hostnames": ["127.0.0.1"], "proofOfWorkDifficulty": None}

        def ask(base, sitekey):
            return request(f"{base}/v1/challenges", {"sitekey": sitekey},
                           headers={"Origin": ORIGIN}).status

        def hang_up():
            for instance in INSTANCES:
                instance.signal(signal.SIGHUP)

        try:
            for base in URLS:
                self.assertEqual(ask(base, added["sitekey"]), 400)
            with open(path, "w") as file:
                json.dump(sites + [added], file)
            hang_up()
            for base in URLS:
                wait_until(lambda: ask(base, added["sitekey"]) == 201, "SIGHUP did not add the site")
            # A broken file leaves the sites in use; the log says why.
            with open(path, "w") as file:
                file.write('[{"sitekey": "service-added-site"}]')
            hang_up()
            for instance in INSTANCES:
                wait_until(lambda: "sites NOT reloaded on SIGHUP" in read(instance.log),
                           f"{instance.name} did not log the broken file")
            for base in URLS:
                self.assertEqual(ask(base, added["sitekey"]), 201)
                self.assertEqual(ask(base, SITEKEY), 201)
            text = read(INSTANCES[0].log)
            self.assertIn("sites reloaded on SIGHUP: 2 from", text)
            self.assertIn('sites NOT reloaded on SIGHUP, the sites in use stay: --sites', text)
            self.assertIn('entry 1: the field "secret" is missing', text)
        finally:
            with open(path, "w") as file:
                file.write(original)
            hang_up()
        for base in URLS:
            wait_until(lambda: ask(base, added["sitekey"]) == 400, "SIGHUP did not remove the site")
            # With --sites and no --demo, there is no demo; the home page says what this is.
            self.assertEqual(request(f"{base}/demo").status, 404)
            home = request(f"{base}/")
            self.assertEqual(home.status, 200)
            self.assertIn(b"Tactile captcha service", home.body)

    def test_6_metrics_pass_promtool_and_name_the_site(self):
        # After the tests above, every kind of series is there: issued, passed, failed, refused.
        self.assertEqual(request(f"{URLS[0]}/v1/challenges", {"sitekey": "no-such-site"},
                                 headers={"Origin": ORIGIN}).status, 400)
        promtool = shutil.which("promtool")
        for url in (instance.metrics_url for instance in INSTANCES):
            with self.subTest(metrics=url):
                reply = request(url)
                self.assertEqual(reply.status, 200)
                text = reply.body.decode()
                self.assertIn(f'tactile_challenges_issued_total{{site="{SITEKEY}"}}', text)
                self.assertIn('tactile_challenges_refused_total{reason="sitekey"}', text)
                if promtool is None:
                    self.skipTest("promtool is missing (scripts/setup.sh --with-promtool)")
                checked = subprocess.run([promtool, "check", "metrics"], input=reply.body,
                                         capture_output=True, timeout=PATIENCE)
                self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
                self.assertEqual(checked.stdout + checked.stderr, b"")



# ----------------------------------------------------------------------------- runner


def main():
    status = run_module(__name__)
    if status:
        for instance in INSTANCES:
            print(f"--- {instance.name} (last lines of its log)\n{instance.tail()}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
