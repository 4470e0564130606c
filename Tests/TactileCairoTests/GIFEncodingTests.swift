import Foundation
import TactileCairo
import TactileCore
import TestSupport
import Testing

/// What `GIFWriter` stores, read back by an independent decoder: gradients dithered rather
/// than banded, exact colours kept exact, and each frame only where it changed.
@Suite struct GIFEncodingTests {
    let scratch = ScratchDirectory("gif")

    /// Writes `frames` as a GIF and reads it back; also the file's bytes.
    func roundTrip(_ frames: [Bitmap], dithers: Bool = true) throws -> (GIFDecoder, Data) {
        let path = scratch.file("\(UUID()).gif")
        let writer = try GIFWriter(
            path: path, width: frames[0].width, height: frames[0].height, dithers: dithers)
        for frame in frames { try writer.addFrame(frame, delay: 0.05) }
        try writer.finish()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        return (try GIFDecoder(Array(bytes)), bytes)
    }

    /// A smooth gradient of 16,384 colours: red grows across, green down, blue falls across.
    static let gradient: Bitmap = {
        var bitmap = Bitmap(width: 256, height: 64)
        for y in 0..<64 {
            for x in 0..<256 {
                bitmap[x, y] = Color(
                    red8: UInt8(x), green8: UInt8(64 + 2 * y), blue8: UInt8(255 - x / 2))
            }
        }
        return bitmap
    }()

    /// The mean difference per channel, in levels, between two bitmaps of one size; with
    /// `block` > 1, between their means over `block`×`block` squares (what the eye sees).
    static func meanError(_ a: Bitmap, _ b: Bitmap, block: Int = 1) -> Double {
        var total = 0.0
        var count = 0
        for by in stride(from: 0, to: a.height - block + 1, by: block) {
            for bx in stride(from: 0, to: a.width - block + 1, by: block) {
                for c in 0..<3 {
                    var sa = 0
                    var sb = 0
                    for y in by..<(by + block) {
                        for x in bx..<(bx + block) {
                            sa += Int(a.pixels[(y * a.width + x) * 4 + c])
                            sb += Int(b.pixels[(y * b.width + x) * 4 + c])
                        }
                    }
                    total += Double(abs(sa - sb)) / Double(block * block)
                    count += 1
                }
            }
        }
        return total / Double(count)
    }

    /// The mean length of the runs of one colour along the rows: how wide a band is.
    static func meanRun(_ bitmap: Bitmap) -> Double {
        var runs = 0
        for y in 0..<bitmap.height {
            runs += 1
            for x in 1..<bitmap.width where bitmap[x, y] != bitmap[x - 1, y] { runs += 1 }
        }
        return Double(bitmap.width * bitmap.height) / Double(runs)
    }

    /// How many different colours the means of 4×4 squares have: a smooth gradient has many,
    /// bands few.
    static func distinctLocalMeans(_ bitmap: Bitmap) -> Int {
        var means: Set<[Int]> = []
        for by in stride(from: 0, to: bitmap.height - 3, by: 4) {
            for bx in stride(from: 0, to: bitmap.width - 3, by: 4) {
                var sum = [0, 0, 0]
                for y in by..<(by + 4) {
                    for x in bx..<(bx + 4) {
                        for c in 0..<3 {
                            sum[c] += Int(bitmap.pixels[(y * bitmap.width + x) * 4 + c])
                        }
                    }
                }
                means.insert(sum.map { ($0 + 8) / 16 })
            }
        }
        return means.count
    }

    @Test func aGradientIsDitheredInsteadOfBanded() throws {
        let source = Self.gradient
        let dithered = try roundTrip([source]).0.frames[0]
        let banded = try roundTrip([source], dithers: false).0.frames[0]
        // The decoder agrees with gdk-pixbuf's on the first frame.
        let path = scratch.file("check.gif")
        let writer = try GIFWriter(path: path, width: 256, height: 64)
        try writer.addFrame(source, delay: 0.05)
        try writer.finish()
        #expect(try ImageLoader.load(path: path) == dithered)

        let pixelError = Self.meanError(dithered, source)
        let seenError = Self.meanError(dithered, source, block: 4)
        let bandedSeenError = Self.meanError(banded, source, block: 4)
        // Each pixel is a palette colour near its own, and over a few pixels the mix is the
        // source's colour: far closer than bands are.
        #expect(pixelError < 6, "mean error per pixel \(pixelError) levels")
        #expect(seenError < 1.5, "mean error over 4×4 squares \(seenError) levels")
        #expect(seenError * 3 < bandedSeenError, "\(seenError) against bands' \(bandedSeenError)")
        let (run, bandedRun) = (Self.meanRun(dithered), Self.meanRun(banded))
        #expect(run * 4 < bandedRun, "runs of \(run) pixels on average against bands' \(bandedRun)")
        let (means, bandedMeans) = (
            Self.distinctLocalMeans(dithered), Self.distinctLocalMeans(banded)
        )
        #expect(means > 2 * bandedMeans, "\(means) local colours against bands' \(bandedMeans)")
        print(
            "dithering:", pixelError, seenError, bandedSeenError, run, bandedRun, means, bandedMeans
        )
    }

    @Test func flatAreasBesideAGradientKeepTheirExactColour() throws {
        // The left half one colour, a line of another through it, the right half a gradient.
        var source = Self.gradient
        let paper = Color(red8: 243, green8: 244, blue8: 249)
        let ink = Color(red8: 74, green8: 76, blue8: 90)
        for y in 0..<64 {
            for x in 0..<128 { source[x, y] = y == 30 ? ink : paper }
        }
        let decoded = try roundTrip([source]).0.frames[0]
        var off = 0
        for y in 0..<64 {
            for x in 0..<128 where decoded[x, y] != source[x, y] { off += 1 }
        }
        #expect(off == 0, "\(off) pixels of the flat half changed")
        #expect(Self.meanError(decoded, source, block: 4) < 1.5)
    }

    @Test(arguments: [true, false])
    func aFrameOf256ColoursOrFewerIsKeptExactly(dithers: Bool) throws {
        var random = SeededGenerator(seed: 12)
        let colors = (0..<256).map { _ in
            Color(
                red8: UInt8.random(in: 0...255, using: &random),
                green8: UInt8.random(in: 0...255, using: &random),
                blue8: UInt8.random(in: 0...255, using: &random))
        }
        var source = Bitmap(width: 64, height: 32)
        for y in 0..<32 {
            for x in 0..<64 { source[x, y] = colors[Int.random(in: 0..<256, using: &random)] }
        }
        #expect(try roundTrip([source], dithers: dithers).0.frames[0] == source)
    }

    @Test func eachFrameStoresOnlyWhereItChanged() throws {
        let first = Self.gradient
        var second = first
        for y in 20..<26 {
            for x in 100..<110 { second[x, y] = Color(red8: 200, green8: 30, blue8: 30) }
        }
        let (gif, _) = try roundTrip([first, second, second, first])
        #expect(
            gif.images.map { [$0.x, $0.y, $0.width, $0.height] } == [
                [0, 0, 256, 64], [100, 20, 10, 6], [0, 0, 1, 1], [100, 20, 10, 6],
            ])
        // A frame like the one before is one transparent pixel: the picture stays.
        #expect(gif.images[2].transparentIndex == gif.images[2].indices[0])
        #expect(gif.frames[2] == gif.frames[1])
        // What is on screen after each frame is that frame.
        for (shown, source) in zip(gif.frames, [first, second, second, first]) {
            #expect(Self.meanError(shown, source, block: 4) < 1.5)
        }
        for y in 20..<26 {
            for x in 100..<110 { #expect(gif.frames[1][x, y] == second[x, y]) }
        }
        #expect(gif.images.allSatisfy { $0.delay == 0.05 })
    }

    @Test func theSameFramesGiveTheSameBytes() throws {
        var moved = Self.gradient
        for y in 10..<40 { moved[200, y] = .black }
        let frames = [Self.gradient, moved, Self.gradient]
        #expect(try roundTrip(frames).1 == roundTrip(frames).1)
    }
}
