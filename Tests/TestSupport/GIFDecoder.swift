import TactileCore

/// Reads a GIF89a file the way a viewer shows it, written from the format's specification so
/// that tests check the encoder against an independent reader: every image (its rectangle,
/// delay and transparent index) and the picture on screen after each one.
///
/// Images are drawn over what is on screen (disposal "do not dispose", which is all Tactile
/// writes); interlaced images are refused.
public struct GIFDecoder {
    /// One image of the file.
    public struct Image: Sendable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        /// Seconds the picture stays after this image.
        public var delay: Double
        public var transparentIndex: Int?
        /// The colours of the table the image uses, `0xRRGGBB`.
        public var colors: [UInt32]
        /// One colour-table index per pixel, row by row.
        public var indices: [Int]
    }

    /// The file could not be read as a GIF.
    public struct Malformed: Error, CustomStringConvertible {
        public var description: String
    }

    public let width: Int
    public let height: Int
    public private(set) var images: [Image] = []
    /// The picture on screen after each image, opaque (untouched pixels are black).
    public private(set) var frames: [Bitmap] = []

    public init(_ bytes: [UInt8]) throws {
        var reader = Reader(bytes: bytes)
        guard try reader.take(6) == Array("GIF89a".utf8) else {
            throw Malformed(description: "not GIF89a")
        }
        width = try reader.word()
        height = try reader.word()
        let screen = try reader.byte()
        _ = try reader.take(2)  // background colour index, aspect ratio
        let global = screen & 0x80 != 0 ? try reader.colorTable(size: screen & 7) : []
        var screenPixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 3, to: screenPixels.count, by: 4) { screenPixels[i] = 255 }
        var delay = 0.0
        var transparent: Int?
        while true {
            switch try reader.byte() {
            case 0x21:
                let label = try reader.byte()
                let data = try reader.subBlocks()
                if label == 0xF9 {
                    guard data.count == 4 else { throw Malformed(description: "control block") }
                    delay = Double(Int(data[1]) | Int(data[2]) << 8) / 100
                    transparent = data[0] & 1 != 0 ? Int(data[3]) : nil
                }
            case 0x2C:
                let x = try reader.word()
                let y = try reader.word()
                let w = try reader.word()
                let h = try reader.word()
                let packed = try reader.byte()
                guard packed & 0x40 == 0 else { throw Malformed(description: "interlaced") }
                guard x + w <= width, y + h <= height else {
                    throw Malformed(description: "image outside the screen")
                }
                let colors = packed & 0x80 != 0 ? try reader.colorTable(size: packed & 7) : global
                let minimum = try reader.byte()
                let indices = try Self.decompress(
                    try reader.subBlocks(), minimumCodeSize: Int(minimum), count: w * h)
                let image = Image(
                    x: x, y: y, width: w, height: h, delay: delay, transparentIndex: transparent,
                    colors: colors, indices: indices)
                for row in 0..<h {
                    for column in 0..<w {
                        let index = indices[row * w + column]
                        if index == transparent { continue }
                        guard index < colors.count else {
                            throw Malformed(description: "index \(index) beyond the colour table")
                        }
                        let color = colors[index]
                        let p = ((y + row) * width + x + column) * 4
                        screenPixels[p] = UInt8(color >> 16)
                        screenPixels[p + 1] = UInt8((color >> 8) & 0xFF)
                        screenPixels[p + 2] = UInt8(color & 0xFF)
                    }
                }
                images.append(image)
                frames.append(Bitmap(width: width, height: height, pixels: screenPixels)!)
                delay = 0
                transparent = nil
            case 0x3B:
                return
            case let other:
                throw Malformed(description: "unknown block \(other)")
            }
        }
    }

    /// Undoes GIF's variable-length LZW: codes of `minimumCodeSize + 1` bits growing to 12,
    /// a clear code and an end code.
    static func decompress(_ data: [UInt8], minimumCodeSize: Int, count: Int) throws -> [Int] {
        guard (2...8).contains(minimumCodeSize) else {
            throw Malformed(description: "LZW code size \(minimumCodeSize)")
        }
        let clear = 1 << minimumCodeSize
        let end = clear + 1
        // Each code is an earlier code plus one index; the roots are the indices themselves.
        var prefix = [Int](repeating: -1, count: 4096)
        var suffix = [Int](repeating: 0, count: 4096)
        var first = [Int](repeating: 0, count: 4096)
        for i in 0..<clear {
            suffix[i] = i
            first[i] = i
        }
        var next = end + 1
        var size = minimumCodeSize + 1
        var previous: Int?
        var output: [Int] = []
        output.reserveCapacity(count)
        var bits = 0
        var bitCount = 0
        var position = 0
        func emit(_ code: Int) {
            var stack: [Int] = []
            var c = code
            while c >= 0 {
                stack.append(suffix[c])
                c = prefix[c]
            }
            output.append(contentsOf: stack.reversed())
        }
        while true {
            while bitCount < size {
                guard position < data.count else {
                    throw Malformed(description: "LZW data ends without an end code")
                }
                bits |= Int(data[position]) << bitCount
                position += 1
                bitCount += 8
            }
            let code = bits & ((1 << size) - 1)
            bits >>= size
            bitCount -= size
            if code == clear {
                next = end + 1
                size = minimumCodeSize + 1
                previous = nil
                continue
            }
            if code == end { break }
            if let previous {
                guard code <= next else { throw Malformed(description: "LZW code \(code)") }
                let head = code < next ? first[code] : first[previous]
                if next < 4096 {
                    prefix[next] = previous
                    suffix[next] = head
                    first[next] = first[previous]
                    next += 1
                    if next == 1 << size, size < 12 { size += 1 }
                }
                emit(code)
            } else {
                guard code < clear else { throw Malformed(description: "LZW code \(code)") }
                emit(code)
            }
            previous = code
        }
        guard output.count == count else {
            throw Malformed(description: "\(output.count) pixels, expected \(count)")
        }
        return output
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func byte() throws -> UInt8 {
            guard position < bytes.count else { throw Malformed(description: "file ends early") }
            position += 1
            return bytes[position - 1]
        }

        mutating func take(_ count: Int) throws -> [UInt8] {
            guard position + count <= bytes.count else {
                throw Malformed(description: "file ends early")
            }
            position += count
            return Array(bytes[(position - count)..<position])
        }

        mutating func word() throws -> Int {
            let low = try byte()
            return Int(low) | Int(try byte()) << 8
        }

        mutating func colorTable(size: UInt8) throws -> [UInt32] {
            let entries = try take(3 << (Int(size) + 1))
            return stride(from: 0, to: entries.count, by: 3).map {
                UInt32(entries[$0]) << 16 | UInt32(entries[$0 + 1]) << 8 | UInt32(entries[$0 + 2])
            }
        }

        mutating func subBlocks() throws -> [UInt8] {
            var data: [UInt8] = []
            while true {
                let length = Int(try byte())
                if length == 0 { return data }
                data += try take(length)
            }
        }
    }
}
