import Foundation
import TactileCore
import TestSupport
import Testing

@testable import TactileCommands

/// The animated previews in docs/ are what the commands the README prints under them
/// ("Rendered by `tactile render …`") render now. Rendering is deterministic — the same
/// bytes on every run, whichever SIMD path pixman takes — so each is compared byte for byte.
/// After a change to a drawing or to the GIF encoder, `scripts/render-docs.sh` renders them
/// again from the README's commands.
@Suite struct DocsPreviewTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let readme =
        (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    /// The README's `Rendered by `tactile …`` commands, each split into its words.
    static let commands: [[String]] = readme.components(separatedBy: "Rendered by `tactile ")
        .dropFirst().map { text in
            text.prefix { $0 != "`" }.split(separator: " ").map(String.init)
        }

    /// Where a command writes (its `--out`), relative to the repository.
    static func output(of command: [String]) -> String? {
        guard let flag = command.firstIndex(of: "--out"), flag + 1 < command.count else {
            return nil
        }
        return command[flag + 1]
    }

    @Test func everyPreviewHasTheCommandThatRendersIt() throws {
        let outputs = Self.commands.compactMap(Self.output)
        #expect(Self.commands.count >= 4, "commands: \(Self.commands)")
        #expect(outputs.count == Self.commands.count, "every command has --out: \(Self.commands)")
        #expect(Set(outputs).count == outputs.count, "no preview is rendered twice: \(outputs)")
        let docs = Self.root.appendingPathComponent("docs")
        let gifs = try FileManager.default.contentsOfDirectory(atPath: docs.path)
            .filter { $0.hasSuffix(".gif") }.map { "docs/" + $0 }
        #expect(
            Set(gifs) == Set(outputs),
            "GIFs in docs/: \(gifs.sorted()); commands write \(outputs.sorted())")
        // Each picture the README shows from docs/ has its command.
        let shown = Self.readme.components(separatedBy: "](docs/").dropFirst().map {
            "docs/" + $0.prefix { $0 != ")" }
        }.filter { $0.hasSuffix(".gif") }
        #expect(Set(shown) == Set(outputs), "the README shows \(shown)")
    }

    @Test(arguments: commands)
    func aPreviewIsWhatItsCommandRendersNow(command: [String]) throws {
        let written = try #require(Self.output(of: command))
        let committed = try Data(contentsOf: Self.root.appendingPathComponent(written))
        let scratch = ScratchDirectory("docs")
        var arguments = command
        arguments[arguments.firstIndex(of: written)!] = scratch.file("preview.gif")
        let output = CommandOutput()
        let errors = CommandOutput()
        #expect(Tactile.run(arguments, output: output, errors: errors) == 0, "\(errors.text)")
        let rendered = try Data(contentsOf: URL(fileURLWithPath: scratch.file("preview.gif")))
        guard rendered != committed else { return }
        Issue.record(
            "\(written) is not what `tactile \(command.joined(separator: " "))` renders now (\(try Self.difference(committed, rendered))); render it again with scripts/render-docs.sh and look at it"
        )
    }

    /// Where two GIFs part: their sizes, and the first frame shown differently.
    static func difference(_ committed: Data, _ rendered: Data) throws -> String {
        let sizes =
            "\(committed.count.formatted()) bytes committed, \(rendered.count.formatted()) rendered"
        let old = try GIFDecoder(Array(committed))
        let new = try GIFDecoder(Array(rendered))
        guard old.width == new.width, old.height == new.height else {
            return
                "\(sizes); \(old.width)x\(old.height) committed, \(new.width)x\(new.height) rendered"
        }
        guard
            let frame = (0..<min(old.frames.count, new.frames.count)).first(where: {
                old.frames[$0] != new.frames[$0]
            })
        else {
            return old.frames.count == new.frames.count
                ? "\(sizes); every frame shows alike, encoded differently"
                : "\(sizes); \(old.frames.count) frames committed, \(new.frames.count) rendered"
        }
        let a = old.frames[frame].pixels
        let b = new.frames[frame].pixels
        let off = stride(from: 0, to: a.count, by: 4).filter {
            a[$0..<($0 + 3)] != b[$0..<($0 + 3)]
        }
        return
            "\(sizes); frame \(frame + 1) of \(new.frames.count) is the first to differ, in \(off.count.formatted()) pixels"
    }
}
