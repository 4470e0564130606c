import TactileCairo
import TactileCore
import TactilePuzzle
import Testing

/// On a dark picture the piece keeps a light rim: the shadow that shows it on a light
/// picture cannot show on black, so without the rim a dark piece on a dark picture is all but
/// invisible.
@Suite struct PuzzleDarkPictureTests {
    func luminance(_ c: Color) -> Double { 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue }

    @Test func aDarkPieceOnADarkPictureHasALightRim() throws {
        let view = try PuzzleView(
            content: .prepared(
                background: Bitmap(width: 320, height: 240, fill: Color(white: 0.05)),
                piece: Bitmap(width: 80, height: 60, fill: Color(white: 0.1))),
            startPosition: Point(x: 100, y: 90), shape: .square, axis: .free,
            viewSize: Size(width: 320, height: 240))
        let image = ImageSurface(width: 320, height: 240)
        view.draw(in: image.makeCanvas())
        let pixels = image.bitmap()
        // The piece spans x 100…180, y 90…150: just outside each edge, and far away.
        let rim = [(182, 120), (98, 120), (140, 88), (140, 152)].map {
            luminance(pixels[$0.0, $0.1])
        }
        let away = luminance(pixels[20, 20])
        let inside = luminance(pixels[140, 120])
        for (index, value) in rim.enumerated() {
            #expect(value > away + 0.2, "rim \(index): \(value) against the picture's \(away)")
            #expect(value > inside + 0.15, "rim \(index): \(value) against the piece's \(inside)")
        }
    }
}
