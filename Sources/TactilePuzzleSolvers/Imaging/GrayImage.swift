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

    /// A colour-difference channel of a bitmap: `channel` (0 red, 2 blue) less the pixel's
    /// luma (Rec. 601), −255…255; 0 wherever the pixel is grey, whatever its brightness.
    init(colourDifference channel: Int, of bitmap: Bitmap) {
        var image = GrayImage(luma: bitmap)
        bitmap.pixels.withUnsafeBufferPointer { p in
            for i in image.values.indices {
                image.values[i] = Float(p[i * 4 + channel]) - image.values[i]
            }
        }
        self = image
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
        var largest: Float = 0
        for i in magnitude.indices {
            let m = (gx.values[i] * gx.values[i] + gy.values[i] * gy.values[i]).squareRoot()
            magnitude[i] = m
            largest = max(largest, m)
        }
        var highThreshold = high
        var lowThreshold = low
        if relative {
            highThreshold = max(Self.quantile(magnitude, high, largest: largest), 1e-3)
            lowThreshold = highThreshold * low
        }
        var thin = [Float](repeating: 0, count: w * h)
        var edges = [Float](repeating: 0, count: w * h)
        guard w > 2, h > 2 else { return GrayImage(width: w, height: h, values: edges) }
        // Non-maximum suppression in four directions.
        let tan22 = Float(0.414_213_56)
        magnitude.withUnsafeBufferPointer { magnitude in
            gx.values.withUnsafeBufferPointer { gx in
                gy.values.withUnsafeBufferPointer { gy in
                    thin.withUnsafeMutableBufferPointer { thin in
                        for y in 1..<(h - 1) {
                            for x in 1..<(w - 1) {
                                let i = y * w + x
                                let m = magnitude[i]
                                guard m >= lowThreshold else { continue }
                                let ax = abs(gx[i])
                                let ay = abs(gy[i])
                                let step: Int
                                if ay <= ax * tan22 {
                                    step = 1
                                } else if ax <= ay * tan22 {
                                    step = w
                                } else if (gx[i] > 0) == (gy[i] > 0) {
                                    step = w + 1
                                } else {
                                    step = w - 1
                                }
                                if m >= magnitude[i - step], m > magnitude[i + step] { thin[i] = m }
                            }
                        }
                    }
                }
            }
        }
        // Hysteresis: grow from the strong pixels through the weak ones.
        var stack: [Int] = []
        thin.withUnsafeBufferPointer { thin in
            edges.withUnsafeMutableBufferPointer { edges in
                for i in 0..<(w * h) where thin[i] >= highThreshold {
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
            }
        }
        return GrayImage(width: w, height: h, values: edges)
    }

    /// The value below which the share `fraction` of `values` (all in 0…`largest`) lie,
    /// from a 4,096-bin histogram.
    static func quantile(_ values: [Float], _ fraction: Float, largest: Float) -> Float {
        guard largest > 0, !values.isEmpty else { return 0 }
        let bins = 4096
        var histogram = [Int](repeating: 0, count: bins)
        let scale = Float(bins - 1) / largest
        values.withUnsafeBufferPointer { values in
            histogram.withUnsafeMutableBufferPointer { histogram in
                for v in values { histogram[Int(v * scale)] += 1 }
            }
        }
        let target = Int(Float(values.count) * fraction)
        var seen = 0
        for (bin, count) in histogram.enumerated() {
            seen += count
            if seen > target { return Float(bin) / scale }
        }
        return largest
    }
}

extension GrayImage {
    /// The image box-blurred with the given radius, edges clamped.
    func boxBlurred(radius: Int) -> GrayImage {
        guard radius > 0, width > 0, height > 0 else { return self }
        let w = width
        let h = height
        let span = Float(2 * radius + 1)
        var across = [Float](repeating: 0, count: w * h)
        for y in 0..<h {
            var sum: Float = 0
            for dx in -radius...radius { sum += values[y * w + min(max(dx, 0), w - 1)] }
            for x in 0..<w {
                across[y * w + x] = sum / span
                sum += values[y * w + min(x + radius + 1, w - 1)]
                sum -= values[y * w + max(x - radius, 0)]
            }
        }
        var out = [Float](repeating: 0, count: w * h)
        for x in 0..<w {
            var sum: Float = 0
            for dy in -radius...radius { sum += across[min(max(dy, 0), h - 1) * w + x] }
            for y in 0..<h {
                out[y * w + x] = sum / span
                sum += across[min(y + radius + 1, h - 1) * w + x]
                sum -= across[max(y - radius, 0) * w + x]
            }
        }
        return GrayImage(width: w, height: h, values: out)
    }

    /// Whether each pixel is above `threshold`, grown (`radius` > 0) or shrunk (`radius` < 0)
    /// by that many pixels in a square neighbourhood, as 1 or 0, on a canvas enlarged by
    /// `margin` pixels all round.
    func mask(above threshold: Float, grownBy radius: Int, margin: Int) -> GrayImage {
        let w = width + 2 * margin
        let h = height + 2 * margin
        var on = [Bool](repeating: false, count: w * h)
        for y in 0..<height {
            for x in 0..<width where values[y * width + x] > threshold {
                on[(y + margin) * w + x + margin] = true
            }
        }
        let r = abs(radius)
        // A square structuring element, as a row pass then a column pass.
        func pass(_ source: [Bool], horizontal: Bool) -> [Bool] {
            var out = [Bool](repeating: false, count: w * h)
            for y in 0..<h {
                for x in 0..<w {
                    var any = false
                    var all = true
                    for k in -r...r {
                        let (sx, sy) = horizontal ? (x + k, y) : (x, y + k)
                        let value =
                            sx >= 0 && sx < w && sy >= 0 && sy < h ? source[sy * w + sx] : false
                        any = any || value
                        all = all && value
                    }
                    out[y * w + x] = radius >= 0 ? any : all
                }
            }
            return out
        }
        let grown = r == 0 ? on : pass(pass(on, horizontal: true), horizontal: false)
        return GrayImage(width: w, height: h, values: grown.map { $0 ? 1 : 0 })
    }
}
