import Foundation
import TactileCairo
import TactileCommands
import TactileCore
import TactilePuzzleSolvers
import TactilePuzzleStores
import TestSupport
import Testing

@testable import TactilePuzzleVerifier

/// `tactile puzzle new|check` and `tactile render puzzle`, end to end through `Tactile.run`.
@Suite struct PuzzleCommandTests {
    /// A fresh state directory and output directory, removed afterwards by the caller.
    struct Dirs {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tactile-puzzle-\(UUID())"
        ).path
        var state: String { root + "/state" }
        var out: String { root + "/out" }
        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    /// The answer and start the verifying side keeps (the test is the server).
    func answer(_ dirs: Dirs, id: String) throws -> (x: Int, y: Int) {
        let pending = try #require(try pendingPuzzle(dirs, id: id))
        return (Int(pending.answerX), Int(pending.answerY))
    }

    func pendingPuzzle(_ dirs: Dirs, id: String) throws -> VerifierState.Pending? {
        try VerifierStore(directory: dirs.state).withVerifier { $0.state.pending[id] }
    }

    /// Writes a hand-like track (`HumanDrag`) from the piece's start to near (`x`, `y`)
    /// and returns its path.
    func writeTrack(_ dirs: Dirs, id: String, toX x: Int, y: Int, seed: UInt64 = 1) throws
        -> String
    {
        let pending = try #require(try pendingPuzzle(dirs, id: id))
        var random = SeededRandom(seed: seed)
        let track = HumanDrag.track(
            from: Point(x: pending.startX, y: pending.startY),
            to: Point(x: Double(x), y: Double(y)),
            axis: pending.axis, using: &random)
        let items = track.map { "{\"x\": \($0.x), \"y\": \($0.y), \"t\": \($0.time * 1000)}" }
        let path = dirs.root + "/track-\(x)-\(seed).json"
        try FileManager.default.createDirectory(
            atPath: dirs.root, withIntermediateDirectories: true)
        try Data("[\(items.joined(separator: ","))]".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The operator's log.
    func log(_ dirs: Dirs) -> String {
        String(
            decoding: FileManager.default.contents(atPath: dirs.state + "/verifier.log") ?? Data(),
            as: UTF8.self)
    }

    func newPuzzle(_ dirs: Dirs, _ extra: String...) -> CommandRun {
        let arguments = ["puzzle", "new", "--state", dirs.state, "--out", dirs.out] + extra
        let output = CommandOutput()
        let errors = CommandOutput()
        let code = Tactile.run(arguments, output: output, errors: errors)
        return CommandRun(code: code, output: output.text, errors: errors.text)
    }

    @Test func trueAnswerWithAHumanTrackPassesOnceThenFails() throws {
        let dirs = Dirs()
        defer { dirs.remove() }
        let made = newPuzzle(dirs, "--seed", "5")
        #expect(made.code == 0, "\(made.errors)")
        let id = String(made.lines.last!)
        #expect(id.count == 32)
        let (x, y) = try answer(dirs, id: id)
        let track = try writeTrack(dirs, id: id, toX: x, y: y)
        let first = tactile(
            "puzzle", "check", "--state", dirs.state, "--id", id, "--x", "\(x)", "--y", "\(y)",
            "--track", track, "--skip-drag-model-for-tests", "yes")
        #expect(first.code == 0, "\(first.errors)")
        #expect(first.output.hasPrefix("pt2."))
        let second = tactile(
            "puzzle", "check", "--state", dirs.state, "--id", id, "--x", "\(x)", "--y", "\(y)",
            "--track", track)
        #expect(second.code == 1)
        #expect(second.errors.contains("expired: the puzzle is gone"), "\(second.errors)")
        #expect(log(dirs).contains("unknown puzzle"))
    }

    @Test func fourteenPixelsOffFails() throws {
        let dirs = Dirs()
        defer { dirs.remove() }
        let id = String(newPuzzle(dirs).lines.last!)
        let (x, y) = try answer(dirs, id: id)
        let track = try writeTrack(dirs, id: id, toX: x + 14, y: y)
        let run = tactile(
            "puzzle", "check", "--state", dirs.state, "--id", id, "--x", "\(x + 14)", "--track",
            track, "--skip-drag-model-for-tests", "yes")
        #expect(run.code == 1)
        // The caller learns only "not passed"; the operator's log has the rule.
        #expect(run.errors.contains("not passed"), "\(run.errors)")
        #expect(!run.errors.contains("hole"))
        #expect(
            log(dirs).contains("not-passed: the piece is not in the hole (14.0 px off)"),
            "\(log(dirs))")
    }

    @Test func expiredPuzzleFails() throws {
        let dirs = Dirs()
        defer { dirs.remove() }
        let id = String(newPuzzle(dirs).lines.last!)
        let (x, y) = try answer(dirs, id: id)
        let track = try writeTrack(dirs, id: id, toX: x, y: y)
        // Let the lifetime pass: move the expiry into the past, as two minutes would.
        try VerifierStore(directory: dirs.state).withVerifier {
            $0.state.pending[id]!.issuedAt = Date().timeIntervalSince1970 - 200
            $0.state.pending[id]!.expiresAt = Date().timeIntervalSince1970 - 80
        }
        let run = tactile(
            "puzzle", "check", "--state", dirs.state, "--id", id, "--x", "\(x)", "--track", track)
        #expect(run.code == 1)
        #expect(run.errors.contains("expired"))
    }

    @Test func threeSampleStraightTrackFails() throws {
        let dirs = Dirs()
        defer { dirs.remove() }
        let id = String(newPuzzle(dirs).lines.last!)
        let (x, y) = try answer(dirs, id: id)
        let path = dirs.root + "/bot.json"
        try Data(
            "[{\"x\":0,\"y\":\(y),\"t\":0},{\"x\":\(x / 2),\"y\":\(y),\"t\":100},{\"x\":\(x),\"y\":\(y),\"t\":200}]"
                .utf8
        ).write(to: URL(fileURLWithPath: path))
        let run = tactile(
            "puzzle", "check", "--state", dirs.state, "--id", id, "--x", "\(x)", "--track", path)
        #expect(run.code == 1)
        #expect(run.errors.contains("not passed"))
        #expect(!run.errors.contains("samples"), "the rule is not told to the caller")
        #expect(log(dirs).contains("the drag looks automated"), "\(log(dirs))")
        // No track at all fails too.
        let id2 = String(newPuzzle(dirs).lines.last!)
        let (x2, _) = try answer(dirs, id: id2)
        #expect(
            tactile("puzzle", "check", "--state", dirs.state, "--id", id2, "--x", "\(x2)").code == 1
        )
    }

    @Test func filesHoldTheImagesAndNoAnswer() throws {
        let dirs = Dirs()
        defer { dirs.remove() }
        let before = Date().timeIntervalSince1970
        let made = newPuzzle(dirs, "--shape", "circle", "--axis", "free", "--seed", "9")
        let after = Date().timeIntervalSince1970
        #expect(made.code == 0, "\(made.errors)")
        let background = try ImageLoader.load(path: dirs.out + "/background.jpg")
        let piece = try ImageLoader.load(path: dirs.out + "/piece.png")
        #expect(background.width == 640 && background.height == 360)
        #expect(piece.width == 96 && piece.height == 96)
        // Transparent corners, opaque middle: a circle.
        #expect(piece[0, 0].alpha == 0 && piece[48, 48].alpha == 1)
        let challenge =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: dirs.out + "/challenge.json")))
            as! [String: Any]
        #expect(challenge["axis"] as? String == "free")
        #expect(challenge["id"] as? String == String(made.lines.last!))
        #expect(challenge["pieceY"] == nil && challenge["pieceX"] == nil)
        // As the HTTP API says it: the images by name, the expiry in RFC 3339 (UTC).
        #expect(challenge["background"] as? String == "background.jpg")
        #expect(challenge["piece"] as? String == "piece.png")
        // Two minutes from when it was made, to the second (rounded down).
        let expiry = try #require(
            (challenge["expiresAt"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }
        ).timeIntervalSince1970
        #expect(
            expiry > before - 1 + 120 && expiry <= after + 120,
            "\(expiry) for a puzzle made between \(before) and \(after)")
        // A free puzzle needs --y.
        let run = tactile(
            "puzzle", "check", "--state", dirs.state, "--id", String(made.lines.last!), "--x", "3")
        #expect(run.code == 2)
        #expect(run.errors.contains("--y is needed for a free puzzle"))
        // So does a vertical one, whose answer is its y.
        let vertical = newPuzzle(dirs, "--axis", "vertical")
        let id = String(vertical.lines.last!)
        let (x, y) = try answer(dirs, id: id)
        let missing = tactile("puzzle", "check", "--state", dirs.state, "--id", id, "--x", "\(x)")
        #expect(missing.code == 2)
        #expect(missing.errors.contains("--y is needed for a vertical puzzle"))
        // Bad input did not use the puzzle up: the full answer still passes.
        let track = try writeTrack(dirs, id: id, toX: x, y: y)
        let good = tactile(
            "puzzle", "check", "--state", dirs.state, "--id", id, "--x", "\(x)", "--y", "\(y)",
            "--track", track, "--skip-drag-model-for-tests", "yes")
        #expect(good.code == 0, "\(good.errors)")
    }

    @Test func svgShapesComeFromAFile() throws {
        let dirs = Dirs()
        defer { dirs.remove() }
        try FileManager.default.createDirectory(
            atPath: dirs.root, withIntermediateDirectories: true)
        let svg = dirs.root + "/star.svg"
        try Data("M50 0 L61 35 L98 35 L68 57 L79 91 L50 70 L21 91 L32 57 L2 35 L39 35 Z".utf8)
            .write(to: URL(fileURLWithPath: svg))
        #expect(newPuzzle(dirs, "--shape", "svg:\(svg)").code == 0)
        try Data("M0 0 L".utf8).write(to: URL(fileURLWithPath: svg))
        let bad = newPuzzle(dirs, "--shape", "svg:\(svg)")
        #expect(bad.code == 2)
        #expect(bad.errors.contains("SVG path data is not valid"))
    }

    @Test func repeatedFailuresLockOutWithExitThree() throws {
        let dirs = Dirs()
        defer { dirs.remove() }
        let ids = (0..<6).map { _ in String(newPuzzle(dirs).lines.last ?? "") }
        let codes = ids.map {
            tactile("puzzle", "check", "--state", dirs.state, "--id", $0, "--x", "1").code
        }
        // Five misses in a row lock the client out for a minute.
        #expect(codes == [1, 1, 1, 1, 1, 3])
        let refused = newPuzzle(dirs)
        #expect(refused.code == 3)
        #expect(refused.errors.contains("try again in"))
    }

    @Test func damagedStateExitsFour() throws {
        let dirs = Dirs()
        defer { dirs.remove() }
        let id = String(newPuzzle(dirs).lines.last!)
        try Data("not json".utf8).write(to: URL(fileURLWithPath: dirs.state + "/state.json"))
        let run = tactile("puzzle", "check", "--state", dirs.state, "--id", id, "--x", "1")
        #expect(run.code == 4)
        #expect(run.errors.contains("damaged"))
        #expect(newPuzzle(dirs).code == 4)
    }

    @Test(arguments: [
        (["puzzle", "check", "--state", "/tmp/x", "--id", "xyz", "--x", "1"], "--id must be 32"),
        (
            [
                "puzzle", "check", "--state", "/tmp/x", "--id", String(repeating: "a", count: 32),
                "--x", "left",
            ], "--x must be a number"
        ),
        (
            ["puzzle", "check", "--id", String(repeating: "a", count: 32), "--x", "1"],
            "missing --state"
        ),
        (
            ["puzzle", "new", "--state", "/tmp/x", "--out", "/tmp/y", "--axis", "diagonal"],
            "--axis must be one of horizontal, vertical, free"
        ),
        (
            ["puzzle", "new", "--state", "/tmp/x", "--out", "/tmp/y", "--shape", "star"],
            "--shape must be one of classic, circle, square, svg:FILE"
        ),
        (
            ["puzzle", "new", "--state", "/tmp/x", "--out", "/tmp/y", "--seed", "-4"],
            "--seed must be a whole number"
        ),
        (
            [
                "puzzle", "new", "--state", "/tmp/x", "--out", "/tmp/y", "--image",
                "/nonexistent.jpg",
            ], "cannot read --image"
        ),
        (["puzzle", "fly"], "unknown sub-command"),
    ])
    func badInputExitsTwo(arguments: [String], message: String) {
        let output = CommandOutput()
        let errors = CommandOutput()
        #expect(Tactile.run(arguments, output: output, errors: errors) == 2)
        #expect(errors.text.contains(message), "stderr was: \(errors.text)")
    }

    @Test func badTrackFilesExitTwo() throws {
        let dirs = Dirs()
        defer { dirs.remove() }
        let id = String(newPuzzle(dirs).lines.last!)
        let path = dirs.root + "/track.json"
        try Data("[{\"x\": 1}]".utf8).write(to: URL(fileURLWithPath: path))
        let run = tactile(
            "puzzle", "check", "--state", dirs.state, "--id", id, "--x", "1", "--track", path)
        #expect(run.code == 2)
        #expect(run.errors.contains("expected a JSON array"))
        // Bad input did not use up the puzzle.
        let (x, y) = try answer(dirs, id: id)
        let good = tactile(
            "puzzle", "check", "--state", dirs.state, "--id", id, "--x", "\(x)", "--track",
            try writeTrack(dirs, id: id, toX: x, y: y), "--skip-drag-model-for-tests", "yes")
        #expect(good.code == 0, "\(good.errors)")
    }

    @Test func renderShowsTheSnap() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tactile-\(UUID()).png"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = tactile(
            "render", "puzzle", "--out", path, "--size", "400x300", "--seconds", "2.4")
        #expect(run.code == 0, "\(run.errors)")
        let image = try ImageLoader.load(path: path)
        #expect(image.width == 400 && image.height == 300)
    }
}

/// `tactile puzzle redeem` and what `--seed` may and may not fix.
@Suite struct PuzzleRedeemCommandTests {
    let tests = PuzzleCommandTests()

    @Test func aTokenRedeemsOnceAndForgeriesNever() throws {
        let dirs = PuzzleCommandTests.Dirs()
        defer { dirs.remove() }
        let id = String(tests.newPuzzle(dirs).lines.last!)
        let (x, y) = try tests.answer(dirs, id: id)
        let pass = tactile(
            "puzzle", "check", "--state", dirs.state, "--id", id, "--x", "\(x)", "--track",
            try tests.writeTrack(dirs, id: id, toX: x, y: y), "--skip-drag-model-for-tests",
            "yes")
        #expect(pass.code == 0, "\(pass.errors)")
        let token = pass.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let altered = alteringClaim(
            of: token, "expiresAt", to: Date().timeIntervalSince1970 + 86_400)
        let forged = tactile("puzzle", "redeem", "--state", dirs.state, altered)
        #expect(forged.code == 1)
        #expect(forged.errors.contains("forged or altered"), "\(forged.errors)")
        let first = tactile(input: token + "\n", ["puzzle", "redeem", "--state", dirs.state, "-"])
        #expect(first.code == 0, "\(first.errors)")
        #expect(first.output.contains("puzzle \(id)"))
        let second = tactile("puzzle", "redeem", "--state", dirs.state, token)
        #expect(second.code == 1)
        #expect(second.errors.contains("already used"))
    }

    @Test func aSeedFixesThePictureButNeverTheAnswer() throws {
        var answers: Set<Int> = []
        for _ in 0..<4 {
            let dirs = PuzzleCommandTests.Dirs()
            defer { dirs.remove() }
            let id = String(tests.newPuzzle(dirs, "--seed", "5").lines.last!)
            answers.insert(try tests.answer(dirs, id: id).x)
        }
        #expect(answers.count > 1, "the same seed gave the same answer every time")
    }
}
