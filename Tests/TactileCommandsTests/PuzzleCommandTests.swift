import Foundation
import TactileCairo
import TactileCommands
import Testing

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

    /// The answer the verifying side keeps, read from its state (the test is the server).
    func answer(_ dirs: Dirs, id: String) throws -> (x: Int, y: Int) {
        let data = try Data(contentsOf: URL(fileURLWithPath: dirs.state + "/state.json"))
        let state = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let puzzle = (state["pending"] as! [String: Any])[id] as! [String: Any]
        return (
            (puzzle["answerX"] as! NSNumber).intValue, (puzzle["answerY"] as! NSNumber).intValue
        )
    }

    /// Writes a hand-like track ending at `x` (minimum-jerk easing, wobble across) and
    /// returns its path.
    func writeTrack(_ dirs: Dirs, toX x: Int, y: Int, samples: Int = 55) throws -> String {
        var items: [String] = []
        var t = 0.0
        for i in 0..<samples {
            let u = Double(i) / Double(samples - 1)
            let s = u * u * u * (10 - 15 * u + 6 * u * u)
            let wobble = 1.5 * sin(Double(i) * 0.4)
            items.append("{\"x\": \(Double(x) * s), \"y\": \(Double(y) + wobble), \"t\": \(t)}")
            t += 16 + Double(i % 3)
        }
        let path = dirs.root + "/track-\(x)-\(samples).json"
        try Data("[\(items.joined(separator: ","))]".utf8).write(to: URL(fileURLWithPath: path))
        return path
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
        let track = try writeTrack(dirs, toX: x, y: y)
        let first = tactile(
            "puzzle", "check", "--state", dirs.state, "--id", id, "--x", "\(x)", "--y", "\(y)",
            "--track", track)
        #expect(first.code == 0, "\(first.errors)")
        #expect(first.output.hasPrefix("pt1.\(id)."))
        let second = tactile(
            "puzzle", "check", "--state", dirs.state, "--id", id, "--x", "\(x)", "--y", "\(y)",
            "--track", track)
        #expect(second.code == 1)
        #expect(second.errors.contains("unknown puzzle"))
    }

    @Test func fourteenPixelsOffFails() throws {
        let dirs = Dirs()
        defer { dirs.remove() }
        let id = String(newPuzzle(dirs).lines.last!)
        let (x, y) = try answer(dirs, id: id)
        let track = try writeTrack(dirs, toX: x + 14, y: y)
        let run = tactile(
            "puzzle", "check", "--state", dirs.state, "--id", id, "--x", "\(x + 14)", "--track",
            track)
        #expect(run.code == 1)
        #expect(run.errors.contains("not in the hole"))
    }

    @Test func expiredPuzzleFails() throws {
        let dirs = Dirs()
        defer { dirs.remove() }
        let id = String(newPuzzle(dirs).lines.last!)
        let (x, y) = try answer(dirs, id: id)
        // Let the lifetime pass: move the expiry into the past, as two minutes would.
        let path = dirs.state + "/state.json"
        var state =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
            as! [String: Any]
        var pending = state["pending"] as! [String: Any]
        var puzzle = pending[id] as! [String: Any]
        puzzle["expiresAt"] = Date().timeIntervalSince1970 - 1
        pending[id] = puzzle
        state["pending"] = pending
        try JSONSerialization.data(withJSONObject: state).write(to: URL(fileURLWithPath: path))
        let run = tactile(
            "puzzle", "check", "--state", dirs.state, "--id", id, "--x", "\(x)", "--track",
            try writeTrack(dirs, toX: x, y: y))
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
        #expect(run.errors.contains("too few samples"))
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
        let made = newPuzzle(dirs, "--shape", "circle", "--axis", "free", "--seed", "9")
        #expect(made.code == 0, "\(made.errors)")
        let background = try ImageLoader.load(path: dirs.out + "/background.png")
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
        var items: [String] = []
        for i in 0..<55 {
            let u = Double(i) / 54
            let s = u * u * u * (10 - 15 * u + 6 * u * u)
            items.append(
                "{\"x\": \(Double(x) + sin(Double(i) * 0.4)), \"y\": \(Double(y) * s), \"t\": \(Double(i) * 17)}"
            )
        }
        let track = dirs.root + "/vertical.json"
        try Data("[\(items.joined(separator: ","))]".utf8).write(to: URL(fileURLWithPath: track))
        let good = tactile(
            "puzzle", "check", "--state", dirs.state, "--id", id, "--x", "\(x)", "--y", "\(y)",
            "--track", track)
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
            try writeTrack(dirs, toX: x, y: y))
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
