import TactileCore
import TactilePuzzle

/// An automated gap finder of the kind bots use against slider captchas: edge detection on
/// the background, then template matching with the piece's outline.
///
/// It exists to measure how well a hole treatment resists such attacks (see
/// ``HoleTreatment``); it knows nothing but the two images and the challenge.
///
/// Both images go to grey, are smoothed, and go through a Sobel operator; the piece's edges come from its
/// alpha channel (its outline). Every candidate position along the axis (every 4th pixel
/// then a refinement for a free puzzle) is scored by the zero-mean normalised
/// cross-correlation of the outline's edge map with the background's, and the best wins.
public enum GapFinder {
    /// The estimated top-left corner of the hole, in background pixels.
    ///
    /// - Parameters:
    ///   - background: The background with the hole.
    ///   - piece: The piece image (alpha marks the shape).
    ///   - axis: The puzzle's axis.
    ///   - fixed: The piece's row for a horizontal puzzle or column for a vertical one.
    public static func locate(
        background: Bitmap, piece: Bitmap, axis: PuzzleAxis, fixed: Int?
    ) -> Point {
        let (w, h) = (background.width, background.height)
        let edges = sobel(smoothed(gray(background), width: w, height: h), width: w, height: h)
        let alpha = piece.pixels.indices.filter { $0 % 4 == 3 }.map { Float(piece.pixels[$0]) }
        let template = sobel(
            smoothed(alpha, width: piece.width, height: piece.height), width: piece.width,
            height: piece.height)
        let matcher = Matcher(
            edges: edges, width: background.width, height: background.height,
            template: template, templateWidth: piece.width, templateHeight: piece.height)
        let maxX = background.width - piece.width
        let maxY = background.height - piece.height
        guard maxX >= 0, maxY >= 0 else { return .zero }
        var candidates: [(x: Int, y: Int)] = []
        switch axis {
        case .horizontal:
            let y = min(max(fixed ?? 0, 0), maxY)
            candidates = (0...maxX).map { ($0, y) }
        case .vertical:
            let x = min(max(fixed ?? 0, 0), maxX)
            candidates = (0...maxY).map { (x, $0) }
        case .free:
            var coarse: [(score: Float, x: Int, y: Int)] = []
            for y in stride(from: 0, through: maxY, by: 4) {
                for x in stride(from: 0, through: maxX, by: 4) {
                    coarse.append((matcher.score(x: x, y: y), x, y))
                }
            }
            coarse.sort { $0.score > $1.score }
            for best in coarse.prefix(5) {
                for y in max(0, best.y - 3)...min(maxY, best.y + 3) {
                    for x in max(0, best.x - 3)...min(maxX, best.x + 3) {
                        candidates.append((x, y))
                    }
                }
            }
        }
        var best = (score: -Float.infinity, x: 0, y: 0)
        for c in candidates {
            let s = matcher.score(x: c.x, y: c.y)
            if s > best.score { best = (s, c.x, c.y) }
        }
        return Point(x: Double(best.x), y: Double(best.y))
    }

    static func gray(_ bitmap: Bitmap) -> [Float] {
        var out = [Float](repeating: 0, count: bitmap.width * bitmap.height)
        for i in out.indices {
            let p = i * 4
            out[i] =
                0.299 * Float(bitmap.pixels[p]) + 0.587 * Float(bitmap.pixels[p + 1]) + 0.114
                * Float(bitmap.pixels[p + 2])
        }
        return out
    }

    /// The image smoothed by the 5-tap binomial kernel (1 4 6 4 1)/16 across and down, as
    /// Canny's first step smooths, so grain does not pass for edges.
    static func smoothed(_ image: [Float], width: Int, height: Int) -> [Float] {
        let kernel: [Float] = [1, 4, 6, 4, 1].map { $0 / 16 }
        var across = [Float](repeating: 0, count: image.count)
        for y in 0..<height {
            for x in 0..<width {
                var sum: Float = 0
                for k in -2...2 {
                    sum += kernel[k + 2] * image[y * width + min(max(x + k, 0), width - 1)]
                }
                across[y * width + x] = sum
            }
        }
        var out = [Float](repeating: 0, count: image.count)
        for y in 0..<height {
            for x in 0..<width {
                var sum: Float = 0
                for k in -2...2 {
                    sum += kernel[k + 2] * across[min(max(y + k, 0), height - 1) * width + x]
                }
                out[y * width + x] = sum
            }
        }
        return out
    }

    /// Gradient magnitude by the Sobel operator, edges clamped.
    static func sobel(_ image: [Float], width: Int, height: Int) -> [Float] {
        var out = [Float](repeating: 0, count: width * height)
        guard width > 0, height > 0 else { return out }
        func at(_ x: Int, _ y: Int) -> Float {
            image[min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)]
        }
        for y in 0..<height {
            for x in 0..<width {
                let gx =
                    at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1) - at(x - 1, y - 1)
                    - 2 * at(x - 1, y) - at(x - 1, y + 1)
                let gy =
                    at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1) - at(x - 1, y - 1)
                    - 2 * at(x, y - 1) - at(x + 1, y - 1)
                out[y * width + x] = (gx * gx + gy * gy).squareRoot()
            }
        }
        return out
    }

    /// Zero-mean normalised cross-correlation of a template with every window of an image,
    /// window sums from summed-area tables.
    struct Matcher {
        let edges: [Float]
        let width: Int
        let template: [Float]
        let templateWidth: Int
        let templateHeight: Int
        let templateNorm: Float
        let sums: [Double]
        let squares: [Double]

        init(
            edges: [Float], width: Int, height: Int, template: [Float], templateWidth: Int,
            templateHeight: Int
        ) {
            self.edges = edges
            self.width = width
            self.templateWidth = templateWidth
            self.templateHeight = templateHeight
            let mean = template.reduce(0, +) / Float(max(template.count, 1))
            let centred = template.map { $0 - mean }
            self.template = centred
            templateNorm = centred.reduce(0) { $0 + $1 * $1 }.squareRoot()
            var sums = [Double](repeating: 0, count: (width + 1) * (height + 1))
            var squares = sums
            for y in 0..<height {
                var row = 0.0
                var rowSquares = 0.0
                for x in 0..<width {
                    let v = Double(edges[y * width + x])
                    row += v
                    rowSquares += v * v
                    let i = (y + 1) * (width + 1) + x + 1
                    sums[i] = sums[i - width - 1] + row
                    squares[i] = squares[i - width - 1] + rowSquares
                }
            }
            self.sums = sums
            self.squares = squares
        }

        func score(x: Int, y: Int) -> Float {
            let stride = width + 1
            func box(_ table: [Double]) -> Double {
                table[(y + templateHeight) * stride + x + templateWidth]
                    - table[y * stride + x + templateWidth]
                    - table[(y + templateHeight) * stride + x] + table[y * stride + x]
            }
            let n = Double(templateWidth * templateHeight)
            let sum = box(sums)
            let variance = box(squares) - sum * sum / n
            guard variance > 1e-9, templateNorm > 0 else { return -1 }
            var dot: Float = 0
            for v in 0..<templateHeight {
                let row = (y + v) * width + x
                let t = v * templateWidth
                for u in 0..<templateWidth {
                    dot += template[t + u] * edges[row + u]
                }
            }
            // The template is zero-mean, so the window's mean drops out of the numerator.
            return dot / (templateNorm * Float(variance.squareRoot()))
        }
    }
}
