/// The recursive-descent reader behind ``JSONValue/parse(_:maximumDepth:)``: RFC 8259's
/// grammar over a byte buffer, one pass, no backtracking.
struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var offset = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    func fail(_ reason: String) -> JSONError {
        JSONError(offset: offset, reason: reason)
    }

    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func skipWhiteSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(JSONError) -> JSONValue {
        guard let byte = current else { throw fail("expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("expected a value")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - offset >= count,
            (0..<count).allSatisfy({ bytes[offset + $0] == word.utf8Start[$0] })
        else { throw fail("expected \(word)") }
        offset += count
    }

    private mutating func object(depth: Int) throws(JSONError) -> JSONValue {
        guard depth <= maximumDepth else { throw fail("nested deeper than \(maximumDepth)") }
        var members = [String: JSONValue](minimumCapacity: 4)  // most objects are small
        if open(closing: UInt8(ascii: "}")) { return .object(members) }
        repeat {
            let (key, keyOffset) = try key()
            let member = try value(depth: depth)
            guard members.updateValue(member, forKey: key) == nil else {
                throw JSONError(offset: keyOffset, reason: "duplicate key")
            }
        } while try !close(UInt8(ascii: "}"))
        return .object(members)
    }

    private mutating func array(depth: Int) throws(JSONError) -> JSONValue {
        guard depth <= maximumDepth else { throw fail("nested deeper than \(maximumDepth)") }
        var elements: [JSONValue] = []
        if open(closing: UInt8(ascii: "]")) { return .array(elements) }
        repeat {
            elements.append(try value(depth: depth))
        } while try !close(UInt8(ascii: "]"))
        return .array(elements)
    }

    // MARK: - Between members and elements

    /// Steps past the opening bracket and white space; `true` (and past the closing one too)
    /// when the object or array is empty.
    mutating func open(closing: UInt8) -> Bool {
        offset += 1
        skipWhiteSpace()
        guard current == closing else { return false }
        offset += 1
        return true
    }

    /// Reads a member's key and its colon, with the white space around them: the key and
    /// where it starts.
    mutating func key() throws(JSONError) -> (key: String, offset: Int) {
        guard current == UInt8(ascii: "\"") else { throw fail("expected a key") }
        let keyOffset = offset
        let key = try string()
        skipWhiteSpace()
        guard current == UInt8(ascii: ":") else { throw fail("expected ':'") }
        offset += 1
        skipWhiteSpace()
        return (key, keyOffset)
    }

    /// After a member or element: `false` past a comma and white space (another comes),
    /// `true` past `closing` (the last came).
    mutating func close(_ closing: UInt8) throws(JSONError) -> Bool {
        skipWhiteSpace()
        switch current {
        case UInt8(ascii: ","):
            offset += 1
            skipWhiteSpace()
            return false
        case closing:
            offset += 1
            return true
        default:
            throw fail(
                closing == UInt8(ascii: "}") ? "expected ',' or '}'" : "expected ',' or ']'")
        }
    }

    // MARK: - Numbers

    /// Scans a run of digits, adding them to `mantissa` while it holds at most 19
    /// significant ones (leading zeros are not); `significant` counts them all.
    private mutating func digits(into mantissa: inout UInt64, significant: inout Int) -> Int {
        let start = offset
        while offset < bytes.count {
            let digit = bytes[offset] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            if mantissa != 0 || digit != 0 {
                significant += 1
                if significant <= 19 { mantissa = mantissa &* 10 &+ UInt64(digit) }
            }
            offset += 1
        }
        return offset - start
    }

    mutating func number() throws(JSONError) -> Double {
        let start = offset
        let negative = current == UInt8(ascii: "-")
        if negative { offset += 1 }
        var mantissa: UInt64 = 0
        var significant = 0
        if current == UInt8(ascii: "0") {
            offset += 1
        } else if digits(into: &mantissa, significant: &significant) == 0 {
            throw fail("expected a digit")
        }
        var fractionDigits = 0
        if current == UInt8(ascii: ".") {
            offset += 1
            fractionDigits = digits(into: &mantissa, significant: &significant)
            guard fractionDigits > 0 else { throw fail("expected a digit after '.'") }
        }
        var exponent = 0
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            offset += 1
            let negativeExponent = current == UInt8(ascii: "-")
            if current == UInt8(ascii: "+") || negativeExponent { offset += 1 }
            let exponentStart = offset
            while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                // Saturates well past any double's range; the slow path reads it exactly.
                exponent = min(exponent * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000)
                offset += 1
            }
            guard offset > exponentStart else { throw fail("expected a digit in the exponent") }
            if negativeExponent { exponent = -exponent }
        }
        if let value = Self.exactly(
            mantissa: mantissa, significant: significant, exponent: exponent - fractionDigits)
        {
            return negative ? -value : value
        }
        let text = Substring(
            decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        // Too large is infinite; too small is zero though a digit is not (1e-400).
        guard let value = Double(text), value.isFinite, value != 0 || significant == 0 else {
            throw JSONError(offset: start, reason: "a number outside the range of a double")
        }
        return value
    }

    private static let powersOfTen: [Double] = (0...22).map { Double("1e\($0)")! }

    /// `mantissa × 10^exponent` when one correctly rounded operation gives it: the mantissa
    /// holds every digit and a double holds it exactly, as it does 10^|exponent| up to 22
    /// (Clinger's fast path); otherwise `nil`.
    private static func exactly(mantissa: UInt64, significant: Int, exponent: Int) -> Double? {
        guard significant <= 19 else { return nil }
        if mantissa == 0 { return 0 }
        if exponent == 0 { return Double(mantissa) }
        guard mantissa <= 1 << 53, (-22...22).contains(exponent) else { return nil }
        let scale = powersOfTen[abs(exponent)]
        return exponent < 0 ? Double(mantissa) / scale : Double(mantissa) * scale
    }

    // MARK: - Strings

    private mutating func hexQuad() throws(JSONError) -> UInt32 {
        guard bytes.count - offset >= 4 else { throw fail("expected four hexadecimal digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("expected a hexadecimal digit")
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    /// A string from its opening quote; `offset` ends past the closing one.
    mutating func string() throws(JSONError) -> String {
        offset += 1  // "
        let start = offset
        // The common case: no escapes, plain ASCII or valid UTF-8 taken as it is.
        var union: UInt8 = 0
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw fail("a control character in a string") }
            union |= byte
            offset += 1
        }
        guard let stop = current else { throw fail("an unterminated string") }
        let text: String?
        if stop == UInt8(ascii: "\"") {
            let run = UnsafeBufferPointer(rebasing: bytes[start..<offset])
            // ASCII is valid UTF-8 as it is, and skips the (unspecialised) validation.
            text =
                union < 0x80
                ? String(decoding: run, as: UTF8.self) : String(validating: run, as: UTF8.self)
        } else {
            var raw = Array(UnsafeBufferPointer(rebasing: bytes[start..<offset]))
            try escapedRest(into: &raw)
            text = String(validating: raw, as: UTF8.self)
        }
        offset += 1  // "
        guard let text else {
            throw JSONError(offset: start, reason: "a string that is not valid UTF-8")
        }
        return text
    }

    /// The rest of a string with escapes, up to (not past) its closing quote.
    private mutating func escapedRest(into raw: inout [UInt8]) throws(JSONError) {
        while let byte = current, byte != UInt8(ascii: "\"") {
            guard byte >= 0x20 else { throw fail("a control character in a string") }
            guard byte == UInt8(ascii: "\\") else {
                raw.append(byte)
                offset += 1
                continue
            }
            offset += 1
            guard let escaped = current else { throw fail("an unterminated string") }
            offset += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): raw.append(escaped)
            case UInt8(ascii: "b"): raw.append(0x08)
            case UInt8(ascii: "f"): raw.append(0x0C)
            case UInt8(ascii: "n"): raw.append(0x0A)
            case UInt8(ascii: "r"): raw.append(0x0D)
            case UInt8(ascii: "t"): raw.append(0x09)
            case UInt8(ascii: "u"):
                let escapeStart = offset - 2
                var scalar = try hexQuad()
                if (0xD800..<0xDC00).contains(scalar) {
                    // A high surrogate must be followed by an escaped low one.
                    guard bytes.count - offset >= 2, bytes[offset] == UInt8(ascii: "\\"),
                        bytes[offset + 1] == UInt8(ascii: "u")
                    else { throw JSONError(offset: escapeStart, reason: "a lone surrogate") }
                    offset += 2
                    let low = try hexQuad()
                    guard (0xDC00..<0xE000).contains(low) else {
                        throw JSONError(offset: escapeStart, reason: "a lone surrogate")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw JSONError(offset: escapeStart, reason: "a lone surrogate")
                }
                raw.append(contentsOf: String(Unicode.Scalar(scalar)!).utf8)
            default: throw JSONError(offset: offset - 2, reason: "an unknown escape")
            }
        }
        guard current != nil else { throw fail("an unterminated string") }
    }
}
