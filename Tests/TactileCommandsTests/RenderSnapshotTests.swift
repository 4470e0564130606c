import Foundation
import TactileCairo
import TactileCore
import Testing

@testable import TactileCommands

/// Every component drawn offscreen at 0, ¼, ½, ¾ and the whole of its demonstration (the
/// scenes `tactile render` draws), against golden PNGs. Antialiasing may differ a little
/// from machine to machine, so a snapshot matches when at most 1 % of its pixels differ by
/// more than 24 levels in a channel. Re-record on purpose with `scripts/record-golden.sh`.
@Suite struct RenderSnapshotTests {
    static let goldenFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/render")
    static let recording = ProcessInfo.processInfo.environment["TACTILE_RECORD_GOLDEN"] == "1"
    static let progress: [(name: String, fraction: Double)] = [
        ("0", 0), ("1-4", 0.25), ("1-2", 0.5), ("3-4", 0.75), ("1", 1),
    ]

    /// How far two bitmaps of one size are apart: the share of pixels off by more than
    /// `threshold` in some channel, and the largest difference.
    static func difference(_ a: Bitmap, _ b: Bitmap, threshold: Int = 24) -> (
        share: Double, largest: Int
    ) {
        var off = 0
        var largest = 0
        for p in stride(from: 0, to: a.pixels.count, by: 4) {
            var worst = 0
            for c in 0..<4 { worst = max(worst, abs(Int(a.pixels[p + c]) - Int(b.pixels[p + c]))) }
            largest = max(largest, worst)
            if worst > threshold { off += 1 }
        }
        return (Double(off) / Double(max(1, a.pixels.count / 4)), largest)
    }

    @Test(arguments: RenderCommand.components)
    func aComponentLooksAsRecordedThroughItsDemonstration(component: String) throws {
        let scene = try RenderCommand.makeScene(component)
        let recorder = ComponentRecorder(component: scene.component, width: 320, height: 200)
        scene.component.advance(to: 0)
        var time = 0.0
        var frames: [Bitmap] = []
        for (name, fraction) in Self.progress {
            let target = fraction * scene.length
            recorder.advance(from: time, to: target)
            time = target
            let image = recorder.snapshot()
            let bitmap = image.bitmap()
            frames.append(bitmap)
            let golden = Self.goldenFolder.appendingPathComponent("\(component)-\(name).png")
            if Self.recording {
                try FileManager.default.createDirectory(
                    at: Self.goldenFolder, withIntermediateDirectories: true)
                try image.writePNG(to: golden.path)
                continue
            }
            guard FileManager.default.fileExists(atPath: golden.path) else {
                Issue.record(
                    "no golden snapshot \(golden.lastPathComponent): run scripts/record-golden.sh")
                continue
            }
            let expected = try ImageLoader.load(path: golden.path)
            #expect(expected.width == bitmap.width && expected.height == bitmap.height)
            guard expected.width == bitmap.width, expected.height == bitmap.height else { continue }
            let (share, largest) = Self.difference(bitmap, expected)
            #expect(
                share <= 0.01,
                "\(component) at \(name): \(String(format: "%.2f", share * 100)) % of pixels differ (largest by \(largest))"
            )
        }
        // The demonstration moves: at least three of the five moments differ (a
        // demonstration may come back to where it began).
        var distinct: [Bitmap] = []
        for frame in frames
        where !distinct.contains(where: { Self.difference($0, frame).share <= 0.001 }) {
            distinct.append(frame)
        }
        #expect(distinct.count >= 3, "\(component): only \(distinct.count) distinct moments")
    }

    /// The mean brightness of a bitmap, 0 (black) to 1 (white).
    static func brightness(_ bitmap: Bitmap) -> Double {
        var sum = 0.0
        for p in stride(from: 0, to: bitmap.pixels.count, by: 4) {
            sum +=
                0.2126 * Double(bitmap.pixels[p]) + 0.7152 * Double(bitmap.pixels[p + 1])
                + 0.0722 * Double(bitmap.pixels[p + 2])
        }
        return sum / 255 / Double(max(1, bitmap.pixels.count / 4))
    }

    /// On a dark desktop every component draws with its dark theme: halfway through its
    /// demonstration it matches its golden dark PNG, and is darker than on a light desktop.
    @Test(arguments: RenderCommand.components)
    func aComponentFollowsADarkDesktop(component: String) throws {
        var frames: [Appearance: Bitmap] = [:]
        for appearance in Appearance.allCases {
            let scene = try RenderCommand.makeScene(component)
            scene.component.appearance = appearance
            let recorder = ComponentRecorder(component: scene.component, width: 320, height: 200)
            scene.component.advance(to: 0)
            recorder.advance(from: 0, to: scene.length / 2)
            let image = recorder.snapshot()
            frames[appearance] = image.bitmap()
            guard appearance == .dark else { continue }
            let golden = Self.goldenFolder.appendingPathComponent("\(component)-dark.png")
            if Self.recording {
                try image.writePNG(to: golden.path)
                continue
            }
            let expected = try ImageLoader.load(path: golden.path)
            let (share, largest) = Self.difference(image.bitmap(), expected)
            #expect(
                share <= 0.01,
                "\(component) dark: \(String(format: "%.2f", share * 100)) % of pixels differ (largest by \(largest))"
            )
        }
        let light = Self.brightness(try #require(frames[.light]))
        let dark = Self.brightness(try #require(frames[.dark]))
        #expect(dark < light - 0.15, "\(component): light \(light), dark \(dark)")
    }

    @Test func theToleranceTellsAMovedShapeFromAntialiasing() {
        // One square drawn twice half a pixel apart passes; moved by eight pixels, it fails.
        func square(at x: Double) -> Bitmap {
            let image = ImageSurface(width: 100, height: 100)
            let canvas = image.makeCanvas()
            canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 100, height: 100)), with: .white)
            canvas.fill(Path(rect: Rect(x: x, y: 30, width: 40, height: 40)), with: .black)
            return image.bitmap()
        }
        #expect(Self.difference(square(at: 30), square(at: 30.5)).share <= 0.01)
        #expect(Self.difference(square(at: 30), square(at: 38)).share > 0.01)
    }
}
