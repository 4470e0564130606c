"""The showcase app in Simplified Chinese, read over AT-SPI: for each page, started with
`--page NAME` under LANGUAGE=zh_CN (run.sh leaves LANG unset, the case glibc would answer in
English), the test checks what a person and a screen reader get:

  a. the sidebar lists the pages by their Chinese titles, in order;
  b. the page's controls and labels expected on it (EXPECTED below) show their zh_CN
     translations, and no button, toggle or check box on screen is labelled with an English
     message that has a translation;
  c. the component's canvas is named in Chinese and its description is Chinese;
  d. nothing on screen (names and descriptions of every node) is an English message that
     has a translation.

It also saves a screenshot of each page (`import -window root`) into SHOTS_DIR, for a person
to look at (tofu boxes, text cut off). Reuses the AT-SPI helpers of
Tests/Accessibility/test_atspi.py (snapshot, Session, dump).

    test_translations.py APP PO SHOTS_DIR [--page NAME]...

Needs a display, a D-Bus session and the AT-SPI bus: run it through Tests/Translations/run.sh.
"""
import os
import re
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Accessibility"))
sys.path.insert(0, os.path.join(HERE, "..", "Browser"))
import test_atspi as atspi  # noqa: E402  (the accessibility test's helpers)
from check_catalogs import parse  # noqa: E402
from testrun import run_module  # noqa: E402

# The pages in sidebar order, with the English title of each and of its canvas.
PAGES = {
    "hanoi": {"title": "Tower of Hanoi", "canvas": "Tower of Hanoi"},
    "cradle": {"title": "Newton's cradle", "canvas": "Newton's cradle"},
    "pattern": {"title": "Pattern lock", "canvas": "Pattern lock"},
    "puzzle": {"title": "Puzzle captcha", "canvas": "Puzzle captcha"},
    "about": {"title": "About", "canvas": None},
}

# English messages each page shows at launch, as (message, values) — what must be on screen
# translated (placeholders filled with the values). A fresh state folder makes the pattern
# page ask for a first pattern.
EXPECTED = {
    "hanoi": [
        ("Tower", ()), ("Disks", ()), ("Pegs", ()), ("Apply", ()), ("Start", ()),
        ("◀ Step", ()), ("Step ▶", ()), ("Instant", ()), ("Play by hand", ()), ("Hint", ()),
        ("Reset", ()), ("Move 0 of {1} — press Start", (31,)),
    ],
    "cradle": [
        ("Cradle", ()), ("Balls", ()), ("Gravity", ()), ("Elasticity", ()),
        ("Resistance", ()), ("Pause", ()), ("Reset", ()), ("Pull {1}", (1,)),
        ("Pull and let go", ()),
    ],
    "pattern": [
        ("Set pattern", ()), ("Unlock", ()), ("Change", ()), ("Remove", ()),
        ("Stealth (hide the path)", ()), ("Grid for a new pattern", ()),
        ("Draw an unlock pattern", ()),
    ],
    "puzzle": [
        ("New puzzle", ()), ("Open image…", ()), ("Drawn picture", ()), ("Redeem token", ()),
        ("Treat holes against gap finders", ()), ("Shape", ()), ("Axis", ()),
        ("Drawn landscape", ()), ("Drag the piece into the gap", ()),
    ],
    "about": [
        ("Tactile is a Swift package of four interactive, animated components — a Tower of "
         "Hanoi auto-solver, Newton's cradle on a UIKit-Dynamics-style engine, a gesture "
         "pattern lock and a puzzle slider captcha — with a platform-neutral core that any UI "
         "host can drive. This showcase hosts each of them with GTK 4, on a page of its own in "
         "the list of pages.", ()),
    ],
}

BUTTON_ROLES = {"push button", "toggle button", "check box", "radio button"}
HAN = re.compile(r"[\u4e00-\u9fff]")
DRAW_SECONDS = 1.0  # after the tree settles, for the first frames before the screenshot


def fill(template, values):
    """Localization.fill: {1}…{9} replaced by the values."""
    return re.sub(r"\{([1-9])\}",
                  lambda m: str(values[int(m.group(1)) - 1])
                  if int(m.group(1)) <= len(values) else m.group(0), template)


class Catalog:
    """The zh_CN translations: English message (and plural form) -> Chinese."""

    def __init__(self, path):
        self.text = {}
        for entry in parse(path)[1:]:
            if entry.obsolete or not entry.msgstr.get(0):
                continue
            self.text[entry.msgid] = entry.msgstr[0]
            if entry.plural is not None:
                self.text[entry.plural] = entry.msgstr[0]

    def __call__(self, english, values=()):
        if english not in self.text:
            raise AssertionError(f"the catalogue has no translation of {english!r}")
        return fill(self.text[english], values)

    def untranslated(self, shown):
        """Whether `shown` is an English message the catalogue translates (into other words)."""
        return shown in self.text and self.text[shown] != shown


def label_of(node):
    """What a button says: its name, or (GTK 4.8 leaves a button's name empty) the label in it."""
    if node.name.strip() and not atspi.PLACEHOLDER_NAME.match(node.name):
        return node.name
    for child in node.walk():
        if child is not node and child.role == "label" and child.name.strip():
            return child.name
    return ""


def sidebar_titles(tree):
    """The labels of the sidebar's rows, in order."""
    sidebar = atspi.sidebar_list(tree)
    if sidebar is None:
        return None
    titles = []
    for row in sidebar.children:
        label = next((n.name for n in row.walk() if n.role == "label" and n.name), None)
        if label is not None:
            titles.append(label)
    return titles


class PageChecks:
    PAGE = None
    APP = None
    SHOTS = None
    CATALOG = None
    session = None
    error = None

    @classmethod
    def setUpClass(cls):
        cls.session = atspi.Session(cls.APP, cls.PAGE)
        cls.error = None
        try:
            tree = cls.session.wait_for_tree()
            print(f"\n== {cls.PAGE} in zh_CN: the accessible tree at launch", flush=True)
            atspi.dump(tree)
            atspi.pump(DRAW_SECONDS)
            shot = os.path.join(cls.SHOTS, f"{cls.PAGE}.png")
            taken = subprocess.run(["import", "-window", "root", shot],
                                   capture_output=True, text=True, timeout=30)
            if taken.returncode != 0:
                print(f"screenshot of {cls.PAGE} failed: {taken.stderr}", flush=True)
            else:
                print(f"screenshot: {shot}", flush=True)
        except Exception as error:  # noqa: BLE001 (reported by every check)
            cls.error = f"{type(error).__name__}: {error}"
            print(f"\n== {cls.PAGE}: {cls.error}", flush=True)

    @classmethod
    def tearDownClass(cls):
        if cls.session is not None:
            cls.session.stop()

    def setUp(self):
        if self.error is not None:
            self.fail(f"the {self.PAGE} page could not be examined: {self.error}")

    def on_screen(self):
        return [n for n in self.session.tree.walk() if n.on_screen]

    # a.
    def test_a_sidebar_is_chinese(self):
        titles = sidebar_titles(self.session.tree)
        self.assertIsNotNone(titles, "no GtkStackSidebar list in the accessible tree")
        expected = [self.CATALOG(page["title"]) for page in PAGES.values()]
        self.assertEqual(titles, expected, "the sidebar's rows are not the pages' zh_CN titles")

    # b.
    def test_b_controls_are_chinese(self):
        nodes = self.on_screen()
        shown = {n.name for n in nodes} | {label_of(n) for n in nodes if n.role in BUTTON_ROLES}
        missing = [f"{self.CATALOG(english, values)!r} (for {english!r})"
                   for english, values in EXPECTED[self.PAGE]
                   if self.CATALOG(english, values) not in shown]
        english = [f"{n.role} {label_of(n)!r}" for n in nodes
                   if n.role in BUTTON_ROLES and self.CATALOG.untranslated(label_of(n))]
        problems = []
        if missing:
            problems.append("not on screen: " + ", ".join(missing))
        if english:
            problems.append("buttons still in English: " + ", ".join(english))
        if problems:
            self.fail("; ".join(problems))

    # c.
    def test_c_canvas_is_chinese(self):
        english = PAGES[self.PAGE]["canvas"]
        if english is None:
            self.skipTest(f"the {self.PAGE} page has no canvas")
        name = self.CATALOG(english)
        canvas = next((n for n in self.session.tree.walk()
                       if n.name == name and n.role not in ("label", "heading", "list item")
                       and n.on_screen and n.description), None)
        self.assertIsNotNone(canvas, f"no described node on screen named {name!r} (the canvas)")
        self.assertRegex(canvas.description, HAN,
                         f"the canvas's description {canvas.description!r} is not Chinese")
        self.assertFalse(re.search(r"[A-Za-z]{4,}", canvas.description),
                         f"the canvas's description {canvas.description!r} has English words")

    # d.
    def test_d_no_english_on_screen(self):
        left = [f"{n.role} {text!r}" for n in self.on_screen()
                for text in (n.name, n.description) if self.CATALOG.untranslated(text)]
        if left:
            self.fail("English on screen where a translation exists: " + ", ".join(left))


def main(argv):
    args = list(argv)
    pages = []
    while "--page" in args:
        i = args.index("--page")
        pages.append(args[i + 1])
        del args[i:i + 2]
    if len(args) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    app, po, shots = args
    unknown = [p for p in pages if p not in PAGES]
    if unknown:
        print(f"test_translations.py: unknown page {unknown[0]}; pages: {', '.join(PAGES)}",
              file=sys.stderr)
        return 2
    PageChecks.APP = os.path.abspath(app)
    PageChecks.SHOTS = shots
    PageChecks.CATALOG = Catalog(po)
    module = sys.modules[__name__]
    for index, page in enumerate(pages or PAGES, 1):
        name = f"Test{index}{page.capitalize()}PageInChinese"
        setattr(module, name, type(name, (PageChecks, unittest.TestCase), {"PAGE": page}))
    started = time.monotonic()
    status = run_module(__name__)
    print(f"screenshots in {shots} ({time.monotonic() - started:.0f} s)")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
