import TactileCore
import TactilePuzzle
import Testing

/// A passed puzzle may show its whole picture behind the piece; before the pass it may not.
@Suite struct PuzzleRevealTests {
    func background(of view: PuzzleView) -> Bitmap? {
        if case .prepared(let background, _) = view.content { return background }
        return nil
    }

    @Test func theWholePictureReplacesTheBackgroundOnlyOncePassed() throws {
        let holes = Bitmap(width: 320, height: 240, fill: .black)
        let whole = Bitmap(width: 320, height: 240, fill: .white)
        let piece = Bitmap(width: 80, height: 60, fill: .white)
        let view = try PuzzleView(
            content: .prepared(background: holes, piece: piece), axis: .free,
            verification: .deferred { _ in .passed(snapTo: Point(x: 160, y: 90)) },
            viewSize: Size(width: 320, height: 240))
        view.reducesMotion = true
        view.update { $0.revealPicture(whole) }
        #expect(background(of: view) == holes)
        view.handle(PointerEvent(.began, at: Point(x: 40, y: 30), time: 0))
        view.handle(PointerEvent(.moved, at: Point(x: 200, y: 120), time: 0.5))
        view.handle(PointerEvent(.ended, at: Point(x: 200, y: 120), time: 0.6))
        #expect(view.state == .verified)
        // A picture of another size is not this puzzle's.
        view.update { $0.revealPicture(Bitmap(width: 10, height: 10, fill: .white)) }
        #expect(background(of: view) == holes)
        view.update { $0.revealPicture(whole) }
        #expect(background(of: view) == whole)
    }
}
