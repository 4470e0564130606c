import Foundation

/// Reading the numbers a person types into the disks and pegs fields.
public enum HanoiInput {
    /// Reads a number of disks, 1…64.
    ///
    /// - Throws: ``HanoiError`` with a sentence for an empty field, text that is not a whole
    ///   number, zero, a negative number, or more than 64.
    public static func disks(from text: String) throws(HanoiError) -> Int {
        try number(from: text, what: "disks", range: HanoiLimits.disks)
    }

    /// Reads a number of pegs, 3…26.
    public static func pegs(from text: String) throws(HanoiError) -> Int {
        try number(from: text, what: "pegs", range: HanoiLimits.pegs)
    }

    private static func number(from text: String, what: String, range: ClosedRange<Int>)
        throws(HanoiError)
        -> Int
    {
        let accepted = "\(range.lowerBound)…\(range.upperBound)"
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw HanoiError("Enter the number of \(what) (\(accepted)).")
        }
        let digits =
            trimmed.hasPrefix("-") || trimmed.hasPrefix("+")
            ? trimmed.dropFirst() : Substring(trimmed)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw HanoiError("“\(trimmed)” is not a whole number; enter \(accepted) \(what).")
        }
        guard let value = Int(trimmed) else {
            // All digits but too long for Int: far too large, or far too small.
            throw HanoiError(
                trimmed.hasPrefix("-")
                    ? "The number of \(what) must be at least \(range.lowerBound); got \(trimmed)."
                    : "At most \(range.upperBound) \(what); got \(trimmed).")
        }
        guard value >= range.lowerBound else {
            throw HanoiError(
                "The number of \(what) must be at least \(range.lowerBound); got \(value).")
        }
        guard value <= range.upperBound else {
            throw HanoiError("At most \(range.upperBound) \(what); got \(value).")
        }
        return value
    }
}
