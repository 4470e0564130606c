#!/usr/bin/env python3
"""How long the widget's price takes a person: /demo in headless Chromium with the CPU
throttled (4x by default, a mid-range phone), each load's proof of work timed by the widget
(data-price-ms, set when its Web Worker finds the nonce). Prints p50 and p95.

    python3 benchmarks/price/widget_price.py TACTILE [--loads 30] [--throttle 4]

Starts `tactile puzzle serve` on a free loopback port (a development site, the default price)
and stops it. Needs chromium, chromium-driver and python3-selenium (scripts/setup.sh
--with-browser), run with the system's python3.
"""
import argparse
import os
import statistics
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Support"))
from harness import start_serve  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tactile")
    ap.add_argument("--loads", type=int, default=30)
    ap.add_argument("--throttle", type=float, default=4)
    a = ap.parse_args()
    serve = start_serve(a.tactile)
    base = serve.url
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    times, difficulties = [], []
    try:
        driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": a.throttle})
        for _ in range(a.loads):
            driver.get(base + "/demo")
            deadline = time.time() + 120
            value = None
            while time.time() < deadline and value is None:
                value = driver.execute_script(
                    "const w = document.querySelector('.tactile-widget');"
                    "return w && w.dataset.priceMs ? Number(w.dataset.priceMs) : null")
                time.sleep(0.05)
            if value is not None:
                times.append(value)
    finally:
        driver.quit()
        serve.stop()
    times.sort()
    p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
    print(f"widget price at the base difficulty, CPU throttled {a.throttle:g}x, {len(times)} loads: "
          f"p50 {statistics.median(times) / 1000:.2f} s, p95 {p95 / 1000:.2f} s")


if __name__ == "__main__":
    main()
