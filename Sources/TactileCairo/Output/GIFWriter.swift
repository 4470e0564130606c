internal import CGif
import Foundation
import TactileCore

/// Writes an animated GIF, one frame at a time, through giflib.
///
/// Each frame gets its own 256-colour palette from giflib's median-cut quantiser; the file
/// loops forever. The file is written through an `AtomicFile` (a temporary file created
/// exclusively, never through a symbolic link) and renamed into place when ``finish()``
/// succeeds, so a failed export never leaves half a file behind.
public final class GIFWriter {
    private var file: UnsafeMutablePointer<GifFileType>?
    private let path: String
    private let output: AtomicFile
    /// Frame width in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int
    private var red: [UInt8]
    private var green: [UInt8]
    private var blue: [UInt8]
    private var indices: [UInt8]

    /// Opens a GIF file for writing.
    ///
    /// - Parameters:
    ///   - path: Where the finished file goes.
    ///   - width: Frame width in pixels, 1…65,535.
    ///   - height: Frame height in pixels, 1…65,535.
    public init(path: String, width: Int, height: Int) throws(ImageFileError) {
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw ImageFileError(
                path: path, reason: "frame size \(width)×\(height) is outside 1…65535")
        }
        self.path = path
        self.width = width
        self.height = height
        do { output = try AtomicFile(path: path) } catch {
            throw ImageFileError(path: path, reason: error.reason)
        }
        let count = width * height
        red = [UInt8](repeating: 0, count: count)
        green = red
        blue = red
        indices = red
        // giflib closes the descriptor it is given: it gets a duplicate, and the atomic file
        // keeps its own for the final flush and rename.
        let descriptor = dup(output.fileDescriptor)
        guard descriptor >= 0 else {
            throw ImageFileError(path: path, reason: String(cString: strerror(errno)))
        }
        var error: Int32 = 0
        guard let file = EGifOpenFileHandle(descriptor, &error) else {
            close(descriptor)
            throw ImageFileError(path: path, reason: Self.message(error))
        }
        self.file = file
        EGifSetGifVersion(file, true)
        guard EGifPutScreenDesc(file, Int32(width), Int32(height), 8, 0, nil) == GIF_OK else {
            let code = file.pointee.Error
            abandon()
            throw ImageFileError(path: path, reason: Self.message(code))
        }
        // NETSCAPE2.0 application extension: loop forever.
        let application = Array("NETSCAPE2.0".utf8)
        let loop: [UInt8] = [1, 0, 0]
        EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE)
        EGifPutExtensionBlock(file, Int32(application.count), application)
        EGifPutExtensionBlock(file, Int32(loop.count), loop)
        EGifPutExtensionTrailer(file)
    }

    deinit { abandon() }

    /// Appends a frame shown for `delay` seconds (rounded to hundredths, at least 0.02 s).
    public func addFrame(_ bitmap: Bitmap, delay: Double) throws(ImageFileError) {
        guard let file else {
            throw ImageFileError(path: path, reason: "the GIF is already closed")
        }
        guard bitmap.width == width, bitmap.height == height else {
            throw ImageFileError(
                path: path,
                reason: "frame is \(bitmap.width)×\(bitmap.height), expected \(width)×\(height)")
        }
        // Flatten onto white, since GIF has no partial transparency.
        bitmap.pixels.withUnsafeBufferPointer { p in
            for i in 0..<(width * height) {
                let a = UInt32(p[i * 4 + 3])
                func over(_ c: UInt8) -> UInt8 {
                    UInt8((UInt32(c) * a + 255 * (255 - a) + 127) / 255)
                }
                red[i] = over(p[i * 4])
                green[i] = over(p[i * 4 + 1])
                blue[i] = over(p[i * 4 + 2])
            }
        }
        var colors = [GifColorType](repeating: GifColorType(), count: 256)
        var colorCount: Int32 = 256
        let quantized = GifQuantizeBuffer(
            UInt32(width), UInt32(height), &colorCount, &red, &green, &blue, &indices, &colors)
        guard quantized == GIF_OK else {
            throw ImageFileError(path: path, reason: "colour quantisation failed")
        }
        var control = GraphicsControlBlock(
            DisposalMode: DISPOSE_DO_NOT, UserInputFlag: false,
            DelayTime: Int32(max(2, (delay * 100).rounded())),
            TransparentColor: NO_TRANSPARENT_COLOR)
        var extensionBytes = [UInt8](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&control, &extensionBytes)
        EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes)
        let map = GifMakeMapObject(256, colors)
        defer { GifFreeMapObject(map) }
        guard EGifPutImageDesc(file, 0, 0, Int32(width), Int32(height), false, map) == GIF_OK else {
            throw ImageFileError(path: path, reason: Self.message(file.pointee.Error))
        }
        let status = indices.withUnsafeMutableBufferPointer { buffer -> Int32 in
            for y in 0..<height {
                let result = EGifPutLine(file, buffer.baseAddress! + y * width, Int32(width))
                if result != GIF_OK { return file.pointee.Error }
            }
            return 0
        }
        guard status == 0 else { throw ImageFileError(path: path, reason: Self.message(status)) }
    }

    /// Closes the file and moves it into place.
    public func finish() throws(ImageFileError) {
        guard let file else {
            throw ImageFileError(path: path, reason: "the GIF is already closed")
        }
        self.file = nil
        var error: Int32 = 0
        guard EGifCloseFile(file, &error) == GIF_OK else {
            output.discard()
            throw ImageFileError(path: path, reason: Self.message(error))
        }
        do { try output.commit() } catch {
            throw ImageFileError(path: path, reason: error.reason)
        }
    }

    private func abandon() {
        guard let file else { return }
        self.file = nil
        var error: Int32 = 0
        EGifCloseFile(file, &error)
        output.discard()
    }

    private static func message(_ code: Int32) -> String {
        if let text = GifErrorString(code) { return String(cString: text) }
        return "giflib error \(code)"
    }
}
