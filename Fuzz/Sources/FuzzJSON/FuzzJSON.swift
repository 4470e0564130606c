// JSON as the service reads it (request bodies, token claims): TactileCore's reader against
// Foundation's JSONDecoder. Whatever this reader accepts, Foundation must accept with the
// same value (this reader is stricter, never laxer), and what it writes must read back as
// the same value; the streaming scanner must accept exactly what the reader accepts, with
// the same values. Also the answer body and token claims built on it. A trap or a
// disagreement is a finding.

import Foundation
import FuzzDriver
import TactileCore

@_cdecl("FuzzJSON_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    tactile_fuzz_main(argc, argv)
}

/// Foundation's reading of a JSON text, in the same shape.
enum Reference: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([Reference])
    case object([String: Reference])

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else if let value = try? single.decode([Reference].self) {
            self = .array(value)
        } else {
            self = .object(try single.decode([String: Reference].self))
        }
    }

    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let a): self = .array(a.map(Reference.init))
        case .object(let o): self = .object(o.mapValues(Reference.init))
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parsed = try? JSONValue.parse(bytes)
    // The scanner, following the text or skipping it, accepts exactly what the reader does.
    let scanned = try? JSONScanner.scan(bytes) { scanner throws(JSONError) in
        try rebuild(&scanner)
    }
    guard scanned == parsed else { fatalError("the scanner and the reader disagree") }
    let skipped: Void? = try? JSONScanner.scan(bytes) { _ throws(JSONError) in }
    guard (skipped != nil) == (parsed != nil) else {
        fatalError("skipping the text accepts what reading it does not, or the reverse")
    }
    guard let value = parsed else { return 0 }
    let written = value.serialized()
    guard (try? JSONValue.parse(written)) == value else {
        fatalError("what the writer wrote does not read back as the same value")
    }
    guard size < 4096, depth(value) < 32 else { return 0 }  // within Foundation's reach
    if let theirs = try? JSONDecoder().decode(Reference.self, from: Data(bytes)) {
        guard theirs == Reference(value) else {
            fatalError("Foundation reads this text as another value")
        }
    } else {
        // Foundation refuses some numbers RFC 8259 allows ("0e3", "-0.0e+2"): what it must
        // accept is the same value written plainly.
        guard let theirs = try? JSONDecoder().decode(Reference.self, from: Data(written)),
            theirs == Reference(value)
        else { fatalError("accepted a text Foundation refuses, and not only for a number") }
    }
    return 0
}

/// Any value read through the scanner's calls alone.
func rebuild(_ scanner: inout JSONScanner) throws(JSONError) -> JSONValue {
    switch scanner.next {
    case .null:
        _ = try scanner.null()
        return .null
    case .bool: return .bool(try scanner.bool())
    case .number: return .number(try scanner.number())
    case .string: return .string(try scanner.string())
    case .array:
        var elements: [JSONValue] = []
        try scanner.elements { scanner throws(JSONError) in
            elements.append(try rebuild(&scanner))
        }
        return .array(elements)
    case .object:
        var members: [String: JSONValue] = [:]
        try scanner.members { scanner, key throws(JSONError) in
            members[key] = try rebuild(&scanner)
        }
        return .object(members)
    case nil: return try scanner.value()
    }
}

func depth(_ value: JSONValue) -> Int {
    switch value {
    case .array(let a): 1 + (a.map(depth).max() ?? 0)
    case .object(let o): 1 + (o.values.map(depth).max() ?? 0)
    default: 0
    }
}
