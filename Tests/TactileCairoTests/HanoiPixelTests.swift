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

    /// A colour's hue, 0…1, by the usual RGB to HSV formula.
    func hue(_ c: Color) -> Double {
        let high = max(c.red, c.green, c.blue)
        let low = min(c.red, c.green, c.blue)
        guard high - low > 1e-9 else { return 0 }
        let d = high - low
        let h: Double =
            high == c.red
            ? (c.green - c.blue) / d
            : high == c.green ? 2 + (c.blue - c.red) / d : 4 + (c.red - c.green) / d
        return (h / 6 + 1).truncatingRemainder(dividingBy: 1)
    }

    /// Whether a pixel shows `disk` of `count`: its hue is the theme's for that disk (shading
    /// lightens and darkens a disk, not its hue) and nearer it than any other disk's, and it
    /// is coloured, not grey.
    func shows(_ pixel: Color, disk: Int, of count: Int) -> Bool {
        let theme = HanoiTheme()
        func distance(_ d: Int) -> Double {
            let a = hue(pixel)
            let b = hue(theme.color(ofDisk: d, of: count))
            return min(abs(a - b), 1 - abs(a - b))
        }
        let saturated =
            max(pixel.red, pixel.green, pixel.blue) - min(pixel.red, pixel.green, pixel.blue) > 0.2
        let nearest = (1...count).min { distance($0) < distance($1) }
        return saturated && nearest == disk && distance(disk) < 0.03
    }

    @Test func everyDiskIsDrawnWhereTheModelSaysAfterSeeking() throws {
        let view = try HanoiView(disks: 6)
        view.viewSize = Size(width: 900, height: 500)
        view.update { $0.seek(to: 21) }
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
                    shows(bitmap[x, y], disk: disk, of: 6),
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
        view.update { $0.setSpeed(.movesPerSecond(1)) }
        view.update { $0.play() }
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
        #expect(shows(bitmap[Int(center.x), Int(center.y)], disk: 1, of: 3))
        // And disk 1 is no longer drawn on A.
        let onA = layout.frame(ofDisk: 1, onPeg: 0, level: 2)
        #expect(close(bitmap[Int(onA.minX + 3), Int(onA.midY)], HanoiTheme().background))
    }
}
