import Foundation
import TactileCairo
import TactileCore
import TestSupport
import Testing

@testable import TactileCommands

/// Inputs that are accepted in form but would exhaust the machine — a tiny file claiming a
/// huge picture, a huge track, a render of hours — are refused up front with the limit
/// named, and shapes that make unusable puzzles are refused with the reason.
@Suite struct InputLimitTests {
    let scratch = ScratchDirectory("limits")

    func newPuzzle(_ extra: [String]) -> CommandRun {
        tactile(
            ["puzzle", "new", "--state", scratch.file("state"), "--out", scratch.file("out")]
                + extra)
    }

    /// A PNG that is only its signature and an IHDR chunk claiming `width × height`.
    func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bytes += Array("IHDR".utf8)
        for value in [width, height] {
            bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
        }
        bytes += [8, 6, 0, 0, 0, 0, 0, 0, 0]  // depth, colour type, …, a CRC (unchecked here)
        return bytes
    }

    @Test func aHugePictureIsRefusedFromItsHeader() throws {
        let path = scratch.file("huge.png")
        try Data(pngHeader(width: 30_000, height: 30_000)).write(to: URL(fileURLWithPath: path))
        let run = newPuzzle(["--image", path])
        #expect(run.code == 2)
        #expect(
            run.errors.contains("30000×30000 pixels is over the limit of 16,777,216"),
            "\(run.errors)")
    }

    @Test func headersGiveTheSizeOfEachFormat() throws {
        let png = try #require(ImageHeader(pngHeader(width: 640, height: 360)))
        #expect((png.format, png.width, png.height) == (.png, 640, 360))
        // SOI, an APP0 segment of 16 bytes, then SOF0: length 17, precision 8, height, width.
        let jpeg: [UInt8] =
            [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + [UInt8](repeating: 0, count: 14)
            + [0xFF, 0xC0, 0, 17, 8, 0x01, 0x68, 0x02, 0x80, 3]
        let decoded = try #require(ImageHeader(jpeg))
        #expect((decoded.format, decoded.width, decoded.height) == (.jpeg, 640, 360))
        let gif = Array("GIF89a".utf8) + [0x80, 0x02, 0x68, 0x01]
        let decodedGIF = try #require(ImageHeader(gif))
        #expect((decodedGIF.format, decodedGIF.width, decodedGIF.height) == (.gif, 640, 360))
        #expect(ImageHeader(Array("not an image".utf8)) == nil)
        #expect(ImageHeader(pngHeader(width: 0, height: 10)) == nil)
        #expect(ImageHeader(Array(jpeg.prefix(22))) == nil, "cut short before the size")
    }

    @Test func aLargeTrackIsRefusedBeforeDecoding() throws {
        let made = newPuzzle(["--seed", "3"])
        #expect(made.code == 0, "\(made.errors)")
        let id = String(made.lines.last!)
        let big = scratch.file("big.json")
        let sample = "{\"x\":1,\"y\":2,\"t\":3},"
        let text = "[" + String(repeating: sample, count: (1 << 20) / sample.count + 1) + "{}]"
        try Data(text.utf8).write(to: URL(fileURLWithPath: big))
        let run = tactile([
            "puzzle", "check", "--state", scratch.file("state"), "--id", id, "--x", "1", "--track",
            big,
        ])
        #expect(run.code == 2)
        #expect(run.errors.contains("larger than 1 MiB"), "\(run.errors)")
        let many = try scratch.write(
            "[" + String(repeating: "{\"x\":1,\"y\":2,\"t\":3},", count: 10_001) + "{}]",
            to: "many.json")
        let counted = tactile([
            "puzzle", "check", "--state", scratch.file("state"), "--id", id, "--x", "1", "--track",
            many,
        ])
        #expect(counted.code == 2)
        #expect(counted.errors.contains("at most 10000 samples"), "\(counted.errors)")
    }

    @Test func aLongGIFIsRefusedWithTheLimitNamed() {
        let run = tactile([
            "render", "cradle", "--out", scratch.file("long.gif"), "--size", "4096x4096",
            "--seconds", "600",
        ])
        #expect(run.code == 2)
        #expect(run.errors.contains("at most 100,000,000 are allowed"), "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("long.gif")))
        let defaultLength = tactile([
            "render", "hanoi", "--out", scratch.file("d.gif"), "--size", "4096x4096",
        ])
        #expect(defaultLength.code == 2, "the scene's own length counts too")
    }

    @Test(arguments: [
        ("M0 0 C0 1e160 10 2e160 10 0 L10 10 L0 10 Z", "within ±1,000,000,000"),
        ("M0 0 A 1e308 1e308 0 0 1 10 10 Z", "within ±1,000,000,000"),
        ("M0 0 L10 10", "covers 0 %"),
        ("M0 0 L10 0 L10 10 Z M0 0 L10 10 L10 0 Z", "covers 0 %"),
        ("M0 0 L1e-310 0 L1e-310 1e-310 Z", "shape"),
        ("M0 0 H1000 V1 H0 Z", "covers"),
        ("M0 0 L10 0", "encloses no area"),
    ])
    func unusableShapesAreRefused(data: String, reason: String) throws {
        let file = try scratch.write(data, to: "shape.svg")
        let run = newPuzzle(["--shape", "svg:" + file])
        #expect(run.code == 2, "\(data)")
        #expect(run.errors.contains(reason), "\(data): \(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("state/state.json")))
    }

    @Test(arguments: [
        "M0 0 H10 V10 H0 Z", "M10 0 A10 10 0 1 1 10 20 A10 10 0 1 1 10 0 Z",
        "M0 0 L10 0 L5 8 Z",
    ])
    func usableShapesAreAccepted(data: String) throws {
        let file = try scratch.write(data, to: "shape.svg")
        let run = newPuzzle(["--shape", "svg:" + file])
        #expect(run.code == 0, "\(data): \(run.errors)")
    }

    @Test func tooManySegmentsAreRefused() throws {
        let data = "M0 0 " + String(repeating: "l1 0 l0 1 ", count: 5_001) + "Z"
        let file = try scratch.write(data, to: "long.svg")
        let run = newPuzzle(["--shape", "svg:" + file])
        #expect(run.code == 2)
        #expect(run.errors.contains("at most 10,000 segments"), "\(run.errors)")
    }

    /// A JPEG whose scans would each pass over all its pixels: refused from its markers.
    @Test func aJPEGWithManyScansIsRefusedBeforeDecoding() throws {
        let header: [UInt8] =
            [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + [UInt8](repeating: 0, count: 14)
            + [0xFF, 0xC2, 0, 11, 8, 0x10, 0x00, 0x10, 0x00, 1, 1, 0x11, 0]
        let bomb =
            header + Array(repeating: [0xFF, 0xDA, 0, 2] as [UInt8], count: 33).flatMap { $0 }
            + [0xFF, 0xD9]
        #expect(ImageHeader(bomb)?.scans == 33)
        #expect(throws: ImageFileError.self) { try ImageLoader.decode(bomb, name: "bomb.jpg") }
        do {
            _ = try ImageLoader.decode(bomb, name: "bomb.jpg")
        } catch {
            #expect(error.reason == "a JPEG of 33 scans is over the limit of 32")
        }
    }

    /// An animation of 50,000 one-pixel frames is cut to its first frame before decoding (a
    /// decoder would keep every frame, at a cost that grows with the square of their number).
    @Test func aGIFDecodesOnlyItsFirstFrame() throws {
        let screen: [UInt8] =
            Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        let frame: [UInt8] = [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]
        let animation = screen + Array(repeating: frame, count: 50_000).flatMap { $0 } + [0x3B]
        #expect(ImageHeader.firstFrameOfGIF(animation) == screen + frame + [0x3B])
        let bitmap = try ImageLoader.decode(animation, name: "many.gif")
        #expect(bitmap.width == 1 && bitmap.height == 1)
        #expect(ImageHeader.firstFrameOfGIF(Array(animation.prefix(20))) == nil)
    }
}
