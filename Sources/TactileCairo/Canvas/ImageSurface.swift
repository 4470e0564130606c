internal import CCairo
import TactileCore

/// An offscreen Cairo image surface (ARGB32, premultiplied) and conversions to `Bitmap`.
public final class ImageSurface {
    /// The underlying `cairo_surface_t *`.
    public let surface: OpaquePointer
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int

    /// Creates a transparent surface.
    ///
    /// - Precondition: Both sizes are in 1…32,767 (Cairo's limit).
    public init(width: Int, height: Int) {
        precondition(
            (1...32767).contains(width) && (1...32767).contains(height),
            "image surface size \(width)×\(height) is outside 1…32767")
        self.width = width
        self.height = height
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
    }

    /// Creates a surface holding a copy of a bitmap.
    public convenience init(bitmap: Bitmap) {
        self.init(width: max(bitmap.width, 1), height: max(bitmap.height, 1))
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        bitmap.pixels.withUnsafeBufferPointer { source in
            for y in 0..<bitmap.height {
                let row = data + y * stride
                for x in 0..<bitmap.width {
                    let i = (y * bitmap.width + x) * 4
                    let a = UInt32(source[i + 3])
                    let r = (UInt32(source[i]) * a + 127) / 255
                    let g = (UInt32(source[i + 1]) * a + 127) / 255
                    let b = (UInt32(source[i + 2]) * a + 127) / 255
                    let pixel = a << 24 | r << 16 | g << 8 | b
                    (row + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) {
                        $0.pointee = pixel
                    }
                }
            }
        }
        cairo_surface_mark_dirty(surface)
    }

    deinit { cairo_surface_destroy(surface) }

    /// A canvas drawing into this surface, sized in pixels.
    public func makeCanvas() -> CairoCanvas {
        let context = cairo_create(surface)!
        defer { cairo_destroy(context) }
        return CairoCanvas(
            context: context, size: Size(width: Double(width), height: Double(height)))
    }

    /// The pixels as a straight-alpha RGBA bitmap.
    public func bitmap() -> Bitmap {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                for x in 0..<width {
                    let pixel = data.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
                    let a = pixel >> 24
                    let i = (y * width + x) * 4
                    out[i + 3] = UInt8(a)
                    guard a > 0 else { continue }
                    // Undo premultiplication, rounding to nearest.
                    out[i] = UInt8(min(255, ((pixel >> 16 & 0xFF) * 255 + a / 2) / a))
                    out[i + 1] = UInt8(min(255, ((pixel >> 8 & 0xFF) * 255 + a / 2) / a))
                    out[i + 2] = UInt8(min(255, ((pixel & 0xFF) * 255 + a / 2) / a))
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)!
    }
}
