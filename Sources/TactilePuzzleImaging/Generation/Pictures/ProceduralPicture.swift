import Foundation
import TactileCore

/// A landscape drawn from a seed: sky, sun, clouds, layered hills and a fine grain.
///
/// Nothing is downloaded; the same seed and size always give the same pixels. The grain
/// and the hills' edges give the picture texture everywhere, so a hole cannot be found as
/// the only detail in a flat area.
public enum ProceduralPicture {
    /// Draws a picture.
    ///
    /// - Parameters:
    ///   - width: Pixels across, at least 1.
    ///   - height: Pixels down, at least 1.
    ///   - seed: Chooses colours, hills, sun and clouds.
    ///   - grain: Whether to add a faint per-pixel grain (off for animations, which it
    ///     would bloat).
    public static func make(width: Int, height: Int, seed: UInt64, grain: Bool = true)
        -> Bitmap
    {
        let width = max(1, width)
        let height = max(1, height)
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            render(
                width: width, height: height, seed: seed, grain: grain,
                into: UnsafeMutableRawPointer(buffer.baseAddress!))
            count = width * height * 4
        }
        return Bitmap(width: width, height: height, pixels: pixels)!
    }

    /// Draws a picture over all of `bitmap`'s pixels, at its size: the pixels ``make(width:height:seed:grain:)``
    /// gives for that size and seed, without allocating when the bitmap's storage is not
    /// shared — a loop drawing picture after picture reuses one bitmap.
    ///
    /// - Parameters:
    ///   - bitmap: Where to draw; an empty bitmap is left as it is.
    ///   - seed: Chooses colours, hills, sun and clouds.
    ///   - grain: Whether to add a faint per-pixel grain.
    public static func draw(into bitmap: inout Bitmap, seed: UInt64, grain: Bool = true) {
        let (width, height) = (bitmap.width, bitmap.height)
        guard width > 0, height > 0 else { return }
        bitmap.pixels.withUnsafeMutableBytes { pixels in
            render(
                width: width, height: height, seed: seed, grain: grain,
                into: pixels.baseAddress!)
        }
    }

    /// Writes the picture's `width × height × 4` bytes to `out`.
    private static func render(
        width: Int, height: Int, seed: UInt64, grain: Bool, into out: UnsafeMutableRawPointer
    ) {
        var random = SeededRandom(seed: seed)
        let w = Double(width)
        let h = Double(height)

        // Blue skies mostly, sometimes a sunset.
        let isSunset = Double.random(in: 0..<1, using: &random) < 0.3
        let hue =
            isSunset
            ? Double.random(in: 0.95...1.07, using: &random)
            : Double.random(in: 0.53...0.62, using: &random)
        let skyTop = Color(hue: hue, saturation: isSunset ? 0.5 : 0.6, value: 0.8)
        let skyBottom = Color(hue: hue + 0.06, saturation: 0.3, value: 0.98)
        let sun = (
            x: Double.random(in: 0.1...0.9, using: &random) * w,
            y: Double.random(in: 0.12...0.4, using: &random) * h,
            r: Double.random(in: 0.05...0.09, using: &random) * w
        )
        let sunColor = Color(hue: isSunset ? 0.1 : 0.14, saturation: 0.45, value: 1)
        let clouds = (0..<Int.random(in: 2...5, using: &random)).map { _ in
            (
                x: Double.random(in: 0...1, using: &random) * w,
                y: Double.random(in: 0.05...0.45, using: &random) * h,
                rx: Double.random(in: 0.06...0.16, using: &random) * w,
                ry: Double.random(in: 0.025...0.05, using: &random) * h
            )
        }

        // Hills, back to front: a height per column and a colour each.
        let layerCount = 4
        var ridges = [[Double]](repeating: [], count: layerCount)
        var layerColors: [Color] = []
        // Green hills or blue-violet mountains.
        let landHue =
            Double.random(in: 0..<1, using: &random) < 0.6
            ? Double.random(in: 0.22...0.4, using: &random)
            : Double.random(in: 0.6...0.75, using: &random)
        for layer in 0..<layerCount {
            let depth = Double(layer) / Double(layerCount - 1)
            let base = h * (0.42 + 0.15 * depth)
            let terms = (0..<3).map { k in
                (
                    amplitude: h * Double.random(in: 0.03...0.09, using: &random)
                        / Double(k + 1),
                    frequency: Double.random(in: 1...3, using: &random) * Double(k + 1) * 2
                        * .pi / w,
                    phase: Double.random(in: 0..<(2 * .pi), using: &random)
                )
            }
            ridges[layer] = Self.ridge(base: base, terms: terms, width: width)
            layerColors.append(
                Color(
                    hue: landHue + 0.05 * depth, saturation: 0.35 + 0.3 * depth,
                    value: 0.85 - 0.45 * depth))
        }

        typealias RGB = SIMD3<Float>
        func rgb(_ c: Color) -> RGB { RGB(Float(c.red), Float(c.green), Float(c.blue)) }
        let top = rgb(skyTop)
        let bottom = rgb(skyBottom)
        let sunRGB = rgb(sunColor)
        // Colours in fixed point, 65,280 (255 · 256) for full intensity: a pixel's byte is
        // (value + 128) >> 8, and the grain adds whole levels of 256.
        let fullScale: Float = 65280
        let layers = layerColors.map { fixedPoint(rgb($0) * fullScale) }

        // Rows are drawn four columns at a time; buffers are padded to whole fours.
        let stride4 = (width + 3) / 4 * 4
        // Ridge heights in 1/256 pixels, rounded up: row y is inside a hill where
        // 256 · y ≥ its ridge.
        let ridge = UnsafeMutablePointer<Int32>.allocate(capacity: layerCount * stride4)
        ridge.initialize(repeating: Int32.max, count: layerCount * stride4)
        defer { ridge.deallocate() }
        for layer in 0..<layerCount {
            for x in 0..<width {
                ridge[layer * stride4 + x] = Int32((ridges[layer][x] * 256).rounded(.up))
            }
        }
        // Per four columns, the highest ridge: rows above it are all sky there.
        let skyline = (0..<(stride4 / 4)).map { group in
            (0..<layerCount).map { layer in
                (0..<4).map { ridge[layer * stride4 + group * 4 + $0] }.min()!
            }.min()!
        }
        // Hills darken further below the ridge, as if shaded: by 0.9 over the picture's
        // height, as a share of 32,768, from the depth in 1/256 pixels times this >> 16.
        let shadeRate = Int32((0.9 * 32768 / 256 / h * 65536).rounded())
        var noiseSource = SeededRandom(seed: seed ^ 0xA5A5_5A5A_F00D_BEEF)
        // One row's colours in fixed point, channel by channel, and whether each pixel is
        // sky (where the sun and the clouds show): −1 for hill, 0 for sky.
        let channels = UnsafeMutablePointer<Int32>.allocate(capacity: 4 * stride4)
        defer { channels.deallocate() }
        let (red, green, blue) = (channels, channels + stride4, channels + 2 * stride4)
        let isHill = channels + 3 * stride4
        // The grain of four pixels from 8 random bits, as fixed-point offsets with the
        // rounding half level included.
        let grainTable = (0..<256).map { (bits: Int) -> SIMD4<Int32> in
            let levels = SIMD4<Int32>(
                Int32(bits & 3), Int32(bits >> 2 & 3), Int32(bits >> 4 & 3), Int32(bits >> 6 & 3))
            return (levels &- 2) &* 256 &+ 128
        }
        let sunX = Float(sun.x)
        let sunY = Float(sun.y)
        let sunR = Float(sun.r)
        let sunFixed = fixedPoint(sunRGB * fullScale)
        do {
            for y in 0..<height {
                let sky = top + (bottom - top) * Float(Double(y) / h)
                let skyFixed = fixedPoint(sky * fullScale)
                let depthBase = SIMD4<Int32>(repeating: Int32(y * 256))
                let skyRed = SIMD4<Int32>(repeating: skyFixed.x)
                let skyGreen = SIMD4<Int32>(repeating: skyFixed.y)
                let skyBlue = SIMD4<Int32>(repeating: skyFixed.z)
                // Groups of four as a plain range: a `stride` loop here is not inlined, and
                // its iterator costs more than the sky rows' stores.
                for group in 0..<(stride4 / 4) {
                    let x = group * 4
                    guard depthBase.x >= skyline[group] else {
                        store4(skyRed, red + x)
                        store4(skyGreen, green + x)
                        store4(skyBlue, blue + x)
                        store4(.zero, isHill + x)
                        continue
                    }
                    // The frontmost layer whose ridge is above the pixel, without branches:
                    // each layer, back to front, takes over the lanes it covers.
                    var top4 = SIMD4<Int32>(repeating: 0)
                    var r = skyRed
                    var g = skyGreen
                    var b = skyBlue
                    var hill = SIMD4<Int32>(repeating: 0)
                    for layer in 0..<layerCount {
                        let edge = load4(ridge + layer * stride4 + x)
                        let covers = ~((depthBase &- edge) &>> 31)
                        top4 = select(edge, top4, covers)
                        r = select(SIMD4(repeating: layers[layer].x), r, covers)
                        g = select(SIMD4(repeating: layers[layer].y), g, covers)
                        b = select(SIMD4(repeating: layers[layer].z), b, covers)
                        hill |= covers
                    }
                    let darkening = ((depthBase &- top4) &* shadeRate) &>> 16 &- 32768
                    let shade = 0 &- (darkening & (darkening &>> 31))  // 32768 − min(·, 32768)
                    store4(select((r &* shade) &>> 15, r, hill), red + x)
                    store4(select((g &* shade) &>> 15, g, hill), green + x)
                    store4(select((b &* shade) &>> 15, b, hill), blue + x)
                    store4(hill, isHill + x)
                }
                // The sun, then the clouds, each only over the columns it can reach, blended
                // into the sky in fixed point: weights in 1/32,768ths.
                let dy = Float(y) - sunY
                if abs(dy) < sunR * 2 {
                    let reach = columns(
                        around: sun.x, halfWidth: Double((4 * sunR * sunR - dy * dy).squareRoot()),
                        width: width)
                    for x in reach where isHill[x] == 0 {
                        let dx = Float(x) - sunX
                        let squared = dx * dx + dy * dy
                        guard squared < 4 * sunR * sunR else { continue }
                        // Full sun inside its radius, a glow fading out to twice that.
                        let f = squared < sunR * sunR ? 1 : 0.6 * (2 - squared.squareRoot() / sunR)
                        let weight = Int32(f * 32768)
                        red[x] &+= ((sunFixed.x &- red[x]) &* weight) &>> 15
                        green[x] &+= ((sunFixed.y &- green[x]) &* weight) &>> 15
                        blue[x] &+= ((sunFixed.z &- blue[x]) &* weight) &>> 15
                    }
                }
                for c in clouds where abs(Double(y) - c.y) < c.ry {
                    let v = Float((Double(y) - c.y) / c.ry)
                    let scale = Float(1 / c.rx)
                    let centre = Float(c.x)
                    let reach = columns(
                        around: c.x, halfWidth: Double((1 - v * v).squareRoot() / scale),
                        width: width)
                    for x in reach where isHill[x] == 0 {
                        let u = (Float(x) - centre) * scale
                        let e = u * u + v * v
                        guard e < 1 else { continue }
                        let weight = Int32(0.75 * (1 - e) * 32768)
                        red[x] &+= ((65280 &- red[x]) &* weight) &>> 15
                        green[x] &+= ((65280 &- green[x]) &* weight) &>> 15
                        blue[x] &+= ((65280 &- blue[x]) &* weight) &>> 15
                    }
                }
                // A faint grain, −2…+1 levels from two random bits per pixel, and the bytes,
                // four pixels at a time (the row buffers have room for a last partial four).
                let target = out + y * width * 4
                var bits: UInt64 = 0
                for group in 0..<((width + 3) / 4) {
                    let x = group * 4
                    if x & 31 == 0 { bits = grain ? noiseSource.next() : 0xAAAA_AAAA_AAAA_AAAA }
                    let noise = grainTable[Int(truncatingIfNeeded: bits & 0xFF)]
                    bits &>>= 8
                    let r = clampToByte((load4(red + x) &+ noise) &>> 8)
                    let g = clampToByte((load4(green + x) &+ noise) &>> 8)
                    let b = clampToByte((load4(blue + x) &+ noise) &>> 8)
                    let rgba = r | g &<< 8 | b &<< 16 | SIMD4(repeating: -0x100_0000)
                    if x + 4 <= width {
                        (target + x * 4).storeBytes(of: rgba, as: SIMD4<Int32>.self)
                    } else {
                        for k in 0..<(width - x) {
                            (target + (x + k) * 4).storeBytes(of: rgba[k], as: Int32.self)
                        }
                    }
                }
            }
        }
    }

    /// `base` plus each term's sine wave, at columns 0 ..< `width`: the sines stepped from
    /// column to column by the angle-sum rule, and worked out afresh every 32 columns so
    /// that rounding cannot build up (the steps agree with `sin` to about 1e-15).
    static func ridge(
        base: Double, terms: [(amplitude: Double, frequency: Double, phase: Double)], width: Int
    ) -> [Double] {
        var heights = [Double](repeating: base, count: width)
        for term in terms {
            let (stepSin, stepCos) = (sin(term.frequency), cos(term.frequency))
            var (s, c) = (0.0, 0.0)
            for x in 0..<width {
                if x % 32 == 0 {
                    let angle = term.frequency * Double(x) + term.phase
                    (s, c) = (sin(angle), cos(angle))
                } else {
                    (s, c) = (s * stepCos + c * stepSin, c * stepCos - s * stepSin)
                }
                heights[x] += term.amplitude * s
            }
        }
        return heights
    }

    @inline(__always)
    private static func load4(_ p: UnsafeMutablePointer<Int32>) -> SIMD4<Int32> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Int32>.self)
    }

    @inline(__always)
    private static func store4(_ v: SIMD4<Int32>, _ p: UnsafeMutablePointer<Int32>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD4<Int32>.self)
    }

    /// `a` in the lanes where `mask` is all ones, `b` where it is zero.
    @inline(__always)
    private static func select(_ a: SIMD4<Int32>, _ b: SIMD4<Int32>, _ mask: SIMD4<Int32>)
        -> SIMD4<Int32>
    {
        (a & mask) | (b & ~mask)
    }

    /// `v` limited to 0…255, lane by lane, without branches.
    @inline(__always)
    private static func clampToByte(_ v: SIMD4<Int32>) -> SIMD4<Int32> {
        let positive = v & ~(v &>> 31)
        let over = (255 &- positive) &>> 31  // all ones when above 255
        return (positive & ~over) | (255 & over)
    }

    /// The channels, at least 0, rounded to whole numbers (scalar by scalar: faster than
    /// the generic vector conversion, and without a call to the C library's rounding).
    @inline(__always)
    private static func fixedPoint(_ v: SIMD3<Float>) -> SIMD3<Int32> {
        SIMD3(Int32(max(v.x, 0) + 0.5), Int32(max(v.y, 0) + 0.5), Int32(max(v.z, 0) + 0.5))
    }

    /// The columns within `halfWidth` (and a pixel more) of `centre`, inside the picture.
    private static func columns(around centre: Double, halfWidth: Double, width: Int)
        -> Range<Int>
    {
        guard halfWidth.isFinite else { return 0..<0 }
        let first = max(0, Int((centre - halfWidth - 1).rounded(.down).clamped(to: -1...1e9)))
        let end = min(width, Int((centre + halfWidth + 2).rounded(.up).clamped(to: -1...1e9)))
        return first..<max(first, end)
    }
}
