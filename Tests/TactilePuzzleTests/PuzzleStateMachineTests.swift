import TactileCore
import TactilePuzzle
import TestSupport
import Testing

/// Failures, locking, reset, keyboard and deferred verification.
@Suite struct PuzzleStateMachineTests {
    func view(axis: PuzzleAxis = .free, verification: PuzzleControl.Verification = .local)
        -> PuzzleView
    {
        try! PuzzleView(
            pieceSize: Size(width: 80, height: 60), holePosition: Point(x: 160, y: 90),
            axis: axis, verificationTolerance: 4, areaSize: Size(width: 320, height: 240),
            verification: verification, viewSize: Size(width: 320, height: 240))
    }

    /// Drags the piece by `delta` from its current place and releases it.
    func drag(_ v: PuzzleView, by delta: Vector, at time: Double) {
        let grab = v.layout.viewPoint(v.puzzle.pieceFrame.center)
        v.handle(PointerEvent(.began, at: grab, time: time))
        v.handle(PointerEvent(.moved, at: grab + delta * 0.5, time: time + 0.1))
        v.handle(PointerEvent(.ended, at: grab + delta, time: time + 0.2))
    }

    @Test func missShakesReturnsAndReportsFailure() {
        let v = view()
        var failures: [PuzzleResult] = []
        v.onEvent = { if case .failed(let r) = $0 { failures.append(r) } }
        drag(v, by: Vector(dx: 100, dy: 100), at: 0)
        #expect(v.state == .failed)
        #expect(v.puzzle.failureCount == 1)
        v.advance(to: 0.2 + 0.1)
        // Mid-shake the piece has not moved in the model; the drawing is offset.
        #expect(v.piecePosition == Point(x: 100, y: 100))
        #expect(v.animation?.shakeOffset(at: 0.3) != 0)
        #expect(failures.isEmpty)
        v.advance(to: 2)
        #expect(v.piecePosition == .zero)
        #expect(failures.count == 1)
        #expect(failures[0].offset == Vector(dx: -60, dy: 10))
    }

    /// A verdict that comes later (over the network): the view waits in `verifying`, takes
    /// no input meanwhile, and settles once when the verdict is delivered.
    @Test func aPendingVerdictWaitsThenSettlesOnce() {
        var sent: [PuzzleResult] = []
        let v = view(verification: .pending)
        var states: [PuzzleState] = []
        var completions = 0
        v.onEvent = { event in
            if case .attemptMade(let result) = event { sent.append(result) }
            if case .stateChanged(let state) = event { states.append(state) }
            if case .passed = event { completions += 1 }
        }
        drag(v, by: Vector(dx: 40, dy: 50), at: 0)
        #expect(sent.count == 1)
        #expect(v.state == .verifying)
        #expect(v.isAnimating, "the waiting mark turns")
        #expect(v.piecePosition == Point(x: 40, y: 50), "the piece stays where it was released")
        // Input waits: neither a drag nor a key moves the piece.
        drag(v, by: Vector(dx: 30, dy: 0), at: 1)
        #expect(!v.handle(KeyEvent(.right)))
        #expect(v.piecePosition == Point(x: 40, y: 50) && sent.count == 1)
        v.update { $0.deliverVerdict(.passed(snapTo: Point(x: 160, y: 90))) }
        #expect(v.state == .verified)
        v.advance(to: 5)
        #expect(v.piecePosition == Point(x: 160, y: 90))
        #expect(completions == 1)
        // A second verdict for the same attempt belongs to nothing.
        v.update { $0.deliverVerdict(.notPassed) }
        #expect(v.state == .verified)
        #expect(states == [.dragging, .verifying, .verified])
    }

    @Test func aPendingVerdictAfterResetIsIgnored() {
        let v = view(verification: .pending)
        drag(v, by: Vector(dx: 10, dy: 10), at: 0)
        #expect(v.state == .verifying)
        v.update { $0.reset() }
        v.update { $0.deliverVerdict(.passed(snapTo: Point(x: 160, y: 90))) }
        #expect(v.state == .idle)
        #expect(v.piecePosition == .zero)
    }

    /// A drag let go well outside the picture is taken back: no attempt is made (so no
    /// puzzle is spent), the piece returns, and the next drag works.
    @Test func aReleaseFarOutsideThePictureIsTakenBack() {
        var told: [PuzzleEvent] = []
        let v = view()
        v.onEvent = { told.append($0) }
        let grab = v.layout.viewPoint(v.puzzle.pieceFrame.center)
        v.handle(PointerEvent(.began, at: grab, time: 0))
        v.handle(PointerEvent(.moved, at: Point(x: 300, y: 200), time: 0.1))
        let outside = Point(x: v.layout.imageRect.maxX + PuzzleModel.releaseMargin + 5, y: 100)
        #expect(v.handle(PointerEvent(.ended, at: outside, time: 0.2)))
        #expect(v.state == .idle)
        #expect(v.piecePosition == .zero)
        #expect(!told.contains { if case .attemptMade = $0 { true } else { false } })
        // Within the margin it is an attempt as before.
        told = []
        let near = Point(x: v.layout.imageRect.maxX + PuzzleModel.releaseMargin - 5, y: 100)
        v.handle(PointerEvent(.began, at: grab, time: 1))
        v.handle(PointerEvent(.moved, at: near, time: 1.1))
        v.handle(PointerEvent(.ended, at: near, time: 1.2))
        #expect(told.contains { if case .attemptMade = $0 { true } else { false } })
    }

    @Test func withoutReturnThePieceStaysWhereItFailed() {
        let v = view()
        v.returnsAfterFailure = false
        drag(v, by: Vector(dx: 100, dy: 100), at: 0)
        v.advance(to: 2)
        #expect(v.piecePosition == Point(x: 100, y: 100))
    }

    @Test func locksAfterTheMaximumFailuresUntilReset() throws {
        let v = view()
        try v.update { try $0.setMaximumFailures(3) }
        var time = 0.0
        for attempt in 1...3 {
            drag(v, by: Vector(dx: 10, dy: 10), at: time)
            time += 2
            v.advance(to: time)
            #expect(v.puzzle.failureCount == attempt)
        }
        #expect(v.state == .locked)
        drag(v, by: Vector(dx: 160, dy: 90), at: time)
        #expect(v.state == .locked)
        #expect(!v.handle(KeyEvent(.right)))
        v.update { $0.reset() }
        #expect(v.state == .idle)
        #expect(v.puzzle.failureCount == 0)
        drag(v, by: Vector(dx: 160, dy: 90), at: time + 3)
        #expect(v.state == .verified)
    }

    @Test func horizontalAxisIgnoresVerticalMovement() {
        let v = view(axis: .horizontal)
        #expect(v.piecePosition == Point(x: 0, y: 90))
        // The track under the picture shrinks it: area units are not view points here.
        #expect(v.layout.scale < 1)
        drag(v, by: Vector(dx: 161, dy: 70) * v.layout.scale, at: 0)
        #expect(v.puzzle.piecePosition.y == 90)
        #expect(v.state == .verified)
        // The track keeps the hand's drift across the slider.
        let last = v.lastResult!.track.last!
        expectClose(last.position, Point(x: 161, y: 160), within: 1e-9)
    }

    @Test func theTrackFollowsTheAxisUnlessTheHostChose() throws {
        let v = view(axis: .horizontal)
        try v.update { try $0.load(.picture(nil), axis: .vertical) }
        #expect(!v.showsSliderTrack && v.layout.trackRect == nil, "a vertical puzzle has none")
        try v.update { try $0.load(.picture(nil), axis: .horizontal) }
        #expect(v.showsSliderTrack && v.layout.trackRect != nil)
        // The host's choice outlasts new content, whatever its axis.
        v.showsSliderTrack = false
        try v.update { try $0.load(.picture(nil), axis: .horizontal) }
        #expect(!v.showsSliderTrack && v.layout.trackRect == nil)
        // The layout follows the size at once.
        let before = v.layout.imageRect
        v.viewSize = Size(width: 160, height: 120)
        #expect(v.layout.imageRect.width == before.width / 2)
    }

    @Test func sliderThumbDragsThePiece() {
        let v = view(axis: .horizontal)
        #expect(v.showsSliderTrack)
        let thumb = v.layout.thumbRect(pieceFrame: v.puzzle.pieceFrame)!
        #expect(v.layout.imageRect.maxY < thumb.minY)
        v.handle(PointerEvent(.began, at: thumb.center, time: 0))
        v.handle(
            PointerEvent(
                .moved, at: thumb.center + Vector(dx: 80 * v.layout.scale, dy: 0), time: 0.1))
        expectClose(v.piecePosition.x, 80, within: 1e-9)
    }

    @Test func arrowKeysMoveShiftIsFineAndEnterSubmits() {
        let v = view(axis: .horizontal)
        let step = PuzzleKeySteps.first
        var clock = 10.0
        // Keys carry no time: the host brings the view to each press's time first.
        v.advance(to: clock)
        #expect(v.handle(KeyEvent(.right)))
        #expect(v.state == .dragging)
        expectClose(v.piecePosition.x, step, within: 1e-9)
        clock += 0.2
        v.advance(to: clock)
        #expect(v.handle(KeyEvent(.right, modifiers: .shift)))
        expectClose(v.piecePosition.x, step + PuzzleKeySteps.fine, within: 1e-9)
        #expect(v.handle(KeyEvent(.up)))  // Accepted but the axis forbids moving.
        #expect(v.piecePosition.y == 90)
        v.update { $0.movePiece(to: Point(x: 158, y: 90)) }
        clock += 0.3
        v.advance(to: clock)
        #expect(v.handle(KeyEvent(.enter)))
        #expect(v.state == .verified)
        #expect(v.lastResult?.inputMethod == .keyboard)
        expectClose(v.lastResult!.elapsedTime, 0.5, within: 1e-9)
    }

    @Test func deferredVerificationDecidesWithTheResult() {
        var seen: [PuzzleResult] = []
        let v = try! PuzzleView(
            content: .prepared(
                background: Bitmap(width: 320, height: 240, fill: .white),
                piece: Bitmap(width: 80, height: 60, fill: .black)),
            axis: .free,
            verification: .deferred { result in
                seen.append(result)
                return result.widthFractions.x > 0.4
                    ? .passed(snapTo: Point(x: 150, y: 80)) : .locked(retryAfter: nil)
            }, viewSize: Size(width: 320, height: 240))
        #expect(v.puzzle.pieceSize == Size(width: 80, height: 60))
        drag(v, by: Vector(dx: 140, dy: 70), at: 0)
        #expect(seen.count == 1)
        #expect(seen[0].offset == nil)  // The hole is not the view's to know.
        expectClose(seen[0].widthFractions.x, 140.0 / 320, within: 1e-12)
        #expect(v.state == .verified)
        v.advance(to: 5)
        #expect(v.piecePosition == Point(x: 150, y: 80))
        v.update { $0.reset() }
        drag(v, by: Vector(dx: 10, dy: 0), at: 6)
        #expect(v.state == .locked)
    }

    /// Every event, in order, named: a miss, then a pass.
    @Test func oneOnEventTellsEverythingInOrder() {
        var told: [String] = []
        let v = view()
        v.onEvent = { event in
            switch event {
            case .pieceMoved(let p): told.append("moved \(Int(p.x)),\(Int(p.y))")
            case .stateChanged(let state): told.append("state \(state)")
            case .attemptMade: told.append("attempt")
            case .passed: told.append("passed")
            case .failed: told.append("failed")
            }
        }
        drag(v, by: Vector(dx: 30, dy: 0), at: 0)
        v.advance(to: 2)
        drag(v, by: Vector(dx: 160, dy: 90), at: 3)
        v.advance(to: 5)
        #expect(
            told == [
                "state dragging", "moved 15,0", "moved 30,0", "attempt", "state failed",
                "moved 0,0", "failed",
                "state dragging", "moved 80,45", "moved 160,90", "attempt", "state verified",
                "moved 160,90", "passed",
            ])
    }

    @Test func layoutScalesAreaToTheView() {
        let v = try! PuzzleView(
            content: .picture(Bitmap(width: 640, height: 360, fill: .white)),
            pieceSize: Size(width: 96, height: 96), holePosition: Point(x: 300, y: 100),
            axis: .horizontal, viewSize: Size(width: 400, height: 300))
        // 400 wide: scale 0.625; 225 high, the track under it.
        expectClose(v.layout.scale, 0.625, within: 1e-12)
        expectClose(v.layout.imageRect, Rect(x: 0, y: 0, width: 400, height: 225), within: 1e-9)
        expectClose(v.layout.areaPoint(Point(x: 200, y: 100)), Point(x: 320, y: 160), within: 1e-9)
        expectClose(v.layout.viewPoint(Point(x: 320, y: 160)), Point(x: 200, y: 100), within: 1e-9)
    }
}
