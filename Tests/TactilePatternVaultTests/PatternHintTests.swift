import PatternTestSupport
import TactileCore
import TactilePatternLock
import TactilePatternVault
import Testing

/// The words under the lock fit the way the pattern is entered and the flow it is entered
/// for; the grid drop-down warns about a grid with few patterns.
@Suite struct PatternHintTests {

    func unlocking() -> PatternSession {
        var session = PatternSession()
        _ = session.begin(.unlock, status: .success(nil))
        return session
    }

    @Test func aDrawingSaysHowToFinishItForThePointerOrTheKeys() throws {
        let session = unlocking()
        #expect(
            session.drawingStarted(by: .pointer) == [
                .say("Draw your pattern to unlock", "Release when done.")
            ])
        #expect(
            session.drawingStarted(by: .keys) == [
                .say(
                    "Draw your pattern to unlock",
                    "Space adds the dot in the ring; press Enter when done.")
            ])
    }

    @Test func theLockTellsHowAPatternIsBeingEntered() throws {
        var model = try PatternLockModel()
        #expect(model.entry == nil)
        _ = model.handle(KeyEvent(.space))
        #expect(model.entry == .keys)
        _ = model.handle(KeyEvent(.escape))
        #expect(model.entry == nil)
        _ = model.handle(PointerEvent(.began, at: model.layout.center(of: 0)))
        #expect(model.entry == .pointer)
    }

    @Test func aDrawingThatGoesAwayBringsBackWhatStoodBeforeIt() throws {
        var session = unlocking()
        _ = session.finished(try pattern("7-8-9-6"))
        #expect(
            session.answer(.verdict(.rejected(failures: 1, wait: 0, attemptsBeforeWait: 4)))
                == [.show(.wrong), .say("Wrong pattern", "4 tries left before a 30 s wait.")])
        // The wrong pattern times out, a drawing starts by keys, Esc clears it.
        #expect(
            session.drawingCleared() == [
                .say("Draw your pattern to unlock", "4 tries left before a 30 s wait.")
            ])
        _ = session.drawingStarted(by: .keys)
        #expect(
            session.drawingCleared() == [
                .say("Draw your pattern to unlock", "4 tries left before a 30 s wait.")
            ], "not the stale 'press Enter when done'")
    }

    @Test func aTooShortPatternIsExplainedInTheWordsOfTheFlow() throws {
        var unlock = unlocking()
        let uncounted = PatternSession.Effect.say(
            "Connect at least 4 dots", "That was too short and was not counted as an attempt.")
        #expect(unlock.tooShort(minimum: 4) == [uncounted])
        _ = unlock.begin(.remove, status: .success(nil))
        #expect(unlock.tooShort(minimum: 4) == [uncounted])

        // Setting a pattern counts no attempts: the words say why it must be longer.
        var setting = PatternSession()
        _ = setting.start(status: .success(nil))
        #expect(
            setting.tooShort(minimum: 4) == [
                .say(
                    "Connect at least 4 dots",
                    "A shorter pattern is too easy to guess. Draw a longer one.")
            ])
        _ = setting.finished(try pattern("1-2-3-6"))
        #expect(
            setting.tooShort(minimum: 4) == [
                .say(
                    "Connect at least 4 dots",
                    "To confirm, draw the same pattern as the first time.")
            ])
        // What a drawing going away brings back is that explanation, not a stale one.
        #expect(
            setting.drawingCleared() == [
                .say(
                    "Draw again to confirm", "To confirm, draw the same pattern as the first time.")
            ])
    }

    @Test func aClosedSessionSaysNothingAboutDrawings() throws {
        var session = PatternSession()
        _ = session.start(status: .failure(.hashingFailed))
        #expect(session.drawingStarted(by: .pointer) == [])
        #expect(session.drawingCleared() == [])
        #expect(session.tooShort(minimum: 4) == [])
    }

    @Test(arguments: PatternLimits.gridSizes)
    func onlyAGridWithFewPatternsIsWarnedAbout(size: Int) throws {
        var session = PatternSession()
        _ = session.start(status: .success(nil))
        _ = session.chooseGrid(size)
        if size == 2 {
            // Independent truth: with 4 dots needed on 4, a pattern is an order of all 4 dots
            // (no dot lies between two others on a 2 × 2 grid), and there are 4! orders.
            #expect(
                session.gridWarning
                    == "A 2 × 2 grid allows only 24 patterns, which are easy to guess.")
        } else {
            #expect(session.gridWarning == nil)
        }
    }
}
