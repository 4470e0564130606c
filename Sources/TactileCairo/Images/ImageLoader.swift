internal import CPixbuf
import TactileCore

/// Decodes PNG, JPEG and GIF files into bitmaps, within limits checked before decoding.
///
/// The file is read through `FileAccess` (a regular file of at most ``maximumFileBytes``),
/// its header gives the format and the size, and only a picture of at most
/// ``maximumPixels`` is handed to gdk-pixbuf, through a loader for that one format.
public enum ImageLoader {
    /// The largest file read: 32 MiB.
    public static let maximumFileBytes = 32 << 20
    /// The most pixels decoded: 16,777,216 (4096 × 4096, or a 16-megapixel photo).
    public static let maximumPixels = 1 << 24
    /// The most scans a JPEG may have: each is a pass over the whole picture, and encoders
    /// write 1 (baseline) to about 12 (progressive).
    public static let maximumScans = 32

    /// What the limits say, for help texts.
    public static var limitsDescription: String {
        "PNG, JPEG (at most \(maximumScans) scans) or GIF (its first frame), at most \(FileAccess.describe(bytes: maximumFileBytes)) and 16,777,216 pixels (such as 4096x4096)"
    }

    /// Reads and decodes an image file.
    ///
    /// - Throws: ``ImageFileError`` naming the file and the reason: unreadable, over a limit,
    ///   not PNG, JPEG or GIF, or gdk-pixbuf's decoding error.
    public static func load(path: String) throws(ImageFileError) -> Bitmap {
        let bytes: [UInt8]
        do { bytes = try FileAccess.read(path: path, limit: maximumFileBytes) } catch {
            throw ImageFileError(path: path, reason: error.reason)
        }
        return try decode(bytes, name: path)
    }

    /// Decodes the bytes of a PNG, JPEG or GIF file (a GIF's first frame).
    ///
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - name: What messages call the image (its path).
    public static func decode(_ bytes: [UInt8], name: String) throws(ImageFileError) -> Bitmap {
        guard let header = ImageHeader(bytes) else {
            throw ImageFileError(
                path: name, reason: Localization.text("not a PNG, JPEG or GIF image"))
        }
        guard header.width <= maximumPixels / header.height else {
            throw ImageFileError(
                path: name,
                reason: Localization.text(
                    "{1}×{2} pixels is over the limit of 16,777,216 (such as 4096×4096)",
                    header.width, header.height))
        }
        guard header.scans <= maximumScans else {
            throw ImageFileError(
                path: name,
                reason: Localization.text(
                    "a JPEG of {1} scans is over the limit of {2}", header.scans, maximumScans))
        }
        var bytes = bytes
        if header.format == .gif {
            // Only the first frame is wanted; decoders keep every frame of an animation.
            guard let first = ImageHeader.firstFrameOfGIF(bytes) else {
                throw ImageFileError(
                    path: name, reason: Localization.text("the GIF's blocks do not parse"))
            }
            bytes = first
        }
        var error: UnsafeMutablePointer<GError>?
        func failure(_ fallback: String) -> ImageFileError {
            let reason = error.map { String(cString: $0.pointee.message) } ?? fallback
            if let error { g_error_free(error) }
            return ImageFileError(path: name, reason: reason)
        }
        guard let loader = gdk_pixbuf_loader_new_with_type(header.format.rawValue, &error) else {
            throw failure(Localization.text("no {1} decoder", header.format.rawValue))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        let written = bytes.withUnsafeBufferPointer {
            gdk_pixbuf_loader_write(loader, $0.baseAddress, gsize($0.count), &error)
        }
        guard written != 0 else {
            gdk_pixbuf_loader_close(loader, nil)
            throw failure(Localization.text("cannot decode"))
        }
        guard gdk_pixbuf_loader_close(loader, &error) != 0,
            let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader)
        else { throw failure(Localization.text("cannot decode")) }
        return try bitmap(of: pixbuf, name: name)
    }

    /// Copies a pixbuf's 8-bit RGB or RGBA pixels into a bitmap.
    private static func bitmap(of pixbuf: OpaquePointer, name: String) throws(ImageFileError)
        -> Bitmap
    {
        let width = Int(gdk_pixbuf_get_width(pixbuf))
        let height = Int(gdk_pixbuf_get_height(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let hasAlpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, channels >= 3,
            width <= maximumPixels / max(height, 1),
            let data = gdk_pixbuf_read_pixels(pixbuf)
        else {
            throw ImageFileError(path: name, reason: "unsupported pixel layout")
        }
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { target in
            for y in 0..<height {
                let row = data + y * stride
                for x in 0..<width {
                    let source = row + x * channels
                    let i = (y * width + x) * 4
                    target[i] = source[0]
                    target[i + 1] = source[1]
                    target[i + 2] = source[2]
                    if hasAlpha { target[i + 3] = source[3] }
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)!
    }
}
