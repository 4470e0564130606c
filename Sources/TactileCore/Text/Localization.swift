/// Text shown to people, in their language.
///
/// Components and programs write English message ids with numbered placeholders (`{1}`,
/// `{2}`, …) and pass the values separately, so that a translation may put them in another
/// order: `Localization.text("Move {1} of {2}", done, total)`. A host installs a
/// ``Catalog`` once at start — the GTK app installs gettext's, for the `tactile` domain — and
/// until then text stays English. Message ids are found in the sources by
/// `scripts/extract-strings.py`, which looks for `Localization.text(` and
/// `Localization.plural(` with a string literal first.
public enum Localization {
    /// Where translations come from.
    public struct Catalog: Sendable {
        /// The translation of a message id, or the id itself.
        public var text: @Sendable (_ id: String) -> String
        /// The translation of a message with a singular and a plural form, for `count`.
        public var plural: @Sendable (_ singular: String, _ plural: String, _ count: Int) -> String

        /// Creates a catalogue.
        ///
        /// - Parameters:
        ///   - text: Translates a message id.
        ///   - plural: Translates a message with plural forms for a count.
        public init(
            text: @escaping @Sendable (_ id: String) -> String,
            plural:
                @escaping @Sendable (_ singular: String, _ plural: String, _ count: Int) ->
                String
        ) {
            self.text = text
            self.plural = plural
        }

        /// English: ids as they are, the singular for a count of 1.
        public static let english = Catalog(
            text: { $0 }, plural: { singular, plural, count in count == 1 ? singular : plural })
    }

    /// The catalogue in use. Set it once at start, before any component is made.
    nonisolated(unsafe) public static var catalog = Catalog.english

    /// Translates `id` and fills its placeholders with `values` (`{1}` is the first).
    ///
    /// - Parameters:
    ///   - id: The English text, with `{1}`, `{2}`, … where values go.
    ///   - values: The values, in placeholder order.
    /// - Returns: The text in the catalogue's language.
    public static func text(_ id: String, _ values: any CustomStringConvertible...) -> String {
        fill(catalog.text(id), with: values)
    }

    /// Translates the form of a message that fits `count`, and fills its placeholders.
    ///
    /// - Parameters:
    ///   - singular: The English text for one, e.g. `"{1} disk"`.
    ///   - plural: The English text for other counts, e.g. `"{1} disks"`.
    ///   - count: What decides the form (languages without plurals, such as Chinese, have one).
    ///   - values: The values, in placeholder order (usually the count first).
    /// - Returns: The text in the catalogue's language.
    public static func plural(
        _ singular: String, _ plural: String, count: Int, _ values: any CustomStringConvertible...
    ) -> String {
        fill(catalog.plural(singular, plural, count), with: values)
    }

    /// Replaces `{1}`…`{9}` by the values' descriptions; other braces stay as they are.
    static func fill(_ template: String, with values: [any CustomStringConvertible]) -> String {
        guard !values.isEmpty, template.contains("{") else { return template }
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            if afterOpen < rest.endIndex, let digit = rest[afterOpen].wholeNumberValue,
                (1...9).contains(digit), rest[afterOpen].isASCII
            {
                let close = rest.index(after: afterOpen)
                if close < rest.endIndex, rest[close] == "}", digit <= values.count {
                    result += values[digit - 1].description
                    rest = rest[rest.index(after: close)...]
                    continue
                }
            }
            result += "{"
            rest = rest[afterOpen...]
        }
        return result + rest
    }
}
