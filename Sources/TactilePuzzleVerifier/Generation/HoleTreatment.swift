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
    /// blur and ±16 levels of grain in 4-pixel mottles. Against the gap finder of `tactile bench puzzle` it brings the
    /// hit rate from every puzzle to about half (see `tactile bench puzzle`), while the
    /// shape stays easy to see.
    public static let standard = HoleTreatment(
        darkening: 0.55, edgeSoftness: 10, edgeFloor: 0.15, blurRadius: 3, noise: 16,
        grainSize: 4)

    /// The treatment's name when it is one of the named ones (`plain`, `standard`), else
    /// `custom`.
    public var name: String {
        switch self {
        case .plain: "plain"
        case .standard: "standard"
        default: "custom"
        }
    }

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
        // Only the rows and columns of the mask inside the bitmap.
        let rows = max(0, -mask.originY)..<min(mask.height, height - mask.originY)
        let columns = max(0, -mask.originX)..<min(mask.width, width - mask.originX)
        guard !rows.isEmpty, !columns.isEmpty else { return }
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            mask.counts.withUnsafeBufferPointer { counts in
                distance.withUnsafeBufferPointer { distance in
                    blurred.withUnsafeBufferPointer { blurred in
                        grainField.withUnsafeBufferPointer { grainField in
                            for v in rows {
                                let y = mask.originY + v
                                for u in columns {
                                    let m = v * mask.width + u
                                    let count = counts[m]
                                    guard count > 0 else { continue }
                                    let coverage = Double(count) / full
                                    var ramp = 1.0
                                    if edgeSoftness > 0 {
                                        let s = min(distance[m] / edgeSoftness, 1)
                                        ramp = edgeFloor + (1 - edgeFloor) * s * s * (3 - 2 * s)
                                    }
                                    let keep = 1 - darkening * ramp * coverage
                                    let grainValue = noise > 0 ? grainField[m] : 0
                                    let i = (y * width + mask.originX + u) * 4
                                    for channel in 0..<3 {
                                        var value = Double(pixels[i + channel])
                                        if blurRadius > 0 {
                                            value +=
                                                (Double(blurred[m * 3 + channel]) - value)
                                                * coverage
                                        }
                                        value = value * keep + grainValue * coverage
                                        pixels[i + channel] = UInt8(min(max(value, 0), 255) + 0.5)
                                    }
                                }
                            }
                        }
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
        let cell = Double(size)
        return [Double](unsafeUninitializedCapacity: width * height) { field, count in
            grid.withUnsafeBufferPointer { grid in
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
                            grid[(j + 1) * columns + i] * (1 - fx)
                            + grid[(j + 1) * columns + i + 1] * fx
                        field[v * width + u] = top * (1 - fy) + bottom * fy
                    }
                }
            }
            count = width * height
        }
    }

    /// For each mask pixel, roughly how many pixels it lies inside the shape's edge: 0 on
    /// pixels the edge crosses, growing inwards (a two-pass chamfer transform).
    static func insideDistances(_ mask: ShapeMask) -> [Double] {
        let w = mask.width
        let h = mask.height
        let full = UInt8(ShapeMask.samplesPerPixel)
        let far = Double(w + h)
        let (straight, diagonal) = (1.0, 2.0.squareRoot())
        // A border of zeros around the mask, so every neighbour can be read.
        let pw = w + 2
        var padded = [Double](repeating: 0, count: pw * (h + 2))
        padded.withUnsafeMutableBufferPointer { d in
            mask.counts.withUnsafeBufferPointer { counts in
                for v in 0..<h {
                    for u in 0..<w where counts[v * w + u] == full {
                        d[(v + 1) * pw + u + 1] = far
                    }
                }
            }
            for v in 1...h {
                for u in 1...w where d[v * pw + u] > 0 {
                    let k = v * pw + u
                    // The row above first, the pixel just done last: only one addition and
                    // one comparison wait on the previous pixel.
                    let above = min(
                        d[k - pw] + straight, min(d[k - pw - 1], d[k - pw + 1]) + diagonal)
                    d[k] = min(min(d[k], above), d[k - 1] + straight)
                }
            }
            for v in stride(from: h, through: 1, by: -1) {
                for u in stride(from: w, through: 1, by: -1) where d[v * pw + u] > 0 {
                    let k = v * pw + u
                    let below = min(
                        d[k + pw] + straight, min(d[k + pw + 1], d[k + pw - 1]) + diagonal)
                    d[k] = min(min(d[k], below), d[k + 1] + straight)
                }
            }
        }
        return [Double](unsafeUninitializedCapacity: w * h) { out, count in
            for v in 0..<h {
                for u in 0..<w { out[v * w + u] = padded[(v + 1) * pw + u + 1] }
            }
            count = w * h
        }
    }

    /// The RGB of the mask's pixels box-blurred with the given radius (edges clamped):
    /// running sums along the rows, then down the columns. Sums stay below 2¹⁷, so the
    /// arithmetic wraps unchecked and vectorises.
    static func boxBlurred(_ bitmap: Bitmap, around mask: ShapeMask, radius: Int) -> [UInt8] {
        let w = mask.width
        let h = mask.height
        let rows = h + 2 * radius
        let maxX = bitmap.width - 1
        let rowLength = w * 3
        // Horizontal sums for every row the vertical pass needs.
        var horizontal = [Int32](repeating: 0, count: rows * rowLength)
        horizontal.withUnsafeMutableBufferPointer { horizontal in
            bitmap.pixels.withUnsafeBufferPointer { pixels in
                for r in 0..<rows {
                    let y = min(max(mask.originY + r - radius, 0), bitmap.height - 1)
                    let row = y * bitmap.width
                    func at(_ x: Int) -> Int { (row + min(max(x, 0), maxX)) * 4 }
                    var (red, green, blue): (Int32, Int32, Int32) = (0, 0, 0)
                    for dx in -radius...radius {
                        let i = at(mask.originX + dx)
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
                        let leaving = at(mask.originX + u - radius)
                        let entering = at(mask.originX + u + 1 + radius)
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
