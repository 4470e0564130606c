/// How long to wait after consecutive failed attempts: Android Gatekeeper's schedule.
///
/// With `x` consecutive failures: no wait for 1–4; 30 s at 5; none for 6–9; 30 s at 10 and
/// at each of 11–29; 30 s × 2^⌊(x − 30) / 10⌋ from 30 (doubling every ten failures); one day
/// from 140 on. A success resets the count.
public enum PatternThrottle {
    /// The longest wait: one day, in seconds.
    public static let longestWait = 86_400.0

    /// Seconds to wait after the `failures`-th consecutive failure before the next attempt.
    public static func wait(afterFailures failures: Int) -> Double {
        switch failures {
        case ..<1: 0
        case 1...4, 6...9: 0
        case 5, 10...29: 30
        case 30..<140: 30 * Double(1 << ((failures - 30) / 10))
        default: longestWait
        }
    }

    /// How many more wrong attempts can be made, after `failures` consecutive failures,
    /// before one brings a wait; 1 means the next wrong attempt does.
    public static func attemptsBeforeWait(afterFailures failures: Int) -> Int {
        var next = max(failures, 0) + 1
        while wait(afterFailures: next) == 0 { next += 1 }
        return next - max(failures, 0)
    }
}
