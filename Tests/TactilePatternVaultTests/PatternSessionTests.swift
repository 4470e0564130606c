import Foundation
import PatternTestSupport
@_spi(Testing) import TactileCrypto
import TactilePatternLock
import TactilePatternVault
import TestSupport
import Testing

/// The pattern tasks as people go through them: whole effect lists after every step, and
/// the same flows carried out against a real vault on disk.
@Suite struct PatternSessionTests {
    let disk = VaultOnDisk()
    var scratch: ScratchDirectory { disk.scratch }
    var clock: ManualClock { disk.clock }
    /// A new vault value each time: nothing survives in memory between calls.
    var vault: PatternVault { disk.vault }

    /// 2023-11-14 22:13:20 UTC, the time a damaged store is set aside at.
    let setAsideTime = Date(timeIntervalSince1970: 1_700_000_000)

    let drawPrompt = PatternSession.Effect.say(
        "Draw an unlock pattern", "Connect at least 4 dots. You will draw it twice.")

    /// Carries out effects as the page does, making vault calls at once; everything else is
    /// returned for the test to read.
    func run(_ session: inout PatternSession, _ effects: [PatternSession.Effect]) -> [PatternSession
        .Effect]
    {
        var shown: [PatternSession.Effect] = []
        for effect in effects {
            guard case .perform(let request) = effect else {
                shown.append(effect)
                continue
            }
            let answer: PatternSession.Answer
            do throws(PatternVaultError) {
                switch request {
                case .enroll(let p):
                    try vault.enroll(p)
                    answer = .enrolled
                case .verify(let p): answer = .verdict(try vault.verify(p))
                case .change(let old, let new):
                    answer = .verdict(try vault.change(from: old, to: new))
                case .remove(let p): answer = .verdict(try vault.remove(p))
                case .setAside: answer = .setAside(keptAs: try vault.setAside(at: setAsideTime))
                }
            } catch { answer = .failed(error) }
            shown += run(&session, session.answer(answer))
        }
        return shown
    }

    @Test func settingAFirstPatternDrawsItTwiceThenSavesIt() throws {
        var session = PatternSession()
        #expect(session.start(status: .success(nil)) == [.useGrid(3), .show(.clear), drawPrompt])
        #expect(session.choosesGrid)
        let p = try pattern("1-2-3-6")
        #expect(
            session.finished(p) == [
                .show(.clear), .say("Draw again to confirm", "Pattern recorded."),
            ])
        #expect(!session.choosesGrid, "the grid is fixed once the first drawing is taken")
        #expect(
            session.finished(try pattern("1-2-3-6-9")) == confirmationMismatch)
        #expect(session.finished(p) == [.say("Saving…", ""), .perform(.enroll(p))])
        // While the vault works, another drawing is not taken.
        #expect(session.finished(p) == [])
        #expect(
            session.answer(.enrolled) == [
                .show(.correct), .say("Pattern saved", "Draw it to unlock."),
            ])
        #expect(session.task == .unlock)
        #expect(session.answer(.enrolled) == [], "an answer nobody asked for is ignored")
    }

    @Test func aShortPatternIsRefusedWithoutCounting() throws {
        var session = PatternSession()
        _ = session.start(status: .success(nil))
        #expect(
            session.finished(try pattern("1-2-3")) == [
                .show(.wrong),
                .say(
                    "Connect at least 4 dots",
                    "A shorter pattern is too easy to guess. Draw a longer one."),
            ])
        #expect(session.choosesGrid)
    }

    @Test func unlockingSaysHowManyTriesAreLeftThenCountsDown() throws {
        try vault.enroll(try pattern("1-2-3-6"))
        var session = PatternSession()
        let status = try vault.status()
        #expect(
            session.start(status: .success(status)) == [
                .useGrid(3), .show(.clear), .say("Draw your pattern to unlock", ""),
            ])
        let wrong = try pattern("7-8-9-6")
        let next = Int(PatternThrottle.wait(afterFailures: 5))
        #expect(
            run(&session, session.finished(wrong)) == [
                .say("Checking…", ""), .show(.wrong),
                .say("Wrong pattern", "4 tries left before a \(next) s wait."),
            ])
        for _ in 0..<3 { _ = run(&session, session.finished(wrong)) }
        #expect(
            run(&session, session.finished(wrong)) == [
                .say("Checking…", ""), .show(.wrong), .say("Wrong pattern", "5 wrong in a row."),
                .countDown(Double(next)),
            ])
        // During the wait even the right pattern is refused, unchecked.
        #expect(
            run(&session, session.finished(try pattern("1-2-3-6"))) == [
                .say("Checking…", ""), .show(.wrong), .countDown(Double(next)),
            ])
        clock.advance(by: Double(next))
        #expect(
            run(&session, session.finished(try pattern("1-2-3-6"))) == [
                .say("Checking…", ""), .show(.correct),
                .say("Unlocked", "It stays open until you press Lock."), .notify("Unlocked"),
            ])
    }

    @Test func anOpenLockStaysOpenUntilItIsLockedAgain() throws {
        try vault.enroll(try pattern("1-2-3-6"))
        var session = PatternSession()
        _ = session.start(status: .success(try vault.status()))
        #expect(session.takesDrawing)
        _ = run(&session, session.finished(try pattern("1-2-3-6")))
        #expect(session.task == .unlocked)
        #expect(!session.takesDrawing, "an open lock takes no drawing")
        // Nothing the lock could report moves it: no vault call, no words.
        #expect(session.finished(try pattern("7-8-9-6")) == [])
        #expect(session.drawingStarted(by: .pointer) == [])
        #expect(session.drawingCleared() == [])
        #expect(session.tooShort(minimum: 4) == [])
        #expect(!session.isCancellable && session.cancel() == [])
        #expect(session.task == .unlocked)
        #expect(try vault.status()?.failures == 0, "no attempt was made while open")
        #expect(
            session.lockAgain() == [.show(.clear), .say("Draw your pattern to unlock", "")])
        #expect(session.task == .unlock && session.takesDrawing)
        #expect(session.lockAgain() == [], "a closed lock is not locked twice")
        // Open again, changing still asks for the pattern: being open is no licence.
        _ = run(&session, session.finished(try pattern("1-2-3-6")))
        #expect(
            session.begin(.changeCurrent, status: .success(try vault.status())) == [
                .useGrid(3), .show(.clear),
                .say("Draw your current pattern", "Then draw the new one twice."),
            ])
        #expect(session.takesDrawing)
    }

    @Test func aTaskBegunDuringALockoutSaysWhyItWaits() throws {
        try vault.enroll(try pattern("1-2-3-6"))
        let wrong = try pattern("7-8-9-6")
        for _ in 0..<5 { _ = try vault.verify(wrong) }
        let stored = try #require(try vault.status())
        let wait = try #require(stored.lockoutRemaining)
        let why = PatternSession.Effect.say(
            "Draw your current pattern to remove it",
            "5 wrong in a row. When the countdown ends, draw again.")
        var session = PatternSession()
        #expect(
            session.start(status: .success(stored)) == [
                .useGrid(3), .show(.clear), .say("Draw your pattern to unlock", ""),
                .say(
                    "Draw your pattern to unlock",
                    "5 wrong in a row. When the countdown ends, draw again."),
                .countDown(wait),
            ])
        #expect(
            session.begin(.remove, status: .success(stored)) == [
                .useGrid(3), .show(.clear), .say("Draw your current pattern to remove it", ""),
                why, .countDown(wait),
            ])
        // Once the wait is over, the prompt stands alone again.
        clock.advance(by: wait)
        #expect(
            session.begin(.remove, status: .success(try vault.status())) == [
                .useGrid(3), .show(.clear), .say("Draw your current pattern to remove it", ""),
            ])
    }

    @Test func changingAsksForTheCurrentPatternThenTheNewOneTwice() throws {
        try vault.enroll(try pattern("1-2-3-6"))
        var session = PatternSession()
        _ = session.start(status: .success(try vault.status()))
        #expect(
            session.begin(.changeCurrent, status: .success(try vault.status())) == [
                .useGrid(3), .show(.clear),
                .say("Draw your current pattern", "Then draw the new one twice."),
            ])
        #expect(
            run(&session, session.finished(try pattern("1-2-3-6"))) == [
                .say("Checking…", ""), .show(.correct), .useGrid(3), .show(.clear), drawPrompt,
            ])
        let new = try pattern("7-5-3-6")
        _ = session.finished(new)
        #expect(
            run(&session, session.finished(new)) == [
                .say("Checking…", ""), .show(.correct),
                .say("Pattern changed", "Draw the new pattern to unlock."),
            ])
        // Independent truth: the vault now takes the new pattern, not the old.
        #expect(try vault.verify(new) == .accepted)
        #expect(try vault.verify(try pattern("1-2-3-6")) != .accepted)
    }

    @Test func removingWithTheRightPatternLeavesTheLockUnset() throws {
        try vault.enroll(try pattern("1-2-3-6"))
        var session = PatternSession()
        _ = session.begin(.remove, status: .success(try vault.status()))
        #expect(
            run(&session, session.finished(try pattern("1-2-3-6"))) == [
                .say("Checking…", ""), .show(.correct), .useGrid(3), .show(.clear), drawPrompt,
                .say("Pattern removed", "Draw a new unlock pattern, or leave the lock unset."),
            ])
        #expect(try vault.status() == nil)
    }

    @Test func aDamagedStoreClosesEverything() throws {
        try Data("not a store".utf8).write(to: URL(fileURLWithPath: scratch.file("pattern.store")))
        chmod(scratch.file("pattern.store"), 0o600)
        var session = PatternSession()
        let status: Result<PatternVaultStatus?, PatternVaultError>
        do throws(PatternVaultError) { status = .success(try vault.status()) } catch {
            status = .failure(error)
        }
        guard case .failure(let error) = status else {
            Issue.record("a damaged store was read")
            return
        }
        #expect(
            session.start(status: status) == [
                .show(.wrong),
                .failClosed(
                    "The pattern store is damaged",
                    "The file that keeps your pattern cannot be trusted (not a pattern store: the file does not start with TPATLOCK), so no pattern unlocks. Start over to keep that file aside and set a new pattern.",
                    canStartOver: true),
            ])
        #expect(session.task == .damaged)
        #expect(session.failure == error)
        #expect(session.finished(try pattern("1-2-3-6")) == [.show(.wrong)], "no vault call")
        // Bad input is only bad input: the session stays usable.
        var fresh = PatternSession()
        _ = fresh.start(status: .success(nil))
        let p = try pattern("1-2-3-6")
        _ = fresh.finished(p)
        _ = fresh.finished(p)
        let invalid = PatternVaultError.invalidPattern(.tooShort(count: 1, minimum: 4))
        #expect(
            fresh.answer(.failed(invalid)) == [
                .show(.wrong), .say("Pattern not accepted", invalid.message),
            ])
        #expect(fresh.task != .damaged)
    }

    @Test func aGridChosenForANewPatternStartsItOver() throws {
        var session = PatternSession()
        _ = session.start(status: .success(nil))
        #expect(session.chooseGrid(4) == [.useGrid(4), .show(.clear), drawPrompt])
        #expect(session.newPatternGrid == 4)
    }

    // MARK: - Starting over from a damaged store

    /// Flips one bit of the stored hash, in place (the file keeps its mode).
    func flipABit() throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: scratch.file("pattern.store")))
        defer { try? handle.close() }
        try handle.seek(toOffset: 50)
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: 50)
        try handle.write(contentsOf: [byte ^ 0x04])
    }

    func status() -> Result<PatternVaultStatus?, PatternVaultError> {
        do throws(PatternVaultError) { return .success(try vault.status()) } catch {
            return .failure(error)
        }
    }

    func mode(of name: String) -> mode_t {
        var info = stat()
        guard lstat(scratch.file(name), &info) == 0 else { return 0 }
        return info.st_mode & 0o777
    }

    @Test func startingOverKeepsTheDamagedStoreAsideAndSetsANewPattern() throws {
        try vault.enroll(try pattern("1-2-3-6"))
        try flipABit()
        let damaged = try #require(scratch.contents("pattern.store"))
        var session = PatternSession()
        #expect(
            session.start(status: status()) == [
                .show(.wrong),
                .failClosed(
                    "The pattern store is damaged",
                    "The file that keeps your pattern cannot be trusted (the integrity check failed), so no pattern unlocks. Start over to keep that file aside and set a new pattern.",
                    canStartOver: true),
            ])
        // Closed: a drawing goes nowhere, and there is no flow to cancel.
        #expect(session.finished(try pattern("1-2-3-6")) == [.show(.wrong)])
        #expect(!session.isCancellable && session.cancel() == [])
        let kept = scratch.file("pattern.store.damaged-20231114T221320Z")
        #expect(
            run(&session, session.startOver()) == [
                .say("Setting the damaged store aside…", ""), .useGrid(3), .show(.clear),
                drawPrompt,
                .say(
                    "Draw an unlock pattern",
                    "The damaged store was kept as \(kept). Draw a new pattern twice."),
            ])
        // Kept as it was, private, under a name with the time; nothing in its place.
        #expect(
            scratch.contents.sorted() == [
                "pattern.store.damaged-20231114T221320Z", "pattern.store.lock",
            ])
        #expect(scratch.contents("pattern.store.damaged-20231114T221320Z") == damaged)
        #expect(mode(of: "pattern.store.damaged-20231114T221320Z") == 0o600)
        #expect(try vault.status() == nil)
        // A new pattern, drawn twice, is the one that unlocks.
        let new = try pattern("7-5-3-6")
        _ = session.finished(new)
        #expect(
            run(&session, session.finished(new)) == [
                .say("Saving…", ""), .show(.correct), .say("Pattern saved", "Draw it to unlock."),
            ])
        #expect(try vault.verify(new) == .accepted)
        #expect(try vault.verify(try pattern("1-2-3-6")) != .accepted)
    }

    @Test func aSecondDamagedStoreIsKeptBesideTheFirstAndMadePrivate() throws {
        try scratch.write("TPATLOCK damaged", to: "pattern.store.damaged-20231114T221320Z")
        try scratch.write("not a store", to: "pattern.store")
        chmod(scratch.file("pattern.store"), 0o644)
        var session = PatternSession()
        let effects = session.start(status: status())
        guard effects.count == 2, case .failClosed(_, _, canStartOver: true) = effects[1] else {
            Issue.record("a store open to others was not refused as damaged")
            return
        }
        let kept = scratch.file("pattern.store.damaged-20231114T221320Z-2")
        #expect(
            run(&session, session.startOver()).last
                == .say(
                    "Draw an unlock pattern",
                    "The damaged store was kept as \(kept). Draw a new pattern twice."))
        #expect(
            scratch.contents("pattern.store.damaged-20231114T221320Z-2")
                == Array("not a store".utf8))
        #expect(mode(of: "pattern.store.damaged-20231114T221320Z-2") == 0o600)
        #expect(
            scratch.contents("pattern.store.damaged-20231114T221320Z")
                == Array("TPATLOCK damaged".utf8))
    }

    @Test func aStoreThatReadsWellIsNeverSetAside() throws {
        try vault.enroll(try pattern("1-2-3-6"))
        #expect(throws: PatternVaultError.alreadyEnrolled(path: vault.path)) {
            try vault.setAside(at: setAsideTime)
        }
        #expect(try vault.verify(try pattern("1-2-3-6")) == .accepted)
        var session = PatternSession()
        _ = session.start(status: status())
        #expect(session.startOver() == [], "only a closed session starts over")
        #expect(try PatternVault(path: scratch.file("none"), cost: .minimum).setAside() == nil)
    }

    @Test func aStoreThatCannotBeUsedForAnotherReasonOffersOnlyTryingAgain() throws {
        try FileManager.default.createDirectory(
            atPath: scratch.file("pattern.store"), withIntermediateDirectories: false)
        var session = PatternSession()
        let result = status()
        guard case .failure(let error) = result, case .unusablePath = error else {
            Issue.record("a folder was read as a store")
            return
        }
        #expect(
            session.start(status: result) == [
                .show(.wrong),
                .failClosed(
                    "The pattern store cannot be used",
                    "No pattern unlocks until this is fixed: \(error.message). Then press Try again.",
                    canStartOver: false),
            ])
        #expect(session.startOver() == [])
        #expect(throws: error) { try vault.setAside(at: setAsideTime) }
        #expect(FileManager.default.fileExists(atPath: scratch.file("pattern.store")))
        // Fixed outside the app, the store reads again: trying again sets a first pattern.
        try FileManager.default.removeItem(atPath: scratch.file("pattern.store"))
        #expect(session.start(status: status()) == [.useGrid(3), .show(.clear), drawPrompt])
        #expect(session.failure == nil)
    }
}
