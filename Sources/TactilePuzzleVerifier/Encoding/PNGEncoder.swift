import TactileCore

/// A fast PNG encoder for the puzzle's images.
///
/// Rows are filtered (Sub or Up, whichever leaves smaller residuals), then compressed with
/// deflate: greedy LZ77 with a one-probe hash and dynamic Huffman codes per block. It trades
/// a little size for speed, so a server can hand out hundreds of puzzles a second. Opaque
/// images are written as RGB, others as RGBA (straight alpha, as in the bitmap).
public enum PNGEncoder {
    /// The PNG file's bytes.
    public static func encode(_ bitmap: Bitmap) -> [UInt8] {
        let opaque = bitmap.pixels.withUnsafeBufferPointer { p in
            stride(from: 3, to: p.count, by: 4).allSatisfy { p[$0] == 255 }
        }
        let channels = opaque ? 3 : 4
        let filtered = filter(bitmap, channels: channels)
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(bitmap.width))
        header.appendBigEndian(UInt32(bitmap.height))
        header += [8, opaque ? 2 : 6, 0, 0, 0]
        appendChunk("IHDR", header, to: &out)
        appendChunk("IDAT", Deflate.zlib(filtered), to: &out)
        appendChunk("IEND", [], to: &out)
        return out
    }

    /// Each row prefixed by its filter type: Sub (1) or Up (2), by the smaller sum of
    /// residuals taken as signed bytes.
    static func filter(_ bitmap: Bitmap, channels: Int) -> [UInt8] {
        let rowBytes = bitmap.width * channels
        var out = [UInt8](repeating: 0, count: (rowBytes + 1) * bitmap.height)
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * 2)
        rows.initialize(repeating: 0, count: rowBytes * 2)
        defer { rows.deallocate() }
        var row = rows
        var previous = rows + rowBytes
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            out.withUnsafeMutableBufferPointer { out in
                let pixels = pixels.baseAddress!
                let out = out.baseAddress!
                for y in 0..<bitmap.height {
                    let source = pixels + y * bitmap.width * 4
                    if channels == 4 {
                        row.update(from: source, count: rowBytes)
                    } else {
                        for x in 0..<bitmap.width {
                            row[x * 3] = source[x * 4]
                            row[x * 3 + 1] = source[x * 4 + 1]
                            row[x * 3 + 2] = source[x * 4 + 2]
                        }
                    }
                    // Judge the two filters on every 4th byte: as good a choice, a quarter the cost.
                    var subCost = 0
                    var upCost = 0
                    for i in stride(from: channels, to: rowBytes, by: 4) {
                        subCost &+= Int(Int8(bitPattern: row[i] &- row[i - channels]).magnitude)
                        upCost &+= Int(Int8(bitPattern: row[i] &- previous[i]).magnitude)
                    }
                    let target = out + y * (rowBytes + 1)
                    if subCost <= upCost {
                        target[0] = 1
                        for i in 0..<channels { target[1 + i] = row[i] }
                        for i in channels..<rowBytes { target[1 + i] = row[i] &- row[i - channels] }
                    } else {
                        target[0] = 2
                        for i in 0..<rowBytes { target[1 + i] = row[i] &- previous[i] }
                    }
                    swap(&row, &previous)
                }
            }
        }
        return out
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        out.appendBigEndian(UInt32(data.count))
        let start = out.count
        out += Array(type.utf8)
        out += data
        out.appendBigEndian(CRC32.checksum(out[start...]))
    }
}

extension [UInt8] {
    mutating func appendBigEndian(_ v: UInt32) {
        append(UInt8(v >> 24))
        append(UInt8(v >> 16 & 0xFF))
        append(UInt8(v >> 8 & 0xFF))
        append(UInt8(v & 0xFF))
    }
}

/// The CRC-32 of PNG chunks (polynomial 0xEDB88320, reflected), four bytes a step
/// ("slicing by four").
enum CRC32 {
    /// Table k holds the CRC of a byte followed by k zero bytes.
    static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 4 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            t[n] = c
        }
        for k in 1..<4 {
            for n in 0..<256 {
                let previous = t[(k - 1) * 256 + n]
                t[k * 256 + n] = t[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return t
    }()

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        tables.withUnsafeBufferPointer { t in
            bytes.withUnsafeBufferPointer { b in
                var i = 0
                while i + 4 <= b.count {
                    c ^=
                        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16
                        | UInt32(b[i + 3]) << 24
                    c =
                        t[768 + Int(c & 0xFF)] ^ t[512 + Int(c >> 8 & 0xFF)]
                        ^ t[256 + Int(c >> 16 & 0xFF)] ^ t[Int(c >> 24)]
                    i += 4
                }
                while i < b.count {
                    c = t[Int((c ^ UInt32(b[i])) & 0xFF)] ^ (c >> 8)
                    i += 1
                }
            }
        }
        return c ^ 0xFFFF_FFFF
    }
}
