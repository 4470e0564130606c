import Foundation
@_spi(Testing) import TactileCrypto
import Testing

/// The wrappers give the published answers.
@Suite struct SodiumTests {
    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func sha256OfABCMatchesFIPS180() {
        #expect(
            hex(Sodium.sha256(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func hmacMatchesRFC4231TestCase2() {
        // RFC 4231 case 2 uses the 4-byte key "Jefe"; libsodium's HMAC takes 32-byte keys,
        // and HMAC zero-pads short keys to the block size, so "Jefe" + 28 zero bytes is the same key.
        let key = Array("Jefe".utf8) + [UInt8](repeating: 0, count: 28)
        let tag = Sodium.hmacSHA256(Array("what do ya want for nothing?".utf8), key: key)
        #expect(hex(tag) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(
            Sodium.verifyHMACSHA256(
                tag, message: Array("what do ya want for nothing?".utf8), key: key))
        var forged = tag
        forged[0] ^= 1
        #expect(
            !Sodium.verifyHMACSHA256(
                forged, message: Array("what do ya want for nothing?".utf8), key: key))
    }

    @Test func aKeyMadeReadyOnceGivesTheSameTags() {
        // RFC 4231 case 2 again, through the prepared key, twice (the key is not used up).
        let jefe = HMACKey(Array("Jefe".utf8) + [UInt8](repeating: 0, count: 28))
        let message = Array("what do ya want for nothing?".utf8)
        for _ in 0..<2 {
            #expect(
                hex(jefe.authenticate(message))
                    == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        }
        #expect(!jefe.verify(Array(repeating: 0, count: 32), message: message))
        // Messages of every length across two blocks, under random keys: as the one-shot call.
        for length in 0...140 {
            let key = Sodium.randomBytes(32)
            let message = Sodium.randomBytes(length)
            let tag = HMACKey(key).authenticate(message)
            #expect(tag == Sodium.hmacSHA256(message, key: key), "\(length) bytes")
            #expect(HMACKey(key).verify(tag, message: message))
        }
    }

    @Test func argon2idIsDeterministicPerSaltAndDiffersAcrossSalts() throws {
        let salt = [UInt8](repeating: 7, count: Sodium.argon2idSaltLength)
        let a = try #require(Sodium.argon2id(Array("1-5-9-6".utf8), salt: salt, cost: .minimum))
        let b = try #require(Sodium.argon2id(Array("1-5-9-6".utf8), salt: salt, cost: .minimum))
        let c = try #require(
            Sodium.argon2id(Array("1-5-9-6".utf8), salt: Sodium.randomBytes(16), cost: .minimum))
        #expect(a == b && a != c && a.count == 32)
        #expect(Sodium.argon2id([1], salt: [1, 2], cost: .minimum) == nil, "short salt refused")
        #expect(
            Sodium.argon2id([1], salt: salt, cost: Argon2idCost(passes: 0, memoryBytes: 1)) == nil)
    }

    @Test func randomBytesAndComparison() {
        let a = Sodium.randomBytes(32)
        #expect(a.count == 32 && a != Sodium.randomBytes(32))
        #expect(Sodium.constantTimeEquals(a, a))
        #expect(!Sodium.constantTimeEquals(a, Array(a.dropLast())))
        #expect(Sodium.constantTimeEquals([], []))
    }
}
