import TactileCore
import TactilePuzzle
import TestSupport
import Testing

/// A view waiting for its puzzle (one on its way, or none to be had) shows an empty frame:
/// no picture, no piece, no instruction, and it takes no input until a puzzle is loaded.
@Suite struct PuzzleWaitingTests {
    let background = Bitmap(width: 320, height: 180, fill: .white)
    let piece = Bitmap(width: 48, height: 48, fill: .black)

    func view() throws -> PuzzleView {
        try PuzzleView(
            content: .prepared(background: background, piece: piece), axis: .horizontal,
            viewSize: Size(width: 320, height: 230))
    }

    func drawing(_ view: PuzzleView) -> RecordingCanvas {
        let canvas = RecordingCanvas(size: view.viewSize)
        view.draw(in: canvas)
        return canvas
    }

    func bitmaps(_ canvas: RecordingCanvas) -> Int {
        canvas.calls.filter { if case .bitmap = $0 { true } else { false } }.count
    }

    @Test func aWaitingViewDrawsAnEmptyFrameAndTakesNoInput() throws {
        let v = try view()
        #expect(bitmaps(drawing(v)) == 2, "picture and piece, before the wait")
        #expect(drawing(v).texts == ["Slide the piece into the gap"])
        v.update { $0.setWaiting(true) }
        let canvas = drawing(v)
        #expect(bitmaps(canvas) == 0)
        #expect(canvas.texts.isEmpty, "no instruction for a piece that is not there")
        #expect(!canvas.fillColors.isEmpty, "the frame is still drawn")
        let start = v.piecePosition
        let grab = v.layout.viewPoint(Point(x: start.x + 24, y: start.y + 24))
        #expect(!v.handle(PointerEvent(.began, at: grab, time: 0)))
        #expect(!v.handle(PointerEvent(.moved, at: Point(x: 200, y: grab.y), time: 0.3)))
        #expect(!v.handle(KeyEvent(.right)))
        #expect(v.piecePosition == start && v.state == .idle)
        #expect(v.accessibility.description == "no puzzle yet")
        #expect(v.accessibility.isDisabled)
    }

    @Test func aWaitBeginningMidDragCancelsTheDrag() throws {
        let v = try view()
        let start = v.piecePosition
        let grab = v.layout.viewPoint(Point(x: start.x + 24, y: start.y + 24))
        #expect(v.handle(PointerEvent(.began, at: grab, time: 0)))
        #expect(v.handle(PointerEvent(.moved, at: Point(x: grab.x + 60, y: grab.y), time: 0.3)))
        #expect(v.state == .dragging)
        v.update { $0.setWaiting(true) }
        #expect(v.state == .idle)
    }

    @Test func aLockWhileWaitingSaysWhy() throws {
        let v = try view()
        v.update { $0.setWaiting(true) }
        v.update { $0.lock() }
        #expect(drawing(v).texts == ["Too many attempts"])
    }

    @Test func loadingAPuzzleEndsTheWait() throws {
        let v = try view()
        v.update { $0.setWaiting(true) }
        try v.update {
            try $0.load(.prepared(background: background, piece: piece), axis: .vertical)
        }
        #expect(!v.isWaiting)
        #expect(bitmaps(drawing(v)) == 2)
        #expect(!v.accessibility.isDisabled)
    }
}
