import Foundation
import Testing

@testable import TactileCommands

/// Every command's and subcommand's `--help`, found by walking the command table, against
/// golden text: help is part of the command-line contract, so any change to it shows up
/// here and is re-recorded on purpose with `TACTILE_RECORD_GOLDEN=1 swift test --filter HelpTextTests`.
@Suite struct HelpTextTests {
    static let goldenFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/help")
    static let recording = ProcessInfo.processInfo.environment["TACTILE_RECORD_GOLDEN"] == "1"

    /// Runs `tactile <arguments>`: exit code and standard output.
    func run(_ arguments: [String]) -> (code: Int32, output: String, errors: String) {
        let output = CommandOutput()
        let errors = CommandOutput()
        let code = Tactile.run(arguments, output: output, errors: errors)
        return (code, output.text, errors.text)
    }

    /// Every command line whose help there is: the tool, each command, and each subcommand
    /// its usage line names (`tactile hanoi <solve|count|move> …`).
    func helpCommandLines() -> [[String]] {
        var lines: [[String]] = [[]]
        for command in Tactile.commands {
            lines.append([command.name])
            let usage = run([command.name, "--help"]).output.split(separator: "\n").first ?? ""
            let prefix = "Usage: tactile \(command.name) <"
            guard usage.hasPrefix(prefix), usage.hasSuffix("> …") else { continue }
            let alternatives = usage.dropFirst(prefix.count).dropLast("> …".count)
            for sub in alternatives.split(separator: "|") {
                lines.append([command.name, String(sub)])
            }
        }
        return lines
    }

    @Test func everyHelpMatchesItsGoldenText() throws {
        let lines = helpCommandLines()
        // Six commands and their subcommands: a table that shrank would be caught here.
        #expect(lines.count >= 1 + Tactile.commands.count + 14, "\(lines)")
        var expectedFiles: Set<String> = []
        for line in lines {
            let result = run(line + ["--help"])
            let name = (["tactile"] + line).joined(separator: "-") + ".txt"
            expectedFiles.insert(name)
            #expect(result.code == 0, "\(line) --help exited \(result.code)")
            #expect(result.errors.isEmpty, "\(line) --help wrote to standard error")
            #expect(
                result.output.hasPrefix("Usage: tactile" + line.map { " " + $0 }.joined()),
                "\(line): \(result.output.prefix(80))")
            let golden = Self.goldenFolder.appendingPathComponent(name)
            if Self.recording {
                try FileManager.default.createDirectory(
                    at: Self.goldenFolder, withIntermediateDirectories: true)
                try Data(result.output.utf8).write(to: golden)
                continue
            }
            guard let expected = try? String(contentsOf: golden, encoding: .utf8) else {
                Issue.record(
                    "no golden help for \(line) (\(name)): record it with TACTILE_RECORD_GOLDEN=1")
                continue
            }
            #expect(result.output == expected, "\(line) --help differs from \(name)")
        }
        // No golden text is left over from a command that is gone.
        let present = Set(
            (try? FileManager.default.contentsOfDirectory(atPath: Self.goldenFolder.path)) ?? [])
        #expect(present == expectedFiles, "stale: \(present.subtracting(expectedFiles))")
    }

    @Test func helpIsShownForHelpFlagsAnywhereAndNeverForMistakes() {
        #expect(run(["hanoi", "solve", "-h"]).code == 0)
        #expect(run(["help"]).output == run(["--help"]).output)
        let mistake = run(["hanoi", "sovle"])
        #expect(mistake.code == 2)
        #expect(mistake.output.isEmpty)
        #expect(mistake.errors.contains("sovle"))
    }
}
