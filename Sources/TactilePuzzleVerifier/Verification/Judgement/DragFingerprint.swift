import Foundation
import TactilePuzzle

/// What stays of a drag when a script replays it: its progress along the slider and its
/// sideways wander, each against the share of the duration, averaged over a tenth of the drag
/// at a time. Scaling the travel, stretching or squeezing the time (×0.7 to ×1.4), laying the
/// path flat across the slider, or moving every sample by a pixel and a couple of
/// milliseconds leave it within ``tolerance``; two people's drags do not come that close (none
/// of 11.4 million pairs among the recorded people's drags of the dev split, finger flicks
/// included, nor of 8.1 million in the holdout split).
///
/// A copy whose every sample is moved further (±3 px and ±5 ms) is still the same samples in
/// the same order: read sample by sample instead of against time (``frameProgress``), each
/// reading averaged with its neighbours, such noise mostly cancels, and two drags of the same
/// number of samples (8 or more) that close sample by sample and close against time as well
/// are taken for one another (``frameTolerance``), on the same stage or scaled onto another.
/// A finger flick of a few samples is moved as far by that noise as another person's flick is
/// from it: such a copy is a modelled drag, like any a script makes from public recordings,
/// and what it pays is the price.
///
/// The service remembers the fingerprints of the drags it accepted (across instances,
/// through the store) and refuses a drag that matches one: a recorded or earlier accepted
/// drag passes once at most. Fingerprints are kept in buckets named by a coarse grid, so a
/// match is found by reading a handful of buckets (``nearbyBuckets``), never the whole memory.
public struct DragFingerprint: Hashable, Sendable {
    /// The progress at ``points`` evenly spaced times strictly inside the drag, averaged over
    /// ``window`` of the duration around each, in thousandths of the travel.
    public private(set) var progress: [Int16]
    /// The distance across the slider from the first sample at the same times, averaged the
    /// same way, in tenths of a pixel.
    public private(set) var sideways: [Int16]
    /// The natural logarithm of the duration in seconds, in thousandths.
    public private(set) var logDuration: Int16
    /// How many samples the drag has (0 in a fingerprint kept before the samples were read).
    public private(set) var samples: Int16
    /// How far along the slider the drag ends (the mean of its last ``frameWindow`` + 1
    /// samples), in tenths of a pixel: what ``frameProgress`` is shares of.
    public private(set) var travel: Int16
    /// The progress at ``points`` samples spread evenly through the drag by count, not by time,
    /// each averaged with the ``frameWindow`` samples either side, in ten-thousandths of
    /// ``travel``.
    public private(set) var frameProgress: [Int16]
    /// The distance across the slider from the first sample at the same samples, averaged the
    /// same way, in ten-thousandths of ``travel``.
    public private(set) var frameSideways: [Int16]

    /// How many times the drag is read at.
    public static let points = 32
    /// The share of the duration each reading averages over.
    public static let window = 0.1
    /// When two drags match: their durations' logarithms within `logDuration`, their progress
    /// at the bucketing times within `bucketProgress`, and either the mean difference of
    /// progress (a share of the travel) within `progressAlone` whatever the wander across (a
    /// copy laid flat across the slider; `flatProgress` when either keeps within `flat`
    /// pixels across, so has no wander to tell it by), or that plus `perPixel` times the mean
    /// difference across the slider (in pixels) within `distance`.
    public static let tolerance = (
        logDuration: 0.36, bucketProgress: 0.04, progressAlone: 0.001, flat: 1.0,
        flatProgress: 0.0025, perPixel: 0.005, distance: 0.010
    )
    /// How many samples either side of a reading ``frameProgress`` averages with it.
    public static let frameWindow = 2
    /// When two drags match sample by sample: the same number of samples, `fewestSamples` or
    /// more, and the mean difference of ``frameProgress`` and of ``frameSideways`` (both shares
    /// of the travel) either within `shorter.pixels` in pixels of the shorter travel (a copy's
    /// noise is in its own pixels, and a copy sent on another stage is scaled) with a mean
    /// difference of progress against time within `shorter.progress`, or within
    /// `longer.pixels` in pixels of the longer travel with the mean difference against time
    /// (progress plus `perPixel` times the wander, as ``tolerance``) within
    /// `longer.distance`; the gates of ``tolerance`` (duration, bucketing times) hold either
    /// way. Chosen on the dev split's people: the nearest two of its drags are a third beyond
    /// either.
    public static let frameTolerance = (
        fewestSamples: 8, shorter: (pixels: 0.8, progress: 0.015),
        longer: (pixels: 1.0, distance: 0.025)
    )
    /// The times (indices into ``progress``) and grid steps the buckets are named by; each
    /// step is twice the tolerance at least, so a match lies in a neighbouring bucket at most.
    private static let bucketPoints = [7, 15, 23]
    private static let bucketStep = (progress: 0.1, logDuration: 0.75)
    /// The size of ``bytes``.
    public static let byteCount = 2 * (4 * points + 3)
    /// The size of the fingerprints kept before the samples were read (no ``frameProgress``);
    /// they are still read, and match by ``tolerance`` alone.
    public static let timedByteCount = 2 * (2 * points + 1)

    /// The fingerprint of a drag's samples (times in seconds, strictly increasing), or `nil`
    /// when it has fewer than 3 samples, no duration or no travel along the slider.
    public init?(_ track: [PuzzleTrackPoint], axis: PuzzleAxis) {
        guard track.count >= 3, let first = track.first, let last = track.last else { return nil }
        let along = track.map { axis == .vertical ? $0.y - first.y : $0.x - first.x }
        let across = track.map { axis == .vertical ? $0.x - first.x : $0.y - first.y }
        let travel = along[along.count - 1]
        let duration = last.time - first.time
        guard abs(travel) >= 1e-6, duration > 0, duration.isFinite, travel.isFinite,
            along.allSatisfy(\.isFinite), across.allSatisfy(\.isFinite),
            zip(track, track.dropFirst()).allSatisfy({ $1.time > $0.time })
        else { return nil }
        let shares = track.map { ($0.time - first.time) / duration }
        let progressCurve = Curve(shares, along.map { $0 / travel })
        let acrossCurve = Curve(shares, across)
        let readings = (1...Self.points).map { Double($0) / Double(Self.points + 1) }
        progress = readings.map { Self.scaled(progressCurve.average(around: $0), by: 1000) }
        sideways = readings.map { Self.scaled(acrossCurve.average(around: $0), by: 10) }
        logDuration = Self.scaled(log(duration), by: 1000)
        // Sample by sample: the samples nearest evenly spread shares of the count, each the
        // mean of it and its neighbours (cut at the ends), as shares of where the drag ends
        // (the mean of its last samples, so that moving the release a few pixels moves every
        // share by little).
        let final = track.count - 1
        func averaged(_ values: [Double], _ centre: Int) -> Double {
            let window = max(0, centre - Self.frameWindow)...min(final, centre + Self.frameWindow)
            return values[window].reduce(0, +) / Double(window.count)
        }
        let reach = averaged(along, final)
        let centres = readings.map { Int(($0 * Double(final)).rounded()) }
        // Without a reach, there are no shares to compare.
        let scale = abs(reach) >= 1e-6 ? reach : 1
        samples = abs(reach) >= 1e-6 ? Int16(min(track.count, Int(Int16.max))) : 0
        self.travel = Self.scaled(abs(scale), by: 10)
        frameProgress = centres.map { Self.scaled(averaged(along, $0) / scale, by: 10_000) }
        frameSideways = centres.map { Self.scaled(averaged(across, $0) / abs(scale), by: 10_000) }
    }

    /// Reads a fingerprint back from ``bytes`` (or from a fingerprint of ``timedByteCount``
    /// bytes, kept before the samples were read); `nil` for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount || bytes.count == Self.timedByteCount else {
            return nil
        }
        let words = stride(from: 0, to: bytes.count, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]))
        }
        let n = Self.points
        progress = Array(words[0..<n])
        sideways = Array(words[n..<(2 * n)])
        logDuration = words[2 * n]
        guard bytes.count == Self.byteCount else {
            (samples, travel) = (0, 0)
            frameProgress = Array(repeating: 0, count: n)
            frameSideways = frameProgress
            return
        }
        (samples, travel) = (words[2 * n + 1], words[2 * n + 2])
        frameProgress = Array(words[(2 * n + 3)..<(3 * n + 3)])
        frameSideways = Array(words[(3 * n + 3)...])
    }

    /// Big-endian 16-bit words: the progress, the distance across, the duration, the samples,
    /// the travel, then the progress and the distance across sample by sample.
    public var bytes: [UInt8] {
        let words =
            progress + sideways + [logDuration, samples, travel] + frameProgress + frameSideways
        return words.flatMap {
            [UInt8(UInt16(bitPattern: $0) >> 8), UInt8(UInt16(bitPattern: $0) & 0xFF)]
        }
    }

    /// Whether the two are within ``tolerance`` of each other.
    public func matches(_ other: DragFingerprint) -> Bool {
        let tolerance = Self.tolerance
        guard
            abs(Int(logDuration) - Int(other.logDuration))
                <= Int((tolerance.logDuration * 1000).rounded()),
            Self.bucketPoints.allSatisfy({
                abs(Int(progress[$0]) - Int(other.progress[$0]))
                    <= Int((tolerance.bucketProgress * 1000).rounded())
            })
        else { return false }
        let progressDifference = zip(progress, other.progress).reduce(0) {
            $0 + abs(Int($1.0) - Int($1.1))
        }
        let acrossDifference = zip(sideways, other.sideways).reduce(0) {
            $0 + abs(Int($1.0) - Int($1.1))
        }
        let points = Double(Self.points)
        let along = Double(progressDifference) / 1000 / points
        let across = Double(acrossDifference) / 10 / points
        let flat = Int((tolerance.flat * 10).rounded())
        let isFlat = [sideways, other.sideways].contains { $0.allSatisfy { abs(Int($0)) < flat } }
        let timed = along + tolerance.perPixel * across
        return along <= (isFlat ? tolerance.flatProgress : tolerance.progressAlone)
            || timed <= tolerance.distance
            || matchesSampleBySample(other, along: along, timed: timed)
    }

    /// Whether the two have the same number of samples (enough of them) and come within
    /// ``frameTolerance`` of each other sample by sample, given the mean difference of
    /// progress against time (`along`) and that plus the wander's (`timed`).
    private func matchesSampleBySample(
        _ other: DragFingerprint, along: Double, timed: Double
    ) -> Bool {
        let tolerance = Self.frameTolerance
        guard samples == other.samples, Int(samples) >= tolerance.fewestSamples,
            travel > 0, other.travel > 0
        else { return false }
        func meanDifference(_ a: [Int16], _ b: [Int16]) -> Double {
            Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
        }
        // Ten-thousandths of a travel in tenths of a pixel: pixels.
        let shares =
            max(
                meanDifference(frameProgress, other.frameProgress),
                meanDifference(frameSideways, other.frameSideways)) / 100_000
        let shorter = Double(min(travel, other.travel)) * shares
        let longer = Double(max(travel, other.travel)) * shares
        return (along <= tolerance.shorter.progress && shorter <= tolerance.shorter.pixels)
            || (timed <= tolerance.longer.distance && longer <= tolerance.longer.pixels)
    }

    /// The bucket this fingerprint is kept in.
    public var bucket: String { Self.name(cells(shift: 0)) }

    /// The buckets a fingerprint that ``matches(_:)`` this one can be kept in (1 to 16).
    public var nearbyBuckets: [String] {
        let low = cells(shift: -1)
        let high = cells(shift: 1)
        var names: [[Int]] = [[]]
        for (a, b) in zip(low, high) {
            names = names.flatMap { prefix in (a...b).map { prefix + [$0] } }
        }
        return names.map(Self.name)
    }

    /// The grid cells of the bucketing coordinates, each moved by `shift` tolerances first;
    /// in whole thousandths, so a value on a cell's edge is read alike by every fingerprint.
    private func cells(shift: Int) -> [Int] {
        func cell(_ value: Int16, _ tolerance: Double, _ step: Double) -> Int {
            let moved = Int(value) + shift * Int((tolerance * 1000).rounded())
            let width = Int((step * 1000).rounded())
            return moved >= 0 ? moved / width : -((-moved + width - 1) / width)
        }
        let step = Self.bucketStep
        let tolerance = Self.tolerance
        return Self.bucketPoints.map { cell(progress[$0], tolerance.bucketProgress, step.progress) }
            + [cell(logDuration, tolerance.logDuration, step.logDuration)]
    }

    private static func name(_ cells: [Int]) -> String {
        cells.map(String.init).joined(separator: ",")
    }

    private static func scaled(_ value: Double, by scale: Double) -> Int16 {
        Int16(max(-30_000, min(30_000, (value * scale).rounded())))
    }

    /// A drag's samples as a line through its points, and the mean of it over ``window``
    /// around a time (both in shares of the duration, 0…1), the window cut at the ends.
    private struct Curve {
        let times: [Double]
        let values: [Double]
        /// The integral of the line from the first time to each sample's.
        let integrals: [Double]

        init(_ times: [Double], _ values: [Double]) {
            self.times = times
            self.values = values
            var sum = 0.0
            var integrals = [0.0]
            for k in 1..<times.count {
                sum += (times[k] - times[k - 1]) * (values[k] + values[k - 1]) / 2
                integrals.append(sum)
            }
            self.integrals = integrals
        }

        /// The integral of the line from the first time to `time` (within the samples').
        func integral(to time: Double) -> Double {
            let (low, high, fraction) = DragFeatures.segment(times, containing: time)
            let value = values[low] + (values[high] - values[low]) * fraction
            return integrals[low] + (time - times[low]) * (values[low] + value) / 2
        }

        func average(around time: Double) -> Double {
            let low = max(0, time - DragFingerprint.window / 2)
            let high = min(1, time + DragFingerprint.window / 2)
            return (integral(to: high) - integral(to: low)) / (high - low)
        }
    }
}
