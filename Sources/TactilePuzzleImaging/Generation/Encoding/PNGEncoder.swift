import TactileCore

/// A fast PNG encoder for the puzzle's images.
///
/// Opaque images are written as RGB (colour type 2), others as RGBA (colour type 6,
/// straight alpha, as in the bitmap). Rows are filtered with Sub, or Up where that is
/// clearly better, then compressed with deflate, looking for matches pixel by pixel.
/// It trades a little size for speed, so a server can hand out hundreds of puzzles a second.
///
/// ``encode(_:)-swift.type.method`` encodes one image. A server encoding image after image
/// keeps an encoder and calls ``encode(_:)-swift.method``: the encoder keeps its working
/// memory (up to twice the largest bitmap's size) between images instead of asking the
/// system for fresh pages each time. An encoder is not shared between threads.
///
/// ```swift
/// let encoder = PNGEncoder()
/// for puzzle in puzzles {
///     send(encoder.encode(puzzle.background), encoder.encode(puzzle.piece))
/// }
/// ```
public final class PNGEncoder {
    /// Filtered rows, grown as images need.
    private var filtered = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    /// The file as it is written, grown as images need.
    private var file = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    private let workspace = Deflate.Workspace()

    /// Creates an encoder with no working memory yet.
    public init() {}

    deinit {
        filtered.deallocate()
        file.deallocate()
    }

    /// The PNG file's bytes, with a one-off encoder.
    public static func encode(_ bitmap: Bitmap) -> [UInt8] {
        PNGEncoder().encode(bitmap)
    }

    /// The PNG file's bytes, reusing this encoder's working memory.
    public func encode(_ bitmap: Bitmap) -> [UInt8] {
        let channels = Self.isOpaque(bitmap) ? 3 : 4
        let rowLength = bitmap.width * channels + 1
        let rawCount = rowLength * bitmap.height
        // Filtering stores 4 bytes per pixel, 1 past the row for RGB.
        Self.reserve(&filtered, rawCount + 4)
        let filtered = filtered.baseAddress!
        Self.filter(bitmap, channels: channels, into: filtered)

        Self.reserve(&file, 8 + 25 + 12 + Deflate.bound(rawCount) + 12)
        let file = file.baseAddress!
        var count = 0
        func append(_ bytes: [UInt8]) {
            for byte in bytes {
                file[count] = byte
                count += 1
            }
        }
        func appendBigEndian(_ v: UInt32) {
            append([UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)])
        }
        /// Closes a chunk whose type starts at `start`: its length before, its CRC after.
        func finishChunk(at start: Int) {
            let length = count - start - 4
            let crc = CRC32.checksum(UnsafeBufferPointer(start: file + start, count: count - start))
            let end = count
            count = start - 4
            appendBigEndian(UInt32(length))
            count = end
            appendBigEndian(crc)
        }

        append([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        count += 4
        var start = count
        append(Array("IHDR".utf8))
        appendBigEndian(UInt32(bitmap.width))
        appendBigEndian(UInt32(bitmap.height))
        append([8, channels == 3 ? 2 : 6, 0, 0, 0])
        finishChunk(at: start)

        count += 4
        start = count
        append(Array("IDAT".utf8))
        count += Deflate.zlib(
            UnsafeBufferPointer(start: filtered, count: rawCount), rowLength: rowLength,
            bytesPerPixel: channels, into: file + count, using: workspace)
        finishChunk(at: start)

        count += 4
        start = count
        append(Array("IEND".utf8))
        finishChunk(at: start)
        return Array(UnsafeBufferPointer(start: file, count: count))
    }

    /// Makes `buffer` hold at least `count` bytes, keeping it when it already does.
    private static func reserve(_ buffer: inout UnsafeMutableBufferPointer<UInt8>, _ count: Int) {
        guard buffer.count < count else { return }
        buffer.deallocate()
        buffer = .allocate(capacity: count)
    }

    /// Whether every pixel's alpha is 255.
    static func isOpaque(_ bitmap: Bitmap) -> Bool {
        bitmap.pixels.withUnsafeBytes { raw in
            let words = raw.count / 4
            var all: UInt32 = 0xFF00_0000
            for k in 0..<words {
                all &= raw.loadUnaligned(fromByteOffset: k * 4, as: UInt32.self).littleEndian
            }
            return all == 0xFF00_0000
        }
    }

    /// The bytes of `a − b`, each byte on its own (modulo 256).
    @inline(__always)
    static func byteDifferences(_ a: UInt32, _ b: UInt32) -> UInt32 {
        ((a | 0x8080_8080) &- (b & 0x7F7F_7F7F)) ^ ((a ^ ~b) & 0x8080_8080)
    }

    /// Writes each row prefixed by its filter type: Sub (1), or Up (2) where the row differs
    /// from the one above by clearly less (by a third) than from itself shifted a pixel —
    /// judged on every 16th pixel. Sub keeps the picture's grain repeatable, which the match
    /// finder uses; Up pays on photographs' smooth vertical gradients.
    static func filter(_ bitmap: Bitmap, channels: Int, into out: UnsafeMutablePointer<UInt8>) {
        let width = bitmap.width
        let rowLength = width * channels + 1
        bitmap.pixels.withUnsafeBytes { raw in
            guard let pixels = raw.baseAddress else { return }
            for y in 0..<bitmap.height {
                let row = pixels + y * width * 4
                let target = out + y * rowLength + 1
                var useUp = false
                if y > 0 {
                    let above = row - width * 4
                    var subCost = 0
                    var upCost = 0
                    for x in stride(from: 1, to: width, by: 16) {
                        let p = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                        let left = row.loadUnaligned(fromByteOffset: x * 4 - 4, as: UInt32.self)
                        let up = above.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                        subCost &+= residualCost(byteDifferences(p, left))
                        upCost &+= residualCost(byteDifferences(p, up))
                    }
                    useUp = upCost * 3 < subCost * 2
                }
                target[-1] = useUp ? 2 : 1
                if useUp {
                    let above = row - width * 4
                    for x in 0..<width {
                        let p = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                        let up = above.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                        UnsafeMutableRawPointer(target + x * channels).storeBytes(
                            of: byteDifferences(p, up), as: UInt32.self)
                    }
                } else {
                    var left: UInt32 = 0
                    for x in 0..<width {
                        let p = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                        UnsafeMutableRawPointer(target + x * channels).storeBytes(
                            of: byteDifferences(p, left), as: UInt32.self)
                        left = p
                    }
                }
            }
        }
    }

    /// The sum of the colour bytes' magnitudes as signed residuals (alpha is ignored).
    @inline(__always)
    private static func residualCost(_ d: UInt32) -> Int {
        let bytes = d.littleEndian
        return Int(Int8(truncatingIfNeeded: bytes).magnitude)
            + Int(Int8(truncatingIfNeeded: bytes >> 8).magnitude)
            + Int(Int8(truncatingIfNeeded: bytes >> 16).magnitude)
    }
}

/// The CRC-32 of PNG chunks (polynomial 0xEDB88320, reflected), eight bytes a step
/// ("slicing by eight").
enum CRC32 {
    /// Table k holds the CRC of a byte followed by k zero bytes.
    static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            t[n] = c
        }
        for k in 1..<8 {
            for n in 0..<256 {
                let previous = t[(k - 1) * 256 + n]
                t[k * 256 + n] = t[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return t
    }()

    static func checksum(_ b: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        tables.withUnsafeBufferPointer { t in
            let t = t.baseAddress!
            guard let base = b.baseAddress else { return }
            var i = 0
            while i + 8 <= b.count {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self).littleEndian
                let low = UInt32(truncatingIfNeeded: word) ^ c
                let high = UInt32(truncatingIfNeeded: word >> 32)
                c =
                    t[1792 + Int(low & 0xFF)] ^ t[1536 + Int(low >> 8 & 0xFF)]
                    ^ t[1280 + Int(low >> 16 & 0xFF)] ^ t[1024 + Int(low >> 24)]
                    ^ t[768 + Int(high & 0xFF)] ^ t[512 + Int(high >> 8 & 0xFF)]
                    ^ t[256 + Int(high >> 16 & 0xFF)] ^ t[Int(high >> 24)]
                i += 8
            }
            while i < b.count {
                c = t[Int((c ^ UInt32(base[i])) & 0xFF)] ^ (c >> 8)
                i += 1
            }
        }
        return c ^ 0xFFFF_FFFF
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { checksum($0) }
    }
}
