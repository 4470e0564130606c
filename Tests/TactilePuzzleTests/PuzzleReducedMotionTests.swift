import TactileCore
import TactilePuzzle
import Testing

/// With "reduce motion", an outcome is a change of state at once: no snap, fade or shake,
/// and the same events in the same order as after the animation.
@Suite struct PuzzleReducedMotionTests {
    func attempt(at x: Double, reducesMotion: Bool) throws -> (PuzzleModel, PuzzleResult) {
        var model = try PuzzleModel(
            areaSize: Size(width: 320, height: 240), pieceSize: Size(width: 80, height: 60),
            holePosition: Point(x: 160, y: 90), startPosition: Point(x: 0, y: 90),
            axis: .horizontal)
        model.reducesMotion = reducesMotion
        model.beginDrag(at: Point(x: 40, y: 120), time: 0)
        model.moveDrag(to: Point(x: 40 + x, y: 120), time: 0.4)
        let ended = model.endDrag(at: Point(x: 40 + x, y: 120), time: 0.5)
        let result = try #require(ended)
        return (model, result)
    }

    @Test func aPassIsToldAtOnceWithThePieceInTheHole() throws {
        var (model, result) = try attempt(at: 157, reducesMotion: true)
        let events = model.settle(.passed(snapTo: Point(x: 160, y: 90)), result: result, at: 1)
        #expect(
            events == [
                .stateChanged(.verified), .pieceMoved(Point(x: 160, y: 90)), .passed(result),
            ])
        #expect(model.animation == nil)
        // With motion, the same outcome comes after the snap and the fade.
        var (moving, same) = try attempt(at: 157, reducesMotion: false)
        #expect(
            moving.settle(.passed(snapTo: Point(x: 160, y: 90)), result: same, at: 1)
                == [.stateChanged(.verified)])
        #expect(moving.animation != nil)
        let end = 1 + moving.animation!.duration
        #expect(moving.advance(to: end) == [.pieceMoved(Point(x: 160, y: 90)), .passed(same)])
    }

    @Test func aFailureGoesBackToTheStartAtOnce() throws {
        var (model, result) = try attempt(at: 60, reducesMotion: true)
        let events = model.settle(.notPassed, result: result, at: 1)
        #expect(
            events == [.stateChanged(.failed), .pieceMoved(Point(x: 0, y: 90)), .failed(result)])
        #expect(model.animation == nil)
        #expect(model.piecePosition == Point(x: 0, y: 90))
    }
}
