import Foundation
import TactileCore
import TactilePuzzle
import TestSupport
import Testing

/// Shapes fill their rectangle, scale cleanly and contain what they should.
@Suite struct PuzzleShapeTests {
    let rect = Rect(x: 10, y: 20, width: 100, height: 100)

    @Test func classicKnobsReachTheEdgesAndSocketsCutIn() {
        let edges = JigsawEdges.standard
        let path = PuzzleShape.classic(edges).path(in: rect)
        let body = edges.body(in: rect)
        // Knobs on top and right reach the rectangle; the flat left side is the body's;
        // the bottom socket leaves the body's bottom edge as the lowest point.
        expectClose(path.bounds, rect, within: 1e-9)
        expectClose(body, Rect(x: 10, y: 40, width: 80, height: 80), within: 1e-12)
        #expect(path.contains(body.center))
        // Knob tips, just inside the outline.
        #expect(path.contains(Point(x: body.midX, y: rect.minY + 1)))
        #expect(path.contains(Point(x: rect.maxX - 1, y: body.midY)))
        // Beside a knob, outside the body, is outside.
        #expect(!path.contains(Point(x: body.minX + 5, y: rect.minY + 5)))
        // The socket: inside the body's bottom edge, under the middle, is outside.
        #expect(!path.contains(Point(x: body.midX, y: body.maxY - 5)))
        #expect(path.contains(Point(x: body.minX + 5, y: body.maxY - 5)))
    }

    @Test(arguments: [0.5, 1.5, 3.0])
    func shapesScaleWithTheirRectangle(factor: Double) {
        let scale = Transform2D(scaleX: factor, y: factor)
        let scaled = Rect(
            x: rect.minX * factor, y: rect.minY * factor, width: rect.width * factor,
            height: rect.height * factor)
        for shape in [PuzzleShape.classic(), .circle, .square, try! .svg("M0 0 L4 0 L2 3 Z")] {
            let a = shape.path(in: rect).applying(scale).flattened(tolerance: 0.01)
            let b = shape.path(in: scaled).flattened(tolerance: 0.01)
            #expect(a.count == b.count)
            for (p, q) in zip(a.joined(), b.joined()) {
                expectClose(p, q, within: 1e-9 * factor * 100)
            }
        }
    }

    @Test func circleMatchesTheDisc() {
        let path = PuzzleShape.circle.path(in: rect)
        let center = rect.center
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<500 {
            let p = Point(
                x: Double.random(in: rect.minX...rect.maxX, using: &generator),
                y: Double.random(in: rect.minY...rect.maxY, using: &generator))
            let d = p.distance(to: center)
            // Away from the edge (the Bézier circle is within 0.03 % of the radius).
            guard abs(d - 50) > 0.05 else { continue }
            #expect(path.contains(p) == (d < 50), "\(p)")
        }
    }

    @Test func svgShapesFitCentredKeepingTheirAspect() throws {
        let shape = try PuzzleShape.svg("M0 0 H20 V10 H0 Z")
        expectClose(
            shape.path(in: rect).bounds, Rect(x: 10, y: 45, width: 100, height: 50), within: 1e-9)
    }

    @Test func badSVGIsRefusedWithAReason() {
        #expect(throws: PuzzleShapeError.self) { try PuzzleShape.svg("M0 0 Q") }
        do {
            _ = try PuzzleShape.svg("M0 0 L10 0")
            Issue.record("a path without area was accepted")
        } catch {
            #expect(error.message.contains("no area"))
        }
    }
}
