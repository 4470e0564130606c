/// A JSON value (RFC 8259), read strictly and written compactly.
///
/// What the services and stores exchange with clients: request bodies, responses, token
/// claims. Reading is strict where a lenient reader would let two readers disagree about
/// one text: a duplicate key, a lone surrogate, invalid UTF-8, a number outside `Double`'s
/// range, or anything after the value is an error. Nesting is bounded, so no input can
/// exhaust the stack. Writing sorts object keys and leaves `/` unescaped, so the same value
/// always gives the same bytes.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The deepest nesting of arrays and objects ``parse(_:maximumDepth:)`` accepts by default.
    public static let defaultMaximumDepth = 64

    /// Reads one JSON text (surrounding white space allowed).
    public static func parse(
        _ bytes: some Collection<UInt8>, maximumDepth: Int = defaultMaximumDepth
    ) throws(JSONError) -> JSONValue {
        let result: Result<JSONValue, JSONError> =
            bytes.withContiguousStorageIfAvailable {
                Self.parse(buffer: $0, maximumDepth: maximumDepth)
            }
            ?? Array(bytes).withUnsafeBufferPointer {
                Self.parse(buffer: $0, maximumDepth: maximumDepth)
            }
        return try result.get()
    }

    private static func parse(
        buffer: UnsafeBufferPointer<UInt8>, maximumDepth: Int
    ) -> Result<JSONValue, JSONError> {
        var reader = JSONReader(bytes: buffer, maximumDepth: maximumDepth)
        do throws(JSONError) {
            reader.skipWhiteSpace()
            let value = try reader.value(depth: 0)
            reader.skipWhiteSpace()
            guard reader.offset == buffer.count else {
                throw JSONError(offset: reader.offset, reason: "unexpected text after the value")
            }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    /// A number from an integer.
    public init(_ value: Int) { self = .number(Double(value)) }
    /// A number.
    public init(_ value: Double) { self = .number(value) }
    /// A string.
    public init(_ value: String) { self = .string(value) }
    /// An array of strings.
    public init(_ values: [String]) { self = .array(values.map(JSONValue.string)) }

    // MARK: - Reading values

    /// The member `key` of an object; `nil` for a missing key or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    /// The string, if this is one.
    public var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The number, if this is one.
    public var number: Double? {
        if case .number(let value) = self { value } else { nil }
    }

    /// The Boolean, if this is one.
    public var bool: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The elements, if this is an array.
    public var array: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// The members, if this is an object.
    public var object: [String: JSONValue]? {
        if case .object(let members) = self { members } else { nil }
    }

    // MARK: - Writing

    /// The value as compact JSON text in UTF-8, object keys sorted by their UTF-8 bytes.
    ///
    /// A number that is not finite (which JSON cannot say) is written as `null`.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        write(to: &out)
        return out
    }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value): Self.writeNumber(value, to: &out)
        case .string(let text): Self.writeString(text, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                members[key]!.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeNumber(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        // Whole numbers that a double holds exactly read as integers ("120", not "120.0").
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            out.append(contentsOf: String(Int64(value)).utf8)
        } else {
            // Swift's shortest round-trip form ("0.1", "1e-07", "1.5e+300") is valid JSON.
            out.append(contentsOf: value.description.utf8)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), byte])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), byte])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// Why a text is not JSON: the byte offset where reading stopped, and what was wrong there.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offset of the first byte that could not be read, from the start of the text.
    public var offset: Int
    /// What was expected or wrong there.
    public var reason: String

    /// Creates an error (a ``JSONScanner`` caller's own, for a value it cannot use).
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "\(reason) at offset \(offset)" }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements) { _, last in last })
    }
}
