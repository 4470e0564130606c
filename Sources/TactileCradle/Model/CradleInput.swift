import Foundation
import TactileCore

/// Reads cradle values typed by a person, refusing what is out of range instead of clamping
/// it, with a sentence that names the value and the accepted range.
public enum CradleInput {
    /// Reads a number of balls, 2…9 (``CradleConfiguration/ballCounts``).
    ///
    /// - Throws: ``CradleError`` with a sentence for an empty field, text that is not a whole
    ///   number, or a number outside 2…9.
    public static func ballCount(from text: String) throws(CradleError) -> Int {
        let range = CradleConfiguration.ballCounts
        let accepted = "\(range.lowerBound)…\(range.upperBound)"
        let typed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !typed.isEmpty else {
            throw CradleError(Localization.text("Enter the number of balls ({1}).", accepted))
        }
        let digits = typed.first == "+" || typed.first == "-" ? typed.dropFirst() : Substring(typed)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw CradleError(
                Localization.text("“{1}” is not a whole number; enter {2} balls.", typed, accepted))
        }
        // Too many digits for an Int is out of range too.
        guard let count = Int(typed), range.contains(count) else {
            throw CradleError(
                Localization.text("The number of balls must be {1}; got {2}.", accepted, typed))
        }
        return count
    }
}
