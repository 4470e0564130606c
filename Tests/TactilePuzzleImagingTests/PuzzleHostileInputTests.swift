import Foundation
import PuzzleTestSupport
import TactileCore
import TactilePuzzle
import TactilePuzzleImaging
import TactilePuzzleVerifier
import Testing

/// Geometry and tracks from outside: masks of paths far outside their region, paths with
/// overflowing differences, and tracks over the limits.
@Suite struct PuzzleHostileInputTests {
    @Test func aMaskOfAHugePathIsClippedToItsRegion() {
        var path = Path()
        path.move(to: Point(x: -1e300, y: -1e300))
        path.addLine(to: Point(x: 1e300, y: -1e300))
        path.addLine(to: Point(x: 1e300, y: 1e300))
        path.addLine(to: Point(x: -1e300, y: 1e300))
        path.closeSubpath()
        let region = Rect(x: 10, y: 20, width: 30, height: 40)
        let mask = ShapeMask(path: path, within: region)
        #expect((mask.originX, mask.originY, mask.width, mask.height) == (10, 20, 30, 40))
        #expect(mask.counts.allSatisfy { $0 == UInt8(ShapeMask.samplesPerPixel) })
        #expect(ShapeMask(path: path).width == 0, "unclipped, it is over the pixel limit")
    }

    @Test func aMaskWhoseEdgesOverflowDoesNotTrap() {
        // Differences of ±1.7e308 overflow to infinity inside the rasteriser.
        var path = Path()
        path.move(to: Point(x: -1.7e308, y: 0))
        path.addLine(to: Point(x: 1.7e308, y: 1))
        path.addLine(to: Point(x: 0, y: 50))
        path.closeSubpath()
        let mask = ShapeMask(path: path, within: Rect(x: 0, y: 0, width: 20, height: 20))
        #expect(mask.width == 20)
    }

    @Test func builtInShapesPassTheShapeCheck() throws {
        for shape in [PuzzleShape.classic(), .circle, .square] {
            try PuzzleOptions.validate(shape, side: 96)
        }
    }

    @Test func tracksAreBounded() throws {
        let sample = #"{"x":1,"y":2,"t":3}"#
        let tooMany = "[" + Array(repeating: sample, count: 10_001).joined(separator: ",") + "]"
        #expect(throws: DragTrackError.tooLarge("at most 10000 samples, got 10001")) {
            try DragTrack.decode(Array(tooMany.utf8))
        }
        let big = [UInt8](repeating: 32, count: (1 << 20) + 1)
        #expect(throws: DragTrackError.self) { try DragTrack.decode(big) }
        #expect(throws: DragTrackError.self) {
            try DragTrack.decode(
                Array(#"[{"x":1,"y":2,"t":-1.7e308},{"x":1,"y":2,"t":1.7e308}]"#.utf8))
        }
        #expect(throws: DragTrackError.self) { try DragTrack.decode(Array(#"[{"x":1}]"#.utf8)) }
        let track = try DragTrack.decode(
            Array(#"[{"x":1,"y":2,"t":1000},{"x":3,"y":4,"t":1250}]"#.utf8))
        #expect(
            track == [
                PuzzleTrackPoint(x: 1, y: 2, time: 0), PuzzleTrackPoint(x: 3, y: 4, time: 0.25),
            ])
    }
}
