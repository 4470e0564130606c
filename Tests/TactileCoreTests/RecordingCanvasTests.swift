import TactileCore
import TestSupport
import Testing

/// The test canvas records what a real canvas would show: transforms applied, clips cutting.
@Suite struct RecordingCanvasTests {
    let square = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))

    @Test func transformsApplyInOrderAndRestoreUndoesThem() {
        let canvas = RecordingCanvas(size: Size(width: 200, height: 200))
        canvas.save()
        canvas.concatenate(Transform2D(translationX: 50, y: 20))
        canvas.concatenate(Transform2D(scaleX: 2, y: 3))
        canvas.fill(square, with: .black, rule: .nonZero)
        canvas.stroke(square, with: .white, style: StrokeStyle(width: 1))
        canvas.restore()
        canvas.fill(square, with: .black, rule: .nonZero)
        // Scaled first, then moved: (0…20, 0…30) + (50, 20).
        #expect(
            canvas.calls == [
                .fill(Rect(x: 50, y: 20, width: 20, height: 30), .black),
                .stroke(Rect(x: 50, y: 20, width: 20, height: 30), .white, width: 6.0.squareRoot()),
                .fill(Rect(x: 0, y: 0, width: 10, height: 10), .black),
            ])
    }

    @Test func aClipCutsWhatIsDrawnAndHidesWhatFallsOutside() {
        let canvas = RecordingCanvas(size: Size(width: 100, height: 100))
        canvas.save()
        canvas.clip(to: Path(rect: Rect(x: 5, y: 5, width: 20, height: 20)), rule: .nonZero)
        canvas.fill(square, with: .black, rule: .nonZero)
        canvas.fill(
            Path(rect: Rect(x: 60, y: 60, width: 5, height: 5)), with: .white, rule: .nonZero)
        canvas.restore()
        canvas.fill(
            Path(rect: Rect(x: 60, y: 60, width: 5, height: 5)), with: .white, rule: .nonZero)
        #expect(
            canvas.calls == [
                .fill(Rect(x: 5, y: 5, width: 5, height: 5), .black),
                .fill(Rect(x: 60, y: 60, width: 5, height: 5), .white),
            ])
    }
}
