import Foundation
import TactileCore
import TactilePuzzle

/// A drag as a client sends it: a JSON array of `{"x": …, "y": …, "t": ms}` samples, the
/// piece's top-left corner in background pixels and the time in milliseconds.
///
/// Decoding is bounded before any JSON is parsed: at most ``maximumBytes`` bytes and, by a
/// count of objects in the raw text, at most ``maximumSamples`` samples. Every value must be
/// a finite number.
public enum DragTrack {
    /// The largest track accepted, in bytes (1 MiB).
    public static let maximumBytes = 1 << 20
    /// The most samples accepted.
    public static let maximumSamples = 10_000

    private struct Sample: Decodable {
        var x: Double
        var y: Double
        var t: Double
    }

    /// Decodes a track, with times made relative to the first sample, in seconds.
    ///
    /// - Throws: ``DragTrackError`` naming the limit or what is malformed.
    public static func decode(_ bytes: [UInt8]) throws(DragTrackError) -> [PuzzleTrackPoint] {
        guard bytes.count <= maximumBytes else {
            throw .tooLarge(
                "at most \(FileAccess.describe(bytes: maximumBytes)), got \(bytes.count) bytes")
        }
        // Each sample opens one object: count them before the decoder builds anything.
        let objects = bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "{") ? 1 : 0) }
        guard objects <= maximumSamples else {
            throw .tooLarge("at most \(maximumSamples) samples, got \(objects)")
        }
        let samples: [Sample]
        do {
            samples = try JSONDecoder().decode([Sample].self, from: Data(bytes))
        } catch {
            throw .malformed("expected a JSON array of {\"x\":…,\"y\":…,\"t\":ms} objects")
        }
        guard samples.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.t.isFinite }) else {
            throw .malformed("every x, y and t must be a finite number")
        }
        let start = samples.first?.t ?? 0
        let track = samples.map {
            PuzzleTrackPoint(x: $0.x, y: $0.y, time: ($0.t - start) / 1000)
        }
        guard track.allSatisfy({ $0.time.isFinite }) else {
            throw .malformed("the times span more than a number can hold")
        }
        return track
    }
}

/// Why a drag track was refused.
public enum DragTrackError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Over a size limit, named in the message.
    case tooLarge(String)
    /// Not a list of finite samples.
    case malformed(String)

    public var description: String {
        switch self {
        case .tooLarge(let message), .malformed(let message): message
        }
    }
}
