import Foundation
import TactileCairo
import TactileCore
import TactileCrypto
import TactilePuzzle
import TactilePuzzleSolvers
import TactilePuzzleVerifier
import Testing

/// The state directory: persistence across runs, permissions, failing closed; and the PNG
/// encoder the images go out through.
@Suite struct PuzzleStoreTests {
    func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("puzzle-\(UUID())").path
    }

    @Test func stateSurvivesBetweenRunsAndFilesArePrivate() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try VerifierStore(directory: directory)
        let puzzle = try makePuzzle(seed: 31)
        let id = try store.withVerifier { try $0.register(puzzle, client: "a", now: 10).id }
        // The answer is kept on the verifying side, in the state.
        let state = try JSONDecoder().decode(
            VerifierState.self,
            from: FileManager.default.contents(atPath: directory + "/state.json")!)
        #expect(state.pending[id]?.answerX == puzzle.holePosition.x)
        let attempt = PuzzleAttempt(
            position: puzzle.holePosition, displayWidth: 640,
            track: humanTrack(from: puzzle.startPosition, to: puzzle.holePosition))
        let outcome = try VerifierStore(directory: directory).withVerifier {
            $0.check(id: id, attempt: attempt, client: "a", now: 20)
        }
        guard case .passed(let token) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        // The key persisted: a later run validates the token, and redeems it once.
        try VerifierStore(directory: directory).withVerifier {
            _ = try $0.redeemToken(token, now: 21)
        }
        #expect(throws: TokenError.alreadyUsed) {
            try VerifierStore(directory: directory).withVerifier {
                _ = try $0.redeemToken(token, now: 22)
            }
        }
        for (file, mode) in [("key", 0o600), ("state.json", 0o600), ("", 0o700)] {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: directory + "/" + file)
            #expect((attributes[.posixPermissions] as! NSNumber).intValue == mode, "\(file)")
        }
        let key = FileManager.default.contents(atPath: directory + "/key")!
        #expect(key.count == 32)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(Set(leftovers) == ["key", "state.json", "lock"])
    }

    @Test func damagedStateFailsClosedAndIsLeftAlone() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try VerifierStore(directory: directory).withVerifier { _ in }
        let garbage = Data("{\"pending\": 12".utf8)
        try garbage.write(to: URL(fileURLWithPath: directory + "/state.json"))
        #expect(throws: VerifierStoreError.self) {
            try VerifierStore(directory: directory).withVerifier { _ in }
        }
        #expect(FileManager.default.contents(atPath: directory + "/state.json") == garbage)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: directory + "/key"))
        try FileManager.default.removeItem(atPath: directory + "/state.json")
        do {
            try VerifierStore(directory: directory).withVerifier { _ in }
            Issue.record("a damaged key was accepted")
        } catch let error as VerifierStoreError {
            #expect(error.message.contains("3 bytes, expected 32"))
        }
    }

    @Test func aFileIsNotADirectory() throws {
        let path = temporaryDirectory()
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: VerifierStoreError.self) { try VerifierStore(directory: path) }
    }

    @Test func pngRoundTripsThroughAnIndependentDecoder() throws {
        let puzzle = try makePuzzle(seed: 32)
        let directory = temporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var tiny = Bitmap(width: 3, height: 2, fill: Color(red: 1, green: 0, blue: 0, alpha: 0.5))
        tiny[1, 1] = .clear
        for (name, bitmap) in [
            ("background", puzzle.background), ("piece", puzzle.piece), ("tiny", tiny),
        ] {
            let path = directory + "/\(name).png"
            try Data(PNGEncoder.encode(bitmap)).write(to: URL(fileURLWithPath: path))
            #expect(try ImageLoader.load(path: path) == bitmap, "\(name)")
        }
    }

    @Test func gapFinderSolvesUntreatedHoles() throws {
        // An honest solver: with a plain hole, it should nearly always succeed.
        var hits = 0
        for seed in 40..<44 as Range<UInt64> {
            let p = try makePuzzle(seed: seed, treatment: .plain, decoys: 1)
            let guess = GapFinder.locate(
                background: p.background, piece: p.piece, axis: .horizontal,
                fixed: Int(p.startPosition.y))
            if abs(guess.x - p.holePosition.x) <= 8 { hits += 1 }
        }
        #expect(hits >= 3)
    }
}
