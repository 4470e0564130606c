// The independent readings TactileCore's JSON is compared with, shared by its unit tests and
// its fuzz target: Foundation's reader, and a value rebuilt through the streaming scanner's
// calls alone.

import Foundation
import TactileCore

/// A JSON value as Foundation's `JSONDecoder` reads it, in the shape of `JSONValue`.
public enum FoundationJSON: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([FoundationJSON])
    case object([String: FoundationJSON])

    /// What Foundation reads from `bytes`, or `nil` where it refuses them.
    public static func read(_ bytes: [UInt8]) -> FoundationJSON? {
        try? JSONDecoder().decode(FoundationJSON.self, from: Data(bytes))
    }

    /// The same value as TactileCore's.
    public init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let a): self = .array(a.map(FoundationJSON.init))
        case .object(let o): self = .object(o.mapValues(FoundationJSON.init))
        }
    }

    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else if let value = try? single.decode([FoundationJSON].self) {
            self = .array(value)
        } else {
            self = .object(try single.decode([String: FoundationJSON].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .null: try single.encodeNil()
        case .bool(let b): try single.encode(b)
        case .number(let n): try single.encode(n)
        case .string(let s): try single.encode(s)
        case .array(let a): try single.encode(a)
        case .object(let o): try single.encode(o)
        }
    }
}

/// Reads any value through the scanner's calls alone, as a caller that follows the text
/// would; fails where the tree reader fails.
public func rebuild(_ scanner: inout JSONScanner) throws(JSONError) -> JSONValue {
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
