#!/usr/bin/env bash
# Re-records the golden files the tests compare against — every command's help text
# (Tests/TactileCommandsTests/Golden/help) and every component's snapshots at 0, ¼, ½, ¾ and
# 1 of its demonstration (Tests/TactileCommandsTests/Golden/render) — after a change to them
# that is meant. Look at the PNGs and the diff before committing them.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf Tests/TactileCommandsTests/Golden/help Tests/TactileCommandsTests/Golden/render
TACTILE_RECORD_GOLDEN=1 swift test --filter 'HelpTextTests|RenderSnapshotTests'
git status --short Tests/TactileCommandsTests/Golden
