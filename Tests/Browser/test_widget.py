"""Browser tests of the captcha widget (widget.js) and the /demo page, in headless Chromium.

They run against `tactile puzzle serve`, the binary TACTILE names (run-against-service.sh sets
it), started here (Tests/Support/harness.py) on free 127.0.0.1 ports with test-only options:
the answers revealed (GET /test/answer/{id} -> {"x", "y"}) and the drag model off (a drag by
selenium is a script's), and a development site whose secret serve prints. The tests of other
axes, of expiry, of rate limits, of the widget's width beside a vertical slider and of photos
start serve processes of their own with the options they need (--axis-for-tests,
--puzzle-lifetime-for-tests, --rate-window-for-tests, --sites, --pictures).

With TACTILE_SERVICE_URL set, the tests that need no service of their own run against that
service instead; it must let them find a puzzle's answer: GET /test/answer/{id}, or
TACTILE_ANSWER_URL (a template with {base} and {id}), or TACTILE_ANSWER_CMD (a command given
the base URL and the id, printing the answer), and TACTILE_SITE_SECRET is its demo site's
secret for the direct siteverify call.

The result page of POST /demo must be demo-result.html filled in: #tactile-demo-result with
data-success="true|false", an <h1> starting "Verified" on success, the siteverify error codes
as <li><code>code</code> …</li> in .error-codes, and the token's action named in the summary.

The photo test cuts puzzles from one known photo (--pictures) and drags onto the hole the
revealed answer gives (it needs python3-pil, python3-numpy and scikit-image's sample photos).

The touch replay tests replay real people's recorded finger strokes (../shared/captcha-drags
beside the repository, or TACTILE_DRAGS; never committed, so skipped without them) with
Chrome's touch input through the DevTools protocol, against a serve of their own that judges
drags with its drag model; the same path from a steady mouse must be refused.

Pointer input is real W3C pointer actions (chromedriver turns them into input events), keys
are real key presses. Screenshots of every step go to Tests/Browser/screenshots/.

Run: Tests/Browser/run-against-service.sh, or TACTILE=… Tests/Browser/run.sh, or
TACTILE=… python3 Tests/Browser/test_widget.py
"""
import base64
import datetime
import hashlib
import io
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse

try:  # only the photo test needs them (scripts/setup.sh --with-browser installs them)
    import numpy
    from PIL import Image
except ImportError:
    numpy = None

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service as ChromeService
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Support"))
from hand import hand_path  # noqa: E402
from harness import PATIENCE, free_port, request, site, start_serve  # noqa: E402
from testrun import run_module  # noqa: E402

SHOTS = os.path.join(HERE, "screenshots")

# Records every request the page makes to the challenge endpoints and what came back, before
# any page script runs, so tests can check the exact JSON the widget sends.
SPY = r"""
(() => {
  const original = window.fetch;
  window.__tactile = [];
  window.fetch = async function (input, init) {
    const url = String(input && input.url || input);
    const entry = { url, body: init && typeof init.body === 'string' ? JSON.parse(init.body) : null };
    window.__tactile.push(entry);
    const response = await original.apply(this, arguments);
    entry.status = response.status;
    try { entry.response = await response.clone().json(); } catch (_) { entry.response = null; }
    return response;
  };
})();
"""


# ----------------------------------------------------------------------------- servers


def start_test_serve(*flags, sites=None, listen="127.0.0.1:0"):
    """A `tactile puzzle serve` of the binary in TACTILE on a free port, answers revealed, drags
    not judged by the drag model, with FLAGS (and a --sites file of `sites`, then with --demo);
    skips the test without TACTILE."""
    if not os.environ.get("TACTILE"):
        raise unittest.SkipTest("needs TACTILE, the tactile binary (run-against-service.sh sets it)")
    if sites is not None:
        flags += ("--demo",)
    return start_serve(os.environ["TACTILE"], "--reveal-answers-for-tests", "yes", "--skip-drag-model-for-tests",
                       "yes", *flags, sites=sites, listen=listen)


def http_json(url, data=None, form=False):
    """The JSON of a request's reply (harness.request), which must succeed."""
    reply = request(url, data, form=form)
    assert reply.status < 400, f"{url}: {reply}"
    return reply.json()


def answer_for(base, challenge_id):
    """The hole's top-left in background pixels: from TACTILE_ANSWER_CMD (run with the base URL
    and the id, printing {"x", "y"} or "X Y"; e.g. a script that compares the background with
    the original photo), else from the URL template TACTILE_ANSWER_URL."""
    command = os.environ.get("TACTILE_ANSWER_CMD")
    if command:
        out = subprocess.run([*command.split(), base, challenge_id], check=True, capture_output=True,
                             text=True, timeout=PATIENCE).stdout.strip()
        answer = json.loads(out) if out.startswith("{") else dict(zip("xy", map(float, out.split())))
    else:
        template = os.environ.get("TACTILE_ANSWER_URL", "{base}/test/answer/{id}")
        answer = http_json(template.format(base=base, id=challenge_id))
    return answer["x"], answer["y"]


# ----------------------------------------------------------------------------- browser

DRIVER = None
BASE = None  # the service most tests run against
SECRET = None  # its demo site's secret
SERVE = None
RESULTS = {}


def setUpModule():
    global DRIVER, BASE, SECRET, SERVE
    os.makedirs(SHOTS, exist_ok=True)
    BASE = os.environ.get("TACTILE_SERVICE_URL", "").rstrip("/")
    SECRET = os.environ.get("TACTILE_SITE_SECRET")
    if not BASE:
        if not os.environ.get("TACTILE"):
            raise RuntimeError("set TACTILE to the tactile binary (or run Tests/Browser/run-against-service.sh)")
        SERVE = start_test_serve()
        BASE, SECRET = SERVE.url, SERVE.secret
    print(f"service at {BASE}", flush=True)
    DRIVER = make_driver()


def tearDownModule():
    if DRIVER:
        DRIVER.quit()
    if SERVE:
        SERVE.stop()


def make_driver():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=960,1000", "--force-device-scale-factor=1", "--lang=en-US",
                     "--disable-extensions", "--no-first-run", "--disable-background-networking",
                     "--disable-renderer-backgrounding", "--disable-background-timer-throttling"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=ChromeService(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")),
                              options=options)
    driver.set_page_load_timeout(PATIENCE)
    driver.set_script_timeout(PATIENCE)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SPY})
    return driver


def shot(name, element=None):
    path = os.path.join(SHOTS, f"{name}.png")
    (element or DRIVER).screenshot(path) if element else DRIVER.save_screenshot(path)
    return path


def wait(condition, timeout=PATIENCE, message=""):
    """Polls `condition` until it is true and returns its value; fails the test when `timeout`
    seconds pass first, saying `message` (a text, or a function giving it then)."""
    try:
        return WebDriverWait(DRIVER, timeout, poll_frequency=0.05).until(lambda _: condition())
    except TimeoutException:
        raise AssertionError(f"after {timeout:g} s: {message() if callable(message) else message}") from None


def widget(index=0):
    return DRIVER.find_elements(By.CSS_SELECTOR, ".tactile-widget")[index]


def state(index=0):
    return widget(index).get_attribute("data-state")


def wait_state(*states, index=0, timeout=PATIENCE):
    wait(lambda: state(index) in states, timeout,
         lambda: f"widget state {state(index)!r}, expected {states}; status {status_text(index)!r}")


# Records every data-state the widgets take, so that a state shown briefly is not missed.
STATE_LOG = r"""
    window.__states = [];
    const note = (w) => window.__states.push([w.dataset.state, w.dataset.challenge || null]);
    new MutationObserver((changes) => changes.forEach((c) => note(c.target)))
      .observe(document.body, {subtree: true, attributes: true, attributeFilter: ['data-state']});
"""


def log_states():
    """From now on, records every data-state the page's widgets take (window.__states)."""
    DRIVER.execute_script(STATE_LOG)


def seen_states():
    """The [state, challenge id] pairs recorded since log_states()."""
    return DRIVER.execute_script("return window.__states")


def wait_seen(wanted, challenge_id):
    """Waits until a widget has taken the state `wanted` on the puzzle `challenge_id`, as
    log_states() recorded it: a miss shows for under a second, which a slow poll can miss."""
    wait(lambda: [wanted, challenge_id] in seen_states(), message=lambda: f"never {wanted}; states {seen_states()}")


def wait_fresh_puzzle(old_id, index=0):
    """Waits until the widget is ready with a puzzle other than `old_id`; its id."""
    wait(lambda: widget(index).get_attribute("data-challenge") not in (None, old_id) and state(index) == "ready",
         message=lambda: f"no fresh puzzle after {old_id}: widget state {state(index)!r}, status "
                         f"{status_text(index)!r}")
    return widget(index).get_attribute("data-challenge")


def settled(element=None):
    """Waits until the widget's transitions and animations (the fade-in, the snap, the check
    mark, the shake) have run, for a screenshot of where they end."""
    wait(lambda: DRIVER.execute_script("return arguments[0].getAnimations({subtree: true}).length === 0",
                                       element or widget()), message="the widget's animations never ended")


def status_text(index=0):
    return widget(index).find_element(By.CSS_SELECTOR, ".tactile-status").get_attribute("textContent")


def slider(index=0):
    return widget(index).find_element(By.CSS_SELECTOR, "[role=slider]")


def open_demo(base=None):
    DRIVER.get(f"{base or BASE}/demo")
    wait_state("ready")


def open_site(base, sitekey):
    """/demo with its widget replaced by one of `sitekey` (a site of the service's --sites
    whose hostnames include 127.0.0.1), ready."""
    DRIVER.get(f"{base}/demo")
    wait_state("ready")
    DRIVER.execute_script("""
        const old = document.querySelector('.tactile-captcha');
        window.tactileCaptcha.remove();
        const div = document.createElement('div');
        div.className = 'tactile-captcha'; div.dataset.sitekey = arguments[0];
        old.replaceWith(div);
        window.tactileCaptcha.render(div);""", sitekey)
    wait(lambda: any(e["body"].get("sitekey") == sitekey and "status" in e for e in sent("/v1/challenges")
                     if e["url"].endswith("/v1/challenges")), message=f"no challenge of {sitekey}")
    wait_state("ready")


def sent(path_part):
    """The requests to URLs containing `path_part`, as the spy recorded them."""
    return [e for e in DRIVER.execute_script("return window.__tactile") if path_part in e["url"]]


def last_challenge():
    return [e for e in sent("/v1/challenges") if e["url"].endswith("/v1/challenges")][-1]["response"]


def rect(element):
    return DRIVER.execute_script("const r = arguments[0].getBoundingClientRect(); "
                                 "return {x: r.left, y: r.top, w: r.width, h: r.height};", element)


# ----------------------------------------------------------------------------- a hand's drag


def drag(element, dx, dy=0.0, seed=1, kind=interaction.POINTER_MOUSE, hold=0.0):
    """Presses on the element's centre, moves by (dx, dy) CSS pixels like a hand, releases;
    with a mouse, a finger (POINTER_TOUCH) or a pen (POINTER_PEN); `hold` more seconds
    before the release."""
    r = rect(element)
    x0, y0 = r["x"] + r["w"] / 2, r["y"] + r["h"] / 2
    rng = random.Random(seed)
    mouse = PointerInput(kind, kind)
    actions = ActionBuilder(DRIVER, mouse=mouse)
    mouse.create_pointer_move(duration=0, x=round(x0), y=round(y0), origin="viewport")
    actions.pointer_action.pause(0.15)
    actions.pointer_action.pointer_down()
    actions.pointer_action.pause(0.12)
    for x, y, ms in hand_path(x0, y0, x0 + dx, y0 + dy, rng):
        mouse.create_pointer_move(duration=max(1, int(ms)), x=round(x), y=round(y), origin="viewport")
    actions.pointer_action.pause(0.1 + max(0.0, hold))
    actions.pointer_action.pointer_up()
    actions.perform()


def css_offset_for(target_bg, index=0, on="thumb", vertical=False):
    """CSS pixels to move the thumb (or the piece) so the piece's left (top, on a vertical
    slider) lands on target_bg background pixels."""
    w = widget(index)
    challenge = last_challenge()
    if on == "piece":
        return target_bg * rect(w.find_element(By.CSS_SELECTOR, ".tactile-stage"))["w"] / challenge["imageWidth"]
    side = "h" if vertical else "w"
    travel = rect(w.find_element(By.CSS_SELECTOR, ".tactile-rail"))[side] - 2 - rect(slider(index))[side]
    return target_bg * travel / int(slider(index).get_attribute("aria-valuemax"))


def press_keys(keys, rng):
    """Real key presses with a person's uneven rhythm; keys are (key, shift) pairs, or
    (key, shift, pause) with the seconds to wait before that press."""
    chain = ActionChains(DRIVER, duration=0)
    for key, shift, *pause in keys:
        if pause and pause[0]:
            chain.pause(pause[0])
        if shift:
            chain.key_down(Keys.SHIFT)
        chain.key_down(key).pause(rng.uniform(0.02, 0.05)).key_up(key)
        if shift:
            chain.key_up(Keys.SHIFT)
        chain.pause(rng.uniform(0.015, 0.07))
    chain.perform()


def key_step(repeats):
    """widget.js's step for the repeats-th press of an arrow pressed again within 0.3 s."""
    return min(32, 4 * 2 ** min(3, repeats // 3))


def keys_to(target_x, start_x=0):
    """The presses a person makes to bring the piece to target_x: the arrow again and again
    while the steps grow (widget.js speeds up a key pressed again at once), a pause to let the
    steps fall back to 4 before they would overshoot, then Shift for the last pixels."""
    plan, repeats, remaining = [], None, round(target_x - start_x)
    while remaining >= 4:
        following = 0 if repeats is None else repeats + 1
        pause = None
        if key_step(following) > remaining:
            following, pause = 0, 0.45
        plan.append((Keys.ARROW_RIGHT, False, pause))
        repeats, remaining = following, remaining - key_step(following)
    for index in range(remaining):
        plan.append((Keys.ARROW_RIGHT, True, 0.45 if index == 0 and plan else None))
    return plan


def submit_demo(name="Ada Lovelace", email="ada@example.com"):
    DRIVER.find_element(By.ID, "name").send_keys(name)
    DRIVER.find_element(By.ID, "email").send_keys(email)
    DRIVER.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    return wait_result()


def wait_result():
    wait(lambda: DRIVER.find_elements(By.ID, "tactile-demo-result"), message="no result page")
    page = DRIVER.find_element(By.ID, "tactile-demo-result")
    codes = [e.text.split(" ")[0] for e in page.find_elements(By.CSS_SELECTOR, ".error-codes code")]
    return page.get_attribute("data-success"), codes, page.text


def check_pow(work, answer, extra_bits=0):
    """Whether `answer` pays the challenge `work` with `extra_bits` more (hashlib decides): one
    decimal nonce whose SHA-256(salt:nonce) starts with difficulty + extra_bits zero bits, or its
    `parts` different nonces joined by commas, each with log2(parts) bits less."""
    nonces = answer.split(",")
    parts = work.get("parts", 1)
    if len(nonces) == 1:
        bits = work["difficulty"] + extra_bits
    elif len(nonces) == parts:
        bits = work["difficulty"] - (parts.bit_length() - 1) + extra_bits
    else:
        return False
    if len(set(nonces)) != len(nonces):
        return False
    for nonce in nonces:
        if not re.fullmatch(r"[0-9]{1,20}", nonce):
            return False
        value = int.from_bytes(hashlib.sha256(f"{work['salt']}:{nonce}".encode()).digest(), "big")
        if 256 - value.bit_length() < bits:
            return False
    return True


# ----------------------------------------------------------------------------- tests


class DemoTests(unittest.TestCase):
    """The widget on /demo against the service."""

    def test_01_drag_onto_the_hole_passes_and_the_demo_verifies(self):
        open_demo()
        settled()  # the picture fades in
        shot("01-demo-ready")
        challenge = last_challenge()
        hole_x, _ = answer_for(BASE, challenge["id"])
        drag(slider(), css_offset_for(hole_x), seed=11)
        wait_state("passed")
        settled()  # the snap and the check mark, for the picture
        shot("02-drag-passed", widget())
        answer = sent("/answer")[-1]["body"]
        track = answer["track"]
        self.assertNotIn("input", answer)
        self.assertGreaterEqual(len(track), 12)
        self.assertEqual(track[0], {"x": 0, "y": challenge["pieceY"], "t": 0})
        self.assertTrue(all(b["t"] > a["t"] for a, b in zip(track, track[1:])), "times must increase")
        self.assertEqual(answer["y"], challenge["pieceY"])
        self.assertLessEqual(abs(answer["x"] - hole_x), 8)
        self.assertLessEqual(abs(track[-1]["x"] - answer["x"]), 0.02 * challenge["imageWidth"])
        self.assertGreater(max(p["y"] for p in track) - min(p["y"] for p in track), 0, "the hand wavers")
        token = DRIVER.find_element(By.NAME, "tactile-captcha-response").get_attribute("value")
        self.assertTrue(token)
        self.assertEqual(DRIVER.execute_script("return window.tactileCaptcha.getResponse()"), token)
        success, codes, text = submit_demo()
        shot("03-demo-result-verified")
        self.assertEqual(success, "true", text)
        self.assertEqual(codes, [])
        self.assertIn("Verified", text)
        RESULTS["token"] = token

    def test_02_the_same_token_again_is_refused(self):
        token = RESULTS.get("token")
        if not token:
            self.skipTest("needs the token of test_01")
        # Post the same form again, as a replaying attacker would.
        DRIVER.execute_script("""
            const form = document.createElement('form');
            form.method = 'post'; form.action = '/demo';
            for (const [name, value] of Object.entries(arguments[0])) {
              const input = document.createElement('input');
              input.type = 'hidden'; input.name = name; input.value = value; form.appendChild(input);
            }
            document.body.appendChild(form); form.submit();""",
                              {"name": "Ada Lovelace", "email": "ada@example.com", "tactile-captcha-response": token})
        wait(lambda: DRIVER.find_elements(By.CSS_SELECTOR, "#tactile-demo-result[data-success=false]"),
             message="no result page refusing the token")
        success, codes, text = wait_result()
        shot("04-demo-result-duplicate")
        self.assertEqual(success, "false")
        self.assertEqual(codes, ["timeout-or-duplicate"])

    def test_03_a_drag_onto_the_wrong_place_fails_with_the_reason(self):
        open_demo()
        challenge = last_challenge()
        hole_x, _ = answer_for(BASE, challenge["id"])
        max_x = challenge["imageWidth"] - challenge["pieceWidth"]
        wrong = hole_x - 110 if hole_x - 110 >= 40 else min(max_x, hole_x + 110)
        piece = widget().find_element(By.CSS_SELECTOR, ".tactile-piece")
        log_states()
        drag(piece, css_offset_for(wrong, on="piece"), seed=23)
        wait_seen("failed", challenge["id"])
        shot("05-drag-wrong-place", widget())
        self.assertEqual(status_text(), "Not quite — try again")
        self.assertEqual(DRIVER.find_element(By.NAME, "tactile-captcha-response").get_attribute("value"), "")
        wait_fresh_puzzle(challenge["id"])
        self.assertEqual(status_text(), "Not quite — try again", "the reason stays until the next try")
        shot("06-fresh-puzzle-after-miss", widget())

    def test_04_keyboard_only_passes(self):
        open_demo()
        challenge = last_challenge()
        hole_x, _ = answer_for(BASE, challenge["id"])
        name = DRIVER.find_element(By.ID, "name")
        DRIVER.execute_script("arguments[0].focus()", name)
        ActionChains(DRIVER).send_keys("Grace Hopper").send_keys(Keys.TAB).send_keys("grace@example.com") \
            .send_keys(Keys.TAB).perform()
        focused = DRIVER.switch_to.active_element
        self.assertEqual(focused.get_attribute("role"), "slider")
        shot("07-keyboard-focus", widget())
        rng = random.Random(5)
        press_keys(keys_to(hole_x), rng)
        self.assertEqual(int(slider().get_attribute("aria-valuenow")), round(hole_x))
        ActionChains(DRIVER).send_keys(Keys.ENTER).perform()
        wait_state("passed")
        settled()
        shot("08-keyboard-passed", widget())
        answer = sent("/answer")[-1]["body"]
        self.assertEqual(answer["input"], "keyboard")
        self.assertEqual(len(answer["track"]), len(keys_to(hole_x)) + 1, "one sample per key press")
        self.assertEqual(answer["track"][0], {"x": 0, "y": challenge["pieceY"], "t": 0})
        self.assertTrue(all(b["t"] > a["t"] for a, b in zip(answer["track"], answer["track"][1:])))
        # Keyboard only, to the end: Tab to the submit button, Enter.
        ActionChains(DRIVER).send_keys(Keys.TAB).perform()
        self.assertEqual(DRIVER.switch_to.active_element.get_attribute("type"), "submit")
        ActionChains(DRIVER).send_keys(Keys.ENTER).perform()
        success, codes, text = wait_result()
        shot("09-keyboard-result")
        self.assertEqual(success, "true", text)

    def test_05_proof_of_work_passes_and_siteverify_accepts_it(self):
        open_demo()
        challenge = last_challenge()
        pow_ = challenge.get("proofOfWork")
        if not pow_:
            self.skipTest("the service offers no proof of work")
        button = widget().find_element(By.CSS_SELECTOR, ".tactile-alt")
        self.assertTrue(button.is_displayed())
        self.assertEqual(button.text, "I can\u2019t do the puzzle — verify another way")
        button.send_keys(Keys.ENTER)  # as a keyboard would: the button goes, the focus stays in the widget
        wait_state("passed")
        self.assertEqual(DRIVER.switch_to.active_element, slider(), "the focus went from the widget")
        settled()
        shot("10-proof-of-work-passed", widget())
        body = sent("/answer")[-1]["body"]
        self.assertEqual(set(body), {"proofOfWork"})
        nonce = body["proofOfWork"]["nonce"]
        self.assertEqual(pow_["parts"], 16)
        self.assertRegex(nonce, r"^\d+(,\d+){15}$")
        # The proof of work alone: 2 more bits for each nonce.
        self.assertTrue(check_pow(pow_, nonce, extra_bits=2))
        success, codes, text = submit_demo("Alan Turing", "alan@example.com")
        shot("11-proof-of-work-result")
        self.assertEqual(success, "true", text)
        self.assertIn("signup", text, "the result names the token's action")

    def test_06_the_slider_is_accessible(self):
        open_demo()
        challenge = last_challenge()
        thumb = slider()
        max_x = challenge["imageWidth"] - challenge["pieceWidth"]
        self.assertEqual(thumb.get_attribute("role"), "slider")
        self.assertEqual(thumb.get_attribute("tabindex"), "0")
        self.assertEqual(thumb.get_attribute("aria-label"), "Move the puzzle piece")
        self.assertEqual(thumb.get_attribute("aria-valuemin"), "0")
        self.assertEqual(thumb.get_attribute("aria-valuemax"), str(max_x))
        self.assertEqual(thumb.get_attribute("aria-valuenow"), "0")
        self.assertEqual(thumb.get_attribute("aria-valuetext"), f"piece at 0 of {max_x} pixels")
        self.assertEqual(thumb.aria_role, "slider")
        self.assertEqual(thumb.accessible_name, "Move the puzzle piece")
        tree = DRIVER.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
        sliders = [n for n in tree if n.get("role", {}).get("value") == "slider" and not n.get("ignored")]
        self.assertEqual(len(sliders), 1)
        self.assertEqual(sliders[0]["name"]["value"], "Move the puzzle piece")
        properties = {p["name"]: p["value"].get("value") for p in sliders[0].get("properties", [])}
        # (Chromium's CDP leaves "valuetext" empty for ARIA sliders, so aria-valuetext is
        # checked on the element above; min, max, value and the key hint are in the tree.)
        self.assertEqual((properties.get("valuemin"), properties.get("valuemax")), (0, max_x))
        self.assertEqual(sliders[0]["value"]["value"], 0)
        self.assertTrue(properties.get("focusable"))
        self.assertIn("Arrow keys", sliders[0]["description"]["value"])
        self.assertTrue(any(n.get("role", {}).get("value") == "status" for n in tree), "a live status region")
        # A visible focus ring when reached by the keyboard, and the value follows the keys.
        DRIVER.execute_script("arguments[0].focus()", DRIVER.find_element(By.ID, "email"))
        ActionChains(DRIVER).send_keys(Keys.TAB).perform()
        ring = DRIVER.execute_script("const s = getComputedStyle(arguments[0]); return [s.outlineStyle, s.boxShadow];", thumb)
        self.assertTrue(ring[0] != "none" or "rgb" in ring[1], ring)
        ActionChains(DRIVER).send_keys(Keys.ARROW_RIGHT).perform()
        self.assertEqual(thumb.get_attribute("aria-valuenow"), "4")
        self.assertEqual(thumb.get_attribute("aria-valuetext"), f"piece at 4 of {max_x} pixels")
        ActionChains(DRIVER).key_down(Keys.SHIFT).send_keys(Keys.ARROW_RIGHT).key_up(Keys.SHIFT).perform()
        self.assertEqual(thumb.get_attribute("aria-valuenow"), "5")
        ActionChains(DRIVER).send_keys(Keys.END).perform()
        self.assertEqual(thumb.get_attribute("aria-valuenow"), str(max_x))
        shot("12-slider-focus-ring-at-end", widget())
        ActionChains(DRIVER).send_keys(Keys.HOME).perform()
        self.assertEqual(thumb.get_attribute("aria-valuenow"), "0")

    def test_07_chinese_texts(self):
        open_demo()
        # A second widget, rendered through the API, in Simplified Chinese by data-lang.
        DRIVER.execute_script("""
            const div = document.createElement('div');
            div.className = 'tactile-captcha'; div.dataset.sitekey = arguments[0]; div.dataset.lang = 'zh-CN';
            document.querySelector('.captcha-field').appendChild(div);
            window.__zh = window.tactileCaptcha.render(div);""",
                              DRIVER.find_element(By.CSS_SELECTOR, ".tactile-captcha").get_attribute("data-sitekey"))
        wait_state("ready", index=1)
        zh = widget(1)
        DRIVER.execute_script("arguments[0].scrollIntoView()", zh)
        self.assertEqual(zh.get_attribute("lang"), "zh-CN")
        self.assertEqual(zh.find_element(By.CSS_SELECTOR, ".tactile-rail-text").text, "拖动滑块完成拼图")
        self.assertEqual(slider(1).accessible_name, "移动拼图块")
        self.assertIn("像素", slider(1).get_attribute("aria-valuetext"))
        alt = zh.find_elements(By.CSS_SELECTOR, ".tactile-alt")
        if alt and alt[0].is_displayed():
            self.assertEqual(alt[0].text, "无法完成拼图？换一种方式验证")
        self.assertEqual(zh.find_element(By.CSS_SELECTOR, ".tactile-refresh").get_attribute("aria-label"), "换一题")
        self.assertTrue(DRIVER.execute_script("return window.__zh").startswith("tactile-"))
        shot("13-chinese", zh)
        # Without data-lang, the page's <html lang> decides.
        DRIVER.execute_script("""
            document.documentElement.lang = 'zh-CN';
            const div = document.createElement('div');
            div.dataset.sitekey = arguments[0];
            document.querySelector('.captcha-field').appendChild(div);
            window.tactileCaptcha.render(div);""",
                              DRIVER.find_element(By.CSS_SELECTOR, ".tactile-captcha").get_attribute("data-sitekey"))
        wait_state("ready", index=2)
        self.assertEqual(widget(2).find_element(By.CSS_SELECTOR, ".tactile-rail-text").text, "拖动滑块完成拼图")

    def test_08_dark_and_reduced_motion(self):
        DRIVER.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
            {"name": "prefers-color-scheme", "value": "dark"}, {"name": "prefers-reduced-motion", "value": "reduce"}]})
        try:
            open_demo()
            shot("14-demo-dark")
            shot("15-widget-dark", widget())
            background = DRIVER.execute_script("return getComputedStyle(arguments[0]).backgroundColor", widget())
            r, g, b = (int(v) for v in re.findall(r"\d+", background)[:3])
            self.assertLess(0.2126 * r + 0.7152 * g + 0.0722 * b, 80, background)
            motion = DRIVER.execute_script(
                "return getComputedStyle(arguments[0].querySelector('.tactile-bg')).transitionDuration", widget())
            self.assertEqual(motion, "0s")
        finally:
            DRIVER.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    def test_09_cross_origin_page(self):
        """A page on another origin (localhost) loads the widget from the service (127.0.0.1)."""
        parts = urllib.parse.urlsplit(BASE)
        if parts.hostname != "127.0.0.1":
            self.skipTest("needs the service on 127.0.0.1 and localhost as a second origin")
        other = f"http://localhost:{parts.port}"
        DRIVER.get(f"{other}/demo")
        wait_state("ready")
        DRIVER.execute_script("""
            const old = document.querySelector('.tactile-captcha');
            window.tactileCaptcha.remove();
            const div = document.createElement('div');
            div.className = 'tactile-captcha'; div.dataset.sitekey = old.dataset.sitekey;
            old.replaceWith(div);
            import(arguments[0] + '/widget.js?cross-origin');""", BASE)
        wait(lambda: sent(BASE + "/v1/challenges"), message="no request to the service's origin")
        wait_state("ready")
        self.assertTrue(sent(BASE + "/v1/challenges")[-1]["url"].startswith(BASE))
        challenge = last_challenge()
        self.assertTrue(DRIVER.execute_script("return document.querySelector('.tactile-widget img').src").startswith(BASE))
        if challenge.get("proofOfWork"):
            widget().find_element(By.CSS_SELECTOR, ".tactile-alt").click()
        else:
            hole_x, _ = answer_for(BASE, challenge["id"])
            drag(slider(), css_offset_for(hole_x), seed=31)
        wait_state("passed")
        shot("16-cross-origin-passed", widget())
        token = DRIVER.execute_script("return window.tactileCaptcha.getResponse()")
        if not SECRET:
            self.skipTest("needs the demo site's secret (TACTILE_SITE_SECRET)")
        secret = SECRET
        verdict = http_json(f"{BASE}/v1/siteverify", {"secret": secret, "response": token})
        self.assertTrue(verdict["success"], verdict)
        self.assertEqual(verdict["hostname"], "localhost")
        again = http_json(f"{BASE}/v1/siteverify", {"secret": secret, "response": token}, form=True)
        self.assertEqual(again["error-codes"], ["timeout-or-duplicate"])


    def test_10_a_finger_drag_passes(self):
        open_demo()
        challenge = last_challenge()
        hole_x, _ = answer_for(BASE, challenge["id"])
        piece = widget().find_element(By.CSS_SELECTOR, ".tactile-piece")
        drag(piece, css_offset_for(hole_x, on="piece"), seed=41, kind=interaction.POINTER_TOUCH)
        wait_state("passed")
        self.assertGreaterEqual(len(sent("/answer")[-1]["body"]["track"]), 12)
        settled()
        shot("17-touch-passed", widget())

    def test_11_callbacks_and_a_narrow_widget(self):
        open_demo()
        sitekey = DRIVER.find_element(By.CSS_SELECTOR, ".tactile-captcha").get_attribute("data-sitekey")
        DRIVER.execute_script("""
            window.__calls = [];
            window.onTactilePass = (token) => window.__calls.push(['pass', token]);
            window.onTactileError = (code) => window.__calls.push(['error', code]);
            const field = document.querySelector('.captcha-field');
            field.style.width = '280px';
            const good = document.createElement('div');
            good.dataset.sitekey = arguments[0]; good.dataset.callback = 'onTactilePass';
            const bad = document.createElement('div');
            bad.dataset.sitekey = 'no-such-sitekey'; bad.dataset.errorCallback = 'onTactileError';
            field.replaceChildren(good, bad);
            window.__good = window.tactileCaptcha.render(good);
            window.tactileCaptcha.render(bad);""", sitekey)
        wait_state("ready", index=0)
        wait_state("error", index=1)
        self.assertGreaterEqual(rect(widget(0))["w"], 279)
        shot("18-narrow-and-misconfigured")
        self.assertEqual(DRIVER.execute_script("return window.__calls")[0][0], "error")
        self.assertTrue(status_text(1))
        if widget(0).find_element(By.CSS_SELECTOR, ".tactile-alt").is_displayed():
            widget(0).find_element(By.CSS_SELECTOR, ".tactile-alt").click()
        else:
            hole_x, _ = answer_for(BASE, widget(0).get_attribute("data-challenge"))
            drag(slider(0), css_offset_for(hole_x), seed=43)
        wait_state("passed", index=0)
        calls = DRIVER.execute_script("return window.__calls")
        token = DRIVER.execute_script("return window.tactileCaptcha.getResponse(window.__good)")
        self.assertIn(["pass", token], calls)
        DRIVER.execute_script("window.tactileCaptcha.reset(window.__good)")
        wait_state("ready", index=0)
        self.assertEqual(DRIVER.execute_script("return window.tactileCaptcha.getResponse(window.__good)"), "")

    def test_12_a_page_that_forbids_workers_pays_the_price_on_the_page(self):
        open_demo()
        if not last_challenge().get("proofOfWork"):
            self.skipTest("the service asks no price")
        # A Content-Security-Policy without blob: workers; Chromium refuses the widget's worker
        # with an error event, and the widget searches on the page instead.
        DRIVER.execute_script("""
            window.__refused = [];
            document.addEventListener('securitypolicyviolation', (e) => window.__refused.push(e.effectiveDirective));
            const policy = document.createElement('meta');
            policy.httpEquiv = 'Content-Security-Policy'; policy.content = "worker-src 'none'";
            document.head.appendChild(policy);
            window.tactileCaptcha.reset();""")
        wait_state("ready")
        challenge = last_challenge()
        hole_x, _ = answer_for(BASE, challenge["id"])
        drag(slider(), css_offset_for(hole_x), seed=47)
        wait_state("passed")
        self.assertIn("worker-src", DRIVER.execute_script("return window.__refused"))
        nonce = sent("/answer")[-1]["body"]["proofOfWork"]["nonce"]
        self.assertTrue(check_pow(challenge["proofOfWork"], nonce))

    def search_for(self):
        """The widget's own search (widget/work.js from the service) run on this page, on a
        price it cannot finish, until it has hashed: how it hashed, its workers, and what it
        tried."""
        DRIVER.execute_async_script("""
            const [url, done] = arguments;
            import(url + '/widget/work.js').then(({ Search }) => {
              window.__search = new Search({ salt: '0123456789abcdef0123456789abcdef', difficulty: 32 });
              done();
            }, (error) => { window.__search = { error: String(error) }; done(); });""", BASE)

        def found():
            return DRIVER.execute_script("""
                const search = window.__search;
                return search.error ? { error: search.error }
                  : { kind: search.kind, workers: search.workers.length, tried: search.tried };""")

        def hashed():
            now = found()
            return now if "error" in now or now["tried"] > 0 else None
        try:
            return wait(hashed, message=lambda: f"the search has tried nothing: {found()}")
        finally:
            DRIVER.execute_script("if (window.__search.stop) window.__search.stop();")

    def test_13_the_price_is_hashed_with_webassembly_simd_in_workers(self):
        open_demo()
        found = self.search_for()
        cores = DRIVER.execute_script("return navigator.hardwareConcurrency")
        self.assertEqual(found.get("kind"), "simd", found)
        self.assertEqual(found["workers"], max(1, min(4, cores)), found)
        self.assertGreater(found["tried"], 0, found)

    def test_14_a_page_that_refuses_webassembly_pays_in_javascript(self):
        open_demo()
        if not last_challenge().get("proofOfWork"):
            self.skipTest("the service asks no price")
        # A Content-Security-Policy without 'wasm-unsafe-eval': the workers hash in JavaScript.
        DRIVER.execute_script("""
            const policy = document.createElement('meta');
            policy.httpEquiv = 'Content-Security-Policy';
            policy.content = "script-src 'self' 'unsafe-inline' blob:; worker-src blob:";
            document.head.appendChild(policy);
            window.tactileCaptcha.reset();""")
        wait_state("ready")
        found = self.search_for()
        self.assertEqual(found.get("kind"), "scalar", found)
        self.assertGreater(found["tried"], 0, found)
        challenge = last_challenge()
        hole_x, _ = answer_for(BASE, challenge["id"])
        drag(slider(), css_offset_for(hole_x), seed=48)
        # However high the price has climbed here: time for it at a million hashes a second.
        wait_state("passed", timeout=PATIENCE + 2 ** challenge["proofOfWork"]["difficulty"] / 1e6)
        nonce = sent("/answer")[-1]["body"]["proofOfWork"]["nonce"]
        self.assertTrue(check_pow(challenge["proofOfWork"], nonce))


class AxisTests(unittest.TestCase):
    """Vertical and free puzzles: against services that issue only them (--axis-for-tests)."""

    def run_axis(self, axis, name, proof_of_work):
        # A site of its own, priced or not: without a price, no "verify another way" button.
        sitekey = f"{axis}-axis-test-site"
        fields = {} if proof_of_work else {"proofOfWorkDifficulty": None}
        with start_test_serve("--axis-for-tests", axis, sites=[site(sitekey, **fields)]) as serve:
            open_site(serve.url, sitekey)
            challenge = last_challenge()
            self.assertEqual(challenge["axis"], axis)
            settled()  # the picture fades in
            shot(f"{name}-ready", widget())
            hole_x, hole_y = answer_for(serve.url, challenge["id"])
            alt = widget().find_element(By.CSS_SELECTOR, ".tactile-alt")
            self.assertEqual("proofOfWork" in challenge, proof_of_work)
            self.assertEqual(alt.is_displayed(), proof_of_work, "no proof of work, no button")
            if axis == "vertical":
                self.assertEqual(slider().get_attribute("aria-orientation"), "vertical")
                drag(slider(), 0, css_offset_for(hole_y, vertical=True), seed=51)
            else:
                piece = widget().find_element(By.CSS_SELECTOR, ".tactile-piece")
                self.assertEqual(piece.get_attribute("role"), "slider")
                scale = css_offset_for(1, on="piece")
                drag(piece, hole_x * scale, hole_y * scale, seed=53)
            wait_state("passed")
            body = sent("/answer")[-1]["body"]
            if axis == "vertical":
                self.assertEqual(body["x"], challenge["pieceX"])
                self.assertEqual(body["track"][0], {"x": challenge["pieceX"], "y": 0, "t": 0})
            else:
                self.assertEqual(body["track"][0], {"x": 0, "y": 0, "t": 0})
            settled()
            shot(f"{name}-passed", widget())

    def test_20_vertical_puzzle(self):
        self.run_axis("vertical", "20-vertical", proof_of_work=False)

    def test_21_free_puzzle(self):
        self.run_axis("free", "21-free", proof_of_work=True)


class RateLimitTests(unittest.TestCase):
    """How the widget shows a rate limit: against a service whose site allows one answer a
    client in a window of 10 s (answersPerMinute 1, --rate-window-for-tests 10)."""

    SITEKEY = "rate-limit-test-site"

    @classmethod
    def setUpClass(cls):
        # A low price (12 bits; the proof of work alone 14, about 16,000 hashes) keeps the
        # second answer well inside the window the first opened, or it would simply pass.
        cls.serve = start_test_serve("--rate-window-for-tests", "10",
                                     sites=[site(cls.SITEKEY, answersPerMinute=1, proofOfWorkDifficulty=12)])

    @classmethod
    def tearDownClass(cls):
        cls.serve.stop()

    def test_30_rate_limited_counts_down_then_a_fresh_puzzle(self):
        open_site(self.serve.url, self.SITEKEY)
        widget().find_element(By.CSS_SELECTOR, ".tactile-alt").click()
        # The price takes well under a second here: the progress may come and go unseen.
        wait(lambda: re.search(r"\d+%", status_text()) or state() not in ("ready", "working"),
             message=lambda: f"no progress shown and the price not paid; status {status_text()!r}")
        if re.search(r"\d+%", status_text()):
            shot("30-proof-of-work-progress", widget())
        wait_state("passed")
        DRIVER.execute_script("window.tactileCaptcha.reset()")
        wait_state("ready")
        DRIVER.find_element(By.CSS_SELECTOR, ".tactile-alt").click()  # a second check in the window
        wait_state("limited")
        self.assertEqual(sent("/answer")[-1]["status"], 429)
        first = status_text()
        self.assertRegex(first, r"^Too many tries — wait \d+ s$")
        shot("31-rate-limited", widget())
        seconds = int(re.search(r"\d+", first).group())
        if seconds > 1:
            wait(lambda: status_text() != first, message=f"the count stays at {first!r}")
            self.assertRegex(status_text(), r"^Too many tries — wait \d+ s$")
            self.assertLess(int(re.search(r"\d+", status_text()).group()), seconds)
        wait_state("ready", timeout=seconds + PATIENCE)
        self.assertEqual(status_text(), "")


class ExpiryTests(unittest.TestCase):
    """How the widget reacts to expiry: against a service whose puzzles live 9 s
    (--puzzle-lifetime-for-tests 9)."""

    @classmethod
    def setUpClass(cls):
        cls.serve = start_test_serve("--puzzle-lifetime-for-tests", "9")
        cls.base = cls.serve.url

    @classmethod
    def tearDownClass(cls):
        cls.serve.stop()

    def test_31_an_expired_puzzle_is_replaced_with_the_reason(self):
        # A person still holds the piece when the puzzle expires: the widget does not take the
        # puzzle from under the pointer, so the answer goes to the service, which says it expired.
        open_demo(self.base)
        challenge = last_challenge()
        expires = datetime.datetime.fromisoformat(challenge["expiresAt"].replace("Z", "+00:00")).timestamp()
        drag(slider(), css_offset_for(challenge["imageWidth"] / 3), seed=37, hold=expires + 0.5 - time.time())
        wait_fresh_puzzle(challenge["id"])
        answer = sent("/answer")[-1]
        self.assertIn(challenge["id"], answer["url"])
        self.assertEqual(answer["response"], {"success": False, "error-codes": ["expired"]})
        self.assertEqual(status_text(), "That puzzle expired — here is a new one")
        shot("32-expired-replaced", widget())

    def test_32_a_puzzle_is_replaced_before_it_expires(self):
        open_demo(self.base)
        challenge_id = widget().get_attribute("data-challenge")
        expires = last_challenge()["expiresAt"]
        self.assertRegex(expires, r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")
        # A 9 s lifetime: the widget asks for a new puzzle about 2 s before the end, by itself.
        wait_fresh_puzzle(challenge_id)
        self.assertEqual(status_text(), "")


class OutageTests(unittest.TestCase):
    """How the widget rides out the service going away: it says so, asks again by itself (5 s
    later, then later each time it fails), and goes on once the service is back."""

    SITEKEY = "outage-test-site"

    def test_33_after_an_outage_the_widget_recovers_by_itself(self):
        port = free_port()
        serve = start_test_serve(sites=[site(self.SITEKEY)], listen=f"127.0.0.1:{port}")
        try:
            open_site(serve.url, self.SITEKEY)
            challenge_id = widget().get_attribute("data-challenge")
            hole_x, _ = answer_for(serve.url, challenge_id)
            serve.stop()
            # The answer cannot be sent: the person is told, and nothing is asked of them.
            drag(slider(), css_offset_for(hole_x), seed=47)
            wait_state("error")
            self.assertEqual(status_text(), "The puzzle is unavailable right now — trying again in a moment")
            shot("33-service-away", widget())
            serve = start_test_serve(sites=[site(self.SITEKEY)], listen=f"127.0.0.1:{port}")
            wait_state("ready")
            fresh = widget().get_attribute("data-challenge")
            self.assertNotIn(fresh, (None, challenge_id))
            hole_x, _ = answer_for(serve.url, fresh)
            drag(slider(), css_offset_for(hole_x), seed=48)
            wait_state("passed")
            shot("34-recovered-and-passed", widget())
        finally:
            serve.stop()


# ----------------------------------------------------------------------------- the widget's width

# A page with no style sheet of its own: the widget's width is whatever widget.js gives it.
PLAIN_PAGE = r"""
    window.tactileCaptcha.remove();
    document.querySelectorAll('style, link[rel=stylesheet]').forEach((sheet) => sheet.remove());
    document.body.innerHTML = arguments[1];
    for (const host of document.querySelectorAll('.tactile-captcha')) {
      host.dataset.sitekey = arguments[0];
      window.tactileCaptcha.render(host);
    }
"""

# The narrowest the picture is shown while the container has room (widget.js's CSS).
SMALLEST_PICTURE = 280


class WidthTests(unittest.TestCase):
    """The widget on a plain page: no wider than its picture's natural width on a wide page,
    no narrower than 280 px while there is room, and never wider than a narrow container."""

    def setUp(self):
        DRIVER.set_window_size(1400, 1000)
        self.addCleanup(DRIVER.set_window_size, 960, 1000)

    def plain_page(self, body, base=None):
        """Opens /demo (for its origin and its site key), then replaces the page's body with
        `body` and its style sheets with none, and renders every .tactile-captcha in it."""
        DRIVER.get(f"{base or BASE}/demo")
        sitekey = DRIVER.find_element(By.CSS_SELECTOR, ".tactile-captcha").get_attribute("data-sitekey")
        DRIVER.execute_script(PLAIN_PAGE, sitekey, body)
        self.assertGreaterEqual(DRIVER.execute_script("return window.innerWidth"), 1300, "a wide page")

    def picture(self, index=0):
        """The rectangles of the picture (the <img>) and of its stage, in CSS pixels."""
        w = widget(index)
        return rect(w.find_element(By.CSS_SELECTOR, ".tactile-bg")), rect(w.find_element(By.CSS_SELECTOR, ".tactile-stage"))

    def test_50_on_a_wide_page_the_picture_is_at_most_its_natural_width(self):
        self.plain_page('<form method="post" action="/demo"><p>Sign up</p>'
                        '<div class="tactile-captcha"></div><button>Sign up</button></form>')
        wait_state("ready")
        settled()  # the picture fades in
        shot("50-plain-wide-page")
        challenge = last_challenge()
        natural = challenge["imageWidth"]
        picture, stage = self.picture()
        self.assertLessEqual(picture["w"], natural + 0.5, "no wider than the picture itself")
        self.assertGreaterEqual(picture["w"], SMALLEST_PICTURE)
        self.assertAlmostEqual(picture["w"], stage["w"], delta=0.5)
        self.assertAlmostEqual(picture["h"], picture["w"] * challenge["imageHeight"] / natural, delta=1)
        rail = rect(widget().find_element(By.CSS_SELECTOR, ".tactile-rail"))
        self.assertAlmostEqual(rail["w"], picture["w"], delta=0.5, msg="the slider as wide as the picture")
        self.assertLessEqual(rail["y"] + rail["h"], DRIVER.execute_script("return window.innerHeight"),
                             "the slider above the fold")
        # The answer reports the width the picture is shown at.
        hole_x, _ = answer_for(BASE, challenge["id"])
        drag(slider(), css_offset_for(hole_x), seed=71)
        wait_state("passed")
        self.assertAlmostEqual(sent("/answer")[-1]["body"]["displayWidth"], picture["w"], delta=0.5)

    def test_51_in_a_narrow_container_the_widget_fits_inside_it(self):
        self.plain_page('<div id="w320" style="width: 320px"><div class="tactile-captcha"></div></div>'
                        '<div id="w260" style="width: 260px"><div class="tactile-captcha"></div></div>')
        wait_state("ready", index=0)
        wait_state("ready", index=1)
        shot("51-plain-narrow-containers")
        for index, name, width in ((0, "w320", 320), (1, "w260", 260)):
            box = rect(DRIVER.find_element(By.ID, name))
            outer = rect(widget(index))
            picture, stage = self.picture(index)
            self.assertAlmostEqual(box["w"], width, delta=0.5)
            self.assertGreaterEqual(outer["x"], box["x"] - 0.5, name)
            self.assertLessEqual(outer["x"] + outer["w"], box["x"] + box["w"] + 0.5, f"{name}: the widget fits")
            self.assertLessEqual(picture["x"] + picture["w"], box["x"] + box["w"] + 0.5, f"{name}: the picture fits")
            self.assertAlmostEqual(picture["w"], stage["w"], delta=0.5)
            overflow = DRIVER.execute_script("return arguments[0].scrollWidth - arguments[0].clientWidth",
                                             DRIVER.find_element(By.ID, name))
            self.assertLessEqual(overflow, 0, f"{name}: nothing sticks out")
        # With room for it (320 px), the picture is still at least 280 px wide.
        picture, _ = self.picture(0)
        self.assertGreaterEqual(picture["w"], SMALLEST_PICTURE)
        # And a drag in it reports that width.
        hole_x, _ = answer_for(BASE, widget(0).get_attribute("data-challenge"))
        drag(slider(0), css_offset_for(hole_x, index=0), seed=73)
        wait_state("passed", index=0)
        self.assertAlmostEqual(sent("/answer")[-1]["body"]["displayWidth"], picture["w"], delta=0.5)

    def test_52_a_vertical_slider_beside_the_picture_leaves_it_its_natural_width(self):
        with start_test_serve("--axis-for-tests", "vertical") as serve:
            self.plain_page('<form><div class="tactile-captcha"></div></form>', serve.url)
            wait_state("ready")
            shot("52-plain-wide-page-vertical")
            challenge = last_challenge()
            self.assertEqual(challenge["axis"], "vertical")
            picture, _ = self.picture()
            rail = rect(widget().find_element(By.CSS_SELECTOR, ".tactile-rail"))
            self.assertLessEqual(picture["w"], challenge["imageWidth"] + 0.5)
            self.assertGreaterEqual(picture["w"], min(challenge["imageWidth"], SMALLEST_PICTURE))
            self.assertGreaterEqual(rail["x"], picture["x"] + picture["w"], "the slider beside the picture")


# ----------------------------------------------------------------------------- the piece in the photo

# scikit-image's sample photos (python3-skimage; scripts/setup.sh --with-photos), as
# PhotoSet in Sources/TactilePuzzleSolvers reads them. This one is textured all over.
SAMPLE_PHOTO = "/usr/lib/python3/dist-packages/skimage/data/motorcycle_left.png"
# The challenge's picture size (`tactile puzzle serve` cuts every puzzle at 640 × 360).
PICTURE_SIZE = (640, 360)
# The verifier's tolerance in background pixels (VerifierPolicy.verificationTolerance).
TOLERANCE = 8


def rgb_array(png_bytes, mode):
    return numpy.asarray(Image.open(io.BytesIO(png_bytes)).convert(mode), dtype=numpy.float32)


class PhotoTests(unittest.TestCase):
    """The service cutting puzzles from one known photo (varied for every puzzle): the test
    drags there for real, onto the hole its revealed answer gives."""

    serve = None
    pictures = None
    missing = None  # why the test cannot run here (skipped in the test, so the count shows it)

    @classmethod
    def setUpClass(cls):
        if not os.environ.get("TACTILE"):
            cls.missing = "needs TACTILE, the tactile binary (run-against-service.sh sets it)"
        elif numpy is None:
            cls.missing = "needs python3-pil and python3-numpy (scripts/setup.sh --with-browser)"
        elif not os.path.exists(SAMPLE_PHOTO):
            cls.missing = f"needs {SAMPLE_PHOTO} (python3-skimage; scripts/setup.sh --with-photos)"
        if cls.missing:
            return
        # A crop at exactly the challenge's size.
        cls.pictures = tempfile.mkdtemp(prefix="tactile-photo-")
        original = Image.open(SAMPLE_PHOTO).convert("RGB")
        left = (original.width - PICTURE_SIZE[0]) // 2
        top = (original.height - PICTURE_SIZE[1]) // 2
        crop = original.crop((left, top, left + PICTURE_SIZE[0], top + PICTURE_SIZE[1]))
        path = os.path.join(cls.pictures, "motorcycle-640x360.png")
        crop.save(path)
        cls.serve = start_test_serve("--pictures", cls.pictures)
        cls.base = cls.serve.url

    @classmethod
    def tearDownClass(cls):
        if cls.serve:
            cls.serve.stop()
        if cls.pictures:
            shutil.rmtree(cls.pictures, ignore_errors=True)

    def setUp(self):
        if self.missing:
            self.skipTest(self.missing)

    def piece_from_page(self):
        """The piece's PNG as the widget loaded it (its <img>'s URL, fetched by the page)."""
        src, data = DRIVER.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const img = arguments[0].querySelector('.tactile-piece img');
            fetch(img.src).then(r => r.arrayBuffer()).then(buffer => {
              const bytes = new Uint8Array(buffer);
              let text = '';
              for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
              done([img.src, btoa(text)]);
            }, error => done([img.src, 'error: ' + error]));""", widget())
        self.assertFalse(data.startswith("error"), data)
        return src, base64.b64decode(data)

    def test_40_a_drag_onto_the_hole_of_a_puzzle_cut_from_a_photo_verifies(self):
        # The service varies the photo for every puzzle (zoom, crop, mirror, colour), so the
        # hole cannot be found by matching the piece against the photo: the tests's revealed
        # answer says where it is (PictureVariationTests show what the variation hides).
        open_demo(self.base)
        settled()  # the picture fades in
        shot("40-photo-ready", widget())
        challenge = last_challenge()
        challenge_id = widget().get_attribute("data-challenge")
        self.assertEqual(challenge_id, challenge["id"])
        self.assertEqual((challenge["imageWidth"], challenge["imageHeight"]), PICTURE_SIZE)
        src, png = self.piece_from_page()
        self.assertIn(f"/v1/challenges/{challenge_id}/piece", src)
        self.assertEqual(png[:8], b"\x89PNG\r\n\x1a\n")
        piece = rgb_array(png, "RGBA")
        self.assertEqual(piece.shape[:2], (challenge["pieceHeight"], challenge["pieceWidth"]))
        self.assertTrue((piece[..., 3] == 0).any() and (piece[..., 3] == 255).any(), "a shaped piece with alpha")
        found, revealed_y = answer_for(self.base, challenge_id)
        self.assertEqual(revealed_y, challenge["pieceY"])

        drag(slider(), css_offset_for(found), seed=61)
        wait_state("passed")
        settled()  # the snap and the check mark
        shot("42-photo-passed", widget())
        answer = sent("/answer")[-1]
        self.assertIn(challenge_id, answer["url"])
        self.assertLessEqual(abs(answer["body"]["x"] - found), TOLERANCE)
        self.assertGreaterEqual(len(answer["body"]["track"]), 12)

        success, codes, text = submit_demo("Grace Hopper", "grace@example.com")
        shot("43-photo-result-verified")
        self.assertEqual(success, "true", text)
        self.assertEqual(codes, [])
        self.assertIn("Verified", text)
        self.assertIn("signup", text, "the result names the token's action")


# ----------------------------------------------------------------------------- recorded finger strokes

# Real people's drags (see ../shared/captcha-drags/README.md): never committed to the project,
# read from beside the repository when present (or from TACTILE_DRAGS).
REPOSITORY = os.path.dirname(os.path.dirname(HERE))
DRAGS = os.environ.get("TACTILE_DRAGS") or os.path.join(REPOSITORY, "..", "shared", "captcha-drags")
# The finger sources, in order of preference: aimed strokes with the finger held down (CSS px),
# then flicks between pictures (dp, taken as CSS px).
FINGER_SOURCES = ("howweswipe-rowstrokes", "bioident-swipes")
# How far a stroke is scaled at most (k within 1 ± this) to land on the hole.
MOST_SCALING = 0.05


def finger_strokes():
    """{source: tracks} of the recorded finger strokes in DRAGS/dev/humans (the sources found)."""
    strokes = {}
    for source in FINGER_SOURCES:
        path = os.path.join(DRAGS, "dev", "humans", f"{source}.json")
        if os.path.exists(path):
            with open(path) as file:
                strokes[source] = json.load(file)["tracks"]
    return strokes


def stroke_for(strokes, needed):
    """(source, track, k): the stroke whose travel along x is closest to `needed` CSS px (as a
    ratio; ties by id), from the first source that has one within MOST_SCALING, with k =
    needed / travel; None when no source has one that close."""
    for source in FINGER_SOURCES:
        candidates = [t for t in strokes.get(source, ()) if t["pts"][-1][1] > 0]
        if not candidates:
            continue
        track = min(candidates, key=lambda t: (abs(math.log(needed / t["pts"][-1][1])), t["id"]))
        k = needed / track["pts"][-1][1]
        if abs(k - 1) <= MOST_SCALING:
            return source, track, k
    return None


def replay_touch(element, pts, k):
    """Presses a finger on the element's centre and moves it through the recorded points
    [t_ms, dx, dy] (scaled by k) with Chrome's touch input, at the recorded times: each
    dispatch waits for its time on a monotonic clock and carries it as its `timestamp` (which
    Chrome gives the page as event.timeStamp, so the times the widget records are the
    recorded ones however late a dispatch is). The last point is the release: the finger
    moves there (if it moved since the point before) and lifts."""
    r = rect(element)
    x0, y0 = r["x"] + r["w"] / 2, r["y"] + r["h"] / 2
    events = [("touchStart", pts[0])] + [("touchMove", p) for p in pts[1:-1]]
    if pts[-1][1:] != pts[-2][1:]:
        events.append(("touchMove", pts[-1]))
    events.append(("touchEnd", pts[-1]))
    dispatch(events, lambda kind, x, y: ("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [] if kind == "touchEnd" else [{"x": x, "y": y, "radiusX": 4, "radiusY": 4, "force": 1}]}),
        x0, y0, k)


def replay_mouse(element, pts, k, step_ms=16):
    """The same path as a mouse moved by a timer: onto the element's centre, the left button
    pressed, then the recorded path (scaled by k) read every step_ms exactly over the recorded
    duration (straight between recorded points), the button released at its end."""
    r = rect(element)
    x0, y0 = r["x"] + r["w"] / 2, r["y"] + r["h"] / 2
    DRIVER.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x0, "y": y0})
    steady = steady_path(pts, step_ms)
    events = [("mousePressed", steady[0])] + [("mouseMoved", p) for p in steady[1:]] + [("mouseReleased", steady[-1])]
    dispatch(events, lambda kind, x, y: ("Input.dispatchMouseEvent", {
        "type": kind, "x": x, "y": y, "button": "left", "buttons": 0 if kind == "mouseReleased" else 1,
        "clickCount": 1}), x0, y0, k)


def steady_path(pts, step_ms):
    """[t_ms, dx, dy] of the path of pts every step_ms from 0 to the first step at or past its
    end (interpolated between recorded points; the last one the release's place)."""
    out, index, t = [], 0, 0.0
    while t < pts[-1][0]:
        while pts[index + 1][0] < t:
            index += 1
        (ta, xa, ya), (tb, xb, yb) = pts[index], pts[index + 1]
        u = (t - ta) / (tb - ta) if tb > ta else 1.0
        out.append((t, xa + u * (xb - xa), ya + u * (yb - ya)))
        t += step_ms
    out.append((t, pts[-1][1], pts[-1][2]))
    return out


def touch_samples(pts):
    """The times of the samples the widget records for replay_touch(pts): the press, each move
    to another place (Chromium fires no pointermove for a touch that stays put; a sample at
    the time of the one before only moves it), and the release."""
    times, place = [0.0], tuple(pts[0][1:])
    for t, dx, dy in pts[1:]:
        if (dx, dy) != place and round(t, 2) > times[-1]:
            times.append(t)
        place = (dx, dy)
    if pts[-1][0] > times[-1]:
        times.append(pts[-1][0])
    return times


def dispatch(events, command, x0, y0, k):
    """Sends (kind, [t_ms, dx, dy]) events through CDP at their times from now."""
    wall, start = time.time(), time.monotonic()
    for kind, (t, dx, dy) in events:
        delay = start + t / 1000 - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        name, parameters = command(kind, x0 + dx * k, y0 + dy * k)
        DRIVER.execute_cdp_cmd(name, {**parameters, "timestamp": wall + t / 1000})



class TouchReplayTests(unittest.TestCase):
    """Recorded finger strokes (../shared/captcha-drags, when present) replayed on the widget
    with Chrome's touch input, against a service that judges drags with its drag model (the
    touch model for touch); the same path from a mouse at a machine's steady rate is refused.
    The site asks no price, so a doubted drag cannot pass by paying one: a pass is the drag's."""

    SITEKEY = "touch-replay-test-site"

    @classmethod
    def setUpClass(cls):
        if not os.environ.get("TACTILE"):
            raise unittest.SkipTest("needs TACTILE, the tactile binary (run-against-service.sh sets it)")
        # As start_test_serve, but with the drag model on.
        cls.serve = start_serve(os.environ["TACTILE"], "--reveal-answers-for-tests", "yes", "--demo",
                                sites=[site(cls.SITEKEY, proofOfWorkDifficulty=None)])
        cls.strokes = finger_strokes()

    @classmethod
    def tearDownClass(cls):
        cls.serve.stop()

    def verdict_line(self, challenge_id):
        """The service's log line of the check of `challenge_id` (why it refused, if it did)."""
        tag = f"check puzzle={challenge_id[:8]} "
        def line():
            with open(self.serve.log, errors="replace") as file:
                return next((l for l in reversed(file.read().splitlines()) if tag in l), None)
        return wait(line, message=f"no log line of the check of {challenge_id}")

    def puzzle_with_a_stroke(self):
        """Opens the widget and, while no recorded stroke reaches its hole within MOST_SCALING
        (holes nearer the start than the shortest stroke), takes a fresh puzzle with the
        widget's "New puzzle" button: (challenge, hole_x, needed CSS px, (source, track, k))."""
        open_site(self.serve.url, self.SITEKEY)
        for _ in range(20):
            challenge = last_challenge()
            hole_x, _ = answer_for(self.serve.url, challenge["id"])
            needed = css_offset_for(hole_x, on="piece")
            chosen = stroke_for(self.strokes, needed)
            if chosen:
                return challenge, hole_x, needed, chosen
            widget().find_element(By.CSS_SELECTOR, ".tactile-refresh").click()
            wait_fresh_puzzle(challenge["id"])
        self.fail(f"no recorded stroke within {MOST_SCALING:.0%} of 20 puzzles' holes")

    def test_60_a_recorded_finger_stroke_passes(self):
        if not self.strokes:
            self.skipTest(f"needs the recorded finger strokes of {DRAGS}/dev/humans (TACTILE_DRAGS)")
        challenge, hole_x, needed, (source, track, k) = self.puzzle_with_a_stroke()
        pts = track["pts"]
        print(f"\n  {source} {track['id']}: {len(pts)} points over {pts[-1][0]:.0f} ms, travel "
              f"{pts[-1][1]:.1f} px, k {k:.4f} onto {needed:.1f} CSS px", flush=True)
        piece = widget().find_element(By.CSS_SELECTOR, ".tactile-piece")
        replay_touch(piece, pts, k)
        wait_state("passed")
        shot("60-touch-replay-passed", widget())
        answer = sent("/answer")[-1]
        self.assertIn(challenge["id"], answer["url"])
        body = answer["body"]
        self.assertEqual(body["pointer"], "touch")
        self.assertLessEqual(abs(body["x"] - hole_x), 8)
        samples = body["track"]
        # A sample a recorded point that moved (Chromium drops a touch move that does not), at
        # the recorded times (the dispatches' timestamps, however late they ran).
        # (A stroke may rest for many points: hws-1r9895hro6j0m9hb0ak0861r87-s146 moves in 36
        # of its 49, some strokes in a quarter of theirs.)
        expected = touch_samples(pts)
        self.assertGreaterEqual(len(expected), 3, f"{track['id']}: a stroke that hardly moves")
        self.assertLessEqual(abs(len(samples) - len(expected)), 1,
                             f"{len(samples)} samples sent for {len(expected)} expected ({len(pts)} recorded points)")
        recorded = sorted(t for t, _, _ in pts)
        for sample in samples:
            nearest = min(recorded, key=lambda t: abs(t - sample["t"]))
            self.assertLessEqual(abs(nearest - sample["t"]), 0.5, f"sample at {sample['t']} ms, none recorded then")
        self.assertEqual(answer["response"].get("success"), True, answer["response"])

    def test_61_the_same_path_from_a_steady_mouse_is_refused(self):
        if self.strokes:
            challenge, hole_x, needed, (source, track, k) = self.puzzle_with_a_stroke()
            pts = track["pts"]
            print(f"\n  {source} {track['id']} every 16 ms over {pts[-1][0]:.0f} ms, k {k:.4f}", end="", flush=True)
        else:  # no recorded data here: a straight line onto the hole in half a second
            open_site(self.serve.url, self.SITEKEY)
            challenge = last_challenge()
            hole_x, _ = answer_for(self.serve.url, challenge["id"])
            needed, k = css_offset_for(hole_x, on="piece"), 1.0
            pts = [(0.0, 0.0, 0.0), (500.0, needed, 0.0)]
        log_states()
        piece = widget().find_element(By.CSS_SELECTOR, ".tactile-piece")
        replay_mouse(piece, pts, k)
        # Refused: the piece shakes, "Not quite" shows, and a fresh puzzle follows, the reason kept.
        wait_seen("failed", challenge["id"])
        wait_fresh_puzzle(challenge["id"])
        shot("61-steady-mouse-refused", widget())
        self.assertNotIn("passed", [s for s, _ in seen_states()])
        self.assertEqual(status_text(), "Not quite — try again")
        self.assertEqual(DRIVER.find_element(By.NAME, "tactile-captcha-response").get_attribute("value"), "")
        answer = sent("/answer")[-1]
        self.assertIn(challenge["id"], answer["url"])
        self.assertEqual(answer["body"]["pointer"], "mouse")
        times = [sample["t"] for sample in answer["body"]["track"]]
        self.assertTrue(all(abs(b - a - 16) <= 0.2 for a, b in zip(times, times[1:])), f"not every 16 ms: {times}")
        self.assertLessEqual(abs(answer["body"]["x"] - hole_x), 8, "dropped in the hole: refused for the motion")
        self.assertFalse(answer["response"].get("success"), answer["response"])
        # Refused by the drag model, not as a repeat of test_60's accepted drag.
        line = self.verdict_line(challenge["id"])
        self.assertIn("automated", line)
        self.assertNotIn("repeats one accepted before", line)
        print(f"\n  refused: {line.split('automated: ', 1)[-1]}", flush=True)


# ----------------------------------------------------------------------------- runner


def main():
    return run_module(__name__)


if __name__ == "__main__":
    sys.exit(main())
