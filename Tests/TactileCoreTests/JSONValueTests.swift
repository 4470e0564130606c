import Foundation
import JSONOracle
import TactileCore
import Testing

private func parse(_ text: String) throws(JSONError) -> JSONValue {
    try JSONValue.parse(Array(text.utf8))
}

/// A small random value: every kind, strings with escapes and non-ASCII, numbers of every
/// magnitude.
private func randomValue(_ random: inout SplitMix, depth: Int = 0)
    -> JSONValue
{
    let kind = depth > 3 ? random.next(upperBound: 4) : random.next(upperBound: 6)
    switch kind {
    case 0: return .null
    case 1: return .bool(random.next(upperBound: 2) == 0)
    case 2:
        let choices: [Double] = [
            0, -0.5, 1, 120, 1e-7, 3.141592653589793, -1e300, 2.5e-308, 9_007_199_254_740_992,
            Double(random.next(upperBound: 1_000_000)) / 7,
        ]
        return .number(choices[random.next(upperBound: choices.count)])
    case 3:
        let pieces = ["a", "é", "汉字", "\"", "\\", "/", "\n", "\t", "\u{1}", "😀", " ", "\u{7F}"]
        return .string(
            (0..<random.next(upperBound: 6)).map { _ in
                pieces[random.next(upperBound: pieces.count)]
            }
            .joined())
    case 4:
        return .array(
            (0..<random.next(upperBound: 4)).map { _ in randomValue(&random, depth: depth + 1) })
    default:
        var members: [String: JSONValue] = [:]
        for index in 0..<random.next(upperBound: 4) {
            members["k\(index)\(["", "é", "\"", "😀"][random.next(upperBound: 4)])"] =
                randomValue(&random, depth: depth + 1)
        }
        return .object(members)
    }
}

/// A seeded generator (SplitMix64), so a failure can be replayed.
private struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(upperBound: Int) -> Int { Int(next() % UInt64(upperBound)) }
}

@Suite("JSON")
struct JSONValueTests {
    @Test func readsRFC8259Examples() throws {
        // RFC 8259 §13's first example, shortened.
        let image = try parse(
            """
            {"Image": {"Width": 800, "Height": 600, "Title": "View from 15th Floor",
              "Thumbnail": {"Url": "http://www.example.com/image/481989943", "Height": 125,
                            "Width": 100},
              "Animated" : false, "IDs": [116, 943, 234, 38793]}}
            """)
        #expect(image["Image"]?["Width"]?.number == 800)
        #expect(
            image["Image"]?["Thumbnail"]?["Url"]?.string == "http://www.example.com/image/481989943"
        )
        #expect(image["Image"]?["Animated"]?.bool == false)
        #expect(image["Image"]?["IDs"]?.array?.compactMap(\.number) == [116, 943, 234, 38793])
        // Scalars at the top level (RFC 8259 allows any value).
        #expect(try parse(" 42 ") == .number(42))
        #expect(try parse("\"Hello world!\"") == .string("Hello world!"))
        #expect(try parse("true") == .bool(true))
        #expect(try parse("null") == .null)
        #expect(try parse("-0.5e+2") == .number(-50))
        #expect(try parse("0.0e-999") == .number(0))  // zero however written, not an underflow
        #expect(try parse("0e3") == .number(0))  // which Foundation's reader refuses
    }

    @Test func readsEscapes() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
        #expect(try parse(#""\u00e9\u6C49""#) == .string("é汉"))
        // U+1F600 as a surrogate pair.
        #expect(try parse(#""\uD83D\uDE00""#) == .string("😀"))
        #expect(try parse("\"\u{1F600}é\"") == .string("😀é"))
    }

    @Test(
        arguments: [
            ("", "expected a value"), ("{", "expected a key"), ("[1,]", "expected a value"),
            ("[1 2]", "expected ',' or ']'"), ("{\"a\" 1}", "expected ':'"),
            ("{\"a\":1,}", "expected a key"), ("01", "unexpected text after the value"),
            ("1.", "expected a digit after '.'"), (".5", "expected a value"),
            ("1e", "expected a digit in the exponent"), ("-", "expected a digit"),
            ("+1", "expected a value"), ("0x10", "unexpected text after the value"),
            ("NaN", "expected a value"), ("Infinity", "expected a value"),
            ("1e400", "a number outside the range of a double"),
            ("2.5e-3088", "a number outside the range of a double"), ("tru", "expected true"),
            ("\"abc", "an unterminated string"), ("\"a\u{1}b\"", "a control character in a string"),
            ("\"\\x\"", "an unknown escape"), ("\"\\u12\"", "expected four hexadecimal digits"),
            ("\"\\u12G4\"", "expected a hexadecimal digit"),
            ("\"\\uD83D\"", "a lone surrogate"), ("\"\\uDE00\"", "a lone surrogate"),
            ("\"\\uD83D\\u0041\"", "a lone surrogate"), ("{\"a\":1,\"a\":2}", "duplicate key"),
            ("[] []", "unexpected text after the value"), ("'a'", "expected a value"),
        ])
    func refusesWhatIsNotJSON(text: String, reason: String) {
        #expect(throws: JSONError.self) { try parse(text) }
        do {
            _ = try parse(text)
        } catch {
            #expect(error.reason == reason, "\(text.debugDescription): \(error)")
        }
    }

    @Test func refusesInvalidUTF8() {
        let bytes: [UInt8] = [0x22, 0xC3, 0x28, 0x22]  // a broken two-byte sequence
        #expect(throws: JSONError.self) { try JSONValue.parse(bytes) }
        #expect(throws: JSONError.self) { try JSONValue.parse([0x22, 0xED, 0xA0, 0x80, 0x22]) }
    }

    @Test func boundsNesting() throws {
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(try parse(deep).array != nil)
        let deeper = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONError.self) { try parse(deeper) }
        // Far past any stack: refused at the limit, not by a crash.
        let hostile = String(repeating: "{\"a\":[", count: 100_000)
        #expect(throws: JSONError.self) { try parse(hostile) }
    }

    @Test func writesCompactSortedText() {
        let value: JSONValue = [
            "b": 1, "a": [true, nil, 0.5], "é": "x/y\"\n\u{1}", "n": JSONValue(-120.0),
            "big": JSONValue(1e300), "tiny": JSONValue(1e-7), "nan": JSONValue(Double.nan),
        ]
        let text = String(decoding: value.serialized(), as: UTF8.self)
        #expect(
            text
                == #"{"a":[true,null,0.5],"b":1,"big":1e+300,"n":-120,"nan":null,"tiny":1e-07,"é":"x/y\"\n\u0001"}"#
        )
    }

    /// Random values written by this writer read back the same here and in Foundation's
    /// reader; Foundation's own writing of them reads back the same here.
    @Test func agreesWithFoundationOnRandomValues() throws {
        var random = SplitMix(state: 7)
        for _ in 0..<2000 {
            let value = randomValue(&random)
            let text = value.serialized()
            #expect(try JSONValue.parse(text) == value)
            #expect(
                FoundationJSON.read(text) == FoundationJSON(value),
                "\(String(decoding: text, as: UTF8.self))")
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let theirs = try encoder.encode(FoundationJSON(value))
            #expect(try JSONValue.parse(Array(theirs)) == value)
        }
    }

    /// Mutated texts: whatever this reader accepts, Foundation accepts with the same value.
    @Test func readsMutatedTextsAsFoundationDoes() {
        var random = SplitMix(state: 11)
        let alphabet = Array("{}[]\",:.-+eE0123456789 \\u/tfnrl\u{0}é".utf8)
        var accepted = 0
        for _ in 0..<4000 {
            var text = randomValue(&random).serialized()
            for _ in 0..<(1 + random.next(upperBound: 3)) where !text.isEmpty {
                let at = random.next(upperBound: text.count)
                switch random.next(upperBound: 3) {
                case 0: text[at] = alphabet[random.next(upperBound: alphabet.count)]
                case 1: text.remove(at: at)
                default: text.insert(alphabet[random.next(upperBound: alphabet.count)], at: at)
                }
            }
            guard let ours = try? JSONValue.parse(text) else { continue }
            accepted += 1
            // Foundation refuses some numbers RFC 8259 allows ("0e3", "-0.0e+2"); then the
            // same value written plainly must be accepted.
            let theirs = FoundationJSON.read(text) ?? FoundationJSON.read(ours.serialized())
            #expect(theirs == FoundationJSON(ours), "\(String(decoding: text, as: UTF8.self))")
        }
        #expect(accepted > 200)  // the mutations leave plenty of valid texts to compare
    }
}

@Suite("JSON scanner")
struct JSONScannerTests {
    /// Mutated texts: the scanner accepts exactly what the tree reader accepts, with the same
    /// values, whether it follows the text or skips it whole.
    @Test func acceptsWhatTheReaderAccepts() {
        var random = SplitMix(state: 23)
        let alphabet = Array("{}[]\",:.-+eE0123456789 \\u/tfnrl\u{0}é".utf8)
        var accepted = 0
        for _ in 0..<4000 {
            var text = randomValue(&random).serialized()
            for _ in 0..<random.next(upperBound: 3) where !text.isEmpty {
                let at = random.next(upperBound: text.count)
                switch random.next(upperBound: 3) {
                case 0: text[at] = alphabet[random.next(upperBound: alphabet.count)]
                case 1: text.remove(at: at)
                default: text.insert(alphabet[random.next(upperBound: alphabet.count)], at: at)
                }
            }
            let tree = try? JSONValue.parse(text)
            let scanned = try? JSONScanner.scan(text) { scanner throws(JSONError) in
                try rebuild(&scanner)
            }
            let skipped: Void? = try? JSONScanner.scan(text) { _ throws(JSONError) in }
            let shown = String(decoding: text, as: UTF8.self)
            #expect(scanned == tree, "\(shown)")
            #expect((skipped != nil) == (tree != nil), "\(shown)")
            if tree != nil { accepted += 1 }
        }
        #expect(accepted > 1000)
    }

    @Test func refusesAnotherKindNamingWhatItExpected() {
        #expect(throws: JSONError(offset: 0, reason: "expected a number")) {
            try JSONScanner.scan(Array(#"[1]"#.utf8)) { scanner throws(JSONError) in
                try scanner.number()
            }
        }
        #expect(throws: JSONError(offset: 6, reason: "expected a string")) {
            try JSONScanner.scan(Array(#"{"a": 1}"#.utf8)) { scanner throws(JSONError) in
                try scanner.members { scanner, _ throws(JSONError) in _ = try scanner.string() }
            }
        }
    }

    /// Keys are checked in members the caller skips, and past the short list a set takes
    /// over.
    @Test func refusesDuplicateKeysEverywhere() throws {
        func members(_ text: String) throws(JSONError) -> Int {
            try JSONScanner.scan(Array(text.utf8)) { scanner throws(JSONError) in
                var count = 0
                try scanner.members { _, _ throws(JSONError) in count += 1 }
                return count
            }
        }
        #expect(throws: JSONError(offset: 7, reason: "duplicate key")) {
            try members(#"{"a":1,"a":2}"#)
        }
        #expect(throws: JSONError.self) { try members(#"{"a":{"b":1,"b":1}}"#) }
        let many = (0..<40).map { "\"k\($0)\":0" }.joined(separator: ",")
        #expect(try members("{\(many)}") == 40)
        #expect(throws: JSONError.self) { try members("{\(many),\"k3\":1}") }
        #expect(throws: JSONError.self) { try members("{\(many),\"k39\":1}") }
    }

    @Test func boundsNestingAndTrailingText() {
        let deep =
            Array(String(repeating: "[", count: 65).utf8)
            + Array(
                String(repeating: "]", count: 65).utf8)
        #expect(throws: JSONError.self) {
            try JSONScanner.scan(deep) { scanner throws(JSONError) in try rebuild(&scanner) }
        }
        #expect(throws: JSONError(offset: 4, reason: "unexpected text after the value")) {
            try JSONScanner.scan(Array("1.5 x".utf8)) { scanner throws(JSONError) in
                try scanner.number()
            }
        }
    }

    /// Decimal texts of every shape read as Swift's own correctly rounded reading of them,
    /// on the fast path (few digits, small exponents) and off it.
    @Test func readsNumbersAsSwiftDoes() throws {
        var random = SplitMix(state: 31)
        for _ in 0..<20_000 {
            var text = random.next(upperBound: 2) == 0 ? "-" : ""
            let digits = 1 + random.next(upperBound: 21)
            let integer = (0..<digits).map { _ in String(random.next(upperBound: 10)) }.joined()
            text += integer.count > 1 ? String(integer.drop { $0 == "0" }.prefix(digits)) : integer
            if text.hasSuffix("-") || text.isEmpty { text += "0" }
            if random.next(upperBound: 2) == 0 {
                text +=
                    "."
                    + (0..<(1 + random.next(upperBound: 20))).map { _ in
                        String(random.next(upperBound: 10))
                    }.joined()
            }
            if random.next(upperBound: 3) == 0 {
                text +=
                    ["e", "E", "e+", "e-"][random.next(upperBound: 4)]
                    + String(random.next(upperBound: 40))
            }
            let expected = try #require(Double(text))
            let read = try JSONValue.parse(Array(text.utf8)).number
            #expect(read?.bitPattern == expected.bitPattern, "\(text)")
        }
    }
}
