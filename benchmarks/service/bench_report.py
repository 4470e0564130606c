#!/usr/bin/env python3
"""Bookkeeping for scripts/bench-serve.sh: metrics snapshots, rounds, the final table.

  bench_report.py snapshot URL FILE
      Saves GET URL (the service's /metrics) to FILE.
  bench_report.py server-latency BEFORE AFTER [BEFORE AFTER ...]
      Per endpoint, the requests between each pair of snapshots and the bounds of their p50
      and p99 as the service measured them (its histogram's buckets: "≤ 5 ms").
  bench_report.py combine FILE...
      Merges the RESULT lines of several wrk rounds into one: counts and time add up, the
      latency percentiles are the worst round's (an upper bound of the whole phase's).
  bench_report.py table RESULTS
      Prints the table of RESULTS (lines "store <TAB> phase <TAB> RESULT ...") and, when both
      stores ran, the Redis-to-memory ratio per phase.
"""
import collections
import math
import re
import sys
import urllib.request


def parse_result(text):
    for line in text.splitlines():
        if line.startswith("RESULT "):
            return dict(field.split("=", 1) for field in line.split()[1:])
    raise SystemExit("bench_report.py: no RESULT line in the wrk output")


def pairs(text):
    """"200:5,404:1" -> Counter."""
    counts = collections.Counter()
    if text and text != "none":
        for item in text.split(","):
            key, _, value = item.rpartition(":")
            counts[key] += int(value)
    return counts


def joined(counts):
    return ",".join(f"{key}:{counts[key]}" for key in sorted(counts)) or "none"


def snapshot(url, path):
    with urllib.request.urlopen(url, timeout=30) as response:
        text = response.read().decode()
    with open(path, "w") as out:
        out.write(text)


BUCKET = re.compile(r'^tactile_http_request_duration_seconds_bucket\{endpoint="([^"]*)",le="([^"]+)"\} (\d+)$')
# The wait for a worker, over every endpoint: shown as the endpoint "(waiting for a worker)".
WAIT = re.compile(r'^tactile_http_request_wait_seconds_bucket\{le="([^"]+)"\} (\d+)$')
WAITING = "(waiting for a worker)"


def buckets(path):
    table = collections.defaultdict(dict)
    with open(path) as text:
        for line in text:
            match = BUCKET.match(line.strip())
            if match:
                endpoint, bound, count = match.groups()
                table[endpoint][math.inf if bound == "+Inf" else float(bound)] = int(count)
            match = WAIT.match(line.strip())
            if match:
                bound, count = match.groups()
                table[WAITING][math.inf if bound == "+Inf" else float(bound)] = int(count)
    return table


def server_latency(paths):
    total = collections.defaultdict(collections.Counter)
    for before, after in zip(paths[::2], paths[1::2]):
        old, new = buckets(before), buckets(after)
        for endpoint, counts in new.items():
            for bound, count in counts.items():
                total[endpoint][bound] += count - old.get(endpoint, {}).get(bound, 0)

    def bound_of(counts, share):
        n = counts[math.inf]
        for bound in sorted(counts):
            if counts[bound] >= share * n:
                return "> 2500 ms" if bound == math.inf else f"≤ {bound * 1000:g} ms"

    # The endpoints by name, then the wait that is part of each one's time.
    for endpoint in sorted(total, key=lambda name: (name == WAITING, name)):
        counts = total[endpoint]
        if counts[math.inf] == 0 or endpoint in ("/healthz", "/metrics"):
            continue
        print(f"    server-side {endpoint:<30} {counts[math.inf]:>7} requests, "
              f"p50 {bound_of(counts, 0.5)}, p99 {bound_of(counts, 0.99)}")


def combine(paths):
    results = [parse_result(open(path).read()) for path in paths]
    merged = {"rounds": str(len(results))}
    for key in ("seconds", "requests", "units", "prepared", "answered", "passed", "fillers", "non2xx", "socket_errors"):
        values = [float(r[key]) for r in results if key in r]
        if values:
            merged[key] = f"{sum(values):.3f}" if key == "seconds" else str(int(sum(values)))
    for key in ("p50_ms", "p99_ms", "max_ms"):
        merged[key] = f"{max(float(r[key]) for r in results):.2f}"
    for key in ("statuses", "failures"):
        total = collections.Counter()
        for r in results:
            total += pairs(r.get(key, "none"))
        merged[key] = joined(total)
    print("RESULT " + " ".join(f"{key}={value}" for key, value in merged.items()))


def table(path):
    rows = []
    with open(path) as lines:
        for line in lines:
            store, phase, result = line.rstrip("\n").split("\t")
            rows.append((store, phase, parse_result(result)))
    print()
    print(f"{'store':<8} {'phase':<14} {'rate /s':>9} {'p50 ms':>8} {'p99 ms':>8} {'non-2xx':>8}  notes")
    rates = {}
    for store, phase, r in rows:
        seconds = float(r["seconds"])
        rate = int(r["units"]) / seconds if seconds > 0 else 0.0
        rates[(store, phase)] = rate
        if phase == "challenges":
            note = f"{r['units']} complete challenges in {seconds:.1f} s"
        else:
            note = (f"{r['passed']} of {r['answered']} answers passed ({r['prepared']} prepared), "
                    f"{r['units']} verified, in {seconds:.1f} s")
            if int(r.get("rounds", "1")) > 1:
                note += f" ({r['rounds']} rounds; latency of the worst)"
        errors = int(r["socket_errors"])
        if errors:
            note += f"; {errors} socket errors/timeouts"
        failures = r.get("failures", "none")
        if failures != "none":
            note += f"; failures {failures}"
        print(f"{store:<8} {phase:<14} {rate:>9.1f} {float(r['p50_ms']):>8.2f} "
              f"{float(r['p99_ms']):>8.2f} {int(r['non2xx']):>8}  {note}")
    print("(rate: complete challenges, or answer+verify pairs, a second; latency per request)")
    for phase in ("challenges", "answer+verify"):
        memory, redis = rates.get(("memory", phase)), rates.get(("redis", phase))
        if memory and redis is not None:
            print(f"redis / memory, {phase}: {redis / memory:.3f}×")
    print("targets of the issue (not asserted): ≥ 300 challenges/s with images, ≥ 5000 "
          "answer+verify/s, p99 ≤ 50 ms, Redis ≥ 0.7× memory")


def main(argv):
    if len(argv) >= 3 and argv[0] == "snapshot":
        snapshot(argv[1], argv[2])
    elif len(argv) >= 3 and argv[0] == "server-latency" and len(argv) % 2 == 1:
        server_latency(argv[1:])
    elif len(argv) >= 2 and argv[0] == "combine":
        combine(argv[1:])
    elif len(argv) == 2 and argv[0] == "table":
        table(argv[1])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
