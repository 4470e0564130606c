// A pattern store file's bytes: decoding either fails closed with an error or gives a record
// that encodes back to exactly the same bytes (anything else means a field is read one way and
// written another). A trap or a mismatch is a finding.

import FuzzDriver
import TactileCrypto

@testable import TactilePatternVault

@_cdecl("FuzzPatternStore_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    tactile_fuzz_main(argc, argv)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    checkRoundTrip(bytes)
    // A mutation almost never keeps the SHA-256 right; resealed, it reaches the fields.
    if bytes.count == PatternStoreRecord.encodedLength {
        let body = Array(bytes[..<PatternStoreRecord.checksumOffset])
        checkRoundTrip(body + Sodium.sha256(body))
    }
    return 0
}

private func checkRoundTrip(_ bytes: [UInt8]) {
    guard let record = try? PatternStoreRecord(decoding: bytes, path: "fuzz.store") else {
        return
    }
    let encoded = record.encoded()
    guard encoded == bytes else {
        fatalError("the store re-encodes differently:\n\(hex(bytes))\nbecame\n\(hex(encoded))")
    }
}

private func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
}
