internal import CGif
import Foundation
import TactileCore

/// Writes an animated GIF, one frame at a time, through giflib.
///
/// Each frame gets its own palette of at most 256 colours: its own colours when it has no
/// more, else boxes from giflib's median-cut quantiser, each set to the colour most of its
/// pixels have (or their mean), with the pixels mapped by Floyd–Steinberg dithering so that
/// gradients do not band (see ``dithers``). The file loops forever. The file is written through an `AtomicFile` (a temporary file created
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
    /// The frame being added, flattened onto white.
    private var red: [UInt8]
    private var green: [UInt8]
    private var blue: [UInt8]
    /// The frame before, when ``hasPrevious``: what is on screen, in source colours.
    private var previousRed: [UInt8]
    private var previousGreen: [UInt8]
    private var previousBlue: [UInt8]
    private var hasPrevious = false
    /// The rectangle of the frame being stored, and its palette indices.
    private var patchRed: [UInt8] = []
    private var patchGreen: [UInt8] = []
    private var patchBlue: [UInt8] = []
    private var indices: [UInt8] = []
    private var palette = GIFFramePalette()
    /// Whether a frame with more colours than its palette holds is dithered (Floyd–Steinberg)
    /// rather than drawn with each pixel's box colour. Default true.
    public let dithers: Bool

    /// Opens a GIF file for writing.
    ///
    /// - Parameters:
    ///   - path: Where the finished file goes.
    ///   - width: Frame width in pixels, 1…65,535.
    ///   - height: Frame height in pixels, 1…65,535.
    ///   - dithers: Whether frames with more than 256 colours are dithered; see ``dithers``.
    public init(path: String, width: Int, height: Int, dithers: Bool = true)
        throws(ImageFileError)
    {
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw ImageFileError(
                path: path, reason: "frame size \(width)×\(height) is outside 1…65535")
        }
        self.path = path
        self.dithers = dithers
        self.width = width
        self.height = height
        do { output = try AtomicFile(path: path) } catch {
            throw ImageFileError(path: path, reason: error.reason)
        }
        let count = width * height
        red = [UInt8](repeating: 0, count: count)
        green = red
        blue = red
        previousRed = red
        previousGreen = red
        previousBlue = red
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
    ///
    /// Only the rectangle where the frame differs from the one before is stored (the rest
    /// stays on screen); a frame like the one before stores one transparent pixel.
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
        let count = width * height
        red.withUnsafeMutableBufferPointer { r in
            green.withUnsafeMutableBufferPointer { g in
                blue.withUnsafeMutableBufferPointer { b in
                    bitmap.pixels.withUnsafeBufferPointer { p in
                        for i in 0..<count {
                            let a = UInt32(p[i * 4 + 3])
                            func over(_ c: UInt8) -> UInt8 {
                                UInt8((UInt32(c) * a + 255 * (255 - a) + 127) / 255)
                            }
                            r[i] = over(p[i * 4])
                            g[i] = over(p[i * 4 + 1])
                            b[i] = over(p[i * 4 + 2])
                        }
                    }
                }
            }
        }
        let area = changedArea()
        swap(&red, &previousRed)
        swap(&green, &previousGreen)
        swap(&blue, &previousBlue)
        hasPrevious = true
        var transparent = NO_TRANSPARENT_COLOR
        var colors: [GifColorType]
        if let area {
            crop(area)
            try choosePalette(width: area.width, height: area.height)
            colors = palette.colors.map {
                GifColorType(
                    Red: UInt8($0 >> 16), Green: UInt8(($0 >> 8) & 0xFF), Blue: UInt8($0 & 0xFF))
            }
        } else {
            colors = [GifColorType()]
            indices = [0]
            transparent = 0
        }
        let shown = area ?? (x: 0, y: 0, width: 1, height: 1)
        // A GIF colour table holds a power of two entries: the rest stay black and unused.
        let tableSize = max(2, 1 << (Int.bitWidth - (colors.count - 1).leadingZeroBitCount))
        colors += Array(repeating: GifColorType(), count: tableSize - colors.count)
        var control = GraphicsControlBlock(
            DisposalMode: DISPOSE_DO_NOT, UserInputFlag: false,
            DelayTime: Int32(max(2, (delay * 100).rounded())), TransparentColor: transparent)
        var extensionBytes = [UInt8](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&control, &extensionBytes)
        EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes)
        let map = GifMakeMapObject(Int32(tableSize), colors)
        defer { GifFreeMapObject(map) }
        guard
            EGifPutImageDesc(
                file, Int32(shown.x), Int32(shown.y), Int32(shown.width), Int32(shown.height),
                false, map) == GIF_OK
        else {
            throw ImageFileError(path: path, reason: Self.message(file.pointee.Error))
        }
        let status = indices.withUnsafeMutableBufferPointer { buffer -> Int32 in
            for y in 0..<shown.height {
                let result = EGifPutLine(
                    file, buffer.baseAddress! + y * shown.width, Int32(shown.width))
                if result != GIF_OK { return file.pointee.Error }
            }
            return 0
        }
        guard status == 0 else { throw ImageFileError(path: path, reason: Self.message(status)) }
    }

    /// The smallest rectangle holding every pixel of the new frame (`red`, `green`, `blue`)
    /// that differs from the one before; the whole frame for the first; `nil` when none does.
    private func changedArea() -> (x: Int, y: Int, width: Int, height: Int)? {
        guard hasPrevious else { return (0, 0, width, height) }
        let (width, height) = (self.width, self.height)
        var (left, right, top, bottom) = (width, -1, height, -1)
        func scan(
            _ r: UnsafeBufferPointer<UInt8>, _ g: UnsafeBufferPointer<UInt8>,
            _ b: UnsafeBufferPointer<UInt8>, _ r0: UnsafeBufferPointer<UInt8>,
            _ g0: UnsafeBufferPointer<UInt8>, _ b0: UnsafeBufferPointer<UInt8>
        ) {
            for y in 0..<height {
                let row = y * width
                var first = -1
                var last = -1
                var x = 0
                while x < width {
                    let i = row + x
                    if r[i] != r0[i] || g[i] != g0[i] || b[i] != b0[i] {
                        if first < 0 { first = x }
                        last = x
                    }
                    x += 1
                }
                guard first >= 0 else { continue }
                left = min(left, first)
                right = max(right, last)
                top = min(top, y)
                bottom = y
            }
        }
        red.withUnsafeBufferPointer { r in
            green.withUnsafeBufferPointer { g in
                blue.withUnsafeBufferPointer { b in
                    previousRed.withUnsafeBufferPointer { r0 in
                        previousGreen.withUnsafeBufferPointer { g0 in
                            previousBlue.withUnsafeBufferPointer { b0 in scan(r, g, b, r0, g0, b0) }
                        }
                    }
                }
            }
        }
        guard bottom >= 0 else { return nil }
        return (left, top, right - left + 1, bottom - top + 1)
    }

    /// Copies `area` of the frame (now in `previousRed` …) into the patch buffers.
    private func crop(_ area: (x: Int, y: Int, width: Int, height: Int)) {
        let count = area.width * area.height
        patchRed.removeAll(keepingCapacity: true)
        patchGreen.removeAll(keepingCapacity: true)
        patchBlue.removeAll(keepingCapacity: true)
        for y in area.y..<(area.y + area.height) {
            let row = y * width + area.x
            patchRed += previousRed[row..<(row + area.width)]
            patchGreen += previousGreen[row..<(row + area.width)]
            patchBlue += previousBlue[row..<(row + area.width)]
        }
        if indices.count != count { indices = [UInt8](repeating: 0, count: count) }
    }

    /// Sets ``palette`` and `indices` for the patch in `patchRed`, `patchGreen` and
    /// `patchBlue`.
    private func choosePalette(width: Int, height: Int) throws(ImageFileError) {
        if palette.takeExactColors(
            red: patchRed, green: patchGreen, blue: patchBlue, indices: &indices)
        {
            return
        }
        var boxes = [GifColorType](repeating: GifColorType(), count: GIFFramePalette.capacity)
        var boxCount = Int32(GIFFramePalette.capacity)
        // giflib's quantiser reads the channels through mutable pointers; it gets copies.
        var (r, g, b) = (patchRed, patchGreen, patchBlue)
        let quantized = GifQuantizeBuffer(
            UInt32(width), UInt32(height), &boxCount, &r, &g, &b, &indices, &boxes)
        guard quantized == GIF_OK else {
            throw ImageFileError(path: path, reason: "colour quantisation failed")
        }
        palette.takeBoxes(
            red: patchRed, green: patchGreen, blue: patchBlue, boxes: indices,
            count: Int(boxCount),
            fallback: boxes.prefix(Int(boxCount)).map {
                GIFFramePalette.pack($0.Red, $0.Green, $0.Blue)
            })
        if dithers {
            palette.diffuse(
                red: patchRed, green: patchGreen, blue: patchBlue, width: width, height: height,
                into: &indices)
        }
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
