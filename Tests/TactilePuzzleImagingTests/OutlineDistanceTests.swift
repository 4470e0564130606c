import PuzzleTestSupport
import Testing

@testable import TactilePuzzleImaging

/// The summits a shape's pixels climb to are the half-widths of the parts they belong to: a
/// knob's own, however deep the body it hangs from, and the body's for its corners too.
@Suite struct OutlineDistanceTests {
    /// A 60-pixel square body, a 6-pixel neck from the middle of its right side and a disc
    /// of radius 8 at the neck's end, as whole pixels in a 90 × 70 grid: a jigsaw piece's
    /// proportions.
    static let width = 90
    static let height = 70
    static let body = (x: 2..<62, y: 5..<65)
    static let knob = (x: 76.0, y: 35.0, radius: 8.0)

    static func isInBody(_ x: Int, _ y: Int) -> Bool { body.x.contains(x) && body.y.contains(y) }

    static func distanceFromKnob(_ x: Int, _ y: Int) -> Double {
        let dx = Double(x) + 0.5 - knob.x
        let dy = Double(y) + 0.5 - knob.y
        return (dx * dx + dy * dy).squareRoot()
    }

    static func counts() -> [UInt8] {
        let full = UInt8(ShapeMask.samplesPerPixel)
        var counts = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let isNeck = (62..<70).contains(x) && (32..<38).contains(y)
                if isInBody(x, y) || isNeck || distanceFromKnob(x, y) <= knob.radius {
                    counts[y * width + x] = full
                }
            }
        }
        return counts
    }

    static func distance() -> [Float] {
        OutlineDistance.signed(
            counts: counts(), width: width, height: height, full: ShapeMask.samplesPerPixel)
    }

    @Test func theKnobClimbsToItsOwnMiddleAndTheBodyToItsOwn() {
        let summits = OutlineDistance.summits(
            of: Self.distance(), width: Self.width, height: Self.height)
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                let summit = summits[y * Self.width + x]
                if Self.isInBody(x, y) {
                    // Corners and edges alike: the square's half-width, 30 (chamfer steps
                    // and the half pixel at the outline allow ±1).
                    #expect((29...31).contains(summit), "body (\(x), \(y)): \(summit)")
                } else if Self.distanceFromKnob(x, y) <= 6 {
                    #expect((7...9).contains(summit), "knob (\(x), \(y)): \(summit)")
                } else if Self.counts()[y * Self.width + x] == 0 {
                    #expect(summit == 0, "outside (\(x), \(y))")
                }
            }
        }
    }

    @Test func onlyThinPartsAreStretched() {
        let stretch = OutlineDistance.thinPartStretch(
            Self.distance(), width: Self.width, height: Self.height, fullDepth: 16)
        // The body's middle lies as deep as it is; the knob's middle lies 16 / (0.8 × 8)
        // times deeper, less what smoothing over 5 pixels takes at its edge.
        #expect(stretch[35 * Self.width + 32] == 1)
        let middle = stretch[35 * Self.width + 76]
        #expect(middle > 2 && middle <= 16 / (0.8 * 8), "\(middle)")
        #expect(stretch.allSatisfy { (1...4).contains($0) })
    }
}
