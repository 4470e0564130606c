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
            ridges[layer] = (0..<width).map { x in
                terms.reduce(base) { $0 + $1.amplitude * sin($1.frequency * Double(x) + $1.phase) }
            }
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
        let layers = layerColors.map(rgb)
        let white = RGB(repeating: 1)
        // Ridge heights column by column, one contiguous array per layer.
        let ridgeTable = ridges.flatMap { $0.map(Float.init) }
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var noiseSource = SeededRandom(seed: seed ^ 0xA5A5_5A5A_F00D_BEEF)
        var bits: UInt64 = 0
        pixels.withUnsafeMutableBufferPointer { out in
            ridgeTable.withUnsafeBufferPointer { ridge in
                for y in 0..<height {
                    let fy = Float(y)
                    let sky = top + (bottom - top) * Float(Double(y) / h)
                    let nearSun = abs(Double(y) - sun.y) < sun.r * 2
                    let rowClouds = clouds.filter { abs(Double(y) - $0.y) < $0.ry }
                    for x in 0..<width {
                        var color = sky
                        var layer = layerCount - 1
                        while layer >= 0, fy < ridge[layer * width + x] { layer -= 1 }
                        if layer >= 0 {
                            // Darker further below the ridge, as if shaded.
                            let below = (fy - ridge[layer * width + x]) / Float(h)
                            color = layers[layer] * (1 - min(below * 0.9, 1))
                        } else {
                            if nearSun {
                                let dx = Double(x) - sun.x
                                let dy = Double(y) - sun.y
                                let d = (dx * dx + dy * dy).squareRoot()
                                if d < sun.r * 2 {
                                    let f = Float(d < sun.r ? 1 : 0.6 * (2 - d / sun.r))
                                    color += (sunRGB - color) * f
                                }
                            }
                            for c in rowClouds {
                                let u = (Double(x) - c.x) / c.rx
                                let v = (Double(y) - c.y) / c.ry
                                let e = u * u + v * v
                                if e < 1 { color += (white - color) * Float(0.75 * (1 - e)) }
                            }
                        }
                        if x & 31 == 0 { bits = grain ? noiseSource.next() : 0xAAAA_AAAA_AAAA_AAAA }
                        let noise = Float(Int(bits & 3) - 2) / 255
                        bits >>= 2
                        let i = (y * width + x) * 4
                        out[i] = byte(color.x + noise)
                        out[i + 1] = byte(color.y + noise)
                        out[i + 2] = byte(color.z + noise)
                    }
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)!
    }

    @inline(__always)
    private static func byte(_ v: Float) -> UInt8 {
        UInt8(min(max(v, 0), 1) * 255 + 0.5)
    }
}
