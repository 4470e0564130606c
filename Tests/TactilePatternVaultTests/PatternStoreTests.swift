import Foundation
@_spi(Testing) import TactileCrypto
import TactilePatternLock
import TestSupport
import Testing

@testable import TactilePatternVault

/// The store file: format round trip, atomic replacement with mode 0600, failing closed on
/// any damage, and no trace of the pattern.
@Suite struct PatternStoreTests {
    let scratch = ScratchDirectory()

    func vault(_ name: String = "pattern.store", clock: ManualClock = ManualClock())
        -> PatternVault
    {
        PatternVault(path: scratch.file(name), cost: .minimum, clock: { clock.now })
    }

    func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Writes damaged contents as the vault would write a store (mode 0600), so that only
    /// the contents are wrong.
    func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
    }

    @Test func recordRoundTrips() throws {
        let record = PatternStoreRecord(
            grid: try PatternGrid(size: 5), minimumLength: 6,
            cost: Argon2idCost(passes: 3, memoryBytes: 1 << 20),
            salt: Array(0..<16), hash: Array(100..<132), failures: 12, waitEnd: 1234.5)
        let encoded = record.encoded()
        #expect(encoded.count == PatternStoreRecord.encodedLength)
        #expect(try PatternStoreRecord(decoding: encoded, path: "s") == record)
        #expect(Array(encoded[0..<8]) == Array("TPATLOCK".utf8))
        #expect(Array(encoded[88...]) == Sodium.sha256(Array(encoded[..<88])))
    }

    @Test func enrolWritesAFileOnlyItsOwnerCanReadAndLeavesNoTemporaryFile() throws {
        let vault = vault()
        try vault.enroll(try Pattern(canonical: "1-2-3-6"))
        let attributes = try FileManager.default.attributesOfItem(atPath: vault.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(Set(scratch.contents) == ["pattern.store", "pattern.store.lock"])
        let status = try #require(try vault.status())
        #expect(status.grid == .standard && status.minimumLength == 4)
        #expect(status.cost == .minimum && status.failures == 0 && status.lockoutRemaining == nil)
    }

    @Test func modeIsExactEvenWithAPermissiveUmask() throws {
        let old = umask(0)
        defer { umask(old) }
        let vault = vault()
        try vault.enroll(try Pattern(canonical: "1-2-3-6"))
        let attributes = try FileManager.default.attributesOfItem(atPath: vault.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func theStoreHoldsNoFormOfThePattern() throws {
        let pattern = try Pattern(canonical: "1-2-3-6-9-8-7-4-5")
        let vault = vault()
        try vault.enroll(pattern)
        let stored = try bytes(vault.path)
        let forms: [[UInt8]] = [
            Array(pattern.canonical.utf8),  // 1-2-3-6-9-8-7-4-5
            Array("123698745".utf8),  // digits
            pattern.dots.map { UInt8($0) },  // 0-based indices
            pattern.dots.map { UInt8($0 + 1) },  // 1-based numbers
            Sodium.sha256(Array(pattern.canonical.utf8)),  // a fast hash
            Sodium.sha256(Array("123698745".utf8)),
        ]
        for form in forms {
            #expect(!stored.contains(subsequence: form), "found \(form.count) bytes of a form")
        }
        for window in 4...9 {
            let digits = Array(pattern.canonical.utf8.filter { $0 != 45 }.prefix(window))
            #expect(!stored.contains(subsequence: digits))
        }
    }

    @Test func everyTruncationFailsClosed() throws {
        let vault = vault()
        try vault.enroll(try Pattern(canonical: "1-2-3-6"))
        let good = try bytes(vault.path)
        for length in 0..<good.count {
            try write(Array(good[..<length]), to: vault.path)
            #expect(throws: PatternVaultError.self) { try vault.status() }
            let error = try? #require(throws: PatternVaultError.self) {
                try vault.verify(try Pattern(canonical: "1-2-3-6"))
            }
            #expect(error?.isStoreFailure == true, "length \(length): \(String(describing: error))")
        }
        try write(good + [0], to: vault.path)
        #expect(
            throws: PatternVaultError.damaged(
                path: vault.path, reason: "121 bytes, a store has 120")
        ) {
            try vault.status()
        }
    }

    @Test func everyFlippedBitFailsClosed() throws {
        let vault = vault()
        try vault.enroll(try Pattern(canonical: "1-2-3-6"))
        let good = try bytes(vault.path)
        for bit in 0..<(good.count * 8) {
            var bad = good
            bad[bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(throws: PatternVaultError.self, "bit \(bit)") {
                try PatternStoreRecord(decoding: bad, path: vault.path)
            }
        }
        var bad = good
        bad[50] ^= 0x10
        try write(bad, to: vault.path)
        #expect(
            throws: PatternVaultError.damaged(
                path: vault.path, reason: "the integrity check failed")
        ) { try vault.verify(try Pattern(canonical: "1-2-3-6")) }
        #expect(try bytes(vault.path) == bad, "a damaged store is left as it is")
    }

    @Test func anUnknownVersionIsRefused() throws {
        let vault = vault()
        try vault.enroll(try Pattern(canonical: "1-2-3-6"))
        var newer = try bytes(vault.path)
        newer[9] = 2
        try write(newer, to: vault.path)
        let error = try #require(throws: PatternVaultError.self) { try vault.status() }
        #expect(error == .unsupportedVersion(path: vault.path, version: 2))
        #expect(error.message.contains("format version 2"))
        #expect(error.message.contains("reads only version 1"))
    }

    @Test func somethingElseIsNotAStore() throws {
        let vault = vault()
        try write(Array("hello, this is a text file with more than ten bytes".utf8), to: vault.path)
        let error = try #require(throws: PatternVaultError.self) { try vault.status() }
        #expect(error.message.contains("not a pattern store"))
    }

    @Test func aMissingStoreMeansNothingIsEnrolled() throws {
        let vault = vault()
        #expect(try vault.status() == nil)
        #expect(throws: PatternVaultError.notEnrolled(path: vault.path)) {
            try vault.verify(try Pattern(canonical: "1-2-3-6"))
        }
    }
}

extension [UInt8] {
    func contains(subsequence needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        return (0...(count - needle.count)).contains {
            Array(self[$0..<$0 + needle.count]) == needle
        }
    }
}

/// The app's store sits in the XDG state directory.
@Suite struct PatternStoreLocationTests {
    @Test func followsXDGStateHome() {
        #expect(
            PatternStoreLocation.defaultPath(environment: [
                "XDG_STATE_HOME": "/var/state", "HOME": "/home/ada",
            ]) == "/var/state/tactile/pattern.store")
    }

    @Test(arguments: [nil, "", "relative/state"])
    func fallsBackToLocalStateUnderHome(state: String?) {
        var environment = ["HOME": "/home/ada"]
        environment["XDG_STATE_HOME"] = state
        #expect(
            PatternStoreLocation.defaultPath(environment: environment)
                == "/home/ada/.local/state/tactile/pattern.store")
    }

    @Test func makesTheDirectoryPrivate() throws {
        let scratch = ScratchDirectory()
        let path = scratch.file("state/tactile/pattern.store")
        try PatternStoreLocation.makeDirectory(for: path)
        let attributes = try FileManager.default.attributesOfItem(
            atPath: scratch.file("state/tactile"))
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        let above = try FileManager.default.attributesOfItem(atPath: scratch.file("state"))
        #expect((above[.posixPermissions] as? Int) == 0o700, "every folder made is private")
    }

    @Test func aFolderThatCannotBeMadeIsNamedWithTheReason() throws {
        let scratch = ScratchDirectory()
        try scratch.write("a file, not a folder", to: "state")
        let path = scratch.file("state/tactile/pattern.store")
        do throws(PatternVaultError) {
            try PatternStoreLocation.makeDirectory(for: path)
            Issue.record("a folder was made under a file")
        } catch {
            #expect(
                error.message.contains(
                    "cannot create \(scratch.file("state/tactile")): Not a directory")
                    || error.message.contains(
                        "cannot create \(scratch.file("state")): File exists"),
                "\(error.message)")
            #expect(!error.message.contains("could not be completed"), "\(error.message)")
        }
    }
}
