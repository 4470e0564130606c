import TactileCore

/// Input the Hanoi model cannot accept, with a message naming the value and what is accepted.
public struct HanoiError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A sentence for the user.
    public let message: String

    /// Creates an error with a message.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// The limits every Hanoi entry point checks.
public enum HanoiLimits {
    /// Disk counts accepted: 1…64 (2⁶⁴ − 1 moves still fit in a `UInt64`).
    public static let disks = 1...64
    /// Peg counts accepted: 3…26 (A…Z).
    public static let pegs = 3...HanoiPeg.maximumCount

    /// Checks a disk count.
    public static func check(disks: Int) throws(HanoiError) {
        guard Self.disks.contains(disks) else {
            throw HanoiError(Localization.text("number of disks must be 1…64, got {1}", disks))
        }
    }

    /// Checks a peg count.
    public static func check(pegs: Int) throws(HanoiError) {
        guard Self.pegs.contains(pegs) else {
            throw HanoiError(Localization.text("number of pegs must be 3…26, got {1}", pegs))
        }
    }
}
