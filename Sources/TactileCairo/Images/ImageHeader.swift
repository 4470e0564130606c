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

    /// Reads the header of a PNG (its IHDR chunk), a JPEG (its first start-of-frame
    /// segment) or a GIF (its logical screen); `nil` for anything else or a header that is cut short or claims no pixels.
    public init?(_ bytes: [UInt8]) {
        if let png = Self.png(bytes) {
            self = png
        } else if let jpeg = Self.jpeg(bytes) {
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
}
