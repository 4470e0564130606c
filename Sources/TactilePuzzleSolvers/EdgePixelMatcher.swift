import TactileCore

/// The solver that beat the first generator: it slides the piece along the challenge's row
/// (or column) and counts the piece's faint rim pixels whose colour the background repeats.
///
/// A piece cut straight from the picture carries the picture's exact colours in its
/// antialiased rim, where the coverage (alpha) is low; a hole treatment weighted by coverage
/// barely changes the background there. So, at the answer, many rim pixels match the
/// background under them almost exactly, and nowhere else do they.
///
/// Score of a position: the number of piece pixels with alpha in ``alphaRange`` whose red,
/// green and blue each differ from the background pixel under them by at most
/// ``levels``. The best score wins (the first, on a tie).
public struct EdgePixelMatcher: PuzzleSolver {
    /// The piece's alphas counted as rim pixels: 1…32 by default.
    public var alphaRange: ClosedRange<UInt8>
    /// The largest difference per channel that counts as a match, in 8-bit levels.
    public var levels: Int

    /// Creates the matcher; the defaults are the attack as reported.
    public init(alphaRange: ClosedRange<UInt8> = 1...32, levels: Int = 3) {
        self.alphaRange = alphaRange
        self.levels = levels
    }

    public var name: String { "edge-pixel matcher" }

    public func locate(_ puzzle: ClientPuzzle) -> Point {
        let piece = puzzle.piece
        let background = puzzle.background
        // The rim pixels: offset in the piece, and colour.
        var rim: [(u: Int, v: Int, red: Int, green: Int, blue: Int)] = []
        for v in 0..<piece.height {
            for u in 0..<piece.width {
                let i = (v * piece.width + u) * 4
                guard alphaRange.contains(piece.pixels[i + 3]) else { continue }
                rim.append(
                    (
                        u, v, Int(piece.pixels[i]), Int(piece.pixels[i + 1]),
                        Int(piece.pixels[i + 2])
                    ))
            }
        }
        let levels = self.levels
        var best = (score: -1, x: 0, y: 0)
        background.pixels.withUnsafeBufferPointer { pixels in
            rim.withUnsafeBufferPointer { rim in
                for c in puzzle.candidates(freeStep: 1) {
                    var score = 0
                    for p in rim {
                        let i = ((c.y + p.v) * background.width + c.x + p.u) * 4
                        if abs(Int(pixels[i]) - p.red) <= levels,
                            abs(Int(pixels[i + 1]) - p.green) <= levels,
                            abs(Int(pixels[i + 2]) - p.blue) <= levels
                        {
                            score += 1
                        }
                    }
                    if score > best.score { best = (score, c.x, c.y) }
                }
            }
        }
        return Point(x: Double(best.x), y: Double(best.y))
    }
}
