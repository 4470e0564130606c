"""What a screen reader sees of the showcase app, read over AT-SPI (the accessibility bus
Orca reads).

For each page the test starts the app with `--page NAME`, waits until it appears on the
AT-SPI desktop, takes a snapshot of its accessible tree and prints it (`dump`), then presses
Tab (real key presses through xdotool) and records which node holds the focused state after
each press. Then it checks:

  a. every focusable control on screen (buttons, toggles, check boxes, spin buttons, entries,
     sliders, combo boxes, the sidebar's list items) has an accessible name; a label counts
     (a labelled-by relation, a button's or list item's own label child, the name of the
     combo box a button belongs to). GTK 4.8 falls back to the widget's type name
     ("GtkSpinButton") when a widget has no name: that is no name for a listener.
  b. the page's component canvas exists (found by its name, CANVASES below), has one of the
     expected roles, a name and a description that mentions what is drawn;
  c. the canvas can be reached with the keyboard from launch (it may have the focus already)
     and Tab takes the focus into the page's controls, not only round the sidebar.

Needs a display, a D-Bus session and the AT-SPI bus: run it through Tests/Accessibility/run.sh,
which provides all three. Directly:

    test_atspi.py APP [--page NAME]... [--full]

APP is the showcase binary (default: $TACTILE_SHOWCASE). --page limits the run to some pages;
--full prints the hidden pages' subtrees too. Needs python3-pyatspi and xdotool. Prints
"N passed, M failed in S s" last and exits non-zero when a check fails.
"""
import os
import re
import subprocess
import sys
import tempfile
import time
import unittest

import pyatspi
from gi.repository import GLib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Browser"))
from testrun import run_module  # noqa: E402  (the runner the browser tests use)

# ----------------------------------------------------------------------------- expectations

# AT-SPI role names (Accessible.getRoleName()) for the roles a canvas may be given in GTK.
# GTK 4.8's gtk/a11y/gtkatspiutils.c maps GTK_ACCESSIBLE_ROLE_GROUP to ATSPI_ROLE_PANEL
# ("panel"); newer GTK (4.14 and later) maps it to ATSPI_ROLE_GROUPING ("grouping"), so both
# count as group-like. Other mappings in 4.8: IMG -> "image", SLIDER -> "slider",
# GRID -> "table", WIDGET -> "filler" (as is the drawing area's default role); there is no
# GTK_ACCESSIBLE_ROLE_APPLICATION in 4.8.
GROUP_LIKE = ("panel", "grouping")
SLIDER_LIKE = ("slider",)

# The pages and what their canvas must look like to AT-SPI. "title" is the page's title (the
# GtkStackPage node and the sidebar row carry it); "canvas" is the canvas's accessible name
# (a regular expression matched against the whole name); "roles" the AT-SPI roles it may
# have; "describes" a word its description must contain (case-insensitive).
# Adjust here when the app's design changes.
PAGES = {
    "hanoi": {
        "title": "Tower of Hanoi",
        "canvas": r"Tower of Hanoi",
        "roles": GROUP_LIKE,
        "describes": "disk",
    },
    "cradle": {
        "title": "Newton's cradle",
        "canvas": r"Newton['’]s cradle",
        "roles": ("image",),
        "describes": "ball",
    },
    "pattern": {
        "title": "Pattern lock",
        "canvas": r"Pattern lock",
        "roles": GROUP_LIKE,
        "describes": "dot",
    },
    "puzzle": {
        "title": "Puzzle captcha",
        "canvas": r"Puzzle captcha",
        "roles": SLIDER_LIKE,
        "describes": "piece",
    },
    "about": {"title": "About", "canvas": None},
}

# Roles that are controls for check (a), as AT-SPI names them.
CONTROL_ROLES = {
    "push button", "toggle button", "check box", "radio button", "spin button", "text",
    "entry", "password text", "slider", "combo box", "list item", "menu item", "link",
    "switch", "page tab",
}
# Controls whose own label child names them for a listener (GTK 4.8 does not copy a list
# row's label into the row's name; Orca reads the row's text).
LABELLED_BY_CHILD = {"push button", "toggle button", "check box", "radio button", "list item"}

# GTK 4.8 names an unnamed widget after its type ("GtkSpinButton", "GtkDrawingArea").
PLACEHOLDER_NAME = re.compile(r"^Gtk[A-Z][A-Za-z]*$")

APPEAR_SECONDS = 30  # until the app is on the AT-SPI desktop with its window laid out
SETTLE_SECONDS = 10  # until two snapshots in a row agree
# How long a canvas may take to show its content (a puzzle cut on another thread).
CONTENT_SECONDS = 15
TAB_PRESSES = 40
TAB_WAIT_SECONDS = 1.5  # per press, for the focused state to move and settle
TAB_SETTLE_SECONDS = 0.4  # unchanged this long counts as settled

# ----------------------------------------------------------------------------- snapshot

STATES = [
    ("focusable", pyatspi.STATE_FOCUSABLE),
    ("focused", pyatspi.STATE_FOCUSED),
    ("sensitive", pyatspi.STATE_SENSITIVE),
    ("showing", pyatspi.STATE_SHOWING),
]


class Node:
    """One accessible object as it was when the snapshot was taken (plain data, so checks do
    not go back to the bus), plus `live`, the AT-SPI object itself."""

    def __init__(self, live, path, parent):
        self.live = live
        self.path = path  # child indices from the application, e.g. (0, 0, 2, 1)
        self.parent = parent
        self.children = []
        self.role = safe(live.getRoleName, "?")
        self.name = safe(lambda: live.name, "") or ""
        self.description = safe(lambda: live.description, "") or ""
        states = safe(live.getState, None)
        self.states = {n for n, s in STATES if states is not None and states.contains(s)}
        self.interfaces = set(safe(live.get_interfaces, []) or [])
        self.extents = None
        if "Component" in self.interfaces:
            e = safe(lambda: live.queryComponent().getExtents(pyatspi.WINDOW_COORDS), None)
            if e is not None:
                self.extents = (e.x, e.y, e.width, e.height)
        self.value = None
        if "Value" in self.interfaces:
            v = safe(live.queryValue, None)
            if v is not None:
                self.value = (v.currentValue, v.minimumValue, v.maximumValue,
                              safe(live.get_value_iface().get_text, None))
        self.labelled_by = []
        for relation in safe(live.getRelationSet, []) or []:
            if relation.getRelationType() == pyatspi.RELATION_LABELLED_BY:
                for i in range(relation.getNTargets()):
                    target = relation.getTarget(i)
                    self.labelled_by.append(safe(lambda: target.name, "") or "")

    @property
    def on_screen(self):
        """SHOWING as reported, or (GTK 4.8 reports SHOWING only for the window) laid out
        with a non-empty area: the widgets of the pages not shown have 0×0 extents."""
        if "showing" in self.states:
            return True
        return self.extents is not None and self.extents[2] > 0 and self.extents[3] > 0

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()

    def ancestors(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def is_within(self, other):
        return other is not None and self.path[: len(other.path)] == other.path

    def brief(self):
        text = f"{self.role} {self.name!r}"
        if not self.name.strip() or PLACEHOLDER_NAME.match(self.name):
            label = next((n.name for n in self.walk() if n is not self and n.role == "label"
                          and n.on_screen and n.name.strip()
                          and not PLACEHOLDER_NAME.match(n.name)), None)
            if label:
                text += f" (label {label!r})"
        return text + (f" at {list(self.path)}" if self.path else "")


def safe(call, default):
    try:
        return call()
    except Exception:  # a node can go away under us, an interface can be missing
        return default


def snapshot(live, path=(), parent=None, limit=5000):
    node = Node(live, path, parent)
    count = [0]

    def fill(node):
        for i in range(safe(lambda: node.live.childCount, 0)):
            count[0] += 1
            if count[0] > limit:
                return
            child = safe(lambda: node.live.getChildAtIndex(i), None)
            if child is None:
                continue
            child_node = Node(child, node.path + (i,), node)
            node.children.append(child_node)
            fill(child_node)

    fill(node)
    return node


def dump(tree, out=None, full=False):
    """Prints the tree, one node a line, indented: role, name, description, the states
    focusable/focused/sensitive/showing (plus "on-screen" when SHOWING is not reported but
    the node is laid out with a non-empty area), the Value interface's current value, range
    and text, and the extents (window coordinates). Unless `full`, the subtree of a node with
    nothing on screen (a page that is not shown) is summed up in one line."""
    out = out or sys.stdout

    def line(node, depth):
        text = f"{'  ' * depth}{node.role} {node.name!r}"
        if node.description:
            text += f" desc={node.description!r}"
        states = [s for s, _ in STATES if s in node.states]
        if "showing" not in node.states and node.on_screen:
            states.append("on-screen")
        text += " [" + " ".join(states) + "]"
        if node.value is not None:
            current, low, high, value_text = node.value
            text += f" value={current:g} ({low:g}..{high:g})"
            if value_text:
                text += f" text={value_text!r}"
        if node.labelled_by:
            text += f" labelled-by={node.labelled_by!r}"
        if node.extents is not None:
            x, y, w, h = node.extents
            text += f" @{x},{y} {w}x{h}"
        print(text, file=out)

    def visit(node, depth):
        line(node, depth)
        hidden = node.children and not any(n.on_screen for n in node.walk())
        if hidden and not full and depth > 0:
            count = sum(1 for _ in node.walk()) - 1
            print(f"{'  ' * (depth + 1)}… {count} nodes, none on screen", file=out)
            return
        for child in node.children:
            visit(child, depth + 1)

    visit(tree, 0)
    out.flush()


def pump(seconds=0.0):
    """Lets libatspi handle what the bus sent (events that update its cache)."""
    context = GLib.MainContext.default()
    end = time.monotonic() + seconds
    while True:
        while context.iteration(False):
            pass
        if time.monotonic() >= end:
            return
        time.sleep(0.02)


# ----------------------------------------------------------------------------- the app


def find_application(pid):
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(safe(lambda: desktop.childCount, 0)):
        app = safe(lambda: desktop.getChildAtIndex(i), None)
        if app is not None and safe(app.get_process_id, None) == pid:
            return app
    return None


def signature(tree):
    return [(n.path, n.role, n.name, n.extents) for n in tree.walk()]


def page_node(tree, page):
    """The GtkStackPage node of the page: named after the page, without a Component
    interface (the sidebar's label of the same name has one)."""
    title = PAGES[page]["title"]
    for node in tree.walk():
        if node.name == title and "Component" not in node.interfaces and node.parent is not None:
            return node
    return None


def find_canvas(tree, page):
    """The node the table names as the page's canvas: inside the page, not the page node
    itself, not a label (a heading may carry the same words)."""
    spec = PAGES[page]
    pattern = re.compile(spec["canvas"])
    scope = page_node(tree, page) or tree
    for node in scope.walk():
        if node is scope or node.role in ("label", "heading"):
            continue
        if pattern.fullmatch(node.name):
            return node
    return None


def likely_canvas(tree, page):
    """Without a named canvas: the page's largest focusable node on screen that is no
    control (today the unnamed GtkDrawingArea). Used for reports and check (c) only."""
    scope = page_node(tree, page)
    if scope is None:
        return None
    candidates = [
        n for n in scope.walk()
        if "focusable" in n.states and n.on_screen and n.role not in CONTROL_ROLES
        and n.role not in ("label", "scroll pane")
    ]
    return max(candidates, key=lambda n: n.extents[2] * n.extents[3], default=None)


def sidebar_list(tree):
    """The GtkStackSidebar's list (its selected row is the page on screen), or None."""
    for node in tree.walk():
        if node.role == "list" and "Selection" in node.interfaces and \
                any(a.name == "GtkStackSidebar" for a in node.ancestors()):
            return node
    return None


def shown_page(sidebar):
    """The page on screen now (asking the bus again): the label of the sidebar's selected
    row. (Extents do not tell: a page switched away from keeps its last allocation.)"""
    if sidebar is None:
        return None
    row = safe(lambda: sidebar.live.querySelection().getSelectedChild(0), None)
    if row is None:
        return None
    for node in snapshot(row).walk():
        if node.role == "label" and node.name:
            return node.name
    return None


def settled_focus(candidates, before):
    """The focused node once it has stayed the same for TAB_SETTLE_SECONDS (a page switch
    animates, and while it does both pages take part in the focus chain), waiting at most
    TAB_WAIT_SECONDS for it to move away from `before`."""
    deadline = time.monotonic() + TAB_WAIT_SECONDS
    node, since = focused(candidates), time.monotonic()
    while time.monotonic() < deadline:
        pump(0.05)
        now = focused(candidates)
        if now is not node:
            node, since = now, time.monotonic()
        elif node is not before and time.monotonic() - since >= TAB_SETTLE_SECONDS:
            break
    return node


def focused(nodes):
    """The node that now has the focused state (asking the bus again), or None."""
    for node in nodes:
        safe(node.live.clear_cache, None)
        states = safe(node.live.getState, None)
        if states is not None and states.contains(pyatspi.STATE_FOCUSED):
            return node
    return None


def xdotool(*args, timeout=10):
    return subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=timeout)


class Session:
    """One run of the app on one page: start, wait until it is on the AT-SPI desktop and
    laid out, snapshot, Tab round, stop."""

    def __init__(self, app, page):
        self.page = page
        self.state_dir = tempfile.TemporaryDirectory(prefix="tactile-a11y-")
        env = dict(os.environ, GTK_A11Y="atspi", XDG_STATE_HOME=self.state_dir.name)
        env.pop("NO_AT_BRIDGE", None)
        self.log = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(
            [app, "--page", page], stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.tree = None
        self.tab_steps = []  # [(press, focused Node or None, page on screen)]; 0: launch

    def app_output(self):
        self.log.seek(0)
        return self.log.read()[-4000:]

    def wait_for_tree(self):
        deadline = time.monotonic() + APPEAR_SECONDS
        app = None
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(
                    f"the app exited with {self.process.returncode} before it appeared on the "
                    f"AT-SPI desktop:\n{self.app_output()}")
            pump()
            app = app or find_application(self.process.pid)
            if app is not None:
                tree = snapshot(app)
                if any(n.role == "frame" for n in tree.children) and \
                        any(n.on_screen for n in tree.walk()):
                    break
            time.sleep(0.2)
        else:
            names = [safe(lambda a=a: a.name, "?") for a in pyatspi.Registry.getDesktop(0)]
            raise AssertionError(
                f"the app (pid {self.process.pid}) did not appear on the AT-SPI desktop with a "
                f"laid-out window within {APPEAR_SECONDS} s; the desktop has {names}; is the "
                f"AT-SPI bus running and GTK_A11Y unset or atspi?\n{self.app_output()}")
        # Let the tree settle: two snapshots in a row that agree.
        previous = signature(tree)
        deadline = time.monotonic() + SETTLE_SECONDS
        while time.monotonic() < deadline:
            pump(0.3)
            tree = snapshot(app)
            current = signature(tree)
            if current == previous:
                break
            previous = current
        # A component whose content comes later (the captcha's puzzle is cut on another
        # thread) is looked at once it has come: its canvas describes what the page says.
        spec = PAGES.get(self.page, {})
        deadline = time.monotonic() + CONTENT_SECONDS
        while spec.get("canvas") and time.monotonic() < deadline:
            canvas = find_canvas(tree, self.page)
            if canvas is not None and spec["describes"].lower() in canvas.description.lower():
                break
            pump(0.3)
            tree = snapshot(app)
        self.tree = tree
        return tree

    def tab_round(self):
        """Presses Tab up to TAB_PRESSES times and records, after each press, the node with
        the focused state and the page on screen (in GtkStackSidebar, focusing a row selects
        it and so switches the page). Stops early when the focus is back where it started,
        or has not moved for three presses."""
        found = xdotool("search", "--sync", "--name", "^Tactile$", timeout=20)
        windows = found.stdout.split()
        if not windows:
            raise AssertionError(f"xdotool found no window named Tactile: {found.stderr}")
        xdotool("windowfocus", windows[0])
        pump(0.3)
        candidates = [n for n in self.tree.walk() if "focusable" in n.states]
        sidebar = sidebar_list(self.tree)
        current = settled_focus(candidates, None)
        self.tab_steps = [(0, current, shown_page(sidebar))]
        still = 0
        for press in range(1, TAB_PRESSES + 1):
            xdotool("key", "--clearmodifiers", "Tab")
            moved = settled_focus(candidates, current)
            still = still + 1 if moved is current else 0
            current = moved
            self.tab_steps.append((press, current, shown_page(sidebar)))
            start = self.tab_steps[0][1] or self.tab_steps[1][1]
            if press >= 2 and current is not None and current is start and still == 0:
                break  # round the whole tab order
            if still >= 3:
                break  # stuck

    def print_tab_order(self, out=sys.stdout):
        print(f"-- Tab order on {self.page} (press 0 is the focus at launch; "
              "[page] is the page on screen after the press):", file=out)
        for press, node, shown in self.tab_steps:
            where = f" [{shown}]" if shown else ""
            what = node.brief() if node else "(no node has the focused state)"
            print(f"  {press:2d}: {what}{where}", file=out)
        out.flush()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        self.state_dir.cleanup()


# ----------------------------------------------------------------------------- checks
#
# With the app at commit 07ac87c (before its accessibility work) every page but About fails
# all three checks: (a) entries, scales, spin buttons and drop-downs carry only GTK's type
# name ("GtkEntry", "GtkScale", "GtkSpinButton", "GtkDropDown"); the label beside them is not
# related to them. (b) each canvas is an unnamed GtkDrawingArea: role "filler", name
# "GtkDrawingArea", no description. (c) the canvas has the focus at launch, but it is last in
# the page's focus chain, so Tab goes to the sidebar; each Tab there selects the next row,
# which switches the page, and on About (nothing to focus) Tab stays on the About row.


def has_name(node):
    if node.name.strip() and not PLACEHOLDER_NAME.match(node.name):
        return True
    if any(name.strip() and not PLACEHOLDER_NAME.match(name) for name in node.labelled_by):
        return True
    if node.role in LABELLED_BY_CHILD:
        for child in node.walk():
            if child is not node and child.role == "label" and child.name.strip() \
                    and not PLACEHOLDER_NAME.match(child.name):
                return True
    # A combo box's own button is named by the combo box.
    for ancestor in node.ancestors():
        if ancestor.role == "combo box":
            return has_name(ancestor)
    return False


def is_control(node):
    if node.role not in CONTROL_ROLES or not node.on_screen:
        return False
    if "focusable" in node.states:
        return True
    # GtkDropDown is not focusable itself; its button inside is.
    return node.role == "combo box" and any("focusable" in n.states for n in node.walk())


class PageChecks:
    """One page's checks; main() makes a unittest.TestCase of them for each page."""

    PAGE = None
    APP = None
    FULL = False
    session = None
    error = None

    @classmethod
    def setUpClass(cls):
        # A failure here fails each check of the page (the runner counts tests, not classes).
        cls.session = Session(cls.APP, cls.PAGE)
        cls.error = None
        try:
            tree = cls.session.wait_for_tree()
            print(f"\n== {cls.PAGE}: the accessible tree at launch", flush=True)
            dump(tree, full=cls.FULL)
            cls.session.tab_round()
            cls.session.print_tab_order()
        except Exception as error:  # noqa: BLE001 (reported by every check)
            cls.error = f"{type(error).__name__}: {error}"
            print(f"\n== {cls.PAGE}: {cls.error}", flush=True)

    def setUp(self):
        if self.error is not None:
            self.fail(f"the {self.PAGE} page could not be examined: {self.error}")
        if self.session.tree is None:
            self.fail(f"the {self.PAGE} page has no accessible tree")

    @classmethod
    def tearDownClass(cls):
        if cls.session is not None:
            cls.session.stop()

    # a.
    def test_a_controls_have_names(self):
        tree = self.session.tree
        controls = [n for n in tree.walk() if is_control(n)]
        self.assertTrue(controls, "no focusable control on screen at all")
        nameless = [n for n in controls if not has_name(n)]
        if nameless:
            self.fail(
            f"{len(nameless)} of {len(controls)} focusable controls on screen have no accessible "
            "name (a screen reader reads the type name, or nothing); give them a label "
            "(GTK_ACCESSIBLE_PROPERTY_LABEL or a GTK_ACCESSIBLE_RELATION_LABELLED_BY to the "
            "visible label next to them):\n  " + "\n  ".join(n.brief() for n in nameless))

    # b.
    def test_b_canvas_is_described(self):
        spec = PAGES[self.PAGE]
        if spec["canvas"] is None:
            self.skipTest(f"the {self.PAGE} page has no canvas")
        tree = self.session.tree
        canvas = find_canvas(tree, self.PAGE)
        if canvas is None:
            guess = likely_canvas(tree, self.PAGE)
            seen = (f"the page's largest focusable node is {guess.brief()}, "
                    f"description {guess.description!r}") if guess else "nothing like a canvas"
            self.fail(f"no node on the {self.PAGE} page is named /{spec['canvas']}/ (expected: "
                      f"role {' or '.join(spec['roles'])}, a description containing "
                      f"{spec['describes']!r}); {seen}")
        problems = []
        if canvas.role not in spec["roles"]:
            problems.append(f"role is {canvas.role!r}, expected {' or '.join(spec['roles'])}")
        if not canvas.description.strip():
            problems.append("the description is empty")
        elif spec["describes"].lower() not in canvas.description.lower():
            problems.append(f"the description {canvas.description!r} does not mention "
                            f"{spec['describes']!r}")
        if not canvas.on_screen:
            problems.append("it is not on screen")
        if problems:
            self.fail(f"the canvas {canvas.brief()}: " + "; ".join(problems))

    # c.
    def test_c_keyboard_reaches_canvas_and_controls(self):
        tree = self.session.tree
        page = page_node(tree, self.PAGE)
        self.assertIsNotNone(page, f"no page node titled {PAGES[self.PAGE]['title']!r}")
        canvas = None
        if PAGES[self.PAGE]["canvas"] is not None:
            canvas = find_canvas(tree, self.PAGE) or likely_canvas(tree, self.PAGE)
        controls = [n for n in page.walk() if is_control(n)]
        if canvas is None and not controls:
            self.skipTest(f"the {self.PAGE} page has nothing to focus")
        reached = [node for _, node, _ in self.session.tab_steps if node is not None]
        order = ", ".join(f"{press}: {node.brief() if node else '-'} [{shown}]"
                          for press, node, shown in self.session.tab_steps)
        problems = []
        if canvas is not None and not any(node is canvas for node in reached):
            problems.append(f"the canvas ({canvas.brief()}) never has the focused state, "
                            "neither at launch nor after any Tab")
        if controls and not any(node.is_within(page) and node is not canvas for node in reached):
            problems.append("Tab never takes the focus into the page's controls")
        if not reached:
            problems.append("no node ever has the focused state")
        if problems:
            self.fail("; ".join(problems) + f". Tab order: {order}")


# ----------------------------------------------------------------------------- runner


def main(argv):
    args = list(argv)
    full = "--full" in args
    if full:
        args.remove("--full")
    pages = []
    while "--page" in args:
        i = args.index("--page")
        pages.append(args[i + 1])
        del args[i:i + 2]
    app = args[0] if args else os.environ.get("TACTILE_SHOWCASE")
    if not app or not os.access(app, os.X_OK):
        print(f"test_atspi.py: no showcase binary ({app!r}); pass its path or set "
              "TACTILE_SHOWCASE", file=sys.stderr)
        return 2
    unknown = [p for p in pages if p not in PAGES]
    if unknown:
        print(f"test_atspi.py: unknown page {unknown[0]}; pages: {', '.join(PAGES)}",
              file=sys.stderr)
        return 2
    if not os.environ.get("DISPLAY"):
        print("test_atspi.py: no DISPLAY; run it through Tests/Accessibility/run.sh",
              file=sys.stderr)
        return 2
    PageChecks.APP = os.path.abspath(app)
    PageChecks.FULL = full
    module = sys.modules[__name__]
    for index, page in enumerate(pages or PAGES, 1):
        name = f"Test{index}{page.capitalize()}Page"  # the runner sorts by name: page order
        setattr(module, name, type(name, (PageChecks, unittest.TestCase), {"PAGE": page}))
    return run_module(__name__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
