import Foundation
import TactileCore
import TactileCradle
import TestSupport
import Testing

/// The interactive view: dragging, keys, pausing, resting.
@Suite struct CradleViewTests {
    func run(_ view: CradleView, from start: Double, to end: Double) {
        for t in FrameTimes(from: start, to: end).dropFirst() { view.advance(to: t) }
    }

    @Test func draggingTheFirstBallOutAndLettingGoSendsTheLastBallOut() throws {
        let view = try CradleView()
        view.viewSize = Size(width: 640, height: 400)
        let layout = view.layout
        let first = layout.viewPoint(view.cradle.balls[0].center)
        #expect(view.handle(PointerEvent(.began, at: first, time: 0)))
        // Drag along the arc to 30° over half a second.
        var t = 0.0
        view.advance(to: 0)
        let anchor = view.cradle.anchors[0]
        for step in 1...30 {
            t = Double(step) / 60
            let theta = -Double(step) / 30 * .pi / 6
            let p = Point(x: anchor.x + 160 * sin(theta), y: anchor.y + 160 * cos(theta))
            _ = view.handle(PointerEvent(.moved, at: layout.viewPoint(p), time: t))
            view.advance(to: t)
        }
        run(view, from: t, to: t + 0.5)  // Hold still.
        t += 0.5
        let held = view.cradle.angles[0] * 180 / .pi
        #expect(held < -25 && held > -31)
        _ = view.handle(
            PointerEvent(.ended, at: layout.viewPoint(view.cradle.balls[0].center), time: t))
        var farthest = 0.0
        var others = 0.0
        var clock = t
        while clock < t + 1.2 {
            clock += 1.0 / 60
            view.advance(to: clock)
            farthest = max(farthest, view.cradle.angles[4] * 180 / .pi)
            others = max(others, view.cradle.angles[1...3].map { abs($0) * 180 / .pi }.max()!)
        }
        #expect(abs(farthest + held) < 1)
        #expect(others < 0.6)
    }

    @Test func digitKeysPullAndSpacePauses() throws {
        let view = try CradleView(configuration: CradleConfiguration(ballCount: 3))
        // Three balls: key 3 would pull them all; it is refused with a reason.
        #expect(view.handle(KeyEvent(.character("3"))))
        #expect(view.cradle.angles == [0, 0, 0] && view.message != nil)
        #expect(view.handle(KeyEvent(.character("2"))))
        let angles = view.cradle.angles.map { $0 * 180 / .pi }
        #expect(abs(angles[0] + 30) < 1e-9 && abs(angles[1] + 30) < 1e-9 && angles[2] == 0)
        #expect(view.isAnimating)
        view.advance(to: 0)
        view.advance(to: 0.1)
        #expect(view.handle(KeyEvent(.space)))
        #expect(view.isPaused && !view.isAnimating)
        let paused = view.cradle.angles
        view.advance(to: 5)
        #expect(view.cradle.angles == paused)
        _ = view.handle(KeyEvent(.space))
        view.advance(to: 5 + 1.0 / 60)
        // Resumed where it stopped: one frame later, not five seconds later.
        #expect(abs(view.cradle.angles[0] - paused[0]) < 0.01)
        #expect(view.handle(KeyEvent(.character("r"))))
        #expect(view.cradle.angles == [0, 0, 0])
    }

    @Test func aCradleAtRestStopsAskingForFrames() throws {
        let view = try CradleView()
        #expect(view.isAnimating)
        run(view, from: 0, to: 0.5)
        #expect(!view.isAnimating)
        // Clicking next to the balls does nothing.
        #expect(!view.handle(PointerEvent(.began, at: Point(x: 2, y: 2))))
    }
}

@Suite struct CradleStatusTests {
    /// The readout is drawn in the view unless the host shows it itself.
    @Test func statusIsDrawnUnlessTheHostShowsIt() throws {
        let view = try CradleView()
        let drawn = RecordingCanvas(size: view.viewSize)
        view.draw(in: drawn)
        #expect(drawn.texts == ["Energy: at rest"])
        try view.update { try $0.pull(1) }
        let pulled = RecordingCanvas(size: view.viewSize)
        view.draw(in: pulled)
        #expect(pulled.texts == ["Energy 100 %"])
        view.showsStatus = false
        let hidden = RecordingCanvas(size: view.viewSize)
        view.draw(in: hidden)
        #expect(hidden.texts.isEmpty)
    }
}

/// What the view tells its owner: one typed event per thing it did, in order.
@Suite struct CradleEventTests {
    @Test func everyActionIsToldOnceAndNamedAfterWhatHappened() throws {
        let view = try CradleView()
        view.viewSize = Size(width: 640, height: 400)
        var events: [CradleEvent] = []
        view.onEvent = { events.append($0) }
        try view.update { try $0.pull(2) }
        #expect(events == [.pulled(count: 2)])
        view.update { $0.setPaused(true) }
        view.update { $0.setPaused(true) }  // already paused: nothing happened
        #expect(events == [.pulled(count: 2), .pausedChanged(true)])
        // Picking up a ball resumes, then holds it; letting go says which ball.
        events = []
        let first = view.layout.viewPoint(view.cradle.balls[0].center)
        _ = view.handle(PointerEvent(.began, at: first, time: 1))
        _ = view.handle(PointerEvent(.moved, at: first + Vector(dx: -20, dy: 0), time: 1.1))
        _ = view.handle(PointerEvent(.ended, at: first + Vector(dx: -40, dy: 0), time: 1.2))
        #expect(events == [.pausedChanged(false), .dragBegan(ball: 0), .dragEnded(ball: 0)])
        events = []
        view.update { $0.reset() }
        var configuration = view.cradle.configuration
        configuration.ballCount = 3
        try view.update { try $0.configure(configuration) }
        #expect(events == [.reset, .configured])
        // A press on no ball is not used and tells nothing.
        events = []
        #expect(!view.handle(PointerEvent(.began, at: Point(x: 1, y: 1), time: 2)))
        #expect(events.isEmpty)
    }
}
