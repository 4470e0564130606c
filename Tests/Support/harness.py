"""Starts what the service's tests, benchmarks and scripts run against, and stops it again.

`tactile puzzle serve` and redis-server (a server or a Sentinel) each start on a free loopback
port, in a scratch folder of their own that holds their output and log. A start returns once
the process answers: serve has printed "listening on …" (its URL, the URL of its /metrics and,
without --sites, the development site's key and secret are read from what it printed), Redis
answers PING. A process that exits first, or takes longer than `timeout` seconds (PATIENCE
unless told), fails the start with the end of its log.

Everything started is stopped (SIGTERM, then SIGKILL) by stop(), at the end of a `with`
block, or when this Python process ends, SIGTERM included; a started process also gets
SIGTERM from the kernel if this one dies without a word (SIGKILL), so nothing outlives a run.
Start processes from the main thread: that signal follows the thread that started them.

    from harness import start_redis, start_serve, site

    with start_redis() as redis, start_serve(TACTILE, "--store", redis.url,
                                             sites=[site("my-test-site")]) as serve:
        ...serve.url, serve.metrics_url, serve.sites[0]["secret"], serve.log...

The shell scripts have the same in Tests/Support/harness.sh. Plain python3, standard library.
"""
import atexit
import ctypes
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

__all__ = ["PATIENCE", "Reply", "request", "free_port", "site", "start_serve", "start_redis", "Serve", "Redis", "StartFailure"]

# Seconds a wait for something to happen gives it before the test fails: a start, a reply, a
# state. Generous, so that a machine busy with other work (a build beside the tests) is slow,
# not failing; a wait returns as soon as its state comes, so a normal run never waits this long.
PATIENCE = 120

_started = []  # everything started and not yet stopped, stopped at exit


class StartFailure(RuntimeError):
    """A process did not start: it exited, or did not answer within its time."""


class Reply:
    """An HTTP reply: its status, headers and body (bytes)."""

    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    def json(self):
        return json.loads(self.body)

    def __repr__(self):
        return f"HTTP {self.status} {self.body[:200]!r}"


def request(url, data=None, form=False, headers=None, timeout=PATIENCE):
    """One request, a POST of `data` (JSON, or a form with `form`) or else a GET; any status
    comes back as a Reply (urllib raises on 4xx and 5xx)."""
    headers = dict(headers or {})
    body = None
    if data is not None:
        if form:
            body = urllib.parse.urlencode(data).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        else:
            body = json.dumps(data).encode()
            headers["Content-Type"] = "application/json"
    outgoing = urllib.request.Request(url, data=body, headers=headers,
                                      method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(outgoing, timeout=timeout) as response:
            return Reply(response.status, response.headers, response.read())
    except urllib.error.HTTPError as error:
        return Reply(error.code, error.headers, error.read())


def free_port(host="127.0.0.1"):
    """A TCP port free on `host` when asked (the caller binds it right away)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def site(sitekey, **fields):
    """A site for a --sites file: `sitekey`, a fresh random secret, pages on 127.0.0.1 and
    localhost, and any other fields as given (proofOfWorkDifficulty=None for no price)."""
    entry = {"sitekey": sitekey, "secret": f"{sitekey}-secret-{secrets.token_hex(16)}",
             "hostnames": ["127.0.0.1", "localhost"]}
    entry.update(fields)
    return entry


try:  # looked up here: between fork and exec, a child should only call it
    _prctl = ctypes.CDLL(None).prctl
except (OSError, AttributeError):
    _prctl = None


def _die_with_parent():
    """In the child before exec: SIGTERM when the thread that started it ends (Linux)."""
    if _prctl is not None:
        _prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG


def _stop_everything():
    for started in reversed(list(_started)):
        started.stop()


def _exit_on_sigterm(signum, frame):
    raise SystemExit(128 + signum)


atexit.register(_stop_everything)
if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
    # So that `timeout` and CI stopping a run end it through atexit, which stops the rest.
    signal.signal(signal.SIGTERM, _exit_on_sigterm)


class _Started:
    """A process started here: its scratch folder, its log, how to stop it."""

    def __init__(self, name, command, work, stdout, log):
        self.name = name
        self.argv = command
        self.work = work
        self.output = stdout  # path of what it prints on standard output
        self.log = log  # path of its standard error (or its log file)
        self.process = None
        self._launch()
        _started.append(self)

    def _launch(self):
        with open(self.output, "ab") as out, open(self.log, "ab") as err:
            self.process = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                            preexec_fn=_die_with_parent)

    @property
    def pid(self):
        return self.process.pid

    def running(self):
        return self.process is not None and self.process.poll() is None

    def signal(self, signum):
        """Sends `signum` (SIGHUP, SIGKILL, …) to the process."""
        self.process.send_signal(signum)

    def kill(self):
        """SIGKILL, and waits until it is gone; the scratch folder stays (a restart uses it)."""
        if self.running():
            self.process.kill()
        if self.process is not None:
            self.process.wait()

    def stop(self, timeout=5):
        """SIGTERM, then SIGKILL after `timeout` seconds; removes the scratch folder."""
        if self.running():
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self in _started:
            _started.remove(self)
        shutil.rmtree(self.work, ignore_errors=True)

    def tail(self, lines=25):
        """The last lines of its log, for a failure's message."""
        try:
            with open(self.log, errors="replace") as file:
                return "".join(file.readlines()[-lines:])
        except OSError:
            return ""

    def _fail(self, why):
        message = f"{self.name} {why}; the end of its log ({self.log}):\n{self.tail()}"
        self.stop()
        raise StartFailure(message)

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.stop()


# ----------------------------------------------------------------------------- serve


class Serve(_Started):
    """A running `tactile puzzle serve`.

    url          its base URL (http://127.0.0.1:PORT)
    metrics_url  the URL of its /metrics (on a listener of its own)
    sitekey, secret   the development site's, without --sites (else None)
    sites, sites_file the sites given to start_serve(sites=…) and the file they are in
    output, log  the paths of what it printed and of its log (a line per request)
    """

    def _read_start(self, timeout):
        deadline = time.monotonic() + timeout
        while True:
            with open(self.output, errors="replace") as file:
                printed = file.read()
            listening = re.search(r"^listening on (http://\S+)", printed, re.M)
            if listening:
                self.url = listening.group(1)
                metrics = re.search(r"^metrics on (http://\S+)", printed, re.M)
                self.metrics_url = metrics and metrics.group(1)
                development = re.search(r"^development site: sitekey (\S+) secret (\S+)", printed, re.M)
                self.sitekey, self.secret = development.groups() if development else (None, None)
                return
            if not self.running():
                self._fail(f"exited with status {self.process.returncode} before it listened")
            if time.monotonic() > deadline:
                self._fail(f"did not say where it listens within {timeout} s")
            time.sleep(0.05)


def start_serve(binary, *flags, sites=None, listen="127.0.0.1:0", name="serve", timeout=PATIENCE):
    """Starts `binary puzzle serve --listen LISTEN FLAGS…` and returns it (a Serve) once it
    listens. `sites`, a list of site() entries, is written to a file of its own and passed as
    --sites."""
    work = tempfile.mkdtemp(prefix=f"tactile-{name}-")
    command = [binary, "puzzle", "serve", "--listen", listen]
    sites_file = None
    if sites is not None:
        sites_file = os.path.join(work, "sites.json")
        with open(sites_file, "w") as file:
            json.dump(sites, file)
        command += ["--sites", sites_file]
    command += [str(flag) for flag in flags]
    serve = Serve(name, command, work, os.path.join(work, "out"), os.path.join(work, "log"))
    serve.sites, serve.sites_file = sites, sites_file
    serve._read_start(timeout)
    return serve


# ----------------------------------------------------------------------------- Redis


class Redis(_Started):
    """A running redis-server (or Sentinel) of our own on 127.0.0.1.

    port, url    where it listens (url: redis://127.0.0.1:PORT)
    directory    its data folder (the append-only file when persistent): to lose its data,
                 kill() it, empty this folder and restart()
    """

    def command(self, *arguments, timeout=PATIENCE):
        """Sends one command; its reply (a str, an int, a list, None, or for an error reply a
        RuntimeError, returned rather than raised)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as s:
            s.sendall(b"".join([f"*{len(arguments)}\r\n".encode()]
                               + [f"${len(str(a).encode())}\r\n{a}\r\n".encode() for a in arguments]))
            return _read_reply(s.makefile("rb"))

    def answers(self, timeout=1.0):
        """Whether it answers PING now."""
        try:
            return self.command("PING", timeout=timeout) == "PONG"
        except (OSError, ValueError):
            return False

    def info(self, section):
        """INFO SECTION as a dictionary of its fields."""
        text = self.command("INFO", section)
        return dict(line.split(":", 1) for line in text.splitlines() if ":" in line)

    def kill(self):
        """SIGKILL, as a crash would, and waits until it no longer answers."""
        super().kill()
        deadline = time.monotonic() + 5
        while self.answers(0.2) and time.monotonic() < deadline:
            time.sleep(0.05)

    def restart(self, timeout=PATIENCE):
        """Starts it again with the same command line: the same port and folder."""
        if self.running():
            self.kill()
        self._launch()
        if self not in _started:
            _started.append(self)
        self._wait(timeout)

    def _wait(self, timeout):
        deadline = time.monotonic() + timeout
        while not self.answers(0.5):
            if not self.running():
                self._fail(f"exited with status {self.process.returncode} before it answered")
            if time.monotonic() > deadline:
                self._fail(f"did not answer within {timeout} s")
            time.sleep(0.05)


def _read_reply(stream):
    line = stream.readline()
    if not line.endswith(b"\r\n"):
        raise ValueError("the connection closed")
    kind, rest = line[:1], line[1:-2].decode()
    if kind == b"+":
        return rest
    if kind == b"-":
        return RuntimeError(rest)
    if kind == b":":
        return int(rest)
    if kind == b"$":
        if int(rest) < 0:
            return None
        data = stream.read(int(rest) + 2)
        return data[:-2].decode(errors="replace")
    if kind == b"*":
        return [_read_reply(stream) for _ in range(max(0, int(rest)))]
    raise ValueError(f"not a Redis reply: {line!r}")


def start_redis(*arguments, persistent=False, config=None, sentinel=False, name=None, timeout=PATIENCE):
    """Starts a redis-server of our own on a free 127.0.0.1 port and returns it (a Redis) once
    it answers PING.

    Nothing is saved unless `persistent`: then an append-only file, synced on every write (as
    the service should run it), keeps its data across restart(). `config` is the text of a
    configuration file to start from; `sentinel` runs it as a Sentinel (which needs `config`,
    with its `sentinel monitor …` lines). ARGUMENTS come last, as redis-server options."""
    binary = os.environ.get("REDIS_SERVER") or shutil.which("redis-server")
    if not binary:
        raise StartFailure("redis-server is missing; install it (scripts/setup.sh)")
    name = name or ("sentinel" if sentinel else "redis")
    work = tempfile.mkdtemp(prefix=f"tactile-{name}-")
    port = free_port()
    command = [binary]
    if config is not None:
        path = os.path.join(work, "sentinel.conf" if sentinel else "redis.conf")
        with open(path, "w") as file:
            file.write(config)
        command.append(path)
    log = os.path.join(work, "log")
    data = os.path.join(work, "data")
    os.mkdir(data)
    command += ["--port", str(port), "--bind", "127.0.0.1", "--dir", data, "--logfile", log]
    if sentinel:
        command.append("--sentinel")
    elif persistent:
        command += ["--save", "", "--appendonly", "yes", "--appendfsync", "always"]
    else:
        command += ["--save", "", "--appendonly", "no"]
    command += [str(argument) for argument in arguments]
    redis = Redis(name, command, work, os.path.join(work, "out"), log)
    redis.port, redis.url, redis.directory = port, f"redis://127.0.0.1:{port}", data
    redis._wait(timeout)
    return redis
