import TactileCore

/// How a hole (and each decoy) is cut into the background: darkened, and — to keep automated
/// gap finders unsure — with a soft edge, a slight blur and grain inside.
///
/// Every change is confined to the shape and weighted by its coverage, so pixels outside
/// every hole keep the picture's exact values. A person still sees a clear, darker dent;
/// an edge detector finds no crisp outline where the piece's outline is, and template
/// matching against the piece's pixels meets blurred, noisy content.
public struct HoleTreatment: Hashable, Sendable {
    /// The share of light removed at full depth, 0…1.
    public var darkening: Double
    /// Pixels over which the darkening grows from the edge to full depth; 0 for a crisp edge.
    public var edgeSoftness: Double
    /// The darkening right at the edge, as a share of the full darkening, 0…1.
    public var edgeFloor: Double
    /// The radius in pixels of the box blur applied inside; 0 for none.
    public var blurRadius: Int
    /// The largest grain added inside, in 8-bit levels; 0 for none.
    public var noise: Int
    /// The grain's feature size in pixels: random values on a grid this coarse, blended
    /// between grid points, so smoothing before edge detection does not remove them.
    public var grainSize: Int

    /// Creates a treatment.
    public init(
        darkening: Double, edgeSoftness: Double, edgeFloor: Double, blurRadius: Int, noise: Int,
        grainSize: Int = 1
    ) {
        self.grainSize = max(1, min(grainSize, 16))
        self.darkening = darkening.clamped(to: 0...1)
        self.edgeSoftness = edgeSoftness.isFinite ? max(0, edgeSoftness) : 0
        self.edgeFloor = edgeFloor.clamped(to: 0...1)
        self.blurRadius = max(0, min(blurRadius, 8))
        self.noise = max(0, min(noise, 64))
    }

    /// Darkened by half with a crisp edge, nothing else: what TTGPuzzleVerify shows.
    public static let plain = HoleTreatment(
        darkening: 0.5, edgeSoftness: 0, edgeFloor: 1, blurRadius: 0, noise: 0)

    /// The default: 55 % darker, growing over 10 px from 15 % of that at the edge, a 3-pixel
    /// blur and ±16 levels of grain in 4-pixel mottles. Against ``GapFinder`` it brings the
    /// hit rate from every puzzle to about half (see `tactile bench puzzle`), while the
    /// shape stays easy to see.
    public static let standard = HoleTreatment(
        darkening: 0.55, edgeSoftness: 10, edgeFloor: 0.15, blurRadius: 3, noise: 16,
        grainSize: 4)

    /// Cuts the hole described by `mask` into `bitmap`.
    public func apply(
        to bitmap: inout Bitmap, mask: ShapeMask, using random: inout some RandomNumberGenerator
    ) {
        guard mask.width > 0, mask.height > 0 else { return }
        var grain = SeededRandom(seed: random.next())
        let full = Double(ShapeMask.samplesPerPixel)
        let distance = edgeSoftness > 0 ? Self.insideDistances(mask) : []
        let blurred =
            blurRadius > 0 ? Self.boxBlurred(bitmap, around: mask, radius: blurRadius) : []
        let width = bitmap.width
        let height = bitmap.height
        let grainField = Self.grainField(
            width: mask.width, height: mask.height, size: grainSize, amplitude: noise,
            using: &grain)
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for v in 0..<mask.height {
                let y = mask.originY + v
                guard y >= 0, y < height else { continue }
                for u in 0..<mask.width {
                    let x = mask.originX + u
                    let m = v * mask.width + u
                    let count = mask.counts[m]
                    guard x >= 0, x < width, count > 0 else { continue }
                    let coverage = Double(count) / full
                    var ramp = 1.0
                    if edgeSoftness > 0 {
                        let s = min(distance[m] / edgeSoftness, 1)
                        ramp = edgeFloor + (1 - edgeFloor) * s * s * (3 - 2 * s)
                    }
                    let keep = 1 - darkening * ramp * coverage
                    let grainValue = noise > 0 ? grainField[m] : 0
                    let i = (y * width + x) * 4
                    for channel in 0..<3 {
                        var value = Double(pixels[i + channel])
                        if blurRadius > 0 {
                            value += (Double(blurred[m * 3 + channel]) - value) * coverage
                        }
                        value = value * keep + grainValue * coverage
                        pixels[i + channel] = UInt8(min(max(value, 0), 255) + 0.5)
                    }
                }
            }
        }
    }

    /// Grain for every mask pixel: uniform values in ±`amplitude` on a grid of `size`-pixel
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
        var field = [Double](repeating: 0, count: width * height)
        let cell = Double(size)
        for v in 0..<height {
            let gy = Double(v) / cell
            let j = Int(gy)
            let fy = gy - Double(j)
            for u in 0..<width {
                let gx = Double(u) / cell
                let i = Int(gx)
                let fx = gx - Double(i)
                let top = grid[j * columns + i] * (1 - fx) + grid[j * columns + i + 1] * fx
                let bottom =
                    grid[(j + 1) * columns + i] * (1 - fx) + grid[(j + 1) * columns + i + 1] * fx
                field[v * width + u] = top * (1 - fy) + bottom * fy
            }
        }
        return field
    }

    /// For each mask pixel, roughly how many pixels it lies inside the shape's edge: 0 on
    /// pixels the edge crosses, growing inwards (a two-pass chamfer transform).
    static func insideDistances(_ mask: ShapeMask) -> [Double] {
        let w = mask.width
        let h = mask.height
        let full = UInt8(ShapeMask.samplesPerPixel)
        let far = Double(w + h)
        var d = mask.counts.map { $0 == full ? far : 0 }
        func at(_ u: Int, _ v: Int) -> Double {
            u < 0 || v < 0 || u >= w || v >= h ? 0 : d[v * w + u]
        }
        let (straight, diagonal) = (1.0, 2.0.squareRoot())
        for v in 0..<h {
            for u in 0..<w where d[v * w + u] > 0 {
                d[v * w + u] = min(
                    d[v * w + u], at(u - 1, v) + straight, at(u, v - 1) + straight,
                    at(u - 1, v - 1) + diagonal, at(u + 1, v - 1) + diagonal)
            }
        }
        for v in stride(from: h - 1, through: 0, by: -1) {
            for u in stride(from: w - 1, through: 0, by: -1) where d[v * w + u] > 0 {
                d[v * w + u] = min(
                    d[v * w + u], at(u + 1, v) + straight, at(u, v + 1) + straight,
                    at(u + 1, v + 1) + diagonal, at(u - 1, v + 1) + diagonal)
            }
        }
        return d
    }

    /// The RGB of the mask's pixels box-blurred with the given radius (edges clamped):
    /// a horizontal pass of running sums, then a vertical one.
    static func boxBlurred(_ bitmap: Bitmap, around mask: ShapeMask, radius: Int) -> [UInt8] {
        let w = mask.width
        let h = mask.height
        let rows = h + 2 * radius
        // Horizontal sums for every row the vertical pass needs.
        var horizontal = [Int](repeating: 0, count: rows * w * 3)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            for r in 0..<rows {
                let y = min(max(mask.originY + r - radius, 0), bitmap.height - 1)
                let row = y * bitmap.width
                for u in 0..<w {
                    var sum = (0, 0, 0)
                    for dx in -radius...radius {
                        let x = min(max(mask.originX + u + dx, 0), bitmap.width - 1)
                        let i = (row + x) * 4
                        sum.0 += Int(pixels[i])
                        sum.1 += Int(pixels[i + 1])
                        sum.2 += Int(pixels[i + 2])
                    }
                    let o = (r * w + u) * 3
                    horizontal[o] = sum.0
                    horizontal[o + 1] = sum.1
                    horizontal[o + 2] = sum.2
                }
            }
        }
        let area = (2 * radius + 1) * (2 * radius + 1)
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for v in 0..<h {
            for u in 0..<w {
                for channel in 0..<3 {
                    var sum = 0
                    for r in v...(v + 2 * radius) { sum += horizontal[(r * w + u) * 3 + channel] }
                    out[(v * w + u) * 3 + channel] = UInt8((sum + area / 2) / area)
                }
            }
        }
        return out
    }
}
