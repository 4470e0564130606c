import Foundation
import PuzzleTestSupport
import TactileCairo
import TactileCore
import TestSupport
import Testing

@testable import TactilePuzzleImaging
@testable import TactilePuzzleVerifier

/// The PNG encoder against an independent decoder (gdk-pixbuf, through `ImageLoader`), its
/// checksums against published check values and their definitions, and the arithmetic it
/// leans on against plain division.
@Suite struct PuzzlePNGEncodingTests {
    /// What a test image holds.
    enum Content: CaseIterable, Sendable {
        /// Random bytes everywhere, alpha 255: nothing to compress.
        case opaqueNoise
        /// Random bytes everywhere, alpha too (0 included).
        case translucentNoise
        /// A smooth gradient with the procedural picture's kind of grain: matches galore.
        case grainyGradient
        /// A few rows repeated down the image: matches that cross rows.
        case repeatedRows
        /// One colour, alpha 0 in a band.
        case flatWithClearBand
    }

    static func bitmap(_ content: Content, width: Int, height: Int, seed: UInt64) -> Bitmap {
        var random = SeededGenerator(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let stripe = (0..<(width * 4 * 3)).map { _ in UInt8.random(in: 0...255, using: &random) }
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                switch content {
                case .opaqueNoise, .translucentNoise:
                    for c in 0..<4 { pixels[i + c] = UInt8.random(in: 0...255, using: &random) }
                    if content == .opaqueNoise { pixels[i + 3] = 255 }
                case .grainyGradient:
                    let grain = Int.random(in: -2...1, using: &random)
                    let base = [x * 200 / max(width, 1), y * 180 / max(height, 1), 90]
                    for c in 0..<3 { pixels[i + c] = UInt8(clamping: base[c] + 30 + grain) }
                    pixels[i + 3] = 255
                case .repeatedRows:
                    let j = ((y % 3) * width + x) * 4
                    for c in 0..<4 { pixels[i + c] = stripe[j + c] | (c == 3 ? 0x80 : 0) }
                case .flatWithClearBand:
                    pixels[i] = 200
                    pixels[i + 1] = 120
                    pixels[i + 2] = 40
                    pixels[i + 3] = y % 7 == 3 ? 0 : 255
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)!
    }

    /// Writes the encoded bitmap and reads it back with gdk-pixbuf.
    func decoded(_ bitmap: Bitmap) throws -> Bitmap {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("png-\(UUID()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(PNGEncoder.encode(bitmap)).write(to: URL(fileURLWithPath: path))
        return try ImageLoader.load(path: path)
    }

    @Test(arguments: [
        (1, 1), (2, 1), (1, 3), (3, 2), (7, 5), (17, 9), (33, 1), (1, 40), (129, 67), (641, 23),
    ])
    func everyKindOfImageRoundTrips(width: Int, height: Int) throws {
        for (k, content) in Content.allCases.enumerated() {
            let bitmap = Self.bitmap(
                content, width: width, height: height, seed: UInt64(width * 1000 + height + k))
            #expect(try decoded(bitmap) == bitmap, "\(content) \(width)×\(height)")
        }
    }

    @Test func largeImagesSpanManyBlocksAndStillRoundTrip() throws {
        // Big enough for several deflate blocks of each kind, stored ones included.
        for content in Content.allCases {
            let bitmap = Self.bitmap(content, width: 700, height: 300, seed: 77)
            #expect(try decoded(bitmap) == bitmap, "\(content)")
        }
    }

    @Test func aReusedEncoderWritesTheSameBytesAsAOneOffEncoder() {
        // Big then small then big again, opaque and not: leftovers of one image must not
        // leak into the next.
        let encoder = PNGEncoder()
        let images = [
            Self.bitmap(.grainyGradient, width: 641, height: 23, seed: 1),
            Self.bitmap(.translucentNoise, width: 7, height: 5, seed: 2),
            Self.bitmap(.repeatedRows, width: 129, height: 67, seed: 3),
            Self.bitmap(.grainyGradient, width: 641, height: 23, seed: 4),
            Self.bitmap(.flatWithClearBand, width: 1, height: 1, seed: 5),
        ]
        for (k, image) in images.enumerated() {
            #expect(encoder.encode(image) == PNGEncoder.encode(image), "image \(k)")
        }
    }

    @Test func drawingIntoABitmapGivesTheSamePictureAsMakingOne() {
        var canvas = Bitmap(width: 97, height: 41)
        for seed in [1, 2, 99] as [UInt64] {
            ProceduralPicture.draw(into: &canvas, seed: seed)
            #expect(canvas == ProceduralPicture.make(width: 97, height: 41, seed: seed))
        }
        ProceduralPicture.draw(into: &canvas, seed: 5, grain: false)
        #expect(canvas == ProceduralPicture.make(width: 97, height: 41, seed: 5, grain: false))
    }

    @Test func opaqueImagesAreRGBAndOthersRGBA() {
        func colourType(_ bitmap: Bitmap) -> UInt8 { PNGEncoder.encode(bitmap)[25] }
        #expect(colourType(Self.bitmap(.opaqueNoise, width: 5, height: 4, seed: 1)) == 2)
        #expect(colourType(Self.bitmap(.translucentNoise, width: 5, height: 4, seed: 1)) == 6)
        #expect(colourType(Self.bitmap(.flatWithClearBand, width: 5, height: 4, seed: 1)) == 6)
    }

    @Test func noiseCostsLittleMoreThanItsRawSize() throws {
        // Stored blocks take over where coding would not pay: the worst case stays within
        // the stream bound.
        let bitmap = Self.bitmap(.opaqueNoise, width: 300, height: 200, seed: 5)
        let raw = (300 * 3 + 1) * 200
        let size = PNGEncoder.encode(bitmap).count
        #expect(size <= Deflate.bound(raw) + 57)
        #expect(size >= raw)  // random bytes do not compress
        #expect(try decoded(bitmap) == bitmap)
    }

    @Test func flatAndRepeatingImagesShrinkByOrdersOfMagnitude() {
        let flat = Bitmap(width: 640, height: 360, fill: Color(red: 0.2, green: 0.5, blue: 0.9))
        #expect(PNGEncoder.encode(flat).count < 640 * 360 * 3 / 100)
        let rows = Self.bitmap(.repeatedRows, width: 640, height: 360, seed: 9)
        #expect(
            PNGEncoder.encode(rows).count < 640 * 360 * 4 / 50, "\(PNGEncoder.encode(rows).count)")
    }

    @Test func crcMatchesThePublishedCheckValueAndTheBitwiseDefinition() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        var random = SeededGenerator(seed: 3)
        for length in [0, 1, 7, 8, 9, 63, 1000, 4099] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            var c: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                c ^= UInt32(byte)
                for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            #expect(CRC32.checksum(bytes) == c ^ 0xFFFF_FFFF, "length \(length)")
        }
    }

    @Test func adlerMatchesThePublishedExampleAndTheDefinition() {
        let wikipedia = Array("Wikipedia".utf8)
        #expect(wikipedia.withUnsafeBufferPointer { Deflate.adler32($0) } == 0x11E6_0398)
        var random = SeededGenerator(seed: 4)
        // Lengths around the 16-byte steps and the 5,552-byte reduction interval; bytes of
        // 255 give the largest sums.
        for length in [0, 1, 15, 16, 17, 5551, 5552, 5553, 11_104, 40_000] {
            for allOnes in [false, true] {
                let bytes = (0..<length).map { _ in
                    allOnes ? 255 : UInt8.random(in: 0...255, using: &random)
                }
                var a: UInt32 = 1
                var b: UInt32 = 0
                for byte in bytes {
                    a = (a + UInt32(byte)) % 65521
                    b = (b + a) % 65521
                }
                #expect(
                    bytes.withUnsafeBufferPointer { Deflate.adler32($0) } == b << 16 | a,
                    "length \(length)")
            }
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 7, 9, 25, 49, 81, 121, 169, 225, 289])
    func exactDivisionAgreesWithDivisionOverItsWholeRange(divisor: Int) {
        let limit = divisor * 256
        let division = ExactDivision(by: divisor, below: limit)
        var wrong = 0
        for x in 0..<limit {
            if division.quotient(x) != x / divisor || division.remainder(x) != x % divisor {
                wrong += 1
            }
        }
        #expect(wrong == 0)
        for x in 0..<(limit - divisor / 2) {
            if division.rounded(x) != (x + divisor / 2) / divisor { wrong += 1 }
        }
        #expect(wrong == 0)
    }
}
