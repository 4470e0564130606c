import TactileCore

/// A one-channel float image, the working material of the solvers: grey levels, edge
/// strengths or masks, row by row.
struct GrayImage {
    let width: Int
    let height: Int
    var values: [Float]

    init(width: Int, height: Int, values: [Float]) {
        precondition(values.count == width * height)
        self.width = width
        self.height = height
        self.values = values
    }

    init(width: Int, height: Int, fill: Float = 0) {
        self.init(
            width: width, height: height,
            values: [Float](repeating: fill, count: width * height))
    }

    /// Luma (Rec. 601 weights) of a bitmap's colour, ignoring alpha.
    init(luma bitmap: Bitmap) {
        let count = bitmap.width * bitmap.height
        let values = [Float](unsafeUninitializedCapacity: count) { out, initialized in
            bitmap.pixels.withUnsafeBufferPointer { p in
                for i in 0..<count {
                    out[i] =
                        0.299 * Float(p[i * 4]) + 0.587 * Float(p[i * 4 + 1]) + 0.114
                        * Float(p[i * 4 + 2])
                }
            }
            initialized = count
        }
        self.init(width: bitmap.width, height: bitmap.height, values: values)
    }

    /// One channel of a bitmap (0 red … 3 alpha), as 0…255.
    init(channel: Int, of bitmap: Bitmap) {
        let count = bitmap.width * bitmap.height
        let values = [Float](unsafeUninitializedCapacity: count) { out, initialized in
            bitmap.pixels.withUnsafeBufferPointer { p in
                for i in 0..<count { out[i] = Float(p[i * 4 + channel]) }
            }
            initialized = count
        }
        self.init(width: bitmap.width, height: bitmap.height, values: values)
    }

    /// Luma of the bitmap composited over black by its alpha: what a script sees that
    /// loads a piece without its alpha channel into a black canvas.
    init(lumaOverBlack bitmap: Bitmap) {
        var luma = GrayImage(luma: bitmap)
        bitmap.pixels.withUnsafeBufferPointer { p in
            for i in luma.values.indices { luma.values[i] *= Float(p[i * 4 + 3]) / 255 }
        }
        self = luma
    }

    subscript(x: Int, y: Int) -> Float {
        values[y * width + x]
    }

    /// The image smoothed by the 5-tap binomial kernel (1 4 6 4 1)/16 across and down (σ ≈ 1,
    /// as Canny's first step smooths), edges clamped.
    func smoothed() -> GrayImage {
        let w = width
        let h = height
        guard w > 0, h > 0 else { return self }
        var across = [Float](repeating: 0, count: w * h)
        var out = [Float](repeating: 0, count: w * h)
        values.withUnsafeBufferPointer { source in
            across.withUnsafeMutableBufferPointer { across in
                for y in 0..<h {
                    let row = y * w
                    for x in 0..<w {
                        let a = source[row + max(x - 2, 0)]
                        let b = source[row + max(x - 1, 0)]
                        let c = source[row + x]
                        let d = source[row + min(x + 1, w - 1)]
                        let e = source[row + min(x + 2, w - 1)]
                        across[row + x] = (a + e + 4 * (b + d) + 6 * c) / 16
                    }
                }
            }
        }
        across.withUnsafeBufferPointer { across in
            out.withUnsafeMutableBufferPointer { out in
                for y in 0..<h {
                    let a = max(y - 2, 0) * w
                    let b = max(y - 1, 0) * w
                    let c = y * w
                    let d = min(y + 1, h - 1) * w
                    let e = min(y + 2, h - 1) * w
                    for x in 0..<w {
                        out[c + x] =
                            (across[a + x] + across[e + x] + 4 * (across[b + x] + across[d + x])
                                + 6 * across[c + x]) / 16
                    }
                }
            }
        }
        return GrayImage(width: w, height: h, values: out)
    }

    /// The Sobel gradient, edges clamped: its x and y components.
    func sobel() -> (gx: GrayImage, gy: GrayImage) {
        let w = width
        let h = height
        var gx = [Float](repeating: 0, count: w * h)
        var gy = [Float](repeating: 0, count: w * h)
        guard w > 0, h > 0 else {
            return (GrayImage(width: w, height: h), GrayImage(width: w, height: h))
        }
        values.withUnsafeBufferPointer { p in
            gx.withUnsafeMutableBufferPointer { gx in
                gy.withUnsafeMutableBufferPointer { gy in
                    for y in 0..<h {
                        let up = max(y - 1, 0) * w
                        let row = y * w
                        let down = min(y + 1, h - 1) * w
                        for x in 0..<w {
                            let l = max(x - 1, 0)
                            let r = min(x + 1, w - 1)
                            gx[row + x] =
                                p[up + r] + 2 * p[row + r] + p[down + r] - p[up + l] - 2
                                * p[row + l] - p[down + l]
                            gy[row + x] =
                                p[down + l] + 2 * p[down + x] + p[down + r] - p[up + l] - 2
                                * p[up + x] - p[up + r]
                        }
                    }
                }
            }
        }
        return (
            GrayImage(width: w, height: h, values: gx), GrayImage(width: w, height: h, values: gy)
        )
    }

    /// The Sobel gradient's magnitude.
    func sobelMagnitude() -> GrayImage {
        let (gx, gy) = sobel()
        var out = gx
        for i in out.values.indices {
            out.values[i] = (gx.values[i] * gx.values[i] + gy.values[i] * gy.values[i]).squareRoot()
        }
        return out
    }

    /// Canny's edge map (255 on edges, 0 elsewhere): the smoothed image's Sobel gradient,
    /// thinned to its ridges (non-maximum suppression across the gradient), then kept where
    /// above `high`, or above `low` and connected to such a pixel (hysteresis).
    ///
    /// The thresholds are fractions of the gradient's distribution when `relative`: `high`
    /// the quantile of the gradient magnitudes that counts as strong (0.8: the strongest
    /// fifth), `low` a fraction of that.
    func canny(low: Float, high: Float, relative: Bool) -> GrayImage {
        let w = width
        let h = height
        let (gx, gy) = smoothed().sobel()
        var magnitude = [Float](repeating: 0, count: w * h)
        for i in magnitude.indices {
            magnitude[i] = (gx.values[i] * gx.values[i] + gy.values[i] * gy.values[i]).squareRoot()
        }
        var highThreshold = high
        var lowThreshold = low
        if relative {
            let sorted = magnitude.sorted()
            let index = min(sorted.count - 1, max(0, Int(Float(sorted.count) * high)))
            highThreshold = max(sorted.isEmpty ? 1 : sorted[index], 1e-3)
            lowThreshold = highThreshold * low
        }
        // Non-maximum suppression in four directions.
        var thin = [Float](repeating: 0, count: w * h)
        let tan22 = Float(0.414_213_56)
        for y in 1..<max(1, h - 1) {
            for x in 1..<max(1, w - 1) {
                let i = y * w + x
                let m = magnitude[i]
                guard m >= lowThreshold else { continue }
                let dx = gx.values[i]
                let dy = gy.values[i]
                let (ax, ay) = (abs(dx), abs(dy))
                let (a, b): (Float, Float)
                if ay <= ax * tan22 {
                    (a, b) = (magnitude[i - 1], magnitude[i + 1])
                } else if ax <= ay * tan22 {
                    (a, b) = (magnitude[i - w], magnitude[i + w])
                } else if (dx > 0) == (dy > 0) {
                    (a, b) = (magnitude[i - w - 1], magnitude[i + w + 1])
                } else {
                    (a, b) = (magnitude[i - w + 1], magnitude[i + w - 1])
                }
                if m >= a, m > b { thin[i] = m }
            }
        }
        // Hysteresis: grow from the strong pixels through the weak ones.
        var edges = [Float](repeating: 0, count: w * h)
        var stack: [Int] = []
        for i in thin.indices where thin[i] >= highThreshold {
            edges[i] = 255
            stack.append(i)
        }
        while let i = stack.popLast() {
            let x = i % w
            let y = i / w
            for ny in max(0, y - 1)...min(h - 1, y + 1) {
                for nx in max(0, x - 1)...min(w - 1, x + 1) {
                    let j = ny * w + nx
                    if edges[j] == 0, thin[j] >= lowThreshold {
                        edges[j] = 255
                        stack.append(j)
                    }
                }
            }
        }
        return GrayImage(width: w, height: h, values: edges)
    }
}
