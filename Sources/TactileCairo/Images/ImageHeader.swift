/// The format and size of an image, read from its first bytes without decoding it.
///
/// Knowing the size first lets a caller refuse a small file that would decode to a huge
/// picture (a few kilobytes of PNG can claim 30,000 × 30,000 pixels).
public struct ImageHeader: Hashable, Sendable {
    /// The formats read.
    public enum Format: String, Hashable, Sendable {
        case png
        case jpeg
        case gif
    }

    /// The format.
    public var format: Format
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Decoding passes: a JPEG's scans (a progressive file has several, each a pass over the
    /// whole picture), 1 for the other formats.
    public var scans = 1

    /// Reads the header of a PNG (its IHDR chunk), a JPEG (its first start-of-frame
    /// segment) or a GIF (its logical screen); `nil` for anything else or a header that is cut short or claims no pixels.
    public init?(_ bytes: [UInt8]) {
        if let png = Self.png(bytes) {
            self = png
        } else if var jpeg = Self.jpeg(bytes) {
            jpeg.scans = Self.jpegScans(bytes)
            self = jpeg
        } else if let gif = Self.gif(bytes) {
            self = gif
        } else {
            return nil
        }
        guard width > 0, height > 0 else { return nil }
    }

    private init(format: Format, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ width: Int) -> Int {
        bytes[offset..<offset + width].reduce(0) { $0 << 8 | Int($1) }
    }

    /// The signature, then IHDR first: length 13, "IHDR", width and height as 4 bytes each.
    private static func png(_ bytes: [UInt8]) -> ImageHeader? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature,
            Array(bytes[12..<16]) == Array("IHDR".utf8)
        else { return nil }
        return ImageHeader(
            format: .png, width: bigEndian(bytes, 16, 4), height: bigEndian(bytes, 20, 4))
    }

    /// "GIF87a" or "GIF89a", then the logical screen's width and height, little-endian.
    private static func gif(_ bytes: [UInt8]) -> ImageHeader? {
        guard bytes.count >= 10, Array(bytes[0..<3]) == Array("GIF".utf8),
            Array(bytes[3..<6]) == Array("87a".utf8) || Array(bytes[3..<6]) == Array("89a".utf8)
        else { return nil }
        return ImageHeader(
            format: .gif, width: Int(bytes[6]) | Int(bytes[7]) << 8,
            height: Int(bytes[8]) | Int(bytes[9]) << 8)
    }

    /// Walks the marker segments after SOI up to the first SOFn (C0…CF but C4, C8, CC),
    /// whose payload is precision, height and width.
    private static func jpeg(_ bytes: [UInt8]) -> ImageHeader? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 1 < bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF {  // fill byte
                offset += 1
                continue
            }
            offset += 2
            // Markers without a length: TEM and RST0…7.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            guard marker != 0xD9, marker != 0xDA, offset + 2 <= bytes.count else { return nil }
            let length = bigEndian(bytes, offset, 2)
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard length >= 7, offset + 7 <= bytes.count else { return nil }
                return ImageHeader(
                    format: .jpeg, width: bigEndian(bytes, offset + 5, 2),
                    height: bigEndian(bytes, offset + 3, 2))
            }
            offset += length
        }
        return nil
    }

    /// The start-of-scan markers in a JPEG. Inside entropy-coded data a 0xFF byte is always
    /// followed by 0x00 or a restart marker, so every 0xFF 0xDA is a scan (or one of an
    /// embedded thumbnail's, which only errs on the safe side).
    private static func jpegScans(_ bytes: [UInt8]) -> Int {
        var count = 0
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == 0xFF, bytes[index + 1] == 0xDA { count += 1 }
            index += 1
        }
        return count
    }

    /// A GIF cut after its first image and closed with a trailer, so a decoder sees one
    /// frame however many follow; `nil` when the blocks before it do not parse.
    public static func firstFrameOfGIF(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 13 else { return nil }
        var offset = 13
        if bytes[10] & 0x80 != 0 { offset += 3 << (Int(bytes[10] & 7) + 1) }  // global colours
        /// Skips data sub-blocks (a length byte, that many bytes, until a zero length).
        func skipSubBlocks() -> Bool {
            while offset < bytes.count {
                let length = Int(bytes[offset])
                offset += 1
                if length == 0 { return true }
                offset += length
            }
            return false
        }
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x21:  // an extension: label, then sub-blocks
                offset += 2
                guard skipSubBlocks() else { return nil }
            case 0x2C:  // the first image: descriptor, local colours, LZW code size, data
                guard offset + 10 <= bytes.count else { return nil }
                let flags = bytes[offset + 9]
                offset += 10
                if flags & 0x80 != 0 { offset += 3 << (Int(flags & 7) + 1) }
                offset += 1
                guard offset <= bytes.count, skipSubBlocks() else { return nil }
                return Array(bytes[..<offset]) + [0x3B]
            default:
                return nil
            }
        }
        return nil
    }
}
