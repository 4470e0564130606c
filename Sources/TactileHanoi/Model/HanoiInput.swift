import Foundation
import TactileCore

/// Reading the numbers a person types into the disks and pegs fields.
public enum HanoiInput {
    /// Reads a number of disks, 1…64.
    ///
    /// - Throws: ``HanoiError`` with a sentence for an empty field, text that is not a whole
    ///   number, zero, a negative number, or more than 64.
    public static func disks(from text: String) throws(HanoiError) -> Int {
        try number(from: text, field: .disks, range: HanoiLimits.disks)
    }

    /// Reads a number of pegs, 3…26.
    public static func pegs(from text: String) throws(HanoiError) -> Int {
        try number(from: text, field: .pegs, range: HanoiLimits.pegs)
    }

    /// The field read; each has its own sentences, so that a translation can word them.
    private enum Field {
        case disks, pegs

        func empty(_ accepted: String) -> String {
            switch self {
            case .disks: Localization.text("Enter the number of disks ({1}).", accepted)
            case .pegs: Localization.text("Enter the number of pegs ({1}).", accepted)
            }
        }

        func notWhole(_ text: String, _ accepted: String) -> String {
            switch self {
            case .disks:
                Localization.text("“{1}” is not a whole number; enter {2} disks.", text, accepted)
            case .pegs:
                Localization.text("“{1}” is not a whole number; enter {2} pegs.", text, accepted)
            }
        }

        func tooFew(_ lowest: Int, _ got: String) -> String {
            switch self {
            case .disks:
                Localization.text("The number of disks must be at least {1}; got {2}.", lowest, got)
            case .pegs:
                Localization.text("The number of pegs must be at least {1}; got {2}.", lowest, got)
            }
        }

        func tooMany(_ highest: Int, _ got: String) -> String {
            switch self {
            case .disks: Localization.text("At most {1} disks; got {2}.", highest, got)
            case .pegs: Localization.text("At most {1} pegs; got {2}.", highest, got)
            }
        }
    }

    private static func number(from text: String, field: Field, range: ClosedRange<Int>)
        throws(HanoiError)
        -> Int
    {
        let accepted = "\(range.lowerBound)…\(range.upperBound)"
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw HanoiError(field.empty(accepted))
        }
        let digits =
            trimmed.hasPrefix("-") || trimmed.hasPrefix("+")
            ? trimmed.dropFirst() : Substring(trimmed)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw HanoiError(field.notWhole(trimmed, accepted))
        }
        guard let value = Int(trimmed) else {
            // All digits but too long for Int: far too large, or far too small.
            throw HanoiError(
                trimmed.hasPrefix("-")
                    ? field.tooFew(range.lowerBound, trimmed)
                    : field.tooMany(range.upperBound, trimmed))
        }
        guard value >= range.lowerBound else {
            throw HanoiError(field.tooFew(range.lowerBound, String(value)))
        }
        guard value <= range.upperBound else {
            throw HanoiError(field.tooMany(range.upperBound, String(value)))
        }
        return value
    }
}
