#!/usr/bin/env bash
# Builds the DocC catalog of every library module from symbol graphs, with warnings as errors.
# Usage: scripts/docs.sh [OUTPUT_DIR]   (default .build/docs)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build/docs}"
graphs=.build/docs-symbol-graphs
rm -rf "$graphs" && mkdir -p "$graphs" "$out"
modules=(TactileCore TactileHanoi TactileCairo TactileGTK TactileCrypto TactileHTTP TactileSoup TactilePuzzleStores TactilePuzzleDesk TactilePuzzleService TactilePatternLock TactilePatternVault TactilePuzzle TactilePuzzleVerifier TactilePuzzleImaging TactilePuzzleSolvers TactileCommands TactileDynamics TactileCradle)
swift package dump-symbol-graph --minimum-access-level public >/dev/null
dumped=$(swift build --show-bin-path)/../symbolgraph
docc_bin=$(command -v docc || echo "$(dirname "$(readlink -f "$(command -v swift)")")/docc")
for module in "${modules[@]}"; do
    mkdir -p "$graphs/$module"
    cp "$dumped/$module".symbols.json "$graphs/$module"/
    cp "$dumped/$module"@*.symbols.json "$graphs/$module"/ 2>/dev/null || true
    "$docc_bin" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.tactile.$module" \
        --output-path "$out/$module.doccarchive" --warnings-as-errors >/dev/null
    echo "docs: $module ok"
done
