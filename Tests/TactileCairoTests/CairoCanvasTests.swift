import Foundation
import TactileCairo
import TactileCore
import Testing

/// The Cairo canvas draws what the Canvas contract says, checked pixel by pixel.
@Suite struct CairoCanvasTests {
    func surface(_ draw: (CairoCanvas) -> Void) -> Bitmap {
        let surface = ImageSurface(width: 100, height: 100)
        let canvas = surface.makeCanvas()
        canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 100, height: 100)), with: .white)
        draw(canvas)
        return surface.bitmap()
    }

    @Test func fillRulesDecideTheHole() {
        var rings = Path()
        rings.addRect(Rect(x: 10, y: 10, width: 80, height: 80))
        rings.addRect(Rect(x: 30, y: 30, width: 40, height: 40))  // same direction
        let red = Color(red: 1, green: 0, blue: 0)
        let nonZero = surface { $0.fill(rings, with: red, rule: .nonZero) }
        let evenOdd = surface { $0.fill(rings, with: red, rule: .evenOdd) }
        #expect(nonZero[50, 50] == red)
        #expect(evenOdd[50, 50] == .white)
        #expect(evenOdd[20, 20] == red)
        // Pixels agree with the path's own containment test away from edges.
        for y in stride(from: 1, to: 100, by: 7) {
            for x in stride(from: 1, to: 100, by: 7) {
                let p = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
                #expect((evenOdd[x, y] == red) == rings.contains(p, rule: .evenOdd))
            }
        }
    }

    @Test func transformsAndClipsApply() {
        let blue = Color(red: 0, green: 0, blue: 1)
        let bitmap = surface { canvas in
            canvas.withSavedState {
                canvas.concatenate(Transform2D(translationX: 50, y: 0))
                canvas.clip(to: Path(rect: Rect(x: 0, y: 0, width: 20, height: 100)))
                canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 50, height: 50)), with: blue)
            }
        }
        #expect(bitmap[60, 10] == blue)
        #expect(bitmap[75, 10] == .white, "clipped")
        #expect(bitmap[10, 10] == .white, "translated")
    }

    @Test func strokesHaveTheirWidthAndDashes() {
        var line = Path()
        line.move(to: Point(x: 0, y: 50))
        line.addLine(to: Point(x: 100, y: 50))
        let black = Color.black
        let solid = surface { $0.stroke(line, with: black, style: StrokeStyle(width: 10)) }
        #expect(solid[50, 46] == black && solid[50, 53] == black)
        #expect(solid[50, 40] == .white)
        let dashed = surface {
            $0.stroke(line, with: black, style: StrokeStyle(width: 10, dash: [10, 10]))
        }
        #expect(dashed[5, 50] == black)
        #expect(dashed[15, 50] == .white)
    }

    @Test func bitmapsRoundTripThroughSurfacesAndPNG() throws {
        var bitmap = Bitmap(width: 7, height: 5, fill: Color(red8: 10, green8: 200, blue8: 30))
        bitmap[3, 2] = Color(red8: 255, green8: 0, blue8: 128)
        bitmap[0, 0] = .clear
        let surface = ImageSurface(bitmap: bitmap)
        #expect(surface.bitmap() == bitmap)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tactile-\(UUID()).png"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try surface.writePNG(to: path)
        let decoded = try ImageLoader.load(path: path)
        #expect(decoded == bitmap)
    }

    @Test func loadingAMissingOrBrokenFileSaysWhy() throws {
        #expect(throws: ImageFileError.self) {
            try ImageLoader.load(path: "/nonexistent/picture.png")
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tactile-\(UUID()).png"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: ImageFileError.self) { try ImageLoader.load(path: path) }
        #expect(error.description.hasPrefix(path))
    }

    @Test func textIsMeasuredAndDrawn() {
        let font = Font(size: 20, weight: .bold)
        var measured = Size.zero
        let bitmap = surface { canvas in
            measured = canvas.measure("Hanoi", font: font)
            canvas.draw(
                "Hanoi", at: Point(x: 50, y: 30), font: font, color: .black, alignment: .center)
        }
        #expect(measured.width > 30 && measured.height > 15)
        var dark = 0
        for y in 30..<60 {
            for x in 0..<100 where bitmap[x, y].red < 0.5 { dark += 1 }
        }
        #expect(dark > 40)
        #expect(bitmap[5, 5] == .white)
    }

    @Test func animatedGIFsDecodeToTheirFirstFrame() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tactile-\(UUID()).gif"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try GIFWriter(path: path, width: 20, height: 10)
        var first = Bitmap(width: 20, height: 10, fill: Color(red8: 200, green8: 40, blue8: 40))
        for x in 10..<20 {
            for y in 0..<10 { first[x, y] = Color(red8: 20, green8: 40, blue8: 220) }
        }
        try writer.addFrame(first, delay: 0.05)
        try writer.addFrame(Bitmap(width: 20, height: 10, fill: .black), delay: 0.05)
        #expect(!FileManager.default.fileExists(atPath: path), "nothing appears before finish")
        try writer.finish()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.starts(with: Array("GIF89a".utf8)))
        #expect(bytes.range(of: Data("NETSCAPE2.0".utf8)) != nil)
        let decoded = try ImageLoader.load(path: path)
        #expect(decoded.width == 20 && decoded.height == 10)
        for (x, y) in [(2, 2), (15, 7)] {
            let a = decoded[x, y]
            let b = first[x, y]
            #expect(
                abs(a.red - b.red) < 0.05 && abs(a.green - b.green) < 0.05
                    && abs(a.blue - b.blue) < 0.05)
        }
        #expect(throws: ImageFileError.self) { try writer.addFrame(first, delay: 0.05) }
    }
}
