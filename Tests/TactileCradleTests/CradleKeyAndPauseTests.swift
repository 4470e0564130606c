import Foundation
import TactileCore
import TactileCradle
import TestSupport
import Testing

/// What a person asks for with a pull, a key or a reset is what happens, or they are told
/// why not.
@Suite struct CradleKeyAndPauseTests {
    /// The view, pulled and swinging for `seconds`, then paused.
    func pausedSwing(balls: Int = 5, after seconds: Double = 0.2) throws -> CradleView {
        let view = try CradleView(configuration: CradleConfiguration(ballCount: balls))
        try view.update { try $0.pull(1) }
        for t in FrameTimes(to: seconds) { view.advance(to: t) }
        view.update { $0.setPaused(true) }
        return view
    }

    /// A pull while paused (a button calls `pull`) starts the swing: the balls leave the
    /// angle they were pulled to, instead of standing there until Resume.
    @Test func aPullWhilePausedSwings() throws {
        let view = try pausedSwing()
        var events: [CradleEvent] = []
        view.onEvent = { events.append($0) }
        try view.update { try $0.pull(2) }
        #expect(events == [.pausedChanged(false), .pulled(count: 2)])
        #expect(!view.isPaused && view.isAnimating)
        let pulled = view.cradle.angles
        for t in FrameTimes(from: 5, to: 5.3) { view.advance(to: t) }
        // A third of a second after the release the pulled balls are well on their way down.
        #expect(view.cradle.angles[0] > pulled[0] + 0.1)
        #expect(view.cradle.angles[1] > pulled[1] + 0.1)
    }

    /// The digit keys pull the same way.
    @Test func aDigitKeyWhilePausedSwings() throws {
        let view = try pausedSwing()
        #expect(view.handle(KeyEvent(.character("3"))))
        #expect(!view.isPaused)
        let pulled = view.cradle.angles
        for t in FrameTimes(from: 5, to: 5.3) { view.advance(to: t) }
        #expect(view.cradle.angles[2] > pulled[2] + 0.1)
    }

    /// After a reset there is nothing to pause, so it resumes too; so does a change that
    /// rebuilds the cradle at rest. A change of gravity while paused stays paused.
    @Test func aResetOrANewCradleResumesAndAPhysicsChangeDoesNot() throws {
        let view = try pausedSwing()
        view.update { $0.reset() }
        #expect(!view.isPaused)
        view.update { $0.setPaused(true) }
        var configuration = view.cradle.configuration
        configuration.gravity = 2
        try view.update { try $0.configure(configuration) }
        #expect(view.isPaused)
        configuration.ballCount = 4
        try view.update { try $0.configure(configuration) }
        #expect(!view.isPaused)
    }

    /// Keys 1…(balls − 1) pull; every other digit says why it does nothing, naming the keys
    /// that do, and leaves the cradle as it was.
    @Test(arguments: 2...9, 0...9)
    func aDigitBeyondThePullsSaysWhy(balls: Int, digit: Int) throws {
        let view = try CradleView(configuration: CradleConfiguration(ballCount: balls))
        var events: [CradleEvent] = []
        view.onEvent = { events.append($0) }
        #expect(view.handle(KeyEvent(.character(Character(String(digit))))))
        if (1..<balls).contains(digit) {
            #expect(events == [.pulled(count: digit)])
            #expect(view.message == nil)
            return
        }
        #expect(events == [.pullRefused(count: digit)])
        #expect(view.cradle.angles == Array(repeating: 0, count: balls))
        #expect(
            view.message
                == (balls == 2
                    ? "Key \(digit) pulls nothing: with 2 balls, only key 1 pulls."
                    : "Key \(digit) pulls nothing: with \(balls) balls, keys 1–\(balls - 1) pull that many.")
        )
        // The next thing that happens takes the message away.
        try view.update { try $0.pull(1) }
        #expect(view.message == nil)
    }

    /// The hint beside the view names the keys that pull for the balls there are.
    @Test(arguments: 2...9)
    func theKeyHintNamesTheKeysThatPull(balls: Int) throws {
        let view = try CradleView(configuration: CradleConfiguration(ballCount: balls))
        let keys = balls == 2 ? "key 1 pulls one" : "keys 1–\(balls - 1) pull that many"
        #expect(
            view.keyHint == "Drag any ball and let go · \(keys) · Space pauses · R resets")
    }
}

/// A typed ball count is read, not clamped: out of range is refused with the value and the
/// accepted range.
@Suite struct CradleBallCountInputTests {
    @Test(arguments: [
        ("0", "The number of balls must be 2…9; got 0."),
        ("1", "The number of balls must be 2…9; got 1."),
        ("10", "The number of balls must be 2…9; got 10."),
        ("100", "The number of balls must be 2…9; got 100."),
        ("-3", "The number of balls must be 2…9; got -3."),
        ("99999999999999999999", "The number of balls must be 2…9; got 99999999999999999999."),
        ("", "Enter the number of balls (2…9)."),
        ("  ", "Enter the number of balls (2…9)."),
        ("abc", "“abc” is not a whole number; enter 2…9 balls."),
        ("4.5", "“4.5” is not a whole number; enter 2…9 balls."),
        ("+", "“+” is not a whole number; enter 2…9 balls."),
        ("٣", "“٣” is not a whole number; enter 2…9 balls."),
    ])
    func outOfRangeIsRefused(text: String, message: String) {
        #expect(throws: CradleError(message)) { try CradleInput.ballCount(from: text) }
    }

    @Test(arguments: [("2", 2), ("9", 9), (" 7 ", 7), ("+5", 5), ("05", 5)])
    func aCountInRangeIsRead(text: String, count: Int) throws {
        #expect(try CradleInput.ballCount(from: text) == count)
    }
}
