import TactileCore

/// How the piece is drawn from the picture: exactly, or with a light edge of its own and a
/// brightness, colour and grain independent of the background's.
///
/// A piece cut exactly repeats the picture's colours, down to its faintest antialiased rim
/// pixels, and a solver finds the hole by looking for them in the background. With an edge,
/// the rim pixels are the edge's colour, not the picture's; inside, the piece's colours
/// are the picture's under a random gain and offset per channel, with fine grain, so no
/// pixel predicts the background under it. To a person the piece looks like a lifted,
/// outlined part of the picture.
public struct PieceTreatment: Hashable, Sendable {
    /// The width of the drawn edge in pixels, 0…6: the outline's pixels take the edge's
    /// colour fully, and it fades into the picture over this many pixels inside; 0 for none.
    public var edgeWidth: Double
    /// The edge's grey level, 0…255.
    public var edgeLevel: Int
    /// The range the piece's overall brightness gain is drawn from, per puzzle.
    public var brightness: ClosedRange<Double>
    /// The largest extra gain per channel, drawn per puzzle from ± this, 0…0.5.
    public var colorJitter: Double
    /// The largest offset per channel in 8-bit levels, drawn per puzzle from ± this, 0…32.
    public var offset: Int
    /// The largest per-pixel grain in 8-bit levels, 0…16; 0 for none.
    public var noise: Int

    /// Creates a piece treatment.
    public init(
        edgeWidth: Double, edgeLevel: Int = 255, brightness: ClosedRange<Double> = 1...1,
        colorJitter: Double = 0, offset: Int = 0, noise: Int = 0
    ) {
        self.edgeWidth = edgeWidth.isFinite ? edgeWidth.clamped(to: 0...6) : 0
        self.edgeLevel = min(max(edgeLevel, 0), 255)
        let low = brightness.lowerBound.isFinite ? brightness.lowerBound.clamped(to: 0.5...1.5) : 1
        let high =
            brightness.upperBound.isFinite ? brightness.upperBound.clamped(to: low...1.5) : low
        self.brightness = low...high
        self.colorJitter = colorJitter.isFinite ? colorJitter.clamped(to: 0...0.5) : 0
        self.offset = min(max(offset, 0), 32)
        self.noise = min(max(noise, 0), 16)
    }

    /// The picture's pixels as they are, alpha the coverage: the first generator's piece.
    public static let exact = PieceTreatment(edgeWidth: 0)

    /// The default: a white edge fading in over 2.5 px, brightness × 1.04…1.14, up to 5 %
    /// more or less per channel, ±6 levels of offset per channel and ±3 levels of grain.
    public static let standard = PieceTreatment(
        edgeWidth: 2.5, edgeLevel: 255, brightness: 1.04...1.14, colorJitter: 0.05, offset: 6,
        noise: 3)

    /// Whether the piece is the picture's pixels unchanged.
    public var isExact: Bool {
        edgeWidth == 0 && brightness == 1...1 && colorJitter == 0 && offset == 0 && noise == 0
    }

    /// The outline distances of the pieces seen last (``RecentResults``): about 40 KB each
    /// for a 96-pixel piece.
    static let recentDistances = RecentResults<MaskKey<Int>, [Float]>(limit: 32)

    /// Draws the piece over its cut: `piece` holds the picture's pixels with alpha the
    /// coverage, `counts` the shape's sample counts for each of its pixels.
    func apply(
        to piece: inout Bitmap, counts: [UInt8], using random: inout some RandomNumberGenerator
    ) {
        guard !isExact, piece.width > 0, piece.height > 0 else { return }
        let gain = Double.random(in: brightness, using: &random)
        var gains = SIMD3<Float>(repeating: 1)
        var offsets = SIMD3<Float>(repeating: 0)
        for c in 0..<3 {
            gains[c] = Float(gain * (1 + Double.random(in: -1...1, using: &random) * colorJitter))
            offsets[c] = Float(Int.random(in: -offset...offset, using: &random))
        }
        var grain = SeededRandom(seed: random.next())
        let span = UInt64(2 * noise + 1)
        let (w, h) = (piece.width, piece.height)
        let distance =
            edgeWidth > 0
            ? Self.recentDistances.value(
                for: MaskKey(counts: counts, width: w, height: h, extra: 0)
            ) {
                OutlineDistance.signed(
                    counts: counts, width: w, height: h, full: ShapeMask.samplesPerPixel)
            } : []
        let edge = Float(edgeLevel)
        let width = Float(edgeWidth)
        let n = piece.width * piece.height
        piece.pixels.withUnsafeMutableBufferPointer { pixels in
            for k in 0..<n where pixels[k * 4 + 3] > 0 {
                // The edge's share: all of it on the outline, fading to none `width` inside.
                var share: Float = 0
                if edgeWidth > 0 {
                    let s = min(max(distance[k] / width, 0), 1)
                    share = 1 - s * s * (3 - 2 * s)
                }
                let bits = noise > 0 ? grain.next() : 0
                for c in 0..<3 {
                    let i = k * 4 + c
                    var value = Float(pixels[i]) * gains[c] + offsets[c]
                    if noise > 0 {
                        value += Float(Int(((bits >> UInt64(16 * c)) & 0xFFFF) % span) - noise)
                    }
                    value += (edge - value) * share
                    pixels[i] = UInt8(min(max(value, 0), 255) + 0.5)
                }
            }
        }
    }
}
