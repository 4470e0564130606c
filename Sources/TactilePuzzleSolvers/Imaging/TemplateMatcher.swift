/// Zero-mean normalised cross-correlation (OpenCV's `TM_CCOEFF_NORMED`) of a template with
/// windows of an image; the windows' sums come from summed-area tables.
///
/// Only template pixels with a weight take part: a weight of 0 leaves a pixel out of both
/// the template's and the window's statistics (a masked match), 1 everywhere is the plain
/// correlation.
struct TemplateMatcher {
    private let image: GrayImage
    private let template: [Float]
    private let mask: [Float]?
    private let templateWidth: Int
    private let templateHeight: Int
    private let templateNorm: Float
    private let count: Double
    private let sums: [Double]
    private let squares: [Double]

    /// A matcher of `template` against `image`, optionally counting only the template
    /// pixels where `mask` is non-zero.
    init(image: GrayImage, template: GrayImage, mask: GrayImage? = nil) {
        self.image = image
        templateWidth = template.width
        templateHeight = template.height
        let weights = mask.map { $0.values.map { $0 > 0 ? Float(1) : 0 } }
        let n = weights.map { $0.reduce(0, +) } ?? Float(template.values.count)
        count = Double(n)
        var mean: Float = 0
        for (i, v) in template.values.enumerated() { mean += v * (weights?[i] ?? 1) }
        mean /= max(n, 1)
        let centred = template.values.enumerated().map { i, v in (v - mean) * (weights?[i] ?? 1) }
        self.template = centred
        self.mask = weights
        templateNorm = centred.reduce(0) { $0 + $1 * $1 }.squareRoot()
        let w = image.width
        var sums = [Double](repeating: 0, count: (w + 1) * (image.height + 1))
        var squares = sums
        if mask == nil {
            for y in 0..<image.height {
                var row = 0.0
                var rowSquares = 0.0
                for x in 0..<w {
                    let v = Double(image.values[y * w + x])
                    row += v
                    rowSquares += v * v
                    let i = (y + 1) * (w + 1) + x + 1
                    sums[i] = sums[i - w - 1] + row
                    squares[i] = squares[i - w - 1] + rowSquares
                }
            }
        }
        self.sums = sums
        self.squares = squares
    }

    /// The correlation of the template with the window whose top-left corner is (x, y),
    /// −1…1; −1 for a flat window.
    func score(x: Int, y: Int) -> Float {
        guard templateNorm > 0 else { return -1 }
        let w = image.width
        var dot: Float = 0
        var windowSum: Double = 0
        var windowSquares: Double = 0
        image.values.withUnsafeBufferPointer { pixels in
            template.withUnsafeBufferPointer { t in
                for v in 0..<templateHeight {
                    let row = (y + v) * w + x
                    let base = v * templateWidth
                    for u in 0..<templateWidth {
                        dot += t[base + u] * pixels[row + u]
                    }
                }
            }
            if let mask {
                mask.withUnsafeBufferPointer { m in
                    for v in 0..<templateHeight {
                        let row = (y + v) * w + x
                        let base = v * templateWidth
                        for u in 0..<templateWidth where m[base + u] > 0 {
                            let p = Double(pixels[row + u])
                            windowSum += p
                            windowSquares += p * p
                        }
                    }
                }
            }
        }
        if mask == nil {
            let stride = w + 1
            func box(_ table: [Double]) -> Double {
                table[(y + templateHeight) * stride + x + templateWidth]
                    - table[y * stride + x + templateWidth]
                    - table[(y + templateHeight) * stride + x] + table[y * stride + x]
            }
            windowSum = box(sums)
            windowSquares = box(squares)
        }
        let variance = windowSquares - windowSum * windowSum / count
        guard variance > 1e-6 else { return -1 }
        // The template is zero-mean, so the window's mean drops out of the numerator.
        return dot / (templateNorm * Float(variance.squareRoot()))
    }

    /// The best-scoring position among `candidates`; for a coarse grid (`refine` > 0), the
    /// five best are refined pixel by pixel within `refine` pixels.
    func best(
        among candidates: [(x: Int, y: Int)], refine: Int = 0
    ) -> (x: Int, y: Int, score: Float) {
        var scored = candidates.map { (x: $0.x, y: $0.y, score: score(x: $0.x, y: $0.y)) }
        if refine > 0 {
            let maxX = image.width - templateWidth
            let maxY = image.height - templateHeight
            scored.sort { $0.score > $1.score }
            var fine: [(x: Int, y: Int, score: Float)] = []
            for c in scored.prefix(5) {
                for y in max(0, c.y - refine)...min(maxY, c.y + refine) {
                    for x in max(0, c.x - refine)...min(maxX, c.x + refine) {
                        fine.append((x, y, score(x: x, y: y)))
                    }
                }
            }
            scored = fine
        }
        return scored.max { $0.score < $1.score } ?? (0, 0, -1)
    }
}
