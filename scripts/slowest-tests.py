#!/usr/bin/env python3
"""Prints the slowest tests of a `swift test --xunit-output` run, slowest first.

Usage: scripts/slowest-tests.py [--count N] FILE.xml...

swift test --xunit-output DIR/tests.xml writes swift-testing's results to
DIR/tests-swift-testing.xml, and XCTest's (when it runs in parallel) to DIR/tests.xml; pass
every file there is. Each line gives a test's seconds and its name, Module.Suite/test().
Exits 1 when no file holds a test.
"""

import argparse
import sys
import xml.etree.ElementTree as ElementTree


def test_times(paths):
    """(seconds, name) of every test case in the given xUnit files that exist."""
    times = []
    for path in paths:
        try:
            root = ElementTree.parse(path).getroot()
        except FileNotFoundError:
            continue
        except ElementTree.ParseError as error:
            sys.exit(f"slowest-tests.py: {path} is not xUnit XML: {error}")
        for case in root.iter("testcase"):
            try:
                seconds = float(case.get("time", ""))
            except ValueError:
                continue
            suite, name = case.get("classname", "?"), case.get("name", "?")
            times.append((seconds, f"{suite}/{name}"))
    return times


def main():
    parser = argparse.ArgumentParser(description="The slowest tests of an xUnit report.")
    parser.add_argument("--count", type=int, default=10, help="how many to list (10)")
    parser.add_argument("files", nargs="+", help="xUnit files from swift test --xunit-output")
    arguments = parser.parse_args()
    times = test_times(arguments.files)
    if not times:
        print(f"slowest-tests.py: no test results in {' '.join(arguments.files)}", file=sys.stderr)
        return 1
    times.sort(key=lambda entry: (-entry[0], entry[1]))
    shown = times[: max(0, arguments.count)]
    print(f"The {len(shown)} slowest of {len(times)} tests (seconds from start to end):")
    for seconds, name in shown:
        print(f"{seconds:9.3f}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
