import TactileCairo
import TactileCore
import TactileHanoi
import Testing

/// The drawn pixels agree with the model: each disk's colour appears where the layout puts it.
@Suite struct HanoiPixelTests {
    func render(_ view: HanoiView, width: Int = 900, height: Int = 500) -> Bitmap {
        view.viewSize = Size(width: Double(width), height: Double(height))
        let surface = ImageSurface(width: width, height: height)
        view.draw(in: surface.makeCanvas())
        return surface.bitmap()
    }

    func close(_ a: Color, _ b: Color, within tolerance: Double = 4.0 / 255) -> Bool {
        abs(a.red - b.red) <= tolerance && abs(a.green - b.green) <= tolerance
            && abs(a.blue - b.blue) <= tolerance
    }

    /// The colour at the vertical centre of a disk's vertical gradient.
    func middleColor(ofDisk disk: Int, of count: Int) -> Color {
        let base = HanoiTheme().color(ofDisk: disk, of: count)
        return base.adjustingBrightness(0.25).mixed(
            with: base.adjustingBrightness(-0.15), fraction: 0.5)
    }

    @Test func everyDiskIsDrawnWhereTheModelSaysAfterSeeking() throws {
        let view = try HanoiView(disks: 6)
        view.viewSize = Size(width: 900, height: 500)
        view.seek(to: 21)
        let bitmap = render(view)
        let position = view.playback.position
        let layout = HanoiLayout(viewSize: view.viewSize, disks: 6, pegs: 3)
        for peg in 0..<3 {
            for (level, disk) in position.disks(on: peg).enumerated() {
                let frame = layout.frame(ofDisk: disk, onPeg: peg, level: level)
                // Sample left of the rod, at the disk's vertical centre.
                let x = Int(frame.minX + frame.width * 0.2)
                let y = Int(frame.midY)
                #expect(
                    close(bitmap[x, y], middleColor(ofDisk: disk, of: 6), within: 12.0 / 255),
                    "disk \(disk) on peg \(peg) at level \(level): \(bitmap[x, y])")
            }
            // Just above the stack, beside the rod, is background.
            let level = position.disks(on: peg).count
            let above = layout.frame(ofDisk: 6, onPeg: peg, level: level)
            #expect(close(bitmap[Int(above.minX + 4), Int(above.midY)], HanoiTheme().background))
        }
    }

    @Test func theFlyingDiskIsOnItsPathMidMove() throws {
        let view = try HanoiView(disks: 3)
        view.viewSize = Size(width: 900, height: 500)
        view.setSpeed(.movesPerSecond(1))
        view.play()
        view.advance(to: 0)
        view.advance(to: 0.25)
        view.advance(to: 0.5)  // disk 1 halfway from A to C: above B
        let bitmap = render(view)
        let layout = HanoiLayout(viewSize: view.viewSize, disks: 3, pegs: 3)
        let path = layout.travelPath(
            of: HanoiMove(disk: 1, from: 0, to: 2), fromLevel: 2, toLevel: 0)
        // Symmetric path and easing: halfway in time is halfway in length, above peg B.
        #expect(abs(path[1].y - path[2].y) < 1e-9)
        let center = Point(x: 450, y: path[1].y)
        #expect(
            close(
                bitmap[Int(center.x), Int(center.y)], middleColor(ofDisk: 1, of: 3),
                within: 12.0 / 255))
        // And disk 1 is no longer drawn on A.
        let onA = layout.frame(ofDisk: 1, onPeg: 0, level: 2)
        #expect(close(bitmap[Int(onA.minX + 3), Int(onA.midY)], HanoiTheme().background))
    }
}
