import Foundation
import TactileCommands
import TactilePuzzleStores
import Testing

@testable import TactilePuzzleVerifier

/// The README's captcha example works as written: `scripts/make-track.py` turns the
/// challenge `puzzle new` wrote and a place to drop the piece into a simulated hand's track;
/// `puzzle check` refuses it as a script's (a simulation is not a person), and with
/// `--skip-drag-model-for-tests yes` it passes at the hole, once, and not a piece's width away.
@Suite struct ExampleTrackTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/make-track.py").path

    /// Runs the script; returns the x it printed.
    func makeTrack(_ challenge: String, x: Int, seed: Int, out: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Self.script, challenge, "\(x)", "--seed", "\(seed)", "--out", out,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let printed = pipe.fileHandleForReading.readDataToEndOfFile()
        return String(decoding: printed, as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    @Test(arguments: [1, 2, 3]) func theReadmeExampleIsJudgedAndPassesWithoutTheModel(seed: Int)
        throws
    {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tactile-example-\(UUID())"
        ).path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let made = tactile("puzzle", "new", "--state", root + "/state", "--out", root + "/out")
        #expect(made.code == 0, "\(made.errors)")
        let id = String(made.lines.last!)
        let pending = try #require(
            try VerifierStore(directory: root + "/state").withVerifier { $0.state.pending[id] })
        let hole = Int(pending.answerX.rounded())

        // A piece's width off: the same kind of drag does not pass.
        let away = hole > 300 ? hole - 96 : hole + 96
        let missX = try makeTrack(
            root + "/out/challenge.json", x: away, seed: seed, out: root + "/miss.json")
        let miss = tactile(
            "puzzle", "check", "--state", root + "/state", "--id", id, "--x", missX, "--track",
            root + "/miss.json")
        #expect(miss.code == 1, "\(miss.output)")

        let made2 = tactile("puzzle", "new", "--state", root + "/state", "--out", root + "/out2")
        let id2 = String(made2.lines.last!)
        let pending2 = try #require(
            try VerifierStore(directory: root + "/state").withVerifier { $0.state.pending[id2] })
        let x = try makeTrack(
            root + "/out2/challenge.json", x: Int(pending2.answerX.rounded()), seed: seed,
            out: root + "/drag.json")
        let first = tactile(
            "puzzle", "check", "--state", root + "/state", "--id", id2, "--x", x, "--track",
            root + "/drag.json", "--skip-drag-model-for-tests", "yes")
        #expect(first.code == 0, "\(first.errors)")
        #expect(first.output.hasPrefix("pt2."))
        let again = tactile(
            "puzzle", "check", "--state", root + "/state", "--id", id2, "--x", x, "--track",
            root + "/drag.json")
        #expect(again.code == 1)

        // Judged, the simulated hand is turned away at the hole.
        let made3 = tactile("puzzle", "new", "--state", root + "/state", "--out", root + "/out3")
        let id3 = String(made3.lines.last!)
        let pending3 = try #require(
            try VerifierStore(directory: root + "/state").withVerifier { $0.state.pending[id3] })
        let x3 = try makeTrack(
            root + "/out3/challenge.json", x: Int(pending3.answerX.rounded()), seed: seed,
            out: root + "/drag3.json")
        let judged = tactile(
            "puzzle", "check", "--state", root + "/state", "--id", id3, "--x", x3, "--track",
            root + "/drag3.json")
        #expect(judged.code == 1, "\(judged.output)")
        let log = try String(contentsOfFile: root + "/state/verifier.log", encoding: .utf8)
        #expect(log.split(separator: "\n").last?.contains("looks automated") == true, "\(log)")
    }
}
