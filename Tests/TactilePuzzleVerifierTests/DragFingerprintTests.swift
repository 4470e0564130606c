import Foundation
import PuzzleTestSupport
import TactileCore
import TactilePuzzle
import TactilePuzzleVerifier
import TestSupport
import Testing

/// A replayed drag keeps its fingerprint under what replay tools do to it (scaled travel,
/// time stretched or squeezed ×0.7 to ×1.4, a pixel and a couple of milliseconds per sample, a
/// slight sideways bend); another drag does not, nor the same motion along the slider with
/// another wander across it; and a match is always found in the buckets a lookup reads.
@Suite struct DragFingerprintTests {
    /// A drag with a pause, an overshoot and a correction, and a wander across the slider, 90
    /// samples over 0.8–3 s.
    func drag(seed: UInt64) -> [PuzzleTrackPoint] {
        var random = SeededRandom(seed: seed)
        let pause = Double.random(in: 0.25...0.65, using: &random)
        let overshoot = Double.random(in: 0.02...0.15, using: &random)
        let duration = Double.random(in: 0.8...3, using: &random)
        let wander = (
            amplitude: Double.random(in: 2...8, using: &random),
            frequency: Double.random(in: 3...9, using: &random),
            phase: Double.random(in: 0...(2 * Double.pi), using: &random)
        )
        return (0..<90).map { i in
            let u = Double(i) / 89
            let reach = u < pause ? Easing.minimumJerk(u / pause) * (1 + overshoot) : 1 + overshoot
            let settle = u < pause + 0.2 ? 0 : Easing.minimumJerk(min(1, (u - pause - 0.2) / 0.2))
            return PuzzleTrackPoint(
                x: 300 * (reach - overshoot * settle),
                y: 100 + wander.amplitude * sin(wander.frequency * u + wander.phase),
                time: duration * u)
        }
    }

    func fingerprint(_ track: [PuzzleTrackPoint]) throws -> DragFingerprint {
        try #require(DragFingerprint(track, axis: .horizontal))
    }

    /// The fingerprint whose ``DragFingerprint/bytes`` are these big-endian words.
    func fingerprint(words: [Int16]) throws -> DragFingerprint {
        try #require(
            DragFingerprint(
                bytes: words.flatMap {
                    [UInt8(UInt16(bitPattern: $0) >> 8), UInt8(UInt16(bitPattern: $0) & 0xFF)]
                }))
    }

    @Test(arguments: 1...20 as ClosedRange<UInt64>)
    func replaysAsToolsAlterThemStillMatch(seed: UInt64) throws {
        let original = drag(seed: seed)
        let recorded = try fingerprint(original)
        var random = SeededRandom(seed: seed + 1000)
        let travel = Double.random(in: 0.5...1.8, using: &random)
        let pace = Double.random(in: 0.7...1.4, using: &random)
        let bend = Double.random(in: -2...2, using: &random)
        let replay = original.enumerated().map { i, p in
            let jitter = i == 0 || i == original.count - 1 ? 0.0 : 1.0
            return PuzzleTrackPoint(
                x: p.x * travel + jitter * Double.random(in: -1...1, using: &random),
                y: p.y + bend * sin(Double.pi * p.time / original[original.count - 1].time),
                time: p.time * pace + jitter * Double.random(in: -0.002...0.002, using: &random))
        }
        let replayed = try fingerprint(replay)
        #expect(replayed.matches(recorded))
        #expect(replayed.nearbyBuckets.contains(recorded.bucket))
    }

    @Test func anotherDragDoesNotMatch() throws {
        let prints = try (1...20 as ClosedRange<UInt64>).map { try fingerprint(drag(seed: $0)) }
        for (i, a) in prints.enumerated() {
            for b in prints[(i + 1)...] where a.matches(b) {
                Issue.record("two different drags match: \(a.progress) \(b.progress)")
            }
        }
        // The same path over twice the time (or half) is another drag.
        let slow = drag(seed: 1).map { PuzzleTrackPoint(x: $0.x, y: $0.y, time: $0.time * 2) }
        #expect(!(try fingerprint(slow)).matches(prints[0]))
        let quick = drag(seed: 1).map { PuzzleTrackPoint(x: $0.x, y: $0.y, time: $0.time / 2) }
        #expect(!(try fingerprint(quick)).matches(prints[0]))
        for pace in [0.7, 0.8, 1.25, 1.4] {
            let retimed = drag(seed: 1).map {
                PuzzleTrackPoint(x: $0.x, y: $0.y, time: $0.time * pace)
            }
            #expect(try fingerprint(retimed).matches(prints[0]), "re-timed ×\(pace)")
        }
    }

    @Test func bytesReadBackAndOtherLengthsDoNot() throws {
        let print = try fingerprint(drag(seed: 3))
        #expect(print.bytes.count == DragFingerprint.byteCount)
        #expect(DragFingerprint(bytes: print.bytes) == print)
        #expect(DragFingerprint(bytes: Array(print.bytes.dropLast())) == nil)
        #expect(DragFingerprint(bytes: []) == nil)
        // One kept before the samples were read: its timed part, nothing sample by sample.
        let timed = try #require(
            DragFingerprint(bytes: Array(print.bytes.prefix(DragFingerprint.timedByteCount))))
        #expect(timed.progress == print.progress && timed.sideways == print.sideways)
        #expect(timed.logDuration == print.logDuration && timed.samples == 0)
        #expect(timed.matches(print) && print.matches(timed))
    }

    /// `track` with every sample but the first moved by up to `pixels` along and across and up
    /// to `milliseconds` in time (less where samples are closer, so their order stays), and the
    /// release moved along by up to `pixels` too.
    func jittered(
        _ track: [PuzzleTrackPoint], pixels: Double, milliseconds: Double,
        random: inout SeededRandom
    ) -> [PuzzleTrackPoint] {
        let closest = zip(track, track.dropFirst()).map { $1.time - $0.time }.min() ?? 0
        let shift = min(milliseconds / 1000, 0.45 * closest)
        return track.enumerated().map { i, p in
            guard i > 0 else { return p }
            return PuzzleTrackPoint(
                x: p.x + Double.random(in: -pixels...pixels, using: &random),
                y: p.y + Double.random(in: -pixels...pixels, using: &random),
                time: p.time + Double.random(in: -shift...shift, using: &random))
        }
    }

    @Test func aCopyMovedThreePixelsAndFiveMillisecondsASampleMatchesSampleBySample() throws {
        // Read against time alone, fewer of such copies are the same drag than sample by
        // sample (where the noise is averaged over five samples at a time); every one that
        // matches is found in the buckets a lookup reads.
        var timedMatches = 0
        var matches = 0
        for seed in 1...20 as ClosedRange<UInt64> {
            var random = SeededRandom(seed: seed + 2000)
            let original = drag(seed: seed)
            let recorded = try fingerprint(original)
            let copy = try fingerprint(
                jittered(original, pixels: 3, milliseconds: 5, random: &random))
            #expect(copy.samples == recorded.samples)
            #expect(copy.matches(recorded) == recorded.matches(copy), "seed \(seed)")
            let timed = try #require(
                DragFingerprint(bytes: Array(copy.bytes.prefix(DragFingerprint.timedByteCount))))
            if timed.matches(recorded) { timedMatches += 1 }
            guard copy.matches(recorded) else { continue }
            matches += 1
            #expect(copy.nearbyBuckets.contains(recorded.bucket), "seed \(seed)")
        }
        #expect(matches >= 16, "\(matches) of 20 copies matched")
        #expect(timedMatches < matches, "the samples read one by one caught no more copies")
    }

    @Test func sampleBySampleNeedsTheSameSamplesAndEnoughOfThem() throws {
        // Two fingerprints `timedOffset` thousandths of progress apart against time at 29 of
        // the 32 readings (15: a mean difference of 0.0136, over the timed tolerance alone) and
        // `frameOffset` ten-thousandths of the travel apart sample by sample.
        let n = DragFingerprint.points
        func words(samples: Int16, travel: Int16, frameOffset: Int16, timedOffset: Int16)
            -> [Int16]
        {
            let progress = (0..<n).map { k in
                Int16(1000 * (k + 1) / (n + 1)) + ([7, 15, 23].contains(k) ? 0 : timedOffset)
            }
            let frames = (0..<n).map { k in Int16(10_000 * (k + 1) / (n + 1)) + frameOffset }
            return progress + Array(repeating: 20, count: n) + [-700, samples, travel] + frames
                + Array(repeating: 50, count: n)
        }
        let cases: [(travel: Int16, frames: Int16, timed: Int16, within: Bool)] = [
            // The same stage (300 px both): within a pixel on average (33 ten-thousandths of
            // 300 px are 0.99 px, 34 are 1.02 px), and within 0.025 against time (30: 0.027).
            (3000, 0, 15, true), (3000, 33, 18, true), (3000, 34, 15, false),
            (3000, 0, 30, false),
            // Another stage (600 px): within 0.8 px of the shorter travel (26: 0.78 px, 27:
            // 0.81 px) and within 0.015 in progress against time (18: 0.0163).
            (6000, 26, 15, true), (6000, 27, 15, false), (6000, 26, 18, false),
        ]
        for samples: Int16 in [7, 8, 40] {
            let a = try fingerprint(
                words:
                    words(samples: samples, travel: 3000, frameOffset: 0, timedOffset: 0))
            for c in cases {
                let b = try fingerprint(
                    words:
                        words(
                            samples: samples, travel: c.travel, frameOffset: c.frames,
                            timedOffset: c.timed))
                #expect(a.matches(b) == (c.within && samples >= 8), "\(samples) samples, \(c)")
                #expect(a.matches(b) == b.matches(a), "\(samples) samples, \(c)")
            }
        }
        // The same, one sample more: another drag.
        let a = try fingerprint(
            words: words(samples: 40, travel: 3000, frameOffset: 0, timedOffset: 0))
        let longer = try fingerprint(
            words: words(samples: 41, travel: 3000, frameOffset: 0, timedOffset: 15))
        #expect(!a.matches(longer))
        // A damaged store's fingerprint with no travel matches nothing sample by sample.
        for travel: Int16 in [0, -3000] {
            let damaged = try fingerprint(
                words:
                    words(samples: 40, travel: travel, frameOffset: 0, timedOffset: 15))
            #expect(!a.matches(damaged) && !damaged.matches(a), "travel \(travel)")
        }
    }

    @Test func everyFlippedBitOfAStoredFingerprintReadsBackAsStoredAndMatchesAlike() throws {
        // A store's damaged fingerprint is read as it is (nothing lost, nothing trapped), and
        // compared the same way whichever side it is on.
        let stored = try fingerprint(drag(seed: 6)).bytes
        let other = try fingerprint(drag(seed: 6))
        for bit in 0..<(8 * stored.count) {
            var flipped = stored
            flipped[bit / 8] ^= UInt8(1 << (bit % 8))
            let damaged = try #require(DragFingerprint(bytes: flipped), "bit \(bit)")
            #expect(damaged.bytes == flipped, "bit \(bit)")
            #expect(damaged.matches(other) == other.matches(damaged), "bit \(bit)")
        }
    }

    @Test func tracksWithoutTravelOrTimeOrFiniteValuesHaveNone() {
        let still = (0..<10).map { PuzzleTrackPoint(x: 5, y: 5, time: Double($0) / 60) }
        #expect(DragFingerprint(still, axis: .horizontal) == nil)
        var bad = drag(seed: 1)
        bad[4].x = .infinity
        #expect(DragFingerprint(bad, axis: .horizontal) == nil)
        bad = drag(seed: 1)
        bad[4].time = bad[3].time
        #expect(DragFingerprint(bad, axis: .horizontal) == nil)
        #expect(DragFingerprint(Array(drag(seed: 1).prefix(2)), axis: .horizontal) == nil)
    }

    @Test func aSlightlyOtherMotionWithAnotherWanderAcrossIsAnotherDrag() throws {
        let base = drag(seed: 2)
        let recorded = try fingerprint(base)
        let end = base[base.count - 1].time
        // Progress off by about 0.4 % of the travel on average: the same drag if it wanders
        // alike, another if it wanders 8 px the other way.
        for (wander, matches) in [(0.0, true), (8.0, false), (-8.0, false)] {
            let other = base.map {
                let bow = sin(Double.pi * $0.time / end)
                return PuzzleTrackPoint(
                    x: $0.x + 300 * 0.006 * bow, y: $0.y + wander * bow, time: $0.time)
            }
            #expect(try fingerprint(other).matches(recorded) == matches, "\(wander) px")
        }
    }

    @Test func aCopyLaidFlatAcrossTheSliderStillMatches() throws {
        let original = drag(seed: 4)
        let flat = original.map { PuzzleTrackPoint(x: $0.x * 1.3, y: 100, time: $0.time * 1.2) }
        #expect(try fingerprint(flat).matches(try fingerprint(original)))
    }

    @Test func aMatchNearABucketEdgeIsInTheBucketsALookupReads() throws {
        // A fingerprint whose progress at a bucketing time (the 8th reading) sits on a bucket
        // edge, and copies of it moved by up to 0.06 there in steps of a thousandth: every one
        // that matches is found by the lookup of either, on both sides of the edge.
        var words = [Int16](repeating: 0, count: 2 * DragFingerprint.points + 1)
        for k in 0..<DragFingerprint.points {
            words[k] = Int16(1000 * (k + 1) / (DragFingerprint.points + 1))
        }
        words[7] = 300
        let a = try fingerprint(words: words)
        var buckets: Set<String> = []
        for delta in -60...60 {
            var moved = words
            moved[7] += Int16(delta)
            let b = try fingerprint(words: moved)
            #expect(a.matches(b) == (abs(delta) <= 40), "moved by \(delta)")
            guard a.matches(b) else { continue }
            #expect(a.nearbyBuckets.contains(b.bucket), "moved by \(delta)")
            #expect(b.nearbyBuckets.contains(a.bucket), "moved by \(delta)")
            buckets.insert(b.bucket)
        }
        #expect(buckets.count == 2)
    }
}
