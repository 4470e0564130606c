#!/usr/bin/env python3
"""What a page can read of a drag beyond its path, and what an automated browser puts there.

    /usr/bin/python3 benchmarks/signals/pointer_signals.py

The signals no public recording of people holds: the pointer's approach before the press (how
many moves over the page before `pointerdown`), the pause from the page showing to the press,
and the pointer events' own properties (pressure, contact width and height, tilt, how many
coalesced events each `pointermove` carries, `isTrusted`). Headless Chromium (chromium and
chromium-driver, python3-selenium) drags on a plain page four ways a script would: WebDriver's
mouse and touch actions, and DevTools' mouse and touch input, the last once with its defaults
and once with a finger's values set (force, radius, tilt). Prints one row a way. No service, no
network: the page is a data: URL.

What it shows: every signal is the script's to choose. DevTools touch input sets pressure,
contact size and tilt to any value, any approach or pause is a few lines, and every event is
`isTrusted`. A rule on them would stop only a script that does not bother, and without
recordings of people's values it could not be set without refusing people whose device
reports otherwise (many phones report pressure 1 or 0 and no contact size).
"""
import json
import os
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service as ChromeService
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By

PAGE = """<!doctype html><html><body style="margin:0">
<div id="piece" style="position:absolute;left:40px;top:100px;width:60px;height:60px;background:#38c;touch-action:none"></div>
<script>
const shown = performance.now();
window.seen = {moves_before: 0, down: null, moves: [], up: null};
addEventListener('pointermove', (e) => { if (!window.seen.down) window.seen.moves_before++; });
const piece = document.getElementById('piece');
function props(e) { return {type: e.pointerType, pressure: e.pressure, width: e.width, height: e.height,
  tiltX: e.tiltX, tiltY: e.tiltY, trusted: e.isTrusted,
  coalesced: e.getCoalescedEvents ? e.getCoalescedEvents().length : -1, t: e.timeStamp}; }
piece.addEventListener('pointerdown', (e) => { piece.setPointerCapture(e.pointerId);
  window.seen.down = {...props(e), after_shown_ms: e.timeStamp - shown}; });
piece.addEventListener('pointermove', (e) => { if (window.seen.down && !window.seen.up) window.seen.moves.push(props(e)); });
piece.addEventListener('pointerup', (e) => { window.seen.up = props(e); });
</script></body></html>"""


def driver():
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--window-size=800,600"):
        options.add_argument(argument)
    return webdriver.Chrome(options=options, service=ChromeService(
        os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")))


def fresh(d):
    d.get("data:text/html," + PAGE.replace("#", "%23"))
    return d.find_element(By.ID, "piece")


def webdriver_mouse(d, piece):
    ActionChains(d).move_to_element(piece).click_and_hold().pause(0.05).move_by_offset(60, 0) \
        .move_by_offset(60, 1).move_by_offset(60, 0).release().perform()


def webdriver_touch(d, piece):
    actions = ActionBuilder(d, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    actions.pointer_action.move_to(piece).pointer_down()
    for _ in range(3):
        actions.pointer_action.move_by(60, 0)
    actions.pointer_action.pointer_up()
    actions.perform()


def cdp_mouse(d, piece):
    for i in range(10):
        d.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 5 + 6 * i, "y": 130})
    d.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mousePressed", "x": 70, "y": 130, "button": "left", "clickCount": 1})
    for i in range(1, 13):
        d.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 70 + 15 * i, "y": 130, "button": "left", "buttons": 1})
        time.sleep(0.016)
    d.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": 250, "y": 130, "button": "left", "clickCount": 1})


def cdp_touch(point):
    def drag(d, piece):
        d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [dict(point, x=70, y=130)]})
        for i in range(1, 13):
            d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [dict(point, x=70 + 15 * i, y=130)]})
            time.sleep(0.016)
        d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    return drag


WAYS = [
    ("WebDriver mouse actions", webdriver_mouse),
    ("WebDriver touch actions", webdriver_touch),
    ("DevTools mouse input, with an approach", cdp_mouse),
    ("DevTools touch input, defaults", cdp_touch({})),
    ("DevTools touch input, a finger's values", cdp_touch({"force": 0.43, "radiusX": 11.5, "radiusY": 13, "tiltX": 7})),
]


def main():
    d = driver()
    try:
        print(f"{'way':42} {'type':6} {'pressure':>9} {'w×h':>9} {'tilt':>5} {'coalesced':>9} "
              f"{'approach':>8} {'to press':>9} trusted")
        for name, way in WAYS:
            piece = fresh(d)
            time.sleep(0.4)  # a pause before the press: any the script likes
            way(d, piece)
            seen = d.execute_script("return window.seen")
            down, moves = seen["down"] or {}, seen["moves"]
            pressures = sorted({round(m["pressure"], 2) for m in moves})
            sizes = sorted({f"{m['width']:g}×{m['height']:g}" for m in moves})
            coalesced = sorted({m["coalesced"] for m in moves})
            print(f"{name:42} {down.get('type', '-'):6} {','.join(map(str, pressures)):>9} "
                  f"{','.join(sizes):>9} {down.get('tiltX', 0):>5} {','.join(map(str, coalesced)):>9} "
                  f"{seen['moves_before']:>8} {down.get('after_shown_ms', 0):8.0f}ms {down.get('trusted')}")
    finally:
        d.quit()


if __name__ == "__main__":
    main()
