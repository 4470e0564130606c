import Foundation
import TactileCore

/// The outcome animations, as functions of time: a snap into the hole followed by a fade of
/// the piece's shadow and outline, or a shake followed (optionally) by a glide back to the
/// start.
public struct PuzzleAnimation: Hashable, Sendable {
    /// Which animation.
    public enum Kind: Hashable, Sendable {
        /// From the release position into the hole, then the fade.
        case success
        /// A decaying side-to-side shake, then a glide back to the start if `returns`.
        case failure(returns: Bool)
    }

    /// Seconds the snap takes.
    public static let snapDuration = 0.18
    /// Seconds the fade takes after the snap.
    public static let fadeDuration = 0.35
    /// Seconds the shake takes.
    public static let shakeDuration = 0.5
    /// Seconds the glide back to the start takes.
    public static let returnDuration = 0.25
    /// The shake's largest swing, in points.
    public static let shakeAmplitude = 10.0
    /// Swings per second.
    public static let shakeFrequency = 7.0

    /// Which animation.
    public let kind: Kind
    /// When it began, on the component's clock.
    public let startTime: Double
    /// The piece's position (area units) when it began.
    public let from: Point
    /// Where the piece ends (the hole on success, the start on a returning failure).
    public let to: Point

    /// Creates an animation.
    public init(kind: Kind, startTime: Double, from: Point, to: Point) {
        self.kind = kind
        self.startTime = startTime
        self.from = from
        self.to = to
    }

    /// The total length in seconds.
    public var duration: Double {
        switch kind {
        case .success: Self.snapDuration + Self.fadeDuration
        case .failure(let returns): Self.shakeDuration + (returns ? Self.returnDuration : 0)
        }
    }

    /// Whether the animation is over at `time`.
    public func isFinished(at time: Double) -> Bool { time - startTime >= duration }

    /// The piece's position (area units) at `time`, before any shake offset.
    public func position(at time: Double) -> Point {
        let t = max(0, time - startTime)
        switch kind {
        case .success:
            return from.interpolated(to: to, fraction: Easing.easeOut(t / Self.snapDuration))
        case .failure(let returns):
            guard returns, t > Self.shakeDuration else { return from }
            let u = (t - Self.shakeDuration) / Self.returnDuration
            return from.interpolated(to: to, fraction: Easing.easeInOut(u))
        }
    }

    /// The horizontal shake offset in view points at `time` (zero outside the shake).
    public func shakeOffset(at time: Double) -> Double {
        guard case .failure = kind else { return 0 }
        let t = time - startTime
        guard t > 0, t < Self.shakeDuration else { return 0 }
        let decay = 1 - t / Self.shakeDuration
        return Self.shakeAmplitude * decay * sin(2 * .pi * Self.shakeFrequency * t)
    }

    /// How far the success fade has gone, 0…1 (0 during the snap).
    public func fadeProgress(at time: Double) -> Double {
        guard case .success = kind else { return 0 }
        let t = time - startTime - Self.snapDuration
        return (t / Self.fadeDuration).clamped(to: 0...1)
    }
}
