import Foundation
import TactileCrypto
import TactilePatternLock
import TactilePatternVault
import TestSupport
import Testing

/// The pattern tasks as people go through them: whole effect lists after every step, and
/// the same flows carried out against a real vault on disk.
@Suite struct PatternSessionTests {
    let scratch = ScratchDirectory()
    let clock = ManualClock()

    var vault: PatternVault {
        PatternVault(
            path: scratch.file("pattern.store"), cost: .minimum, clock: { [clock] in clock.now })
    }

    func pattern(_ text: String) throws -> Pattern { try Pattern(canonical: text) }

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
            session.finished(try pattern("1-2-3-6-9")) == [
                .show(.wrong),
                .say(
                    "Patterns didn't match",
                    "Draw the same pattern again to confirm, or press Set pattern to start over."),
            ])
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
                .show(.wrong), .say("Connect at least 4 dots", ""),
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
                .say("Checking…", ""), .show(.correct), .say("Unlocked", ""),
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
        var session = PatternSession()
        let status: Result<PatternVaultStatus?, PatternVaultError>
        do throws(PatternVaultError) { status = .success(try vault.status()) } catch {
            status = .failure(error)
        }
        guard case .failure(let error) = status else {
            Issue.record("a damaged store was read")
            return
        }
        #expect(session.start(status: status) == [.show(.wrong), .failClosed(error.message)])
        #expect(session.task == .damaged)
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
}
