/// Reads a JSON text in the order it is written, for a caller that knows the shape it
/// expects: members and elements are handed over one by one and no tree is built.
///
/// The rules are ``JSONValue/parse(_:maximumDepth:)``'s, by the same reader: a text the
/// scanner accepts, `parse` accepts too, with the same values. Duplicate keys are refused in
/// every object, skipped values included, and so is anything after the value.
///
/// ```swift
/// let point = try JSONScanner.scan(bytes) { scanner throws(JSONError) in
///     var x = 0.0
///     try scanner.members { scanner, key throws(JSONError) in
///         if key == "x" { x = try scanner.number() }  // other members are skipped
///     }
///     return x
/// }
/// ```
///
/// Each reading call takes one whole value. A member or element its closure leaves unread
/// is read and skipped; so is the whole text when `body` reads nothing. A scanner lives only
/// inside ``scan(_:maximumDepth:_:)``.
public struct JSONScanner: ~Copyable {
    private var reader: JSONReader
    private var depth = 0

    private init(reader: JSONReader) { self.reader = reader }

    /// Reads `bytes` (surrounding white space allowed) with `body`.
    ///
    /// - Throws: ``JSONError`` for a text that is not JSON, or a value of another kind than
    ///   the one `body` asked for; and whatever `body` throws.
    public static func scan<Result>(
        _ bytes: [UInt8], maximumDepth: Int = JSONValue.defaultMaximumDepth,
        _ body: (inout JSONScanner) throws(JSONError) -> Result
    ) throws(JSONError) -> Result {
        let outcome: Swift.Result<Result, JSONError> = bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(
                reader: JSONReader(bytes: buffer, maximumDepth: maximumDepth))
            do throws(JSONError) {
                scanner.reader.skipWhiteSpace()
                let start = scanner.reader.offset
                let result = try body(&scanner)
                if scanner.reader.offset == start { try scanner.skip() }
                scanner.reader.skipWhiteSpace()
                guard scanner.reader.offset == buffer.count else {
                    throw JSONError(
                        offset: scanner.reader.offset, reason: "unexpected text after the value")
                }
                return .success(result)
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// The kinds of value.
    public enum Kind: Sendable {
        case null, bool, number, string, array, object
    }

    /// The kind of the value that comes next, by its first byte; `nil` when none can start
    /// there. Reads nothing.
    public var next: Kind? {
        guard let byte = reader.current else { return nil }
        return switch byte {
        case UInt8(ascii: "n"): .null
        case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): .number
        case UInt8(ascii: "\""): .string
        case UInt8(ascii: "["): .array
        case UInt8(ascii: "{"): .object
        default: nil
        }
    }

    // MARK: - Single values

    /// Reads a number.
    public mutating func number() throws(JSONError) -> Double {
        guard next == .number else { throw reader.fail("expected a number") }
        return try reader.number()
    }

    /// Reads a string.
    public mutating func string() throws(JSONError) -> String {
        guard reader.current == UInt8(ascii: "\"") else { throw reader.fail("expected a string") }
        return try reader.string()
    }

    /// Reads `true` or `false`.
    public mutating func bool() throws(JSONError) -> Bool {
        switch reader.current {
        case UInt8(ascii: "t"):
            try reader.literal("true")
            return true
        case UInt8(ascii: "f"):
            try reader.literal("false")
            return false
        default: throw reader.fail("expected true or false")
        }
    }

    /// Reads `null` if it comes next, and says whether it did; otherwise reads nothing.
    public mutating func null() throws(JSONError) -> Bool {
        guard reader.current == UInt8(ascii: "n") else { return false }
        try reader.literal("null")
        return true
    }

    /// Reads the next value whole, as a tree.
    public mutating func value() throws(JSONError) -> JSONValue {
        try reader.value(depth: depth)
    }

    /// Reads the next value and drops it (it must still be valid JSON).
    public mutating func skip() throws(JSONError) {
        _ = try reader.value(depth: depth)
    }

    // MARK: - Objects and arrays

    /// Reads an object, calling `member` with each key in turn to read its value.
    ///
    /// - Throws: ``JSONError`` for another kind of value, a duplicate key, or whatever
    ///   `member` throws.
    public mutating func members(
        _ member: (inout JSONScanner, String) throws(JSONError) -> Void
    ) throws(JSONError) {
        guard reader.current == UInt8(ascii: "{") else { throw reader.fail("expected an object") }
        var keys = Keys()
        try nested(closing: UInt8(ascii: "}")) { scanner throws(JSONError) in
            let (key, keyOffset) = try scanner.reader.key()
            guard keys.insert(key) else {
                throw JSONError(offset: keyOffset, reason: "duplicate key")
            }
            let start = scanner.reader.offset
            try member(&scanner, key)
            if scanner.reader.offset == start { try scanner.skip() }
        }
    }

    /// Reads an array, calling `element` for each element in turn to read it.
    ///
    /// - Throws: ``JSONError`` for another kind of value, or whatever `element` throws.
    public mutating func elements(
        _ element: (inout JSONScanner) throws(JSONError) -> Void
    ) throws(JSONError) {
        guard reader.current == UInt8(ascii: "[") else { throw reader.fail("expected an array") }
        try nested(closing: UInt8(ascii: "]")) { scanner throws(JSONError) in
            let start = scanner.reader.offset
            try element(&scanner)
            if scanner.reader.offset == start { try scanner.skip() }
        }
    }

    /// Reads the members or elements of the object or array that opens here, one `item` each,
    /// separated by commas, up to `closing`.
    private mutating func nested(
        closing: UInt8, _ item: (inout JSONScanner) throws(JSONError) -> Void
    ) throws(JSONError) {
        guard depth < reader.maximumDepth else {
            throw reader.fail("nested deeper than \(reader.maximumDepth)")
        }
        depth += 1
        defer { depth -= 1 }
        if reader.open(closing: closing) { return }
        repeat {
            try item(&self)
        } while try !reader.close(closing)
    }
}

/// The keys of one object so far: the first few held inline (most objects have a few
/// members, and short keys are stored in the strings themselves, so these allocate
/// nothing), the rest in a set (so no object makes the check quadratic).
private struct Keys {
    private var first = InlineArray<4, String?>(repeating: nil)
    private var count = 0
    private var rest: Set<String> = []

    /// Adds `key`; `false` when it was there already.
    mutating func insert(_ key: String) -> Bool {
        for index in 0..<min(count, 4) where first[index] == key { return false }
        guard count >= 4 else {
            first[count] = key
            count += 1
            return true
        }
        return rest.insert(key).inserted
    }
}
