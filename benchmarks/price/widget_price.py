#!/usr/bin/env python3
"""What the widget's proof of work pays in a browser, and what a person waits for it.

    python3 benchmarks/price/widget_price.py TACTILE [--seconds 5] [--base 22] [--native RATE]

Starts `tactile puzzle serve` on a free loopback port and, in headless Chromium, loads the
widget's own modules from it (widget/work.js) and runs its search for `--seconds` in each way
the widget can: one worker hashing with WebAssembly SIMD, one worker with scalar JavaScript
(a page whose Content-Security-Policy refuses WebAssembly), on the page in slices (workers
refused), and the widget's workers as this machine runs them. Prints the hashes per second of
each (one worker keeps one core busy: per CPU-second) and, against a native solver's rate
(`--native`, hashes per second on one core; benchmarks/price/native_solver.c), the ratio.

Then the person's wait at the price `--base` on the phone model (one desktop core's worker rate
divided by 4, one worker: a phone's cores are slower and often fewer free): the work is 16
parts of base - 4 bits, so the hashes needed are a sum of 16 geometric counts; its median and
95th percentile, drawn 20,000 times. Chrome's CPU throttling does not slow a worker, so the
phone is modelled, not emulated.

Needs chromium, chromium-driver and python3-selenium (scripts/setup.sh --with-browser), run
with the system's python3.
"""
import argparse
import json
import math
import os
import random
import statistics
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Support"))
from harness import start_serve  # noqa: E402

# Runs the widget's search for a while and reports hashes tried and the way it hashed.
MEASURE = """
const [url, seconds, workers, forbidWasm, done] = arguments;
(async () => {
  if (forbidWasm) {
    const policy = document.createElement('meta');
    policy.httpEquiv = 'Content-Security-Policy';
    policy.content = "script-src 'self' 'unsafe-inline' blob:; worker-src blob:";
    document.head.appendChild(policy);
  }
  const { Search } = await import(url + '/widget/work.js');
  // A price no search finishes: 30 bits in one nonce.
  const search = new Search({ salt: '5d1c0a7e93b24f68a1e0c3b79d2f4a65', difficulty: 30 }, workers === null ? {} : { workers });
  await new Promise((resolve) => setTimeout(resolve, 500)); // started, module compiled
  const tried = search.tried;
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const rate = (search.tried - tried) / ((performance.now() - started) / 1000);
  const running = search.workers.length;
  search.stop();
  done({ rate, kind: search.kind, workers: running });
})().catch((error) => done({ error: String(error) }));
"""


def percentile(values, share):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(share * (len(values) - 1))))]


def waits(rate, base, parts=16, draws=20000, seed=7):
    """Seconds to find `parts` nonces of base - log2(parts) bits at `rate` hashes a second."""
    random.seed(seed)
    p = 2.0 ** -(base - int(math.log2(parts)))
    out = []
    for _ in range(draws):
        hashes = sum(math.floor(math.log(1 - random.random()) / math.log(1 - p)) + 1 for _ in range(parts))
        out.append(hashes / rate)
    return statistics.median(out), percentile(out, 0.95)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tactile")
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--base", type=int, default=22)
    ap.add_argument("--native", type=float, help="a native solver's hashes per second on one core")
    ap.add_argument("--json", help="also write the figures to this file")
    a = ap.parse_args()
    serve = start_serve(a.tactile)
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(a.seconds + 60)
    figures = {}
    try:
        for name, workers, forbid in (("worker, WebAssembly SIMD", 1, False), ("worker, scalar JavaScript", 1, True),
                                      ("on the page (no workers), SIMD", 0, False),
                                      ("the widget's workers on this machine", None, False)):
            driver.get(serve.url + "/healthz")
            result = driver.execute_async_script(MEASURE, serve.url, a.seconds, workers, forbid)
            if "error" in result:
                raise SystemExit(f"{name}: {result['error']}")
            figures[name] = result
            print(f"{name:40s} {result['rate'] / 1e6:6.2f} M hashes/s  ({result['kind']}, {result['workers']} worker(s))")
    finally:
        driver.quit()
        serve.stop()
    worker = figures["worker, WebAssembly SIMD"]["rate"]
    if a.native:
        print(f"native solver, one core, against the widget's worker: {a.native / worker:.1f}x")
    phone = worker / 4
    p50, p95 = waits(phone, a.base)
    one50, one95 = waits(phone, a.base, parts=1)
    print(f"phone model ({phone / 1e6:.2f} M hashes/s, one worker) at {a.base} bits: "
          f"16 parts p50 {p50:.2f} s, p95 {p95:.2f} s; one nonce p50 {one50:.2f} s, p95 {one95:.2f} s")
    if a.json:
        with open(a.json, "w") as file:
            json.dump({"figures": figures, "phone": {"rate": phone, "base": a.base, "p50": p50, "p95": p95,
                                                     "single_p50": one50, "single_p95": one95}}, file, indent=1)


if __name__ == "__main__":
    main()
