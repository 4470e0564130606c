import TactileCore

/// The pixel work behind a treatment: measures of a hole's region, the tint's direction and
/// reach, grain and blur.
extension HoleTreatment {
    /// The mean colour of the region's pixels, weighted by their depth in the hole.
    static func meanColor(
        _ bitmap: Bitmap, weights: [Float],
        region: (x: Int, y: Int, width: Int, height: Int)
    ) -> SIMD3<Float> {
        var sum = SIMD3<Float>.zero
        var total: Float = 0
        forEachPixel(of: bitmap, in: region) { m, i in
            let weight = weights[3 * m] * weights[3 * m + 1]
            guard weight > 0 else { return }
            sum +=
                SIMD3(
                    Float(bitmap.pixels[i]), Float(bitmap.pixels[i + 1]),
                    Float(bitmap.pixels[i + 2])) * weight
            total += weight
        }
        return total > 0 ? sum / total : .zero
    }

    /// The mean absolute difference, in levels over the three channels, between the region's
    /// pixels and their blur, weighted by presence: how much detail the blur takes away.
    static func meanDetail(
        _ bitmap: Bitmap, blurred: [UInt8], weights: [Float],
        region: (x: Int, y: Int, width: Int, height: Int)
    ) -> Float {
        var sum: Float = 0
        var total: Float = 0
        forEachPixel(of: bitmap, in: region) { m, i in
            let weight = weights[3 * m]
            guard weight > 0 else { return }
            for c in 0..<3 {
                sum += abs(Float(bitmap.pixels[i + c]) - Float(blurred[m * 3 + c])) * weight
            }
            total += 3 * weight
        }
        return total > 0 ? sum / total : 0
    }

    /// Calls `body` for each pixel of the region that lies inside the bitmap, row by row, with
    /// its index in the region and the offset of its first byte in the bitmap.
    private static func forEachPixel(
        of bitmap: Bitmap, in region: (x: Int, y: Int, width: Int, height: Int),
        _ body: (_ index: Int, _ offset: Int) -> Void
    ) {
        for v in 0..<region.height {
            let y = region.y + v
            guard y >= 0, y < bitmap.height else { continue }
            for u in 0..<region.width {
                let x = region.x + u
                guard x >= 0, x < bitmap.width else { continue }
                body(v * region.width + u, (y * bitmap.width + x) * 4)
            }
        }
    }

    /// `tint`, scaled down as a whole as far as needed for `colour + tint` to stay within
    /// 0…255 in every channel, so that a tint of no luma still has none once the pixel is
    /// stored.
    static func unclipped(_ tint: SIMD3<Float>, on colour: SIMD3<Float>) -> SIMD3<Float> {
        var share: Float = 1
        for channel in 0..<3 {
            let change = tint[channel]
            if change > 0 {
                share = min(share, (255 - colour[channel]) / change)
            } else if change < 0 {
                share = min(share, colour[channel] / -change)
            }
        }
        return tint * max(share, 0)
    }

    /// A colour change of no luma (Rec. 601 weights), its largest channel 1: toward
    /// blue-violet, or toward amber over a picture whose mean is blue.
    static func tintDirection(over mean: SIMD3<Float>) -> SIMD3<Float> {
        let isBlue = mean.z > mean.x + 16 && mean.z > mean.y
        let target: SIMD3<Float> = isBlue ? SIMD3(1, 0.6, 0) : SIMD3(0.45, 0, 1)
        let luma = 0.299 * target.x + 0.587 * target.y + 0.114 * target.z
        let direction = target - SIMD3(repeating: luma)
        let largest = max(abs(direction.x), abs(direction.y), abs(direction.z))
        return direction / largest
    }

    /// Grain for every region pixel: uniform values in ±`amplitude` on a grid of `size`-pixel
    /// cells, bilinearly blended (plain per-pixel values when `size` is 1).
    static func grainField(
        width: Int, height: Int, size: Int, amplitude: Int, using random: inout SeededRandom
    ) -> [Double] {
        guard amplitude > 0 else { return [] }
        let span = UInt64(2 * amplitude + 1)
        func draw() -> Double { Double(Int(random.next() % span) - amplitude) }
        guard size > 1 else { return (0..<(width * height)).map { _ in draw() } }
        let columns = width / size + 2
        let rows = height / size + 2
        let grid = (0..<(columns * rows)).map { _ in draw() }
        let cell = Double(size)
        // Each column's grid cell and place in it, the same for every row.
        let cellColumns = (0..<width).map { u in Int(Double(u) / cell) }
        let fractions = (0..<width).map { u in Double(u) / cell - Double(cellColumns[u]) }
        return [Double](unsafeUninitializedCapacity: width * height) { field, count in
            grid.withUnsafeBufferPointer { grid in
                for v in 0..<height {
                    let gy = Double(v) / cell
                    let j = Int(gy)
                    let fy = gy - Double(j)
                    let top = grid.baseAddress! + j * columns
                    let bottom = top + columns
                    for u in 0..<width {
                        let i = cellColumns[u]
                        let fx = fractions[u]
                        let upper = top[i] * (1 - fx) + top[i + 1] * fx
                        let lower = bottom[i] * (1 - fx) + bottom[i + 1] * fx
                        field[v * width + u] = upper * (1 - fy) + lower * fy
                    }
                }
            }
            count = width * height
        }
    }

    /// The RGB of a region's pixels box-blurred with the given radius (edges clamped):
    /// running sums along the rows, then down the columns. Sums stay below 2¹⁷, so the
    /// arithmetic wraps unchecked and vectorises.
    static func boxBlurred(
        _ bitmap: Bitmap, x originX: Int, y originY: Int, width w: Int, height h: Int,
        radius: Int
    ) -> [UInt8] {
        let rows = h + 2 * radius
        let maxX = bitmap.width - 1
        let rowLength = w * 3
        // Horizontal sums for every row the vertical pass needs.
        var horizontal = [Int32](repeating: 0, count: rows * rowLength)
        horizontal.withUnsafeMutableBufferPointer { horizontal in
            bitmap.pixels.withUnsafeBufferPointer { pixels in
                for r in 0..<rows {
                    let y = min(max(originY + r - radius, 0), bitmap.height - 1)
                    let row = y * bitmap.width
                    func at(_ x: Int) -> Int { (row + min(max(x, 0), maxX)) * 4 }
                    var (red, green, blue): (Int32, Int32, Int32) = (0, 0, 0)
                    for dx in -radius...radius {
                        let i = at(originX + dx)
                        red &+= Int32(pixels[i])
                        green &+= Int32(pixels[i + 1])
                        blue &+= Int32(pixels[i + 2])
                    }
                    for u in 0..<w {
                        let o = r * rowLength + u * 3
                        horizontal[o] = red
                        horizontal[o + 1] = green
                        horizontal[o + 2] = blue
                        // Slide the window one pixel right.
                        let leaving = at(originX + u - radius)
                        let entering = at(originX + u + 1 + radius)
                        red &+= Int32(pixels[entering]) &- Int32(pixels[leaving])
                        green &+= Int32(pixels[entering + 1]) &- Int32(pixels[leaving + 1])
                        blue &+= Int32(pixels[entering + 2]) &- Int32(pixels[leaving + 2])
                    }
                }
            }
        }
        let span = 2 * radius + 1
        let divide = ExactDivision(by: span * span, below: span * span * 256)
        return [UInt8](unsafeUninitializedCapacity: w * h * 3) { out, count in
            horizontal.withUnsafeBufferPointer { horizontal in
                // Column sums of `span` rows, moved down a row at a time.
                var sums = [Int32](repeating: 0, count: rowLength)
                sums.withUnsafeMutableBufferPointer { sums in
                    for r in 0..<span {
                        for k in 0..<rowLength { sums[k] &+= horizontal[r * rowLength + k] }
                    }
                    for v in 0..<h {
                        for k in 0..<rowLength {
                            out[v * rowLength + k] = UInt8(
                                truncatingIfNeeded: divide.rounded(Int(sums[k])))
                        }
                        guard v + 1 < h else { break }
                        let entering = (v + span) * rowLength
                        let leaving = v * rowLength
                        for k in 0..<rowLength {
                            sums[k] &+= horizontal[entering + k] &- horizontal[leaving + k]
                        }
                    }
                }
            }
            count = w * h * 3
        }
    }
}
