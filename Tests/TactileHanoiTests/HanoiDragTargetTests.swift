import TactileCore
import TactileHanoi
import TestSupport
import Testing

/// While a disk is dragged, the peg under it says before the drop whether the disk may go
/// there, and the disk lets the smaller disks it passes over show through.
@Suite struct HanoiDragTargetTests {
    /// Three disks, three pegs side by side in a 900 × 500 view: A, B and C in thirds.
    func model() throws -> HanoiModel {
        var model = try HanoiModel(disks: 3)
        model.viewSize = Size(width: 900, height: 500)
        _ = model.startManualPlay()
        return model
    }

    let a = Point(x: 150, y: 300)
    let b = Point(x: 450, y: 300)
    let c = Point(x: 750, y: 300)

    @Test func thePegUnderADraggedDiskShowsWhetherItMayGoThere() throws {
        var model = try model()
        // Disk 1 to C by dragging.
        _ = model.handle(PointerEvent(.began, at: a))
        _ = model.handle(PointerEvent(.moved, at: b))
        #expect(model.marks.dropTarget == 1 && model.marks.dropAllowed, "an empty peg")
        _ = model.handle(PointerEvent(.moved, at: c))
        #expect(model.marks.dropTarget == 2 && model.marks.dropAllowed)
        _ = model.handle(PointerEvent(.ended, at: c))
        #expect(model.marks.dropTarget == nil, "nothing in the hand")
        // Disk 2 over disk 1: refused before it is dropped; over B: allowed.
        _ = model.handle(PointerEvent(.began, at: a))
        _ = model.handle(PointerEvent(.moved, at: c))
        #expect(model.marks.dropTarget == 2)
        #expect(!model.marks.dropAllowed, "disk 2 may not go on disk 1")
        _ = model.handle(PointerEvent(.moved, at: b))
        #expect(model.marks.dropTarget == 1 && model.marks.dropAllowed)
        // Back over its own peg: no target.
        _ = model.handle(PointerEvent(.moved, at: a))
        #expect(model.marks.dropTarget == nil)
        _ = model.handle(PointerEvent(.cancelled, at: a))
        #expect(model.marks.dropTarget == nil)
    }

    @Test func aDiskInTheHandIsSeeThroughAndOneInFlightIsNot() throws {
        var model = try model()
        _ = model.handle(PointerEvent(.began, at: a))
        _ = model.handle(PointerEvent(.moved, at: b))
        let held = try #require(model.looseDisk)
        #expect(held.opacity < 1 && held.opacity >= 0.5)
        var solver = try HanoiModel(disks: 3)
        _ = solver.advance(to: 0)
        _ = solver.play()
        _ = solver.advance(to: 0.1)
        let flying = try #require(solver.looseDisk)
        #expect(flying.opacity == 1)
    }

    @Test func theRefusedDropIsDrawnInTheRefusalColour() throws {
        var model = try model()
        _ = model.handle(PointerEvent(.began, at: a))
        _ = model.handle(PointerEvent(.ended, at: c))  // disk 1 to C
        _ = model.handle(PointerEvent(.began, at: a))
        _ = model.handle(PointerEvent(.moved, at: c))  // disk 2 over disk 1
        let theme = HanoiTheme()
        let canvas = RecordingCanvas(size: model.viewSize)
        HanoiRenderer(layout: model.layout, theme: theme).draw(
            model.shownPosition, loose: model.looseDisk, marks: model.marks, in: canvas)
        let outlines = canvas.strokes.filter { $0.1 == theme.refusal }
        #expect(outlines.count == 1, "one peg outlined as refused")
        #expect(outlines.first.map { $0.0.midX > 600 } == true, "and it is C")
        #expect(!canvas.strokes.contains { $0.1 == theme.highlight })
    }
}
