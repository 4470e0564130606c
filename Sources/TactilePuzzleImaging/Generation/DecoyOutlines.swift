import Foundation
import TactileCore
import TactilePuzzle

/// The outlines a decoy hole may take, and how alike two outlines look.
///
/// A decoy is there to cost a script a guess, never a person: its outline must be one a
/// person tells from the piece's at a glance. Two outlines count as alike when, drawn at
/// their sizes and laid over each other where they overlap most, the area they share is
/// more than ``largestOverlap`` of the area either covers (intersection over union).
enum DecoyOutlines {
    /// The most two outlines may overlap, as intersection over union, for one to be a decoy
    /// of the other.
    static let largestOverlap = 0.6

    /// The side, in pixels, at which outlines are compared.
    static let comparisonSide = 32.0

    /// Every outline a decoy may take, before those too like the piece's are left out:
    /// a circle, a rounded square, jigsaw pieces with other knobs, and a triangle, a diamond,
    /// a hexagon, a cross and a star.
    static let catalogue: [PuzzleShape] = {
        var shapes: [PuzzleShape] = [.circle, .square]
        let edges: [JigsawEdges] = [
            JigsawEdges(top: .socket, right: .socket, bottom: .knob, left: .knob),
            JigsawEdges(top: .knob, right: .knob, bottom: .knob, left: .knob),
            JigsawEdges(top: .socket, right: .socket, bottom: .socket, left: .socket),
            JigsawEdges(top: .flat, right: .socket, bottom: .flat, left: .socket),
            JigsawEdges(top: .knob, right: .flat, bottom: .knob, left: .flat),
        ]
        shapes += edges.map { PuzzleShape.classic($0) }
        shapes += [
            polygon([(0.5, 0), (1, 0.9), (0, 0.9)]),
            polygon([(0.5, 0), (1, 0.5), (0.5, 1), (0, 0.5)]),
            polygon([(0.25, 0.05), (0.75, 0.05), (1, 0.5), (0.75, 0.95), (0.25, 0.95), (0, 0.5)]),
            polygon([
                (0.35, 0), (0.65, 0), (0.65, 0.35), (1, 0.35), (1, 0.65), (0.65, 0.65),
                (0.65, 1), (0.35, 1), (0.35, 0.65), (0, 0.65), (0, 0.35), (0.35, 0.35),
            ]),
            star(points: 5, inner: 0.45),
        ]
        return shapes
    }()

    /// The catalogue's outlines that a person tells from `piece`: those that overlap it by at
    /// most ``largestOverlap`` at every size a decoy may have, `sizes` as shares of the piece's
    /// side.
    static func candidates(for piece: PuzzleShape, sizes: [Double]) -> [PuzzleShape] {
        catalogue.filter { decoy in
            decoy != piece
                && sizes.allSatisfy { overlap(piece, decoy, scale: $0) <= largestOverlap }
        }
    }

    /// How alike two outlines look: the intersection over union of `a`, drawn in a square of
    /// ``comparisonSide``, and `b`, drawn in a square `scale` times that, at the offset (in whole
    /// pixels, up to a quarter of the side each way from centre on centre) where they overlap
    /// most. Coverage counts partly: a pixel half inside counts half.
    static func overlap(_ a: PuzzleShape, _ b: PuzzleShape, scale: Double = 1) -> Double {
        let side = comparisonSide
        let reach = Int(side / 4)
        let canvas = Int(side) + 2 * reach + 2
        func mask(_ shape: PuzzleShape, side: Double) -> [Int] {
            let origin = (Double(canvas) - side) / 2
            let frame = Rect(x: origin, y: origin, width: side, height: side)
            let region = Rect(x: 0, y: 0, width: Double(canvas), height: Double(canvas))
            let mask = ShapeMask(path: shape.path(in: frame), within: region)
            var grid = [Int](repeating: 0, count: canvas * canvas)
            for v in 0..<mask.height {
                for u in 0..<mask.width {
                    let (x, y) = (mask.originX + u, mask.originY + v)
                    guard x >= 0, y >= 0, x < canvas, y < canvas else { continue }
                    grid[y * canvas + x] = Int(mask.counts[v * mask.width + u])
                }
            }
            return grid
        }
        let first = mask(a, side: side)
        let second = mask(b, side: (side * scale).rounded())
        let firstArea = first.reduce(0, +)
        let secondArea = second.reduce(0, +)
        var best = 0.0
        for dy in -reach...reach {
            for dx in -reach...reach {
                var shared = 0
                for y in max(0, dy)..<min(canvas, canvas + dy) {
                    let row = y * canvas
                    let shiftedRow = (y - dy) * canvas - dx
                    for x in max(0, dx)..<min(canvas, canvas + dx) {
                        shared += min(first[row + x], second[shiftedRow + x])
                    }
                }
                let union = firstArea + secondArea - shared
                if union > 0 { best = max(best, Double(shared) / Double(union)) }
            }
        }
        return best
    }

    /// A polygon through `corners`, given as shares of the square it fills.
    private static func polygon(_ corners: [(Double, Double)]) -> PuzzleShape {
        var path = Path()
        for (index, corner) in corners.enumerated() {
            let point = Point(x: corner.0, y: corner.1)
            if index == 0 { path.move(to: point) } else { path.addLine(to: point) }
        }
        path.closeSubpath()
        return .custom(path)
    }

    /// A star of `points` points whose inner corners lie at `inner` of its radius.
    private static func star(points: Int, inner: Double) -> PuzzleShape {
        let corners = (0..<(2 * points)).map { k -> (Double, Double) in
            let angle = Double(k) * .pi / Double(points) - .pi / 2
            let radius = k.isMultiple(of: 2) ? 0.5 : 0.5 * inner
            return (0.5 + radius * cos(angle), 0.5 + radius * sin(angle))
        }
        return polygon(corners)
    }
}
