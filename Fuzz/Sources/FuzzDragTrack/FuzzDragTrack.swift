// A drag track as a client uploads it (`--track FILE`, the HTTP answer's `track`): decoding,
// then every trajectory rule, for each axis and input method, and the replay memory's
// fingerprint of it; and the same bytes read as a stored fingerprint. Errors and violations
// are expected; a trap, or a fingerprint that does not read back or match itself, is a
// finding.

import FuzzDriver
import TactileCore
import TactilePuzzle
import TactilePuzzleVerifier

@_cdecl("FuzzDragTrack_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    tactile_fuzz_main(argc, argv)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let stored = DragFingerprint(bytes: bytes) {
        precondition(stored.matches(stored) && stored.nearbyBuckets.contains(stored.bucket))
    }
    guard let track = try? DragTrack.decode(bytes) else { return 0 }
    for axis in PuzzleAxis.allCases {
        guard let print = DragFingerprint(track, axis: axis) else { continue }
        precondition(DragFingerprint(bytes: print.bytes) == print)
        precondition(print.matches(print) && print.nearbyBuckets.contains(print.bucket))
    }
    let rules = TrajectoryRules()
    // Started and released where the track starts and ends, so that the rules after those
    // checks run too, and with no start and a release far away.
    let ends: [(start: Point?, release: Point)] = [
        (track.first?.position, track.last?.position ?? .zero), (nil, Point(x: 1e6, y: -1e6)),
    ]
    for (start, release) in ends {
        for axis in PuzzleAxis.allCases {
            for method in [PuzzleInputMethod.pointer, .keyboard] {
                let violation = rules.violation(
                    in: track, release: release, start: start, displayWidth: 320, axis: axis,
                    inputMethod: method)
                _ = violation?.description
                _ = violation?.rule
            }
        }
    }
    return 0
}
