#!/usr/bin/env python3
"""Monkey test of the showcase app: random, seeded input for M minutes under a private Xvfb.

Usage: scripts/monkey.py [--minutes M] [--seed N] [--app PATH] [--out DIR] [--gdb] [--restart]
                         [--max-actions N] [--only LIST]
(normally through scripts/monkey.sh, which checks the tools first and explains the options).

It starts Xvfb on a free display (1400x900), a private D-Bus session bus (so GTK's
accessibility bridge has one and says nothing about it), and the showcase with its stdout and
stderr in DIR/app.log (G_DEBUG unset: warnings are counted, not fatal). Then, until the time
is up, it sends real X input with xdotool, chosen by a random.Random(seed):

  click, double-click (buttons 1/2/3) and hover at random points of the window;
  drag: short, long, fast, slow, a long press, or leaving the window;
  scroll (wheel up/down/left/right); key: Tab, Shift+Tab, Space, Return, Escape, arrows,
  Home/End/PgUp/PgDn, BackSpace/Delete, digits, letters, held keys;
  combo: Ctrl+Z-like shortcuts (never Ctrl+Q, Ctrl+W or Alt+F4, which would end the run);
  type: text into whatever has focus (numbers, words, CJK, very long strings);
  resize: xdotool windowsize between 400x300 and 1400x900 (GTK may refuse to go below its
  minimum; the log says what it got), sometimes moving the window too;
  page: a click on one of the five sidebar entries.

Dialogs and popovers the app opens (file chooser, message, drop-down list) take the input
while they are up and are sent Escape after a while. Every ~30 s the app is checked alive
(RSS and CPU go to the action log); every minute a screenshot goes to DIR/shots/.

Files in DIR: actions.log (one line per action: seconds since start, wall clock as GLib
prints it, action number, page, kind, details), app.log, shots/*.png, summary.txt.
The seed replays the same sequence of actions (the app's own timing may still differ).
To cut a run down to a problem: --max-actions N stops after action N, and --only 65,132,142-144
performs only those actions of the seed's sequence (the others are drawn, not performed).

Exit status: 0 when the app ran the whole time, closed cleanly when asked (WM_DELETE_WINDOW,
as a window manager would send), and its log has no GTK/GLib CRITICAL or WARNING line; 1
otherwise (each offending line is printed with the 20 actions before it); 2 for bad usage or
a missing tool; 130 when interrupted.
"""
import argparse
import collections
import ctypes
import ctypes.util
import datetime
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

PAGES = ["hanoi", "cradle", "pattern", "puzzle", "about"]

# Sidebar rows (GtkStackSidebar, 180 px wide), measured from a screenshot of the window:
# row i is centred at (SIDEBAR_X, SIDEBAR_FIRST_Y + i * SIDEBAR_STEP), window coordinates.
SIDEBAR_X = 90
SIDEBAR_FIRST_Y = 75
SIDEBAR_STEP = 38
# The header bars' height (libadwaita), window coordinates.
HEADER_HEIGHT = 50
# How often each page is picked: About has little to press.
PAGE_WEIGHTS = [1, 1, 1, 1, 0.3]

SCREEN_WIDTH, SCREEN_HEIGHT = 1400, 900
MIN_WIDTH, MIN_HEIGHT = 400, 300

# Single keys (xdotool key names).
KEYS = (
    ["Tab", "shift+Tab", "space", "Return", "KP_Enter", "Escape", "Left", "Right", "Up", "Down",
     "Home", "End", "Page_Up", "Page_Down", "BackSpace", "Delete", "plus", "minus", "F10"]
    + [str(d) for d in range(10)]
    + [chr(c) for c in range(ord("a"), ord("z") + 1)]
    + ["shift+" + chr(c) for c in range(ord("a"), ord("z") + 1, 5)]
)
# Shortcut-like combinations. Ctrl+Q, Ctrl+W and Alt+F4 would close the app (not what is
# tested here); Ctrl+Shift+I/D would open the GTK inspector.
COMBOS = [
    "ctrl+z", "ctrl+shift+z", "ctrl+y", "ctrl+a", "ctrl+c", "ctrl+v", "ctrl+x", "ctrl+s",
    "ctrl+o", "ctrl+n", "ctrl+l", "ctrl+f", "ctrl+Home", "ctrl+End", "ctrl+Left", "ctrl+Right",
    "shift+Left", "shift+Right", "shift+Up", "shift+Down", "shift+space", "shift+Return",
    "ctrl+Tab", "ctrl+shift+Tab", "ctrl+Page_Down", "ctrl+Page_Up", "ctrl+plus", "ctrl+minus",
    "ctrl+0", "ctrl+1", "alt+Left", "alt+Right", "alt+s", "alt+u", "alt+o", "shift+F10",
    "ctrl+space", "ctrl+Return",
]
FORBIDDEN = {"ctrl+q", "ctrl+w", "alt+F4", "ctrl+shift+i", "ctrl+shift+d"}
assert not FORBIDDEN & set(KEYS + COMBOS)

# Action kinds and their weights.
KINDS = [
    ("click", 22), ("double-click", 8), ("hover", 3), ("drag", 22), ("scroll", 5),
    ("key", 20), ("combo", 5), ("type", 6), ("resize", 4), ("page", 4),
]

# Log lines that fail the run, and lines that mean the process crashed.
PROBLEM = re.compile(
    r"-CRITICAL \*\*|-WARNING \*\*|-ERROR \*\*|Gtk-CRITICAL|GLib-GObject-CRITICAL"
    r"|(?:^|[\s:])(?:CRITICAL|WARNING|ERROR) \*\*")
CRASH = re.compile(
    r"Fatal error|Program crashed|💣|Segmentation fault|Illegal instruction|Aborted"
    r"|Thread \d+ crashed|received signal|terminate called")
GLIB_TIME = re.compile(r"\*\*: (\d\d):(\d\d):(\d\d)\.(\d{3}):")


def die(message):
    print(f"monkey: {message}", file=sys.stderr)
    sys.exit(2)


def wall(t):
    """A time as GLib's log lines print it (local HH:MM:SS.mmm)."""
    return datetime.datetime.fromtimestamp(t).strftime("%H:%M:%S.%f")[:-3]


class Display:
    """A private Xvfb, and a D-Bus session bus for the app."""

    def __init__(self, out):
        self.xvfb_log = open(os.path.join(out, "xvfb.log"), "wb")
        self.xvfb = None
        # A display number nobody uses: no lock file, no socket, and Xvfb starts on it (from
        # 100 up, away from :0 and from xvfb-run -a, which counts down from 99).
        for number in range(100, 200):
            if os.path.exists(f"/tmp/.X{number}-lock") or os.path.exists(
                    f"/tmp/.X11-unix/X{number}"):
                continue
            process = subprocess.Popen(
                ["Xvfb", f":{number}", "-screen", "0", f"{SCREEN_WIDTH}x{SCREEN_HEIGHT}x24",
                 "-nolisten", "tcp", "-noreset"], stdout=self.xvfb_log, stderr=subprocess.STDOUT)
            deadline = time.time() + 15
            while (process.poll() is None and time.time() < deadline
                   and not os.path.exists(f"/tmp/.X11-unix/X{number}")):
                time.sleep(0.05)
            if process.poll() is None and os.path.exists(f"/tmp/.X11-unix/X{number}"):
                self.xvfb, self.name = process, f":{number}"
                break
            if process.poll() is None:
                process.kill()
            process.wait()
        if self.xvfb is None:
            die(f"Xvfb did not start on any display from :100 to :199 (see {out}/xvfb.log)")
        self.dbus = None
        self.bus_address = None
        if shutil.which("dbus-daemon"):
            self.dbus = subprocess.Popen(
                ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                env=dict(os.environ, DISPLAY=self.name))
            self.bus_address = self.dbus.stdout.readline().decode().strip() or None

    def close(self):
        for process in (self.dbus, self.xvfb):
            if process and process.poll() is None:
                process.terminate()
                try:
                    process.wait(5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


class App:
    """The showcase process (or gdb running it), with its log and resource use."""

    def __init__(self, binary, out, display, index, use_gdb):
        self.log_path = os.path.join(out, "app.log" if index == 0 else f"app-{index + 1}.log")
        self.log = open(self.log_path, "wb")
        env = dict(os.environ)
        for name in ("G_DEBUG", "G_MESSAGES_DEBUG", "GTK_DEBUG", "WAYLAND_DISPLAY"):
            env.pop(name, None)
        env.update(
            DISPLAY=display.name,
            # The pattern store and GTK's recent files go to the output folder, fresh each run.
            XDG_STATE_HOME=os.path.join(out, "state"),
            XDG_DATA_HOME=os.path.join(out, "data"),
            XDG_CONFIG_HOME=os.path.join(out, "config"),
            GSETTINGS_BACKEND="memory",
            SWIFT_BACKTRACE="enable=yes,interactive=no,color=no",
        )
        if display.bus_address:
            env["DBUS_SESSION_BUS_ADDRESS"] = display.bus_address
        command = [binary, "--page", "hanoi"]
        if use_gdb:
            command = ["gdb", "-q", "-batch", "-nx",
                       "-ex", "handle SIGPIPE nostop noprint pass",
                       "-ex", "set pagination off", "-ex", "run", "-ex", "bt",
                       "-ex", "thread apply all bt 30", "--args"] + command
        self.started = time.time()
        self.process = subprocess.Popen(
            command, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env=env)
        self.pid = None          # the showcase itself (gdb's child under --gdb)
        self.window = None
        self.status = None       # os.wait4 status once it ended
        self.rusage = None
        self.peak_rss_kb = 0
        self.cpu_seconds = 0.0
        self.ended_at = None

    def alive(self):
        if self.status is not None:
            return False
        pid, status, rusage = os.wait4(self.process.pid, os.WNOHANG)
        if pid == 0:
            return True
        self.status, self.rusage, self.ended_at = status, rusage, time.time()
        self.process.returncode = os.waitstatus_to_exitcode(status)
        if self.process.args[0] != "gdb":
            self.peak_rss_kb = max(self.peak_rss_kb, rusage.ru_maxrss)
            self.cpu_seconds = max(self.cpu_seconds, rusage.ru_utime + rusage.ru_stime)
        return False

    def describe_end(self):
        if self.status is None:
            return "running"
        if os.WIFSIGNALED(self.status):
            number = os.WTERMSIG(self.status)
            return f"killed by signal {number} ({signal.Signals(number).name})"
        return f"exited with status {os.WEXITSTATUS(self.status)}"

    def sample(self):
        """Reads VmRSS/VmHWM and CPU time from /proc; returns (rss_kb, hwm_kb, cpu_s)."""
        if not self.pid:
            return None
        try:
            with open(f"/proc/{self.pid}/status") as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
            with open(f"/proc/{self.pid}/stat") as f:
                stat = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None
        rss = int(fields.get("VmRSS", "0 kB").split()[0])
        hwm = int(fields.get("VmHWM", "0 kB").split()[0])
        cpu = (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
        self.peak_rss_kb = max(self.peak_rss_kb, hwm)
        self.cpu_seconds = max(self.cpu_seconds, cpu)
        return rss, hwm, cpu


def send_wm_delete(display_name, window):
    """Asks the window to close the way a window manager would (WM_DELETE_WINDOW)."""
    try:
        x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
    except OSError:
        return False

    class ClientMessage(ctypes.Structure):
        _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong),
                    ("send_event", ctypes.c_int), ("display", ctypes.c_void_p),
                    ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                    ("format", ctypes.c_int), ("data", ctypes.c_long * 5)]

    class Event(ctypes.Union):
        _fields_ = [("xclient", ClientMessage), ("pad", ctypes.c_long * 24)]

    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XInternAtom.restype = ctypes.c_ulong
    x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x11.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long,
                               ctypes.c_void_p]
    x11.XFlush.argtypes = [ctypes.c_void_p]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    connection = x11.XOpenDisplay(display_name.encode())
    if not connection:
        return False
    event = Event()
    event.xclient.type = 33  # ClientMessage
    event.xclient.window = window
    event.xclient.message_type = x11.XInternAtom(connection, b"WM_PROTOCOLS", 0)
    event.xclient.format = 32
    event.xclient.data[0] = x11.XInternAtom(connection, b"WM_DELETE_WINDOW", 0)
    event.xclient.data[1] = 0  # CurrentTime
    x11.XSendEvent(connection, window, 0, 0, ctypes.byref(event))
    x11.XFlush(connection)
    x11.XCloseDisplay(connection)
    return True


class Monkey:
    def __init__(self, options):
        self.options = options
        self.out = options.out
        self.rng = random.Random(options.seed)  # the action sequence
        self.display = None
        self.apps = []
        self.app = None
        self.actions = []            # (start time, number, page, kind, detail)
        self.counts = collections.Counter()
        self.subcounts = collections.Counter()
        self.page_counts = collections.Counter()
        self.page = "hanoi"
        self.page_checks = [0, 0]    # sidebar selection checks: agreed, disagreed
        self.problems = []           # (time seen, log line, app index)
        self.crash_lines = []
        self.other_lines = 0
        self.problem_shots = 0
        self.log_offsets = {}
        self.log_rest = {}
        self.dialog = None           # (window id, actions spent on it, escapes sent)
        self.window_types = {}
        self.geometry = (0, 0, 1100, 720)
        self.shutdown_note = ""
        self.action_log = open(os.path.join(self.out, "actions.log"), "w")
        self.started = time.time()

    # ---- xdotool ----------------------------------------------------------------------

    def xdo(self, *arguments, timeout=30):
        try:
            done = subprocess.run(
                ["xdotool", *map(str, arguments)], capture_output=True, timeout=timeout,
                env=dict(os.environ, DISPLAY=self.display.name))
            return done.stdout.decode(errors="replace")
        except subprocess.TimeoutExpired:
            self.note("xdotool timed out: " + " ".join(map(str, arguments))[:200])
            subprocess.run(["xdotool", "mouseup", "1"], capture_output=True, timeout=10,
                           env=dict(os.environ, DISPLAY=self.display.name))
            return ""

    def window_geometry(self, window):
        text = self.xdo("getwindowgeometry", "--shell", window)
        values = dict(line.split("=", 1) for line in text.split() if "=" in line)
        try:
            return (int(values["X"]), int(values["Y"]), int(values["WIDTH"]),
                    int(values["HEIGHT"]))
        except (KeyError, ValueError):
            return None

    def window_type(self, window):
        if window not in self.window_types:
            text = subprocess.run(
                ["xprop", "-id", str(window), "_NET_WM_WINDOW_TYPE"], capture_output=True,
                env=dict(os.environ, DISPLAY=self.display.name)).stdout.decode()
            match = re.search(r"_NET_WM_WINDOW_TYPE_(\w+)", text)
            self.window_types[window] = match.group(1) if match else "UNKNOWN"
        return self.window_types[window]

    def open_dialogs(self):
        """The app's visible windows other than the main one that take input (no tooltips)."""
        found = []
        if not self.app.pid:
            return found
        for line in self.xdo("search", "--onlyvisible", "--all", "--pid", self.app.pid,
                             "--name", "").split():
            window = int(line)
            if window != self.app.window and self.window_type(window) not in ("TOOLTIP", "DND"):
                found.append(window)
        return found

    # ---- the run ------------------------------------------------------------------------

    def note(self, text):
        self.action_log.write(f"{time.time() - self.started:9.3f} {wall(time.time())} {text}\n")
        self.action_log.flush()

    def launch(self):
        self.app = App(self.options.app, self.out, self.display, len(self.apps), self.options.gdb)
        self.apps.append(self.app)
        found = self.xdo("search", "--sync", "--onlyvisible", "--name", "^Tactile$", timeout=60)
        if not found.split():
            self.scan_logs()
            return False
        self.app.window = int(found.split()[0])
        self.app.pid = int(self.xdo("getwindowpid", self.app.window).strip() or 0) or None
        self.geometry = self.window_geometry(self.app.window) or self.geometry
        self.page = "hanoi"
        self.note(f"app {len(self.apps)} started: pid {self.app.pid}, window {self.app.window}, "
                  f"geometry {self.geometry}")
        self.xdo("windowfocus", self.app.window)
        return True

    def run(self):
        self.display = Display(self.out)
        print(f"monkey: seed {self.options.seed}, {self.options.minutes:g} min, display "
              f"{self.display.name}, output {self.out}")
        try:
            if not self.launch():
                print("monkey: the showcase window did not appear", file=sys.stderr)
                return
            self.check_sidebar()
            deadline = self.started + self.options.minutes * 60
            next_alive = time.time() + 30
            next_shot = time.time() + 60
            self.screenshot("start")
            number = 0
            while time.time() < deadline and number < self.options.max_actions:
                if not self.app.alive():
                    self.app_ended()
                    if not self.options.restart or not self.launch():
                        break
                number += 1
                if self.options.only and number > max(self.options.only):
                    break
                skipped = self.step(number) == "skipped"
                self.scan_logs()
                if number % 20 == 0 and self.dialog is None:
                    self.follow_page()
                now = time.time()
                if now >= next_alive:
                    next_alive += 30
                    if self.app.alive():
                        sample = self.app.sample()
                        if sample:
                            self.note(f"alive: pid {self.app.pid}, RSS {sample[0] / 1024:.1f} MB, "
                                      f"peak {sample[1] / 1024:.1f} MB, CPU {sample[2]:.1f} s")
                if now >= next_shot:
                    next_shot += 60
                    self.screenshot(f"minute-{round((now - self.started) / 60):02d}")
                self.pause(skipped)
            self.screenshot("end")
            self.finish()
        finally:
            self.scan_logs()
            self.display.close()

    def app_ended(self):
        self.scan_logs()
        self.note(f"APP ENDED: {self.app.describe_end()}")
        self.screenshot(f"app-{len(self.apps)}-ended")

    def finish(self):
        """Reads the app's peak RSS and CPU time, then closes its window and waits for it."""
        app = self.app
        if not app.alive():
            return
        app.sample()
        asked = time.time()
        dialogs = self.open_dialogs()
        if not send_wm_delete(self.display.name, app.window):
            self.shutdown_note = "could not send WM_DELETE_WINDOW; terminated"
        for _ in range(100):
            if not app.alive():
                break
            time.sleep(0.1)
        if app.alive():
            app.process.terminate()
            time.sleep(0.5)
            self.shutdown_note = (
                f"did not exit within 10 s of closing its window"
                f"{' (a dialog was open)' if dialogs else ''}; terminated")
            if app.alive():
                app.process.kill()
                time.sleep(0.5)
                app.alive()
            app.closed_by_monkey = True
        else:
            app.closed_by_monkey = True
            self.shutdown_note = (f"window closed (WM_DELETE_WINDOW): {app.describe_end()} "
                                  f"after {time.time() - asked:.1f} s")
        self.note("shutdown: " + self.shutdown_note)

    def pause(self, skipped=False):
        roll = self.rng.random()
        if roll < 0.80:
            seconds = self.rng.uniform(0.02, 0.2)
        elif roll < 0.97:
            seconds = self.rng.uniform(0.2, 1.0)
        else:
            seconds = self.rng.uniform(1.5, 4)  # let animations run out
        if not skipped:
            time.sleep(seconds)

    # ---- one action ---------------------------------------------------------------------

    def point(self, rng):
        """A point as fractions of the window: half the time in the component's area."""
        if rng.random() < 0.5:
            return rng.uniform(0.45, 0.99), rng.uniform(0.01, 0.85)
        return rng.uniform(0.01, 0.99), rng.uniform(0.01, 0.99)

    def step(self, number):
        rng = self.rng
        kind = rng.choices([k for k, _ in KINDS], [w for _, w in KINDS])[0]
        # Everything the action needs is drawn now, so the sequence depends on the seed alone.
        plan = {"fx": self.point(rng), "gx": self.point(rng), "r": [rng.random() for _ in range(8)],
                "key": rng.choice(KEYS), "combo": rng.choice(COMBOS), "text": self.text(rng),
                "page": rng.choices(range(len(PAGES)), PAGE_WEIGHTS)[0], "size": self.size(rng)}
        if self.options.only and number not in self.options.only:
            return "skipped"

        dialogs = self.open_dialogs()
        if dialogs:
            target = dialogs[-1]
            if self.dialog is None or self.dialog[0] != target:
                self.dialog = [target, 0, 0]
                self.note(f"dialog open: window {target} ({self.window_type(target)})")
            self.dialog[1] += 1
            if self.dialog[1] > 12 + self.dialog[2] * 6:
                self.dialog[2] += 1
                self.record(number, "dismiss", f"Escape to {self.window_type(target)} {target}")
                self.xdo("windowfocus", target, "key", "Escape")
                return
            if kind in ("resize", "page"):
                kind = "click"
        else:
            target = self.app.window
            self.dialog = None
        geometry = self.window_geometry(target)
        if geometry is None:
            return
        if target == self.app.window:
            self.geometry = geometry
        getattr(self, "do_" + kind.replace("-", "_"))(number, target, geometry, plan)

    def record(self, number, kind, detail, sub=None):
        start = time.time()
        page = self.page if self.dialog is None else f"{self.page}/dialog"
        self.actions.append((start, number, page, kind, detail))
        self.counts[kind] += 1
        if sub:
            self.subcounts[(kind, sub)] += 1
        self.page_counts[self.page] += 1
        self.note(f"#{number:05d} {page:<14} {kind:<12} {detail}")

    def absolute(self, geometry, fx, fy):
        """A point of the window below its header bars: they hold the window's own buttons
        and the menu with Quit, and a drag on them moves the window (off the screen, with no
        window manager); the monkey leaves them alone as it leaves Ctrl+Q alone."""
        x, y, w, h = geometry
        top = min(HEADER_HEIGHT, h - 1)
        return round(x + fx * (w - 1)), round(y + top + fy * (h - 1 - top))

    def do_click(self, number, target, geometry, plan):
        x, y = self.absolute(geometry, *plan["fx"])
        button = 1 if plan["r"][0] < 0.9 else (3 if plan["r"][0] < 0.97 else 2)
        self.record(number, "click", f"button {button} at {x},{y}", f"button {button}")
        self.xdo("mousemove", x, y, "click", button)

    def do_double_click(self, number, target, geometry, plan):
        x, y = self.absolute(geometry, *plan["fx"])
        triple = plan["r"][0] < 0.15
        self.record(number, "double-click", f"{'triple' if triple else 'double'} at {x},{y}",
                    "triple" if triple else "double")
        self.xdo("mousemove", x, y, "click", "--repeat", 3 if triple else 2, "--delay",
                 round(40 + plan["r"][1] * 120), 1)

    def do_hover(self, number, target, geometry, plan):
        x, y = self.absolute(geometry, *plan["fx"])
        self.record(number, "hover", f"to {x},{y}")
        self.xdo("mousemove", x, y)

    def do_scroll(self, number, target, geometry, plan):
        x, y = self.absolute(geometry, *plan["fx"])
        button = [4, 5, 6, 7][int(plan["r"][0] * 4)]
        times = 1 + int(plan["r"][1] * 6)
        direction = {4: "up", 5: "down", 6: "left", 7: "right"}[button]
        self.record(number, "scroll", f"{direction} x{times} at {x},{y}", direction)
        self.xdo("mousemove", x, y, "click", "--repeat", times, "--delay", 30, button)

    def do_drag(self, number, target, geometry, plan):
        r = plan["r"]
        wx, wy, w, h = geometry
        x0, y0 = self.absolute(geometry, *plan["fx"])
        style = ["short", "long", "fast", "slow", "leave", "press"][int(r[0] * 6)]
        if style == "short":
            x1, y1 = x0 + round((r[1] - 0.5) * 80), y0 + round((r[2] - 0.5) * 80)
            steps, delay = 3 + int(r[3] * 6), 0.016
        elif style == "long":
            x1, y1 = self.absolute(geometry, *plan["gx"])
            steps, delay = 20 + int(r[3] * 40), 0.016
        elif style == "fast":
            x1, y1 = self.absolute(geometry, *plan["gx"])
            steps, delay = 2 + int(r[3] * 3), 0.0
        elif style == "slow":
            x1, y1 = self.absolute(geometry, *plan["gx"])
            steps, delay = 40 + int(r[3] * 80), 0.02 + r[4] * 0.03
        elif style == "leave":
            # Past an edge of the window: right, bottom, left or top (as far as the screen goes).
            edge = int(r[1] * 4)
            x1, y1 = [(wx + w + 40 + r[2] * 300, y0), (x0, wy + h + 40 + r[2] * 300),
                      (wx - 40 - r[2] * 300, y0), (x0, wy - 40 - r[2] * 300)][edge]
            steps, delay = 10 + int(r[3] * 30), 0.016
        else:  # press: a long press with a little jitter
            x1, y1 = x0 + round((r[1] - 0.5) * 6), y0 + round((r[2] - 0.5) * 6)
            steps, delay = 3, 0.2 + r[3] * 0.6
        x1 = min(max(round(x1), 0), SCREEN_WIDTH - 1)
        y1 = min(max(round(y1), 0), SCREEN_HEIGHT - 1)
        self.record(number, "drag", f"{style} {x0},{y0} -> {x1},{y1} in {steps} steps "
                    f"({delay * 1000:.0f} ms)", style)
        command = ["mousemove", x0, y0, "mousedown", 1, "sleep", 0.05]
        for i in range(1, steps + 1):
            t = i / steps
            # A slight curve, so drags are not all straight lines.
            bend = (r[5] - 0.5) * 60 * t * (1 - t)
            command += ["mousemove", round(x0 + (x1 - x0) * t + bend),
                        round(y0 + (y1 - y0) * t - bend)]
            if delay:
                command += ["sleep", f"{delay:.3f}"]
        command += ["sleep", 0.03, "mouseup", 1]
        self.xdo(*command, timeout=60)

    def do_key(self, number, target, geometry, plan):
        key = plan["key"]
        r = plan["r"]
        if r[0] < 0.1:
            hold = 0.3 + r[1] * 1.2
            self.record(number, "key", f"hold {key} {hold:.1f} s", "hold")
            self.xdo("windowfocus", target, "keydown", key, "sleep", f"{hold:.2f}", "keyup", key)
            return
        times = 1 if r[0] < 0.8 else 2 + int(r[1] * 6)
        self.record(number, "key", f"{key}" + (f" x{times}" if times > 1 else ""), key)
        self.xdo("windowfocus", target, "key", "--delay", 40, *([key] * times))

    def do_combo(self, number, target, geometry, plan):
        self.record(number, "combo", plan["combo"], plan["combo"])
        self.xdo("windowfocus", target, "key", plan["combo"])

    def do_type(self, number, target, geometry, plan):
        text = plan["text"]
        self.record(number, "type", repr(text) if len(text) < 60 else
                    f"{text[:40]!r}… ({len(text)} characters)")
        self.xdo("windowfocus", target, "type", "--delay", 8, "--", text, timeout=120)

    def do_resize(self, number, target, geometry, plan):
        w, h = plan["size"]
        r = plan["r"]
        x, y = (0, 0)
        if r[0] < 0.35:
            x = round(r[1] * (SCREEN_WIDTH - w))
            y = round(r[2] * (SCREEN_HEIGHT - h))
        self.xdo("windowmove", target, x, y, "windowsize", target, w, h)
        time.sleep(0.3)
        got = self.window_geometry(target) or geometry
        if got[0] + got[2] > SCREEN_WIDTH or got[1] + got[3] > SCREEN_HEIGHT:
            # GTK kept a larger minimum size than asked: move it back onto the screen.
            x = max(0, min(got[0], SCREEN_WIDTH - got[2]))
            y = max(0, min(got[1], SCREEN_HEIGHT - got[3]))
            self.xdo("windowmove", target, x, y)
            time.sleep(0.1)
            got = self.window_geometry(target) or got
        self.geometry = got
        self.record(number, "resize", f"asked {w}x{h} at {x},{y}, got {got[2]}x{got[3]} at "
                    f"{got[0]},{got[1]}", "narrow" if w < 600 else "other")

    def do_page(self, number, target, geometry, plan):
        index = plan["page"]
        x = geometry[0] + SIDEBAR_X
        y = geometry[1] + SIDEBAR_FIRST_Y + index * SIDEBAR_STEP
        self.page = PAGES[index]
        self.record(number, "page", f"{PAGES[index]} (sidebar at {x},{y})", PAGES[index])
        self.xdo("mousemove", x, y, "click", 1)
        if plan["r"][0] < 0.3:
            time.sleep(0.4)  # past the crossfade
            selected = self.sidebar_selection()
            self.page_checks[0 if selected == index else 1] += 1
            if selected != index:
                self.note(f"sidebar check: clicked {PAGES[index]}, selected row is "
                          f"{PAGES[selected] if selected is not None else 'none'}")

    # ---- random values ------------------------------------------------------------------

    def size(self, rng):
        roll = rng.random()
        if roll < 0.25:   # very narrow
            return rng.randint(MIN_WIDTH, 520), rng.randint(MIN_HEIGHT, SCREEN_HEIGHT)
        if roll < 0.40:   # very short
            return rng.randint(MIN_WIDTH, SCREEN_WIDTH), rng.randint(MIN_HEIGHT, 380)
        if roll < 0.50:
            return rng.choice([(MIN_WIDTH, MIN_HEIGHT), (SCREEN_WIDTH, SCREEN_HEIGHT),
                               (MIN_WIDTH, SCREEN_HEIGHT), (SCREEN_WIDTH, MIN_HEIGHT)])
        return rng.randint(MIN_WIDTH, SCREEN_WIDTH), rng.randint(MIN_HEIGHT, SCREEN_HEIGHT)

    def text(self, rng):
        roll = rng.random()
        if roll < 0.30:
            return rng.choice(["0", "-1", "-64", "1", "3", "8", "64", "65", "1000", "3.5", "1e9",
                               "0x10", " 7 ", "２", "99999999999999999999", "-0", "+5", "NaN"])
        if roll < 0.50:
            return "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 25)))
        if roll < 0.70:
            return rng.choice(["hello", "A-B-C", "1-5-9-6", "abc def", "tower", "ACB", "x",
                               "%s%n", "'; DROP TABLE", "<b>bold</b>", "../../etc/passwd"])
        if roll < 0.85:
            return rng.choice(["汉字", "九宫格", "ünïcödé", "émoji ✓", "Ω≈ç√", "—–…"])
        alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 -_.,;:!?"
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(60, 250)))

    # ---- checks -------------------------------------------------------------------------

    def sidebar_selection(self):
        """The sidebar row drawn as selected (the one unlike the others), or None."""
        rows = len(PAGES)
        height = SIDEBAR_FIRST_Y + rows * SIDEBAR_STEP
        text = subprocess.run(
            ["import", "-window", str(self.app.window), "-crop", f"1x{height}+16+0", "txt:-"],
            capture_output=True, env=dict(os.environ, DISPLAY=self.display.name)).stdout.decode()
        colours = {}
        for line in text.splitlines():
            # "0,Y: (R,G,B…)" in 16-bit channels; the colour's name after it varies (grey98).
            match = re.match(r"0,(\d+): \((\d+),(\d+),(\d+)", line)
            if match:
                colours[int(match.group(1))] = sum(int(v) // 257 for v in match.group(2, 3, 4))
        values = [colours.get(SIDEBAR_FIRST_Y + i * SIDEBAR_STEP) for i in range(rows)]
        if None in values:
            return None
        median = sorted(values)[rows // 2]
        far = max(range(rows), key=lambda i: abs(values[i] - median))
        return far if abs(values[far] - median) > 12 else None

    def follow_page(self):
        """Keys and drags can switch pages too: the sidebar tells which one is up."""
        selected = self.sidebar_selection()
        if selected is not None and PAGES[selected] != self.page:
            self.note(f"page is now {PAGES[selected]} (was {self.page}; not by a sidebar click)")
            self.page = PAGES[selected]

    def check_sidebar(self):
        """Clicks every sidebar row once and checks it is drawn selected (geometry check)."""
        agreed = []
        for index, name in enumerate(PAGES):
            self.xdo("mousemove", self.geometry[0] + SIDEBAR_X,
                     self.geometry[1] + SIDEBAR_FIRST_Y + index * SIDEBAR_STEP, "click", 1)
            time.sleep(0.5)
            agreed.append(self.sidebar_selection() == index)
        self.xdo("mousemove", self.geometry[0] + SIDEBAR_X, self.geometry[1] + SIDEBAR_FIRST_Y,
                 "click", 1)
        time.sleep(0.4)
        self.page = "hanoi"
        result = "all rows found" if all(agreed) else f"rows found: {agreed} (geometry changed?)"
        self.note(f"sidebar check at start: {result}")
        if not all(agreed):
            print(f"monkey: warning: sidebar {result}", file=sys.stderr)

    def screenshot(self, name):
        os.makedirs(os.path.join(self.out, "shots"), exist_ok=True)
        path = os.path.join(self.out, "shots", name + ".png")
        subprocess.run(["import", "-window", "root", path], capture_output=True, timeout=30,
                       env=dict(os.environ, DISPLAY=self.display.name))
        self.note(f"screenshot {path}")

    def scan_logs(self):
        """Reads new lines of every app log; keeps the problems and the crash lines."""
        for index, app in enumerate(self.apps):
            try:
                with open(app.log_path, "rb") as f:
                    f.seek(self.log_offsets.get(index, 0))
                    data = f.read()
                    self.log_offsets[index] = f.tell()
            except OSError:
                continue
            text = self.log_rest.get(index, "") + data.decode(errors="replace")
            lines = text.split("\n")
            self.log_rest[index] = lines.pop()
            for line in lines:
                if PROBLEM.search(line):
                    seen = time.time()
                    new = not any(key(p[1]) == key(line) for p in self.problems)
                    self.problems.append((self.line_time(line, seen), line, index))
                    if new and self.problem_shots < 20:
                        self.problem_shots += 1
                        self.screenshot(f"problem-{len(self.problems):03d}")
                elif CRASH.search(line):
                    self.crash_lines.append(line)
                elif line.strip():
                    self.other_lines += 1

    def line_time(self, line, seen):
        """When GLib says the line was written (its HH:MM:SS.mmm), else when it was read."""
        match = GLIB_TIME.search(line)
        if not match:
            return seen
        h, m, s, ms = map(int, match.groups())
        day = datetime.datetime.fromtimestamp(seen)
        stamp = day.replace(hour=h, minute=m, second=s, microsecond=ms * 1000).timestamp()
        if stamp > seen + 3600:
            stamp -= 86400
        return stamp

    # ---- the report ---------------------------------------------------------------------

    def report(self):
        lines = []
        say = lines.append
        elapsed = time.time() - self.started
        say(f"== monkey summary: seed {self.options.seed}, {elapsed / 60:.1f} min "
            f"(asked {self.options.minutes:g}), display {self.display.name}")
        total = sum(self.counts.values())
        say(f"actions: {total}")
        for kind, _ in KINDS + [("dismiss", 0)]:
            if self.counts[kind]:
                subs = sorted(((n, s) for (k, s), n in self.subcounts.items() if k == kind),
                              reverse=True)
                detail = ", ".join(f"{s} {n}" for n, s in subs[:12])
                more = f", … {len(subs) - 12} more" if len(subs) > 12 else ""
                say(f"  {kind:<13}{self.counts[kind]:6d}" + (f"   ({detail}{more})" if subs else ""))
        say("actions by page: " + ", ".join(f"{p} {self.page_counts[p]}" for p in PAGES))
        if sum(self.page_checks):
            say(f"sidebar checks after page clicks: {self.page_checks[0]} agreed, "
                f"{self.page_checks[1]} disagreed")

        failed = []
        for index, app in enumerate(self.apps):
            ran = (app.ended_at or time.time()) - app.started
            state = app.describe_end()
            closed = getattr(app, "closed_by_monkey", False)
            say(f"app {index + 1}: pid {app.pid}, ran {ran:.0f} s, {state}"
                + (" (after the monkey closed it)" if closed else " — DURING THE RUN"))
            say(f"  peak RSS (VmHWM) {app.peak_rss_kb / 1024:.1f} MB, CPU time "
                f"{app.cpu_seconds:.1f} s ({100 * app.cpu_seconds / max(ran, 1):.0f}% of one core)")
            if not closed:
                failed.append(f"app {index + 1} {state} during the run")
            elif app.status is None or not (os.WIFEXITED(app.status) and
                                            os.WEXITSTATUS(app.status) == 0):
                failed.append(f"app {index + 1} did not close cleanly: {self.shutdown_note}")
        if self.shutdown_note:
            say(f"shutdown: {self.shutdown_note}")

        distinct = {key(p[1]) for p in self.problems}
        criticals = sum(1 for p in self.problems if "CRITICAL" in p[1])
        say(f"log: {criticals} CRITICAL and {len(self.problems) - criticals} WARNING/ERROR lines "
            f"({len(distinct)} distinct); {len(self.crash_lines)} crash lines; "
            f"{self.other_lines} other lines")
        if self.problems:
            failed.append(f"{len(self.problems)} CRITICAL/WARNING lines in the app's log")
        for line in self.crash_lines[:40]:
            say(f"  crash: {line}")

        # Lines within a second of each other are one incident; the first three incidents of
        # each kind (the same set of distinct lines) are shown with the actions before them.
        incidents = []
        for problem in sorted(self.problems):
            if incidents and problem[0] - incidents[-1][-1][0] <= 1.0:
                incidents[-1].append(problem)
            else:
                incidents.append([problem])
        shown = collections.Counter()
        for number, incident in enumerate(incidents, 1):
            signature = frozenset(key(p[1]) for p in incident)
            shown[signature] += 1
            if shown[signature] > 3:
                continue
            say("")
            say(f"-- incident {number} of {len(incidents)}: {len(incident)} lines at "
                f"{wall(incident[0][0])} (app {incident[0][2] + 1})")
            for _, line, _ in incident[:12]:
                say(f"  {line.strip()}")
            if len(incident) > 12:
                say(f"  … {len(incident) - 12} more lines")
            say("  the 20 actions before it:")
            for start, n, page, kind, detail in [
                    a for a in self.actions if a[0] <= incident[0][0]][-20:]:
                say(f"    {wall(start)} #{n:05d} {page:<14} {kind:<12} {detail}")
        hidden = sum(max(0, n - 3) for n in shown.values())
        if hidden:
            say(f"({hidden} more incidents like those above are in app.log)")
        say("")
        say(f"output: {self.out} (actions.log, app.log, shots/, summary.txt)")
        say("result: " + ("FAIL — " + "; ".join(failed) if failed else "PASS"))
        text = "\n".join(lines) + "\n"
        with open(os.path.join(self.out, "summary.txt"), "w") as f:
            f.write(text)
        print(text, end="")
        return 1 if failed else 0


def key(line):
    """A log line without its process id, time stamp, addresses and numbers (for grouping)."""
    line = re.sub(r"^\(.*?:\d+\): ", "", line.strip())
    line = GLIB_TIME.sub("**:", line)
    line = re.sub(r"0x[0-9a-fA-F]+", "0x…", line)
    return re.sub(r"\d+", "N", line)


def numbers(text):
    """A set of action numbers from "3,7-9"."""
    chosen = set()
    for part in text.split(","):
        first, _, last = part.partition("-")
        try:
            chosen.update(range(int(first), int(last or first) + 1))
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected numbers like 3,7-9, got {text!r}")
    return chosen


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--seed", type=int, help="default: a random one, printed")
    parser.add_argument("--app", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", ".build", "debug", "showcase"))
    parser.add_argument("--out", help="default: /tmp/monkey-YYYYmmdd-HHMMSS-seedN")
    parser.add_argument("--max-actions", type=int, default=10**9,
                        help="stop after this many actions (to replay a run up to a problem)")
    parser.add_argument("--only", type=numbers, default=None, metavar="LIST",
                        help="perform only these actions of the seed's sequence, e.g. 132,142-144 "
                             "(the rest are drawn but skipped: to cut a run down to a problem)")
    parser.add_argument("--gdb", action="store_true",
                        help="run the app under gdb, which prints a backtrace if it crashes")
    parser.add_argument("--restart", action="store_true",
                        help="start the app again after it crashes and go on")
    options = parser.parse_args(argv)
    if options.minutes <= 0:
        die(f"--minutes must be more than 0, got {options.minutes:g}")
    if options.seed is None:
        options.seed = int.from_bytes(os.urandom(3), "big")
    for tool in ["Xvfb", "xdotool", "import", "xprop"] + (["gdb"] if options.gdb else []):
        if not shutil.which(tool):
            die(f"needs {tool} (apt-get install xvfb xdotool imagemagick x11-utils gdb)")
    if not os.access(options.app, os.X_OK):
        die(f"--app {options.app}: not an executable file")
    options.out = os.path.abspath(options.out or time.strftime(
        f"/tmp/monkey-%Y%m%d-%H%M%S-seed{options.seed}"))
    os.makedirs(options.out, exist_ok=True)
    # The app is copied, so a rebuild during the run does not swap it.
    copy = os.path.join(options.out, "showcase-under-test")
    shutil.copy2(options.app, copy)
    options.app = copy

    monkey = Monkey(options)
    interrupted = False
    try:
        monkey.run()
    except KeyboardInterrupt:
        interrupted = True
        monkey.note("interrupted")
        for app in monkey.apps:
            if app.alive():
                app.process.kill()
                app.process.wait()
    status = monkey.report()
    return 130 if interrupted else status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
