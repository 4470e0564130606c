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

    /// Rasterizes a path (pixel coordinates).
    public init(path: Path) {
        let bounds = path.bounds
        guard bounds.width.isFinite, bounds.height.isFinite, !path.isEmpty else {
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
        // Edges with their winding direction, in sample space.
        struct Edge {
            var x0, y0, x1, y1: Double
            var direction: Int
        }
        let n = Double(Self.samplesPerAxis)
        var edges: [Edge] = []
        for polyline in polylines where polyline.count >= 2 {
            var points = polyline
            if points.first != points.last { points.append(points[0]) }
            for (a, b) in zip(points, points.dropFirst()) where a.y != b.y {
                edges.append(
                    Edge(
                        x0: a.x, y0: a.y, x1: b.x, y1: b.y, direction: a.y < b.y ? 1 : -1))
            }
        }
        var crossings: [(x: Double, direction: Int)] = []
        let columns = width * Self.samplesPerAxis
        for row in 0..<(height * Self.samplesPerAxis) {
            let y = Double(originY) + (Double(row) + 0.5) / n
            crossings.removeAll(keepingCapacity: true)
            for e in edges {
                // Half-open in y, as `Path.contains` counts crossings.
                let (low, high) = e.y0 < e.y1 ? (e.y0, e.y1) : (e.y1, e.y0)
                guard low <= y, y < high else { continue }
                let x = e.x0 + (y - e.y0) * (e.x1 - e.x0) / (e.y1 - e.y0)
                crossings.append((x, e.direction))
            }
            guard !crossings.isEmpty else { continue }
            crossings.sort { $0.x < $1.x }
            var winding = 0
            let pixelRow = row / Self.samplesPerAxis * width
            for (index, crossing) in crossings.enumerated() {
                winding += crossing.direction
                guard winding != 0, index + 1 < crossings.count else { continue }
                // Sample column k sits at originX + (k + ½)/n; count those strictly inside.
                let start = (crossing.x - Double(originX)) * n - 0.5
                let end = (crossings[index + 1].x - Double(originX)) * n - 0.5
                var k = max(0, Int(start.rounded(.up)))
                if Double(k) == start { k += 1 }
                let last = min(columns - 1, Int(end.rounded(.up)) - 1)
                guard k <= last else { continue }
                for column in k...last {
                    counts[pixelRow + column / Self.samplesPerAxis] += 1
                }
            }
        }
    }
}
