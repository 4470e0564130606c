import PatternTestSupport
import TactileCore
import TactilePatternLock
import TestSupport
import Testing

/// The state machine with a hand-moved clock: events in order, display states, the
/// wrong-pattern delay, replay, keyboard entry and disabled input.
@Suite struct PatternStateMachineTests {
    func model(delay: Double = 2, minimum: Int = 4) throws -> PatternLockModel {
        var model = try PatternLockModel(
            configuration: PatternLockConfiguration(
                minimumLength: minimum, wrongClearDelay: delay))
        model.viewSize = Size(width: 300, height: 300)
        return model
    }

    func center(_ number: Int) -> Point {
        let dot = number - 1
        return Point(x: 50 + Double(dot % 3) * 100, y: 50 + Double(dot / 3) * 100)
    }

    /// Drags through the centres of the given dot numbers, one sample each, at `time`.
    func drag(_ model: inout PatternLockModel, _ numbers: [Int], at time: Double = 0)
        -> [PatternLockEvent]
    {
        var events = model.handle(PointerEvent(.began, at: center(numbers[0]), time: time)) ?? []
        for number in numbers.dropFirst() {
            events += model.handle(PointerEvent(.moved, at: center(number), time: time)) ?? []
        }
        events +=
            model.handle(PointerEvent(.ended, at: center(numbers.last!), time: time)) ?? []
        return events
    }

    @Test func aDragReportsStartedEachDotAndFinished() throws {
        var model = try model()
        let events = drag(&model, [1, 3, 6])
        #expect(
            events == [
                .started,
                .dotAdded(0, pattern: try pattern("1")),
                .dotAdded(1, pattern: try pattern("1-2")),
                .dotAdded(2, pattern: try pattern("1-2-3")),
                .dotAdded(5, pattern: try pattern("1-2-3-6")),
                .finished(try pattern("1-2-3-6")),
            ])
        #expect(model.displayState == .drawing)
        #expect(model.tip == nil)
    }

    @Test func wrongClearsAfterTheDelay() throws {
        var model = try model()
        _ = drag(&model, [1, 2, 3, 6], at: 10)
        #expect(model.show(.wrong) == [])
        #expect(model.displayState == .wrong)
        #expect(model.clearDeadline == 12)
        #expect(model.isAnimating)
        #expect(model.advance(to: 11.99) == [])
        #expect(model.pattern.count == 4)
        #expect(model.advance(to: 12) == [.cleared])
        #expect(model.displayState == .normal && model.pattern.isEmpty)
        #expect(model.clearDeadline == nil)
        #expect(!model.isAnimating)
    }

    @Test func theDelayIsConfigurable() throws {
        var model = try model(delay: 0.5)
        _ = drag(&model, [1, 2, 3, 6], at: 1)
        model.show(.wrong)
        #expect(model.advance(to: 1.5) == [.cleared])
        #expect(throws: PatternError.clearDelayOutOfRange(-1)) { try self.model(delay: -1) }
    }

    @Test func aNewTouchCancelsThePendingClear() throws {
        var model = try model()
        _ = drag(&model, [1, 2, 3, 6], at: 0)
        model.show(.wrong)
        let events = model.handle(PointerEvent(.began, at: center(9), time: 1)) ?? []
        #expect(events == [.cleared, .started, .dotAdded(8, pattern: try pattern("9"))])
        #expect(model.clearDeadline == nil)
        #expect(model.displayState == .drawing)
        #expect(model.advance(to: 5) == [], "the old deadline no longer clears anything")
        #expect(model.pattern.canonical == "9")
    }

    @Test func correctStaysUntilCleared() throws {
        var model = try model()
        _ = drag(&model, [1, 2, 3, 6])
        model.show(.correct)
        #expect(model.advance(to: 100) == [])
        #expect(model.displayState == .correct && model.pattern.count == 4)
        #expect(model.show(.normal) == [.cleared])
    }

    @Test func tooShortShowsWrongAndIsNotFinished() throws {
        var model = try model()
        let events = drag(&model, [1, 2], at: 3)
        #expect(events.last == .tooShort(try pattern("1-2")))
        #expect(!events.contains(.finished(try pattern("1-2"))))
        #expect(model.displayState == .wrong && model.clearDeadline == 5)
    }

    @Test func releaseWithoutADotLeavesNothing() throws {
        var model = try model()
        let events =
            (model.handle(PointerEvent(.began, at: Point(x: 100, y: 100))) ?? [])
            + (model.handle(PointerEvent(.ended, at: Point(x: 110, y: 100))) ?? [])
        #expect(events == [])
        #expect(model.displayState == .normal)
    }

    @Test func cancellationClears() throws {
        var model = try model()
        _ = model.handle(PointerEvent(.began, at: center(1)))
        _ = model.handle(PointerEvent(.moved, at: center(2)))
        #expect(model.handle(PointerEvent(.cancelled, at: center(2))) == [.cleared])
        #expect(model.pattern.isEmpty && model.displayState == .normal)
    }

    @Test func selectedDotsGrowOverAFixedTime() throws {
        var model = try model()
        _ = model.handle(PointerEvent(.began, at: center(5), time: 1))
        #expect(model.growth(ofSelection: 0) == 0)
        #expect(model.isAnimating)
        model.advance(to: 1 + PatternLockModel.dotGrowthDuration / 2)
        expectClose(
            model.growth(ofSelection: 0), 0.75, within: 1e-12, "ease-out: u(2 − u) at u = ½")
        model.advance(to: 2)
        #expect(model.growth(ofSelection: 0) == 1)
        #expect(!model.isAnimating)
    }

    @Test func replayDrawsDotByDotThenShowsTheEndState() throws {
        var model = try model()
        model.advance(to: 10)
        model.replay(try pattern("1-5-9-6"), stepDuration: 0.5, endingIn: .wrong)
        #expect(model.pattern.canonical == "1")
        #expect(model.tip == center(1))
        model.advance(to: 10.25)
        #expect(model.tip == Point(x: 100, y: 100), "halfway from dot 1 to dot 5")
        model.advance(to: 10.5)
        #expect(model.pattern.canonical == "1-5")
        model.advance(to: 11.6)
        #expect(model.pattern.canonical == "1-5-9-6")
        #expect(model.displayState == .drawing && model.tip == nil)
        model.advance(to: 12)
        #expect(model.displayState == .wrong)
        #expect(model.clearDeadline == 14)
    }

    @Test func aTouchStopsAReplay() throws {
        var model = try model()
        model.replay(try pattern("1-5-9-6"))
        _ = model.handle(PointerEvent(.began, at: center(3), time: 0.1))
        model.advance(to: 5)
        #expect(model.pattern.canonical == "3")
    }

    @Test func keyboardEntryFollowsTheSameRules() throws {
        var model = try model()
        #expect(model.handle(KeyEvent(.right)) == [], "the first arrow shows the ring on dot 1")
        #expect(model.focusedDot == 0)
        #expect(
            model.handle(KeyEvent(.space))
                == [.started, .dotAdded(0, pattern: try pattern("1"))])
        _ = model.handle(KeyEvent(.right))
        _ = model.handle(KeyEvent(.right))
        _ = model.handle(KeyEvent(.right))
        #expect(model.focusedDot == 2, "stops at the edge")
        let across = model.handle(KeyEvent(.space)) ?? []
        #expect(across.count == 2, "1 → 3 adds 2 first")
        _ = model.handle(KeyEvent(.down))
        _ = model.handle(KeyEvent(.space))
        _ = model.handle(KeyEvent(.down))
        _ = model.handle(KeyEvent(.space))
        #expect(model.handle(KeyEvent(.enter)) == [.finished(try pattern("1-2-3-6-9"))])
        #expect(model.handle(KeyEvent(.enter)) == nil, "nothing in progress")
        #expect(model.handle(KeyEvent(.escape)) == [.cleared])
        #expect(model.handle(KeyEvent(.escape)) == nil)
        #expect(model.handle(KeyEvent(.character("x"))) == nil)
    }

    @Test func aPointerPressHidesTheFocusRingWhichComesBackWhereItWas() throws {
        var model = try model()
        _ = model.handle(KeyEvent(.down))
        _ = model.handle(KeyEvent(.down))
        #expect(model.focusedDot == 3)
        _ = drag(&model, [1, 2, 3, 6])
        #expect(model.focusedDot == nil)
        _ = model.handle(KeyEvent(.left))
        #expect(model.focusedDot == 3, "the first key shows the ring without moving it")
    }

    @Test func inputDisabledWithoutADurationDoesNotAnimate() throws {
        var model = try model()
        model.disableInput()
        #expect(!model.isAnimating)
        #expect(model.inputLockRemaining == .infinity)
        model.advance(to: 1e9)
        #expect(!model.isInputEnabled)
        #expect(model.handle(PointerEvent(.began, at: center(1))) == nil)
        model.enableInput()
        #expect(model.handle(PointerEvent(.began, at: center(1))) != nil)
    }

    @Test func disablingInputDropsAPatternBeingDrawn() throws {
        var model = try model()
        _ = model.handle(PointerEvent(.began, at: center(1)))
        model.disableInput(for: 5)
        #expect(model.handle(PointerEvent(.moved, at: center(2))) == nil)
        #expect(model.displayState == .normal && model.tip == nil)
    }

    @Test func disabledInputCountsDownFromTheNextTick() throws {
        var model = try model()
        model.disableInput(for: 30)
        #expect(model.inputLockRemaining == 30)
        #expect(model.handle(PointerEvent(.began, at: center(1))) == nil)
        #expect(model.handle(KeyEvent(.space)) == nil)
        // One tick to start the countdown; then it changes once a second, not every frame.
        #expect(model.isAnimating)
        model.advance(to: 1000)
        #expect(model.inputLockRemaining == 30)
        #expect(!model.isAnimating)
        #expect(model.nextChangeTime == 1001)
        model.advance(to: 1027.5)
        #expect(model.inputLockRemaining == 2.5)
        #expect(model.nextChangeTime == 1028)
        model.advance(to: 1029.2)
        #expect(model.nextChangeTime == 1030)
        model.advance(to: 1030)
        #expect(model.isInputEnabled && model.inputLockRemaining == nil)
        #expect(!model.isAnimating)
        #expect(model.nextChangeTime == nil)
        #expect(model.handle(PointerEvent(.began, at: center(1), time: 1031)) != nil)
    }

    @Test func changingTheGridClearsThePattern() throws {
        var model = try model()
        _ = drag(&model, [1, 2, 3, 6])
        let events = try model.configure(PatternLockConfiguration(grid: PatternGrid(size: 4)))
        #expect(events == [.cleared])
        #expect(model.pattern.grid.size == 4)
        #expect(model.layout.cellSize == 75)
    }

    @Test(arguments: [0.04, 0.51, Double.nan])
    func hitRadiusOutsideTheRangeIsRefused(fraction: Double) {
        #expect(throws: PatternError.self) {
            try PatternLockModel(
                configuration: PatternLockConfiguration(hitRadiusFraction: fraction))
        }
    }
}

/// With "reduce motion", a selected dot is full size at once, so a drawn pattern does not
/// keep the host ticking.
@Suite struct PatternReducedMotionTests {
    @Test func dotsDoNotGrow() throws {
        var model = try PatternLockModel()
        model.viewSize = Size(width: 300, height: 300)
        model.reducesMotion = true
        model.advance(to: 10)
        _ = model.handle(PointerEvent(.began, at: Point(x: 50, y: 50), time: 10))
        #expect(model.pattern.count == 1)
        #expect(model.growth(ofSelection: 0) == 1)
        #expect(!model.isAnimating)
        model.reducesMotion = false
        #expect(model.growth(ofSelection: 0) == 0)
        #expect(model.isAnimating)
    }
}
