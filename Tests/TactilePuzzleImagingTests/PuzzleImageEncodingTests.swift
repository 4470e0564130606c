import Foundation
import PuzzleTestSupport
import TactileCairo
import TactileCore
import TactilePuzzle
import TactilePuzzleImaging
import TactilePuzzleVerifier
import Testing

/// The background goes out as JPEG by default (small, and no exact pixel survives), the
/// piece as PNG; both decode with an independent decoder (gdk-pixbuf).
@Suite struct PuzzleImageEncodingTests {
    @Test func jpegBackgroundsDecodeCloseToTheOriginalAndAreSmall() throws {
        let puzzle = try makePuzzle(seed: 41)
        let files = PuzzleImageEncoder().encode(puzzle)
        #expect(files.format == .jpeg(quality: 80))
        #expect(files.format.fileExtension == "jpg" && files.format.mediaType == "image/jpeg")
        #expect(Array(files.background.prefix(3)) == [0xFF, 0xD8, 0xFF])
        let decoded = try ImageLoader.decode(files.background, name: "background")
        #expect(decoded.width == 640 && decoded.height == 360)
        var total = 0
        var exact = 0
        for i in stride(from: 0, to: decoded.pixels.count, by: 4) {
            for c in 0..<3 {
                let d = abs(Int(decoded.pixels[i + c]) - Int(puzzle.background.pixels[i + c]))
                total += d
                if d == 0 { exact += 1 }
            }
        }
        // Close on average (a few levels), yet most values are not the generated ones.
        #expect(Double(total) / Double(640 * 360 * 3) < 4)
        #expect(exact < 640 * 360 * 3 / 2)
        // Several times smaller than the PNG of the same background.
        #expect(files.background.count * 4 < PNGEncoder.encode(puzzle.background).count)
        // The piece keeps its alpha, exactly.
        #expect(try ImageLoader.decode(files.piece, name: "piece") == puzzle.piece)
    }

    @Test func pngBackgroundsStayExact() throws {
        var random = SeededRandom(seed: 42)
        let options = PuzzleOptions(backgroundFormat: .png)
        let puzzle = try PuzzleGenerator.generate(
            picture: ProceduralPicture.make(width: 640, height: 360, seed: 42), options: options,
            using: &random)
        let files = PuzzleImageEncoder().encode(puzzle)
        #expect(files.format == .png && files.format.fileExtension == "png")
        #expect(try ImageLoader.decode(files.background, name: "background") == puzzle.background)
    }

    @Test func oneEncoderServesEveryQuality() throws {
        let picture = ProceduralPicture.make(width: 320, height: 180, seed: 43)
        let encoder = PuzzleImageEncoder()
        let low = encoder.encode(picture, as: .jpeg(quality: 30))
        let high = encoder.encode(picture, as: .jpeg(quality: 95))
        #expect(low.format == .jpeg(quality: 30) && high.format == .jpeg(quality: 95))
        #expect(low.bytes.count < high.bytes.count)
        #expect(high.bytes == JPEGEncoder.encode(picture, quality: 95))
        #expect(JPEGEncoder(quality: 500).quality == 100 && JPEGEncoder(quality: -1).quality == 1)
        #expect(JPEGEncoder.encode(Bitmap(width: 0, height: 0)).isEmpty)
    }

    @Test func badQualitiesAreRefusedByName() {
        var random = SeededRandom(seed: 1)
        let picture = Bitmap(width: 640, height: 360, fill: .white)
        do {
            _ = try PuzzleGenerator.generate(
                picture: picture, options: PuzzleOptions(backgroundFormat: .jpeg(quality: 0)),
                using: &random)
            Issue.record("accepted quality 0")
        } catch {
            #expect(error.message == "JPEG quality must be 1…100, got 0")
        }
    }
}
