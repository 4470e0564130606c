# shellcheck shell=bash
# Sourced by Tests/Accessibility/run.sh and Tests/Translations/run.sh: the pages' accessible
# trees in the log only when a check fails.
#
# run_summarized LOG COMMAND... runs COMMAND with its standard output and error in LOG. When
# it succeeds, prints only what sums it up: each check's verdict
# ("Test1HanoiPage.test_a_controls_have_names ... ok"), the "N passed, M failed" total and
# where the screenshots are. When it fails, prints LOG whole: the trees, the Tab orders, the
# app's own messages, then the failures. Returns COMMAND's status.
run_summarized() {
    local log=$1 status=0
    shift
    # Unbuffered, so that the trees and the checks' verdicts stay in the order they came.
    PYTHONUNBUFFERED=1 "$@" >"$log" 2>&1 || status=$?
    if ((status == 0)); then
        grep -E -e ' \.\.\. (ok|skipped)' -e '^[0-9]+ passed, [0-9]+ failed' -e '^screenshots in ' \
            "$log" |
            sed -E 's/^(test_[A-Za-z0-9_]+) \(__main__\.([A-Za-z0-9_]+)(\.[A-Za-z0-9_]+)?\)/\2.\1/' ||
            true
    else
        cat "$log"
        if ((status == 124)); then
            echo "run.sh: the checks were stopped at the time limit"
        fi
    fi
    return "$status"
}
