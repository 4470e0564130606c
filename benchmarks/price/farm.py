#!/usr/bin/env python3
"""What the price of answers costs a script that farms passes from one network, and a person.

    python3 benchmarks/price/farm.py [--minutes 10] [--base 16]

Builds native_solver.c (cc, libsodium; OpenSSL too when present) and measures how many
SHA-256 hashes a second one core of this machine solves with, the faster of the two. Then
plays a script with a perfect image solver and a drag the verifier accepts, farming one IPv4
/24 (an IPv6 /64 is priced the same way) without pause: answer n of the hour costs
2^(base + min(4, ceil((n - 30) / 8))) hashes on average beyond the 30th (the service's schedule,
CaptchaService.priceSurcharge, pinned by aBusyNetworkPaysMoreForEachAnswer). Prints the
verified passes in the period, per CPU-minute, and per hour, and what the person at the
base price pays with this machine's native speed (the widget in a browser is slower: see
widget_price.py).
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def hash_rate(seconds):
    work = tempfile.mkdtemp(prefix="price-")
    try:
        rates = {}
        builds = [("libsodium", [], ["-lsodium"])]
        if os.path.exists("/usr/include/openssl/sha.h"):
            builds.append(("OpenSSL", ["-DWITH_OPENSSL"], ["-lsodium", "-lcrypto"]))
        for name, flags, libs in builds:
            binary = os.path.join(work, name)
            subprocess.run(["cc", "-O2", *flags, os.path.join(HERE, "native_solver.c"), *libs, "-o", binary],
                           check=True)
            out = subprocess.run([binary, "16", str(seconds)], check=True, capture_output=True, text=True).stdout
            rates[name] = json.loads(out)["hashes_per_second"]
        return rates
    finally:
        shutil.rmtree(work, ignore_errors=True)


def difficulty(n, base):
    over = n - 30
    # a bit per 8 puzzles beyond 30, at most 4 (CaptchaService.mostExtraBits), and never past
    # where the proof of work alone (2 bits more) reaches 32 bits
    return min(30, base + (0 if over <= 0 else min(4, (over + 7) // 8)))


def farm(rate, seconds, base):
    spent, n = 0.0, 0
    while True:
        cost = 2 ** difficulty(n + 1, base) / rate
        if spent + cost > seconds:
            return n, spent
        spent += cost
        n += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--base", type=int, default=16)
    ap.add_argument("--measure", type=float, default=10, help="seconds to measure the solver")
    a = ap.parse_args()
    rates = hash_rate(a.measure)
    best = max(rates.values())
    print("native solver, one core: " + ", ".join(f"{k} {v / 1e6:.2f} M hashes/s" for k, v in rates.items()))
    for period in (a.minutes * 60, 3600):
        passes, spent = farm(best, period, a.base)
        print(f"farming one /24 (or /64) for {period / 60:.0f} min: {passes} verified passes, "
              f"{passes / (period / 60):.1f} per CPU-minute (last price {difficulty(passes, a.base)} bits)")
    print(f"a person's answer at the base price: {2 ** a.base / best * 1000:.0f} ms of this machine's native "
          f"speed on average (p95 {2 ** a.base * math.log(20) / best * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
