import CPixbuf
import TactileCore

/// Decodes image files (PNG, JPEG and every other format gdk-pixbuf knows) into bitmaps.
public enum ImageLoader {
    /// Reads and decodes an image file.
    ///
    /// - Throws: ``ImageFileError`` naming the file and gdk-pixbuf's reason.
    public static func load(path: String) throws(ImageFileError) -> Bitmap {
        var error: UnsafeMutablePointer<GError>?
        guard let pixbuf = gdk_pixbuf_new_from_file(path, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "cannot decode"
            if let error { g_error_free(error) }
            throw ImageFileError(path: path, reason: reason)
        }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let width = Int(gdk_pixbuf_get_width(pixbuf))
        let height = Int(gdk_pixbuf_get_height(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let hasAlpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, channels >= 3,
            let data = gdk_pixbuf_read_pixels(pixbuf)
        else {
            throw ImageFileError(path: path, reason: "unsupported pixel layout")
        }
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let source = data + y * stride + x * channels
                let i = (y * width + x) * 4
                pixels[i] = source[0]
                pixels[i + 1] = source[1]
                pixels[i + 2] = source[2]
                if hasAlpha { pixels[i + 3] = source[3] }
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)!
    }
}
