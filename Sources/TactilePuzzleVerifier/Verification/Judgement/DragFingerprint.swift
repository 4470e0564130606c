import Foundation
import TactilePuzzle

/// What stays of a drag when a script replays it: its progress along the slider against
/// time, each as a share of the whole. Scaling the travel, stretching or squeezing the time
/// (×0.7 to ×1.4), moving samples by a pixel or so, re-timing them by a millisecond or two or
/// bending the path across the slider leave it within ``tolerance``; two people's drags almost
/// never come that close (6 pairs of 11.4 million among the recorded people's drags of the
/// dev split, all of them finger flicks of a few samples).
///
/// Heavier per-sample noise (±3 px and ±5 ms) is out of its reach: at that tolerance people's
/// short finger flicks meet each other by the thousand, and the memory would price honest
/// fingers. Such a copy is a modelled drag, like any a script makes from public recordings:
/// what it pays is the price.
///
/// The service remembers the fingerprints of the drags it accepted (across instances,
/// through the store) and refuses a drag that matches one: a recorded or earlier accepted
/// drag passes once at most. Fingerprints are kept in buckets named by a coarse grid, so a
/// match is found by reading a handful of buckets (``nearbyBuckets``), never the whole memory.
public struct DragFingerprint: Hashable, Sendable {
    /// The progress at ``points`` evenly spaced times strictly inside the drag, in
    /// thousandths of the travel.
    public private(set) var progress: [Int16]
    /// The natural logarithm of the duration in seconds, in thousandths.
    public private(set) var logDuration: Int16

    /// How many times the progress is read at.
    public static let points = 32
    /// The largest difference of progress (a share of the travel) at any of the times, and of
    /// the duration's logarithm, for two drags to match.
    public static let tolerance = (progress: 0.015, logDuration: 0.36)
    /// The times (indices into ``progress``) and grid steps the buckets are named by; each
    /// step is over twice the tolerance, so a match lies in a neighbouring bucket at most.
    private static let bucketPoints = [7, 15, 23]
    private static let bucketStep = (progress: 0.1, logDuration: 0.75)
    /// The size of ``bytes``.
    public static let byteCount = 2 * (points + 1)

    /// The fingerprint of a drag's samples (times in seconds, strictly increasing), or `nil`
    /// when it has fewer than 3 samples, no duration or no travel along the slider.
    public init?(_ track: [PuzzleTrackPoint], axis: PuzzleAxis) {
        guard track.count >= 3, let first = track.first, let last = track.last else { return nil }
        let along = track.map { axis == .vertical ? $0.y - first.y : $0.x - first.x }
        let travel = along[along.count - 1]
        let duration = last.time - first.time
        guard abs(travel) >= 1e-6, duration > 0, duration.isFinite, travel.isFinite,
            along.allSatisfy(\.isFinite),
            zip(track, track.dropFirst()).allSatisfy({ $1.time > $0.time })
        else { return nil }
        let times = track.map(\.time)
        progress = (1...Self.points).map { k in
            let time = first.time + duration * Double(k) / Double(Self.points + 1)
            return Self.thousandths(DragFeatures.interpolate(times, along, at: time) / travel)
        }
        logDuration = Self.thousandths(log(duration))
    }

    /// Reads a fingerprint back from ``bytes``; `nil` for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        let words = stride(from: 0, to: bytes.count, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]))
        }
        progress = Array(words.dropLast())
        logDuration = words[words.count - 1]
    }

    /// Big-endian 16-bit words: the progress, then the duration.
    public var bytes: [UInt8] {
        (progress + [logDuration]).flatMap {
            [UInt8(UInt16(bitPattern: $0) >> 8), UInt8(UInt16(bitPattern: $0) & 0xFF)]
        }
    }

    /// Whether the two are within ``tolerance`` of each other at every time.
    public func matches(_ other: DragFingerprint) -> Bool {
        guard
            abs(Int(logDuration) - Int(other.logDuration))
                <= Int((Self.tolerance.logDuration * 1000).rounded())
        else { return false }
        let limit = Int((Self.tolerance.progress * 1000).rounded())
        return zip(progress, other.progress).allSatisfy { abs(Int($0) - Int($1)) <= limit }
    }

    /// The bucket this fingerprint is kept in.
    public var bucket: String { Self.name(cells(shift: 0)) }

    /// The buckets a fingerprint that ``matches(_:)`` this one can be kept in (1 to 16).
    public var nearbyBuckets: [String] {
        let low = cells(shift: -1)
        let high = cells(shift: 1)
        var names: [[Int]] = [[]]
        for (a, b) in zip(low, high) {
            names = names.flatMap { prefix in Set([a, b]).sorted().map { prefix + [$0] } }
        }
        return names.map(Self.name)
    }

    /// The grid cells of the bucketing coordinates, each moved by `shift` tolerances first.
    private func cells(shift: Double) -> [Int] {
        let step = Self.bucketStep
        let tolerance = Self.tolerance
        let marks = Self.bucketPoints.map {
            Int(
                ((Double(progress[$0]) / 1000 + shift * tolerance.progress) / step.progress)
                    .rounded(.down))
        }
        let time = Int(
            ((Double(logDuration) / 1000 + shift * tolerance.logDuration) / step.logDuration)
                .rounded(.down))
        return marks + [time]
    }

    private static func name(_ cells: [Int]) -> String {
        cells.map(String.init).joined(separator: ",")
    }

    private static func thousandths(_ value: Double) -> Int16 {
        Int16(max(-30_000, min(30_000, (value * 1000).rounded())))
    }
}
