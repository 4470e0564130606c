import TactileCore
import Testing

@testable import TactileHanoi

/// A disk dragged past the edge of the view stays in sight, kept whole inside it, and dropped
/// outside the view goes back to its peg.
@Suite struct HanoiDragOutsideTests {
    @Test(arguments: [
        Point(x: -500, y: -400), Point(x: 5000, y: 150), Point(x: 300, y: 9000),
        Point(x: -1e300, y: 1e300),
    ])
    func aDiskDraggedOutsideStaysInTheViewAndGoesBack(outside: Point) throws {
        let size = Size(width: 600, height: 300)
        var model = try HanoiModel(disks: 3, viewSize: size)
        _ = model.startManualPlay()
        let start = model.shownPosition
        let grip = model.layout.restingCenter(onPeg: 0, level: 2)
        #expect(model.handle(PointerEvent(.began, at: grip, time: 0)) == [])
        #expect(model.handle(PointerEvent(.moved, at: outside, time: 0.1)) == [.diskDragged])
        let loose = try #require(model.looseDisk)
        #expect(loose.disk == 1)
        let frame = Rect(
            center: loose.center,
            size: Size(width: model.layout.width(ofDisk: 1), height: model.layout.diskHeight))
        #expect(Rect(origin: .zero, size: size).insetBy(dx: -1e-9, dy: -1e-9).contains(frame))
        // As near the pointer as the view allows: on the edge it was dragged past.
        let view = Rect(origin: .zero, size: size)
        if outside.x < 0 { #expect(abs(frame.minX - view.minX) < 1e-9) }
        if outside.x > size.width { #expect(abs(frame.maxX - view.maxX) < 1e-9) }
        if outside.y > size.height { #expect(abs(frame.maxY - view.maxY) < 1e-9) }
        #expect(model.handle(PointerEvent(.ended, at: outside, time: 0.2)) == [.diskDragged])
        #expect(model.looseDisk == nil)
        #expect(model.shownPosition == start)
        #expect(model.game.moveCount == 0)
    }
}
