import TactileCore

/// How much of each pixel a shape covers, counted on a grid of sample points.
///
/// Pixel (x, y) holds the number of its `samplesPerAxis²` sample points, at
/// (x + (i + ½)/n, y + (j + ½)/n), that lie inside the path under the non-zero rule — the
/// same question `Path.contains(_:rule:)` answers, asked of the outline flattened to within
/// 0.01 px. The mask covers whole pixels around the path's bounds.
public struct ShapeMask: Hashable, Sendable {
    /// Sample points per pixel along each axis.
    public static let samplesPerAxis = 4
    /// Sample points per pixel.
    public static let samplesPerPixel = samplesPerAxis * samplesPerAxis

    /// The first pixel column the mask covers.
    public let originX: Int
    /// The first pixel row the mask covers.
    public let originY: Int
    /// Pixel columns covered.
    public let width: Int
    /// Pixel rows covered.
    public let height: Int
    /// Inside samples per pixel, 0…``samplesPerPixel``, row by row.
    public private(set) var counts: [UInt8]

    /// The largest coordinate a mask's edge may have, in pixels: 2³⁰.
    public static let coordinateLimit = Double(1 << 30)
    /// The most pixels a mask covers: 2²⁶ (8192 × 8192).
    public static let pixelLimit = 1 << 26

    /// Rasterizes a path (pixel coordinates), over its bounds or the part of them inside
    /// `region`.
    ///
    /// A path whose bounds are not finite, or whose covered region reaches past
    /// ±``coordinateLimit`` or holds more than ``pixelLimit`` pixels, gives an empty mask:
    /// clip with `region` to rasterize part of a large path.
    public init(path: Path, within region: Rect? = nil) {
        var bounds = path.bounds
        if let region { bounds = bounds.intersection(region) ?? .zero }
        let limit = Self.coordinateLimit
        guard !path.isEmpty, bounds.minX.isFinite, bounds.minY.isFinite, bounds.maxX.isFinite,
            bounds.maxY.isFinite, bounds.minX >= -limit, bounds.minY >= -limit,
            bounds.maxX <= limit, bounds.maxY <= limit,
            (bounds.width + 2) * (bounds.height + 2) <= Double(Self.pixelLimit)
        else {
            originX = 0
            originY = 0
            width = 0
            height = 0
            counts = []
            return
        }
        originX = Int(bounds.minX.rounded(.down))
        originY = Int(bounds.minY.rounded(.down))
        width = Int(bounds.maxX.rounded(.up)) - originX
        height = Int(bounds.maxY.rounded(.up)) - originY
        counts = [UInt8](repeating: 0, count: width * height)
        rasterize(path.flattened(tolerance: 0.01))
    }

    /// Inside samples over all pixels as a share of all samples of a `width × height` box,
    /// 0…1.
    public func coverage(ofBoxWidth boxWidth: Int, height boxHeight: Int) -> Double {
        guard boxWidth > 0, boxHeight > 0 else { return 0 }
        let inside = counts.reduce(0) { $0 + Int($1) }
        return Double(inside) / Double(boxWidth * boxHeight * Self.samplesPerPixel)
    }

    /// The count at a pixel in image coordinates; 0 outside the mask.
    public func count(x: Int, y: Int) -> Int {
        let (u, v) = (x - originX, y - originY)
        guard u >= 0, v >= 0, u < width, v < height else { return 0 }
        return Int(counts[v * width + u])
    }

    /// The coverage at a pixel as an 8-bit alpha: 0 outside, 255 when every sample is in.
    public func alpha(x: Int, y: Int) -> UInt8 {
        Self.alpha(forCount: count(x: x, y: y))
    }

    /// The 8-bit alpha for a sample count, rounded to nearest.
    public static func alpha(forCount count: Int) -> UInt8 {
        UInt8((count * 255 + samplesPerPixel / 2) / samplesPerPixel)
    }

    private mutating func rasterize(_ polylines: [[Point]]) {
        let n = Double(Self.samplesPerAxis)
        let rows = height * Self.samplesPerAxis
        let columns = width * Self.samplesPerAxis
        guard rows > 0, columns > 0 else { return }
        // Each edge meets only the sample rows between its ends: list the crossings row by
        // row (counted first, then filled in place), rather than testing every edge on
        // every row.
        var edges: [(a: Point, b: Point)] = []
        for polyline in polylines where polyline.count >= 2 {
            var points = polyline
            if points.first != points.last { points.append(points[0]) }
            for (a, b) in zip(points, points.dropFirst()) where a.y != b.y {
                edges.append((a, b))
            }
        }
        /// The sample rows whose centre y satisfies low ≤ y < high (half-open in y, as
        /// `Path.contains` counts crossings).
        func sampleRows(_ e: (a: Point, b: Point)) -> Range<Int> {
            let (low, high) = e.a.y < e.b.y ? (e.a.y, e.b.y) : (e.b.y, e.a.y)
            // Clamped before conversion: an edge may reach far outside the mask.
            func row(_ y: Double) -> Int {
                clampedIndex((y - Double(originY)) * n - 0.5, upper: rows)
            }
            var first = max(0, row(low) - 1)
            var end = min(rows, row(high) + 1)
            while first < end, sampleY(first) < low { first += 1 }
            while end > first, sampleY(end - 1) >= high { end -= 1 }
            return first..<end
        }
        func sampleY(_ row: Int) -> Double { Double(originY) + (Double(row) + 0.5) / n }

        var start = [Int](repeating: 0, count: rows + 1)
        for e in edges {
            for row in sampleRows(e) { start[row + 1] += 1 }
        }
        for row in 0..<rows { start[row + 1] += start[row] }
        var filled = start
        var crossings = [(x: Double, direction: Int)](
            repeating: (0, 0), count: start[rows])
        for e in edges {
            let direction = e.a.y < e.b.y ? 1 : -1
            for row in sampleRows(e) {
                let y = sampleY(row)
                let x = e.a.x + (y - e.a.y) * (e.b.x - e.a.x) / (e.b.y - e.a.y)
                crossings[filled[row]] = (x, direction)
                filled[row] += 1
            }
        }
        counts.withUnsafeMutableBufferPointer { counts in
            crossings.withUnsafeMutableBufferPointer { all in
                for row in 0..<rows where start[row + 1] - start[row] >= 2 {
                    var list = UnsafeMutableBufferPointer(
                        rebasing: all[start[row]..<start[row + 1]])
                    list.sort { $0.x < $1.x }
                    var winding = 0
                    let pixelRow = row / Self.samplesPerAxis * width
                    for index in 0..<(list.count - 1) {
                        winding += list[index].direction
                        guard winding != 0 else { continue }
                        // Sample column k sits at originX + (k + ½)/n; count those strictly
                        // inside.
                        // Clamped to just outside the mask: an edge may reach far beyond it.
                        let start = (list[index].x - Double(originX)) * n - 0.5
                        let end = (list[index + 1].x - Double(originX)) * n - 0.5
                        var k = max(0, clampedIndex(start, upper: columns))
                        if Double(k) == start { k += 1 }
                        let last = min(columns - 1, clampedIndex(end, upper: columns) - 1)
                        guard k <= last else { continue }
                        // The pixels at the span's ends get some of their samples, those
                        // between all of theirs.
                        let perPixel = Self.samplesPerAxis
                        let first = k / perPixel
                        let final = last / perPixel
                        if first == final {
                            counts[pixelRow + first] &+= UInt8(last - k + 1)
                        } else {
                            counts[pixelRow + first] &+= UInt8(perPixel - k % perPixel)
                            for pixel in (first + 1)..<final {
                                counts[pixelRow + pixel] &+= UInt8(perPixel)
                            }
                            counts[pixelRow + final] &+= UInt8(last % perPixel + 1)
                        }
                    }
                }
            }
        }
    }
}

/// `value` rounded up to a whole number, held within −2…`upper` + 2 (not a number gives −2),
/// so that converting it to `Int` cannot trap.
private func clampedIndex(_ value: Double, upper: Int) -> Int {
    guard value > -2 else { return -2 }
    guard value < Double(upper) + 2 else { return upper + 2 }
    return Int(value.rounded(.up))
}
