import Foundation
import TactileCairo
import TactileCommands
import Testing

/// `tactile render` writes images a viewer can open.
@Suite struct RenderCommandTests {
    func temporaryPath(_ ext: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tactile-\(UUID()).\(ext)")
            .path
    }

    @Test func pngHasTheRequestedSize() throws {
        let path = temporaryPath("png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = tactile("render", "hanoi", "--out", path, "--size", "320x200", "--seconds", "1")
        #expect(run.code == 0, "\(run.errors)")
        let bitmap = try ImageLoader.load(path: path)
        #expect(bitmap.width == 320 && bitmap.height == 200)
    }

    @Test func gifIsAnAnimation() throws {
        let path = temporaryPath("gif")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = tactile("render", "hanoi", "--out", path, "--size", "64x40", "--seconds", "0.5")
        #expect(run.code == 0, "\(run.errors)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // Ten frames at 20 per second: ten image descriptors, each after a graphic control block.
        let controls = bytes.indices.dropLast(1).filter {
            bytes[$0] == 0x21 && bytes[$0 + 1] == 0xF9
        }
        #expect(controls.count == 10)
    }

    @Test(arguments: [
        (["render", "hanoi", "--out", "x.jpg"], "--out must end in .png or .gif"),
        (["render", "hanoi", "--out", "x.png", "--size", "10x10"], "16…4096, got 10x10"),
        (["render", "hanoi", "--out", "x.png", "--size", "big"], "--size must be WxH"),
        (
            ["render", "hanoi", "--out", "x.png", "--seconds", "-1"],
            "--seconds must be a number 0…600"
        ),
        (["render", "teapot", "--out", "x.png"], "component must be one of"),
        (["render", "hanoi"], "missing --out"),
        (["render", "hanoi", "--out", "/nonexistent-dir/x.png"], "cannot write"),
    ])
    func badInputExitsTwo(arguments: [String], message: String) {
        let output = TactileCommands.CommandOutput()
        let errors = TactileCommands.CommandOutput()
        #expect(TactileCommands.Tactile.run(arguments, output: output, errors: errors) == 2)
        #expect(errors.text.contains(message), "stderr was: \(errors.text)")
    }
}
