/// Timing curves: progress 0…1 in, eased progress 0…1 out (clamped), 0 at 0 and 1 at 1.
///
/// One definition each, shared by every animation, every generated drag and the drag rules
/// that recognise generated drags.
public enum Easing {
    /// Slow start and stop, zero slope at both ends: 3u² − 2u³ (smoothstep).
    public static func easeInOut(_ u: Double) -> Double {
        let u = u.clamped(to: 0...1)
        return u * u * (3 - 2 * u)
    }

    /// Fast start, slow stop: 1 − (1 − u)³.
    public static func easeOut(_ u: Double) -> Double {
        let u = u.clamped(to: 0...1)
        return 1 - (1 - u) * (1 - u) * (1 - u)
    }

    /// The minimum-jerk reach of a hand moving between two points (Flash and Hogan's
    /// textbook curve): 10u³ − 15u⁴ + 6u⁵, with zero velocity and acceleration at both ends.
    public static func minimumJerk(_ u: Double) -> Double {
        let u = u.clamped(to: 0...1)
        return u * u * u * (10 - 15 * u + 6 * u * u)
    }
}
