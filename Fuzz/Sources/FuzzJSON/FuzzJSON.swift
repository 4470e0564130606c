// JSON as the service reads it (request bodies, token claims): TactileCore's reader against
// Foundation's JSONDecoder. Whatever this reader accepts, Foundation must accept with the
// same value (this reader is stricter, never laxer), and what it writes must read back as
// the same value; the streaming scanner must accept exactly what the reader accepts, with
// the same values. Also the answer body and token claims built on it. A trap or a
// disagreement is a finding.

import Foundation
import FuzzDriver
import JSONOracle
import TactileCore

@_cdecl("FuzzJSON_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    tactile_fuzz_main(argc, argv)
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
    if let theirs = try? FoundationJSON.read(bytes) {
        guard theirs == FoundationJSON(value) else {
            fatalError("Foundation reads this text as another value")
        }
    } else {
        // Foundation refuses some numbers RFC 8259 allows ("0e3", "-0.0e+2"): what it must
        // accept is the same value written plainly.
        guard let theirs = FoundationJSON.read(written),
            theirs == FoundationJSON(value)
        else { fatalError("accepted a text Foundation refuses, and not only for a number") }
    }
    return 0
}

/// Any value read through the scanner's calls alone.
func depth(_ value: JSONValue) -> Int {
    switch value {
    case .array(let a): 1 + (a.map(depth).max() ?? 0)
    case .object(let o): 1 + (o.values.map(depth).max() ?? 0)
    default: 0
    }
}
