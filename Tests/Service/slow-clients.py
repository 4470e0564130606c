"""Slow clients from many addresses must not deny `tactile puzzle serve` to anybody else.

It starts (Tests/Support/harness.py) one serve (memory store) of the binary TACTILE names
on a free loopback port, and stops it at the end; Tests/Service/slow-clients.sh runs it.

For SECONDS (30 by default; a request's deadline is 10 s, so each slot is taken again and
again), on loopback:
  - 20 addresses, each in a /24 of its own, hold 64 connections each that send a request's
    headers one byte every 4 s (never idle long enough for an idle timeout), and open a new
    connection whenever one is closed;
  - 4 addresses of one /24 hold 16 connections each that declare a 1 MiB POST body and send
    1 KiB a second;
  - a probe from 127.0.0.1 asks for GET /healthz, GET /widget.js and POST /v1/siteverify in
    turn, ten times a second, each on a new connection.
It checks that at least 99 % of the probe's requests are answered (2xx) within 1 s, and that
the server's peak resident memory stays under 200 MB. Prints the figures; exits 1 when a
check fails. Plain python3, the standard library only.
"""
import asyncio
import json
import os
import resource
import socket
import subprocess
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from harness import site, start_serve  # noqa: E402

SECONDS = float(os.environ.get("SECONDS_UNDER_ATTACK", "30"))
HOST, PORT = None, None  # the service's, once it runs

SLOW_HEADER_ADDRESSES = [f"127.{10 + i}.0.1" for i in range(20)]
SLOW_BODY_ADDRESSES = [f"127.50.0.{1 + i}" for i in range(4)]


def listen_on(url):
    global HOST, PORT
    parsed = urllib.parse.urlsplit(url)
    HOST, PORT = parsed.hostname, parsed.port


def peak_rss_megabytes(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


class Tally:
    def __init__(self):
        self.opened = 0
        self.refused = 0


async def connect(address, stop, tally):
    """A connection from `address`, asked for again every 0.5 s while refused; None once
    stopped."""
    while not stop.is_set():
        try:
            connection = await asyncio.open_connection(HOST, PORT, local_addr=(address, 0))
        except OSError:
            tally.refused += 1
            await asyncio.sleep(0.5)
            continue
        tally.opened += 1
        return connection
    return None


async def closed_within(reader, seconds):
    """Whether the server closed the connection (the end of the stream) within `seconds`."""
    try:
        return await asyncio.wait_for(reader.read(1), seconds) == b""
    except asyncio.TimeoutError:
        return False


async def attack_slot(address, stop, tally, attack):
    """One connection slot of an attacking client: runs `attack(reader, writer)` on a
    connection, and on a new one 0.5 s after each ends, until stopped."""
    while not stop.is_set():
        connection = await connect(address, stop, tally)
        if connection is None:
            break
        reader, writer = connection
        try:
            await attack(reader, writer)
        except OSError:
            pass
        finally:
            writer.close()
        await asyncio.sleep(0.5)


async def slow_headers(address, stop, tally):
    """One connection slot of a slow client: header bytes every 4 s, again when closed."""
    request = b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"a" * 200

    async def trickle(reader, writer):
        for byte in request:
            if stop.is_set():
                break
            writer.write(bytes([byte]))
            await writer.drain()
            if await closed_within(reader, 4):
                break

    await attack_slot(address, stop, tally, trickle)


async def slow_body(address, stop, tally):
    """One slot of a slow POST: 1 MiB declared, 1 KiB a second sent."""
    head = (
        b"POST /v1/siteverify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1048576\r\n\r\n"
    )

    async def trickle(reader, writer):
        writer.write(head)
        await writer.drain()
        while not stop.is_set():
            writer.write(b" " * 1024)
            await writer.drain()
            if await closed_within(reader, 1) or reader.at_eof():
                break

    await attack_slot(address, stop, tally, trickle)


def probe_once(index):
    """One request of a well-behaved client; whether it was answered 2xx within 1 s."""
    # Requests whose work is small (a puzzle takes half a second to draw in a debug build):
    # what is measured is whether the server gets to them at all.
    if index % 3 == 0:
        request = f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode()
    elif index % 3 == 1:
        request = f"GET /widget.js HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode()
    else:
        # A body through the body budget, and the store: an unknown secret is answered 200
        # with invalid-input-secret.
        body = json.dumps({"secret": "not-a-secret", "response": "x" * 100}).encode()
        request = (
            f"POST /v1/siteverify HTTP/1.1\r\nHost: {HOST}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            "Connection: close\r\n\r\n"
        ).encode() + body
    deadline = time.monotonic() + 1
    try:
        with socket.create_connection((HOST, PORT), timeout=1, source_address=("127.0.0.1", 0)) as s:
            s.sendall(request)
            answer = b""
            while b"\r\n" not in answer:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                s.settimeout(left)
                chunk = s.recv(4096)
                if not chunk:
                    return False
                answer += chunk
            return answer.split(b" ")[1:2] in ([b"200"], [b"201"]) and time.monotonic() <= deadline
    except OSError:
        return False


async def attack(seconds):
    """The attackers, for `seconds`; prints how many connections they opened."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    stop = asyncio.Event()
    headers_tally, bodies_tally = Tally(), Tally()
    attackers = [
        asyncio.create_task(slow_headers(address, stop, headers_tally))
        for address in SLOW_HEADER_ADDRESSES
        for _ in range(64)
    ] + [
        asyncio.create_task(slow_body(address, stop, bodies_tally))
        for address in SLOW_BODY_ADDRESSES
        for _ in range(16)
    ]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*attackers, return_exceptions=True)
    print(json.dumps({"slots": len(attackers), "headers": headers_tally.opened,
                      "bodies": bodies_tally.opened}))


def main():
    if not os.environ.get("TACTILE"):
        print("slow-clients.py: needs TACTILE, the tactile binary (Tests/Service/slow-clients.sh sets it)")
        return 2
    sites = [site("slow-clients-site", hostnames=["127.0.0.1"], proofOfWorkDifficulty=None,
                  puzzlesPerMinute=1000, answersPerMinute=1000)]
    with start_serve(os.environ["TACTILE"], sites=sites) as serve:
        status = run_attack(serve)
        print("--- serve's log about connections (last lines)")
        with open(serve.log, errors="replace") as log:
            print("".join([line for line in log if "server: in the last 10 s" in line][-4:]), end="")
        if status:
            print(f"--- serve (last lines of its log)\n{serve.tail()}", file=sys.stderr)
    return status


def run_attack(serve):
    listen_on(serve.url)
    # The attack runs in a process of its own, so that its event loop's delays are never
    # counted against the server.
    attacker = subprocess.Popen(
        [sys.executable, __file__, "attack", serve.url, str(SECONDS + 2)], stdout=subprocess.PIPE, text=True)
    time.sleep(2)  # let the attack take its slots first
    answered, asked, index = 0, 0, 0
    failures = []
    start = time.monotonic()
    while time.monotonic() - start < SECONDS:
        began = time.monotonic()
        ok = probe_once(index)
        asked += 1
        answered += ok
        if not ok:
            failures.append(round(began - start, 1))
        index += 1
        time.sleep(max(0, 0.1 - (time.monotonic() - began)))
    tally = json.loads(attacker.communicate(timeout=60)[0].strip().splitlines()[-1])
    peak = peak_rss_megabytes(serve.pid)
    share = answered / asked if asked else 0
    print(
        f"slow clients: {tally['slots']} attacking slots opened {tally['headers']} "
        f"slow-header and {tally['bodies']} slow-body connections over {SECONDS:.0f} s"
    )
    print(
        f"probe: {answered} of {asked} answered within 1 s ({100 * share:.1f} %); "
        f"failed at {failures[:10]} s; serve's peak RSS {peak:.0f} MB"
    )
    failed = []
    if tally["headers"] < 20 * 64:
        failed.append("the attack did not even hold its connections")
    if share < 0.99:
        failed.append(f"only {100 * share:.1f} % of the probe's requests answered within 1 s")
    if not peak < 200:
        failed.append(f"peak RSS {peak:.0f} MB, over 200 MB")
    for line in failed:
        print("FAIL:", line)
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["attack"]:
        listen_on(sys.argv[2])
        asyncio.run(attack(float(sys.argv[3])))
    else:
        sys.exit(main())
