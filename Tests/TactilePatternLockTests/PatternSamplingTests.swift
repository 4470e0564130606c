import TactileCore
import TactilePatternLock
import Testing

/// Hit-testing: circular hit areas, and the segment between samples, so fast swipes never
/// skip a dot. The view is 300×300 with a 3×3 grid: cells of 100, dots at 50, 150, 250,
/// hit radius 30.
@Suite struct PatternSamplingTests {
    func model(size: Int = 3, hit: Double = 0.3) throws -> PatternLockModel {
        var model = try PatternLockModel(
            configuration: PatternLockConfiguration(
                grid: PatternGrid(size: size), hitRadiusFraction: hit))
        model.viewSize = Size(width: 300, height: 300)
        return model
    }

    /// Presses at the first point, moves through the rest, releases at the last.
    func swipe(_ model: inout PatternLockModel, _ points: [(Double, Double)])
        -> [PatternLockEvent]
    {
        var events: [PatternLockEvent] = []
        for (index, (x, y)) in points.enumerated() {
            let phase: PointerEvent.Phase =
                index == 0 ? .began : index == points.count - 1 ? .ended : .moved
            events += model.handle(PointerEvent(phase, at: Point(x: x, y: y))) ?? []
        }
        return events
    }

    @Test func layoutCentresTheSquareInAWideView() throws {
        var model = try model()
        model.viewSize = Size(width: 500, height: 300)
        #expect(model.layout.bounds == Rect(x: 100, y: 0, width: 300, height: 300))
        #expect(model.layout.center(of: 0) == Point(x: 150, y: 50))
        #expect(model.layout.center(of: 8) == Point(x: 350, y: 250))
        #expect(model.layout.hitRadius == 30)
    }

    @Test func theInitialViewSizeIsTheLaidOutOne() throws {
        let model = try PatternLockModel(viewSize: Size(width: 90, height: 120))
        #expect(model.viewSize == Size(width: 90, height: 120))
        #expect(model.layout.bounds == Rect(x: 0, y: 15, width: 90, height: 90))
    }

    @Test func hitAreaIsACircleOfTheConfiguredRadius() throws {
        let layout = try model().layout
        #expect(layout.dot(at: Point(x: 50 + 29.9, y: 50)) == 0)
        #expect(layout.dot(at: Point(x: 50 + 21, y: 50 + 21)) == 0, "√882 ≈ 29.7 < 30")
        #expect(layout.dot(at: Point(x: 50 + 22, y: 50 + 22)) == nil, "√968 ≈ 31.1 > 30")
        #expect(layout.dot(at: Point(x: 100, y: 100)) == nil)
        let wide = try model(hit: 0.45).layout
        #expect(wide.dot(at: Point(x: 50 + 44, y: 50)) == 0)
    }

    @Test func aSwipeSampledOnlyAtItsEndsSelectsEveryDotOnTheWay() throws {
        var model = try model()
        // Two samples: left of dot 1 to right of dot 3, along the top row.
        _ = swipe(&model, [(50, 50), (290, 52)])
        #expect(model.pattern.canonical == "1-2-3")
    }

    @Test func aFastLShapedSwipeKeepsTheOrderOfEntry() throws {
        var model = try model()
        _ = swipe(&model, [(50, 50), (260, 50), (250, 260), (40, 250)])
        #expect(model.pattern.canonical == "1-2-3-6-9-8-7")
    }

    /// What the host must hand over for a fast swipe round two corners (7 → 1 → 3 → 9): GTK
    /// merges the motions of a frame into the last, and the view passes on the merged ones from
    /// the event's history. With them every corner is kept; with the last motion alone the
    /// swipe is a straight line along the bottom row.
    @Test func aFastSwipeKeepsItsCornersOnlyWhenEverySampleArrives() throws {
        var everySample = try model()
        let events = swipe(&everySample, [(50, 250), (50, 50), (250, 50), (250, 250)])
        #expect(
            events == [
                .started, .dotAdded(6, pattern: try Pattern(canonical: "7")),
                .dotAdded(3, pattern: try Pattern(canonical: "7-4")),
                .dotAdded(0, pattern: try Pattern(canonical: "7-4-1")),
                .dotAdded(1, pattern: try Pattern(canonical: "7-4-1-2")),
                .dotAdded(2, pattern: try Pattern(canonical: "7-4-1-2-3")),
                .dotAdded(5, pattern: try Pattern(canonical: "7-4-1-2-3-6")),
                .dotAdded(8, pattern: try Pattern(canonical: "7-4-1-2-3-6-9")),
                .finished(try Pattern(canonical: "7-4-1-2-3-6-9")),
            ])
        var lastSampleOnly = try model()
        _ = swipe(&lastSampleOnly, [(50, 250), (250, 250)])
        #expect(lastSampleOnly.pattern.canonical == "7-8-9")
    }

    @Test func aSegmentGrazingACircleHitsItButPassingBesideItDoesNot() throws {
        var grazing = try model()
        // From dot 1 to dot 6 the straight line passes 44.7 from dot 2's centre: no hit.
        _ = swipe(&grazing, [(50, 50), (250, 150)])
        #expect(grazing.pattern.canonical == "1-6")
        var close = try model()
        // Bending to 25 below dot 2's centre: within the radius.
        _ = swipe(&close, [(50, 50), (150, 75), (250, 150)])
        #expect(close.pattern.canonical == "1-2-6")
    }

    @Test func aDiagonalSwipeAddsTheCentreEvenWithoutSamplesNearIt() throws {
        var model = try model()
        _ = swipe(&model, [(50, 50), (250, 250)])
        #expect(model.pattern.canonical == "1-5-9")
    }

    @Test func aKnightMoveOnFiveByFivePassesNothingButAJumpPastAGapAddsIt() throws {
        var model = try model(size: 5, hit: 0.2)
        // Cells of 60; dot centres at 30 + 60k; hit radius 12. Dot 1 → dot 15 ((0,0)→(2,4))
        // passes dot 8 ((1,2)) exactly: the segment goes through its centre too.
        _ = swipe(&model, [(30, 30), (270, 150)])
        #expect(model.pattern.canonical == "1-8-15")
    }

    @Test func pressingBetweenDotsStartsNothingUntilADotIsEntered() throws {
        var model = try model()
        var events = model.handle(PointerEvent(.began, at: Point(x: 100, y: 100))) ?? []
        #expect(events == [])
        #expect(model.displayState == .drawing && model.pattern.isEmpty)
        events = model.handle(PointerEvent(.moved, at: Point(x: 150, y: 150))) ?? []
        #expect(events.first == .started)
        #expect(model.pattern.canonical == "5")
    }

    @Test func motionWithoutAPressIsNotUsed() throws {
        var model = try model()
        #expect(model.handle(PointerEvent(.moved, at: Point(x: 50, y: 50))) == nil)
        #expect(model.handle(PointerEvent(.ended, at: Point(x: 50, y: 50))) == nil)
    }
}
