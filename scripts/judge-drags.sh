#!/usr/bin/env bash
# Judges the captcha's drag verifier on real people's recorded drags and on bots' drags
# (../shared/captcha-drags, when present): run_eval.py on the dev and the holdout split
# through `tactile puzzle serve` exactly as widget.js sends a drag (a finger's strokes as
# "pointer": "touch"), every bot's drag again re-timed to a touchscreen's cadence and sent as a
# finger's, the finger strokes by person and as a slow phone delivers them, then every replay
# attack twice (passing both times is the figure that counts), then copies of people's accepted
# drags as a replay tool changes them (copies.py). Builds the release `tactile` first.
# Usage: scripts/judge-drags.sh [--dev-only] [DATA]      (DATA: default ../shared/captcha-drags)
set -euo pipefail
cd "$(dirname "$0")/.."
splits=(dev holdout)
if [[ "${1:-}" == "--dev-only" ]]; then splits=(dev); shift; fi
data="${1:-../shared/captcha-drags}"
if [[ ! -f "$data/run_eval.py" ]]; then
  echo "judge-drags: no recorded drags at $data (run_eval.py not found); nothing to judge"
  exit 0
fi
swift build -c release --product tactile >/dev/null
for split in "${splits[@]}"; do
  echo "== $split: run_eval.py"
  python3 "$data/run_eval.py" .build/release/tactile --data "$data/$split"
  echo "== $split: bots' drags at a touchscreen's cadence, claiming a finger"
  python3 scripts/drag-model/touch_claims.py .build/release/tactile --data "$data/$split"
  echo "== $split: finger strokes by person"
  python3 scripts/drag-model/by_person.py .build/release/tactile --data "$data/$split"
  echo "== $split: finger strokes as a slow phone delivers them"
  python3 scripts/drag-model/slow_phones.py .build/release/tactile --data "$data/$split"
  echo "== $split: replay attacks, each recording used twice"
  python3 scripts/drag-model/replays.py .build/release/tactile --data "$data/$split"
  echo "== $split: copies of people's accepted drags, re-timed, re-scaled or moved a little"
  python3 scripts/drag-model/copies.py .build/release/tactile --data "$data/$split"
done
