/// Text from outside made safe to show in a terminal message.
///
/// A value a person typed, or a file name, may hold control characters: an ANSI escape can
/// rewrite the terminal, a carriage return can hide the rest of a line, and bidirectional
/// overrides can reorder what is read. Messages show such characters escaped (`\u{1B}`),
/// and long values shortened.
enum TerminalText {
    /// The most characters of one value shown in a message.
    static let valueLimit = 80

    /// `text` with every control, format-override and non-printing character escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A value for a message: escaped, and shortened past ``valueLimit`` characters.
    static func shown(_ value: String) -> String {
        escaped(value.count > valueLimit ? String(value.prefix(valueLimit)) + "…" : value)
    }

    /// A value for a message, as ``shown(_:)`` and in quotes.
    static func quoted(_ value: String) -> String { "\"" + shown(value) + "\"" }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true  // C0, DEL, C1 controls
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true  // bidi controls
        case 0x2028, 0x2029, 0xFEFF: return true  // line/paragraph separators, BOM
        default:
            return scalar.properties.generalCategory == .unassigned
                || scalar.properties.generalCategory == .surrogate
        }
    }
}
