import Foundation
import PatternTestSupport
@_spi(Testing) import TactileCrypto
import TactilePatternLock
import TactilePatternVault
import TestSupport
import Testing

/// Verification and throttling with a hand-moved clock; every vault is a fresh value on the
/// same file, as after a restart.
@Suite struct PatternVaultTests {
    let disk = VaultOnDisk()
    var scratch: ScratchDirectory { disk.scratch }
    var clock: ManualClock { disk.clock }
    /// A new vault value each time: nothing survives in memory between calls.
    var vault: PatternVault { disk.vault }

    func enrolled() throws -> PatternVault {
        try vault.enroll(try pattern("1-2-3-6"))
        return vault
    }

    @Test func theRightPatternIsAcceptedAndAWrongOneRejected() throws {
        _ = try enrolled()
        #expect(try vault.verify(try pattern("1-2-3-6")) == .accepted)
        #expect(
            try vault.verify(try pattern("1-2-3-6-9"))
                == .rejected(failures: 1, wait: 0, attemptsBeforeWait: 4))
        #expect(try vault.status()?.failures == 1)
    }

    @Test func fiveFailuresLockForThirtySecondsEvenForTheRightPattern() throws {
        _ = try enrolled()
        let wrong = try pattern("7-8-9-6")
        for x in 1...4 {
            #expect(
                try vault.verify(wrong)
                    == .rejected(failures: x, wait: 0, attemptsBeforeWait: 5 - x))
        }
        #expect(try vault.verify(wrong) == .rejected(failures: 5, wait: 30, attemptsBeforeWait: 5))
        clock.now += 3
        #expect(try vault.verify(try pattern("1-2-3-6")) == .lockedOut(secondsLeft: 27))
        #expect(try vault.status()?.failures == 5, "a refused attempt is not counted")
        #expect(try vault.status()?.lockoutRemaining == 27)
        clock.now += 27
        #expect(try vault.verify(try pattern("1-2-3-6")) == .accepted)
        #expect(try vault.status()?.failures == 0)
        #expect(try vault.status()?.lockoutRemaining == nil)
    }

    @Test func theScheduleCarriesOnAcrossRestarts() throws {
        _ = try enrolled()
        let wrong = try pattern("7-8-9-6")
        var waits: [Double] = []
        for _ in 1...45 {
            // A new vault value per attempt: only the file remembers.
            guard case .rejected(_, let wait, _) = try vault.verify(wrong) else {
                Issue.record("expected a rejection")
                return
            }
            waits.append(wait)
            clock.now += wait
        }
        #expect(waits == (1...45).map { PatternThrottle.wait(afterFailures: $0) })
        #expect(waits[4] == 30 && waits[9] == 30 && waits[39] == 60)
    }

    @Test func tooShortAndOtherGridsAreRefusedWithoutCounting() throws {
        _ = try enrolled()
        #expect(throws: PatternVaultError.invalidPattern(.tooShort(count: 3, minimum: 4))) {
            try vault.verify(try pattern("1-2-3"))
        }
        let other = try Pattern(canonical: "1-2-3-4", grid: PatternGrid(size: 4))
        #expect(throws: PatternVaultError.invalidPattern(.gridMismatch(pattern: 4, expected: 3))) {
            try vault.verify(other)
        }
        #expect(try vault.status()?.failures == 0)
    }

    @Test func aClockThatGoesBackNeverLengthensTheWait() throws {
        _ = try enrolled()
        for _ in 1...5 { _ = try vault.verify(try pattern("7-8-9-6")) }
        clock.now -= 86_400 * 365
        #expect(try vault.status()?.lockoutRemaining == 30)
        #expect(try vault.verify(try pattern("1-2-3-6")) == .lockedOut(secondsLeft: 30))
        clock.now += 30
        #expect(try vault.verify(try pattern("1-2-3-6")) == .accepted)
    }

    @Test func enrolmentRefusesToOverwrite() throws {
        _ = try enrolled()
        #expect(throws: PatternVaultError.alreadyEnrolled(path: vault.path)) {
            try vault.enroll(try pattern("9-8-7-4"))
        }
        #expect(try vault.verify(try pattern("1-2-3-6")) == .accepted)
    }

    @Test func changingNeedsTheOldPattern() throws {
        _ = try enrolled()
        #expect(
            try vault.change(from: try pattern("9-8-7-4"), to: try pattern("1-5-9-6"))
                == .rejected(failures: 1, wait: 0, attemptsBeforeWait: 4))
        #expect(try vault.verify(try pattern("1-2-3-6")) == .accepted)
        #expect(
            try vault.change(from: try pattern("1-2-3-6"), to: try pattern("1-5-9-6")) == .accepted)
        #expect(try vault.verify(try pattern("1-5-9-6")) == .accepted)
        #expect(try vault.verify(try pattern("1-2-3-6")) != .accepted)
    }

    @Test func aChangeToATooShortPatternIsRefusedBeforeAnything() throws {
        _ = try enrolled()
        #expect(throws: PatternVaultError.invalidPattern(.tooShort(count: 2, minimum: 4))) {
            try vault.change(from: try pattern("1-2-3-6"), to: try pattern("1-2"))
        }
        #expect(try vault.status()?.failures == 0)
    }

    @Test func removingNeedsThePattern() throws {
        _ = try enrolled()
        #expect(try vault.remove(try pattern("9-8-7-4")) != .accepted)
        #expect(try vault.status() != nil)
        #expect(try vault.remove(try pattern("1-2-3-6")) == .accepted)
        #expect(try vault.status() == nil)
        try vault.enroll(try pattern("1-5-9-6"))
        #expect(try vault.verify(try pattern("1-5-9-6")) == .accepted)
    }

    @Test func eachEnrolmentUsesAFreshSalt() throws {
        let first = PatternVault(path: scratch.file("a"), cost: .minimum)
        let second = PatternVault(path: scratch.file("b"), cost: .minimum)
        try first.enroll(try pattern("1-2-3-6"))
        try second.enroll(try pattern("1-2-3-6"))
        let a = try Data(contentsOf: URL(fileURLWithPath: first.path))
        let b = try Data(contentsOf: URL(fileURLWithPath: second.path))
        #expect(a[28..<76] != b[28..<76], "salts and hashes differ")
    }

    @Test func theStoredCostIsUsedForVerification() throws {
        let cheap = Argon2idCost(passes: 2, memoryBytes: 64 << 10)
        let path = scratch.file("cost.store")
        try PatternVault(path: path, cost: cheap).enroll(try pattern("1-2-3-6"))
        // Verifying with a vault configured for another cost still uses the stored one.
        let other = PatternVault(path: path, cost: .minimum)
        #expect(try other.status()?.cost == cheap)
        #expect(try other.verify(try pattern("1-2-3-6")) == .accepted)
    }
}
