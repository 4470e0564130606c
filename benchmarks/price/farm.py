#!/usr/bin/env python3
"""What the price of answers costs a script that farms passes from one network, and a person.

    python3 benchmarks/price/farm.py [--minutes 10] [--base 22] [--before 16]

Builds native_solver.c (cc, libsodium), checks every mode of it against libsodium, and
measures how many SHA-256 hashes a second one core of this machine solves with in each mode
this CPU runs (libsodium per nonce, scalar C, SHA extensions, AVX2, AVX-512), the fastest
the "best" a script would use. Then
plays a script with a perfect image solver and a drag the verifier accepts, farming one IPv4
/24 (an IPv6 /64 is priced the same way) without pause: answer n of the hour costs
2^(base + min(4, ceil((n - 30) / 8))) hashes on average beyond the 30th (the service's schedule,
CaptchaService.priceSurcharge, pinned by aBusyNetworkPaysMoreForEachAnswer). Prints the
verified passes in the period, per CPU-minute, and per hour, and what the person at the
base price pays with this machine's native speed (the widget in a browser is slower: see
widget_price.py).

A farm spread over many networks pays no network surcharge; what it meets is the site's
surge price (CaptchaService.surgeBits, SurgePricing): at more than 4 times the site's normal
answers a minute, a bit per doubling, at most 2. Printed too: its passes per CPU-minute at
the base price (a farm that stays under the threshold, whose volume the threshold bounds) and
under the full surge. Every figure for `--base` and for `--before` (the price before).
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
    """Hashes a second of one core in each mode of native_solver.c this CPU runs, by mode."""
    work = tempfile.mkdtemp(prefix="price-")
    try:
        binary = os.path.join(work, "native_solver")
        subprocess.run(["cc", "-O3", "-march=native", os.path.join(HERE, "native_solver.c"), "-lsodium",
                        "-o", binary], check=True)
        subprocess.run([binary, "--check"], check=True, capture_output=True, text=True)
        modes = subprocess.run([binary, "--modes"], check=True, capture_output=True, text=True).stdout.split()
        rates = {}
        for mode in modes:
            out = subprocess.run([binary, mode, "16", str(seconds)], check=True, capture_output=True, text=True).stdout
            rates[mode] = json.loads(out)["hashes_per_second"]
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
    ap.add_argument("--base", type=int, default=22)
    ap.add_argument("--before", type=int, default=16, help="the base price to compare with")
    ap.add_argument("--measure", type=float, default=10, help="CPU seconds to measure each mode of the solver")
    a = ap.parse_args()
    rates = hash_rate(a.measure)
    best_mode = max(rates, key=rates.get)
    best = rates[best_mode]
    print("native solver, one core: " + ", ".join(f"{k} {v / 1e6:.2f} M hashes/s" for k, v in rates.items())
          + f"; best {best_mode}")
    for base in (a.before, a.base):
        print(f"-- base price {base} bits")
        for period in (a.minutes * 60, 3600):
            passes, spent = farm(best, period, base)
            print(f"farming one /24 (or /64) for {period / 60:.0f} min: {passes} verified passes, "
                  f"{passes / (period / 60):.1f} per CPU-minute (last price {difficulty(passes, base)} bits)")
        for label, bits in (("below the surge threshold", base), ("under the full surge (+2 bits)", base + 2)):
            print(f"farming one site from many networks, {label}: {60 * best / 2 ** bits:.1f} verified passes "
                  f"per CPU-minute")
        print(f"a person's answer at the base price: {2 ** base / best * 1000:.2f} ms of this machine's native "
              f"speed on average")


if __name__ == "__main__":
    main()
