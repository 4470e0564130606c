"""Runs a test module's unittest cases and ends with the line the test scripts look for:
"N passed, M failed[, K skipped] in S s"; the exit status is 0 only when none failed."""
import sys
import time
import unittest


def run_module(name):
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[name])
    started = time.time()
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    failed = len(result.failures) + len(result.errors)
    skipped = len(result.skipped)
    passed = result.testsRun - failed - skipped
    line = f"{passed} passed, {failed} failed"
    if skipped:
        line += f", {skipped} skipped"
    print(f"{line} in {time.time() - started:.1f}s")
    return 0 if failed == 0 else 1
