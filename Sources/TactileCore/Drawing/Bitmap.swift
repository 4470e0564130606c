/// A raster image in memory: 8-bit RGBA, straight alpha, rows top to bottom, no padding.
public struct Bitmap: Hashable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width × height × 4` bytes, R, G, B, A per pixel.
    public var pixels: [UInt8]

    /// Creates a bitmap filled with one colour.
    public init(width: Int, height: Int, fill: Color = .clear) {
        precondition(width >= 0 && height >= 0, "bitmap size must not be negative")
        self.width = width
        self.height = height
        let rgba = Self.bytes(of: fill)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        if fill != .clear {
            for i in stride(from: 0, to: pixels.count, by: 4) {
                pixels[i] = rgba.0
                pixels[i + 1] = rgba.1
                pixels[i + 2] = rgba.2
                pixels[i + 3] = rgba.3
            }
        }
        self.pixels = pixels
    }

    /// Creates a bitmap from RGBA bytes; `nil` when the count does not match the size.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width >= 0, height >= 0, pixels.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The colour of one pixel.
    public subscript(x: Int, y: Int) -> Color {
        get {
            let i = (y * width + x) * 4
            return Color(
                red8: pixels[i], green8: pixels[i + 1], blue8: pixels[i + 2], alpha8: pixels[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            let rgba = Self.bytes(of: newValue)
            pixels[i] = rgba.0
            pixels[i + 1] = rgba.1
            pixels[i + 2] = rgba.2
            pixels[i + 3] = rgba.3
        }
    }

    private static func bytes(of c: Color) -> (UInt8, UInt8, UInt8, UInt8) {
        func b(_ v: Double) -> UInt8 { UInt8((v * 255).rounded()) }
        return (b(c.red), b(c.green), b(c.blue), b(c.alpha))
    }
}
