import PatternTestSupport
import TactilePatternLock
import TactilePatternVault
import Testing

/// Cancelling a flow (the page's Cancel button, or Esc with nothing drawn): whole effect lists,
/// with the vault's answers given by hand.
@Suite struct PatternCancelTests {

    let drawPrompt = PatternSession.Effect.say(
        "Draw an unlock pattern", "Connect at least 4 dots. You will draw it twice.")
    let unlockPrompt = PatternSession.Effect.say(
        "Draw your pattern to unlock", "Nothing was changed.")

    /// A session unlocking a 3×3 pattern.
    func unlocking() -> PatternSession {
        var session = PatternSession()
        _ = session.begin(.unlock, status: .success(nil))
        return session
    }

    @Test func confirmingAFirstPatternCancelsBackToDrawingIt() throws {
        var session = PatternSession()
        _ = session.start(status: .success(nil))
        #expect(!session.isCancellable, "nothing to cancel before the first drawing")
        #expect(session.cancel() == [])
        _ = session.finished(try pattern("1-2-3-6"))
        #expect(session.isCancellable)
        #expect(session.cancel() == [.useGrid(3), .show(.clear), drawPrompt])
        #expect(session.choosesGrid, "the grid may be chosen again")
        // The first drawing is forgotten: the next one is a first drawing again.
        #expect(
            session.finished(try pattern("7-8-9-6")) == [
                .show(.clear), .say("Draw again to confirm", "Pattern recorded."),
            ])
    }

    @Test func changingCancelsBackToUnlockingAtEitherStep() throws {
        var session = unlocking()
        #expect(!session.isCancellable)
        _ = session.begin(.changeCurrent, status: .success(nil))
        #expect(session.isCancellable)
        #expect(session.cancel() == [.show(.clear), unlockPrompt])
        #expect(session.task == .unlock)

        // Past the current pattern, on another grid: back to the stored pattern's grid.
        _ = session.begin(.changeCurrent, status: .success(nil))
        let current = try pattern("1-2-3-6")
        _ = session.finished(current)
        _ = session.answer(.verdict(.accepted))
        _ = session.chooseGrid(4)
        let new = try Pattern(canonical: "1-2-3-4", grid: PatternGrid(size: 4))
        _ = session.finished(new)
        #expect(session.cancel() == [.useGrid(3), .show(.clear), unlockPrompt])
        #expect(session.task == .unlock)
    }

    @Test func removingCancelsBackToUnlocking() throws {
        var session = unlocking()
        _ = session.begin(.remove, status: .success(nil))
        #expect(session.isCancellable)
        #expect(session.cancel() == [.show(.clear), unlockPrompt])
        #expect(session.task == .unlock)
    }

    @Test func nothingIsCancelledWhileTheVaultWorks() throws {
        var session = unlocking()
        _ = session.begin(.remove, status: .success(nil))
        let current = try pattern("1-2-3-6")
        #expect(session.finished(current) == [.say("Checking…", ""), .perform(.remove(current))])
        #expect(session.cancel() == [], "the answer is on its way")
        #expect(session.pending == .remove(current))
        _ = session.answer(.verdict(.rejected(failures: 1, wait: 0, attemptsBeforeWait: 4)))
        #expect(session.cancel() == [.show(.clear), unlockPrompt])
    }

    @Test func aMismatchSaysHowToCancelInTheWordsOfTheFlow() throws {
        var session = PatternSession()
        _ = session.start(status: .success(nil))
        _ = session.finished(try pattern("1-2-3-6"))
        #expect(
            session.finished(try pattern("1-2-3-6-9")) == confirmationMismatch)
        var changing = unlocking()
        _ = changing.begin(.changeCurrent, status: .success(nil))
        _ = changing.finished(try pattern("1-2-3-6"))
        _ = changing.answer(.verdict(.accepted))
        _ = changing.finished(try pattern("7-8-9-6"))
        #expect(
            changing.finished(try pattern("7-8-9-6-3")) == [
                .show(.wrong),
                .say(
                    "Patterns didn't match",
                    "Draw the same pattern again to confirm, or press Cancel to keep your current pattern."
                ),
            ])
    }
}
