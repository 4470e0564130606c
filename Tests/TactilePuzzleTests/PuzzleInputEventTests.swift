import TactileCore
import TactilePuzzle
import Testing

/// The model takes view events with a layout and tells whole event lists, as the other
/// components' models do: a 640×360 picture shown at scale 1 with the slider track under it.
@Suite struct PuzzleInputEventTests {
    let layout = PuzzleLayout(
        viewSize: Size(width: 640, height: 410), areaSize: Size(width: 640, height: 360),
        showsTrack: true)

    func model() throws -> PuzzleModel {
        try PuzzleModel(
            areaSize: Size(width: 640, height: 360), pieceSize: Size(width: 96, height: 96),
            holePosition: Point(x: 412, y: 140), startPosition: Point(x: 0, y: 140),
            axis: .horizontal)
    }

    @Test func aThumbDragEndsInAnAttemptAtTheReleasePoint() throws {
        var m = try model()
        // The track is y 370…410; the thumb lies under the piece, x 0…96.
        #expect(
            m.handle(PointerEvent(.began, at: Point(x: 48, y: 390), time: 0), in: layout)
                == [.stateChanged(.dragging)])
        #expect(
            m.handle(PointerEvent(.moved, at: Point(x: 148, y: 395), time: 0.1), in: layout)
                == [.pieceMoved(Point(x: 100, y: 140))])
        let ended = m.handle(PointerEvent(.ended, at: Point(x: 148, y: 395), time: 0.2), in: layout)
        let events = try #require(ended)
        #expect(events.count == 2)
        #expect(events.first == .pieceMoved(Point(x: 100, y: 140)))
        guard case .attemptMade(let result) = events.last else {
            Issue.record("no attempt in \(events)")
            return
        }
        #expect(result.position == Point(x: 100, y: 140))
        #expect(result.inputMethod == .pointer)
        #expect(result.track.first?.x == 0)
        #expect(result.track.last?.x == 100)
    }

    @Test func aPressOffThePieceAndTheThumbIsNotUsed() throws {
        var m = try model()
        #expect(
            m.handle(PointerEvent(.began, at: Point(x: 300, y: 20), time: 0), in: layout) == nil)
        #expect(
            m.handle(PointerEvent(.moved, at: Point(x: 320, y: 20), time: 0.1), in: layout) == nil)
        #expect(m.state == .idle)
    }

    @Test func aReleaseFarOutsideTakesTheDragBack() throws {
        var m = try model()
        _ = m.handle(PointerEvent(.began, at: Point(x: 48, y: 180), time: 0), in: layout)
        _ = m.handle(PointerEvent(.moved, at: Point(x: 248, y: 180), time: 0.1), in: layout)
        let below = 410 + PuzzleModel.releaseMargin + 1
        #expect(
            m.handle(PointerEvent(.ended, at: Point(x: 248, y: below), time: 0.2), in: layout)
                == [.pieceMoved(Point(x: 0, y: 140)), .stateChanged(.idle)])
    }

    @Test func keysMoveByPicturePixelsAtAnyScaleAndEnterSubmits() throws {
        // Half scale: a 4-pixel step is still 4 area (picture) units, the steps the
        // verifier knows.
        let half = PuzzleLayout(
            viewSize: Size(width: 320, height: 230), areaSize: Size(width: 640, height: 360),
            showsTrack: true)
        var m = try model()
        #expect(
            m.handle(KeyEvent(.right), in: half, time: 1, step: 4)
                == [.stateChanged(.dragging), .pieceMoved(Point(x: 4, y: 140))])
        // The horizontal axis keeps the row: the key is taken, nothing moves.
        #expect(m.handle(KeyEvent(.down), in: half, time: 1.1, step: 4) == [])
        #expect(
            m.handle(KeyEvent(.right), in: half, time: 1.2, step: 4)
                == [.pieceMoved(Point(x: 8, y: 140))])
        let submitted = m.handle(KeyEvent(.enter), in: half, time: 1.5, step: 4)
        let events = try #require(submitted)
        guard case .attemptMade(let result) = events.first, events.count == 1 else {
            Issue.record("expected one attempt, got \(events)")
            return
        }
        #expect(result.position == Point(x: 8, y: 140))
        #expect(result.inputMethod == .keyboard)
        #expect(m.handle(KeyEvent(.character("x")), in: half, time: 2, step: 4) == nil)
    }
}
