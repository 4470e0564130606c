import Foundation
import PuzzleTestSupport
import TactileCairo
import TactileCore
import TactileCrypto
import TactilePuzzle
import TactilePuzzleSolvers
import TactilePuzzleStores
import Testing

@testable import TactilePuzzleImaging
@testable import TactilePuzzleVerifier

/// The state directory: persistence across runs, permissions, failing closed.
@Suite struct DirectoryStoreTests {
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
        let answer = try store.withVerifier { $0.state.pending[id]?.answerX }
        #expect(answer == puzzle.holePosition.x)
        let attempt = PuzzleAttempt(
            position: puzzle.holePosition, displayWidth: 640,
            track: humanTrack(from: puzzle.startPosition, to: puzzle.holePosition))
        let outcome = try VerifierStore(directory: directory).withVerifier(policy: plumbingPolicy) {
            $0.check(id: id, attempt: attempt, client: "a", now: 20)
        }
        guard case .passed(let receipt) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        // The key persisted: a later run validates the token, and redeems it once.
        try VerifierStore(directory: directory).withVerifier {
            _ = try $0.redeemToken(receipt.token, now: 21)
        }
        #expect(throws: TokenError.alreadyUsed) {
            try VerifierStore(directory: directory).withVerifier {
                _ = try $0.redeemToken(receipt.token, now: 22)
            }
        }
        for (file, mode) in [("key", 0o600), ("state.json", 0o600), ("", 0o700)] {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: directory + "/" + file)
            #expect((attributes[.posixPermissions] as! NSNumber).intValue == mode, "\(file)")
        }
        let key = FileManager.default.contents(atPath: directory + "/key")!
        #expect(key.count == 72)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(Set(leftovers) == ["key", "state.json", "lock"])
    }

    /// A directory with a puzzle, a client at 4 failures (one short of a lockout) and a
    /// redeemed token: every limit a damaged store could lift.
    func populatedStore() throws -> (directory: String, key: [UInt8], state: [UInt8]) {
        let directory = temporaryDirectory()
        let store = try VerifierStore(directory: directory)
        let puzzle = try makePuzzle(seed: 33)
        try store.withVerifier { verifier in
            for k in 0..<4 {
                let id = try verifier.register(puzzle, client: "a", now: 10 + Double(k)).id
                _ = verifier.check(
                    id: id, attempt: PuzzleAttempt(position: .zero, displayWidth: 640, track: []),
                    client: "a", now: 10 + Double(k))
            }
            _ = try verifier.register(puzzle, client: "a", now: 20)
        }
        let key = Array(FileManager.default.contents(atPath: directory + "/key")!)
        let state = Array(FileManager.default.contents(atPath: directory + "/state.json")!)
        return (directory, key, state)
    }

    func refuses(
        _ directory: String, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            try VerifierStore(directory: directory).withVerifier { _ in }
            Issue.record("accepted: \(comment)", sourceLocation: sourceLocation)
        } catch let error as VerifierStoreError {
            #expect(!error.isBadPath, "\(comment)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(comment): \(error)", sourceLocation: sourceLocation)
        }
    }

    func put(_ bytes: [UInt8], _ path: String) throws {
        try FileAccess.write(bytes, to: path, permissions: 0o600)
    }

    /// A read (a health check, a look at a puzzle) leaves the state file as it was: with many
    /// puzzles pending, a write per request would cost more than the request.
    @Test func onlyAChangeIsWritten() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try VerifierStore(directory: directory)
        let puzzle = try makePuzzle(seed: 32)
        let id = try store.withVerifier { try $0.register(puzzle, client: "a", now: 10).id }
        /// The file's inode and modification time (an inode alone may be reused).
        func identity() throws -> String {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: directory + "/state.json")
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(attributes[.systemFileNumber] ?? "?") \(modified)"
        }
        let before = try identity()
        _ = try store.withVerifier { _ in true }
        _ = try store.withVerifier { $0.state.pending[id]?.answerX }
        let after = try identity()
        // An atomic write replaces the file: a new inode, written later.
        #expect(before == after, "a read rewrote the state")
        usleep(10_000)
        _ = try store.withVerifier { try $0.register(puzzle, client: "b", now: 11) }
        #expect(try identity() != after, "a change was not written")
    }

    @Test func everyBitFlipAndTruncationIsRefused() throws {
        let (directory, key, state) = try populatedStore()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (name, original) in [("state.json", state), ("key", key)] {
            let path = directory + "/" + name
            var accepted = 0
            for bit in 0..<(original.count * 8) {
                var flipped = original
                flipped[bit / 8] ^= 1 << UInt8(bit % 8)
                try put(flipped, path)
                if (try? VerifierStore(directory: directory).withVerifier { _ in }) != nil {
                    accepted += 1
                }
            }
            for length in 0..<original.count {
                try put(Array(original.prefix(length)), path)
                if (try? VerifierStore(directory: directory).withVerifier { _ in }) != nil {
                    accepted += 1
                }
            }
            #expect(accepted == 0, "\(name): \(accepted) damaged versions accepted")
            try put(original, path)
        }
        // Untouched, it still opens.
        try VerifierStore(directory: directory).withVerifier { _ in }
    }

    @Test func deletingEitherFileFailsClosed() throws {
        for name in ["key", "state.json"] {
            let (directory, _, _) = try populatedStore()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try FileManager.default.removeItem(atPath: directory + "/" + name)
            refuses(directory, "without \(name)")
            #expect(!FileManager.default.fileExists(atPath: directory + "/" + name), "regenerated")
        }
    }

    @Test func deletingBothFilesOfAUsedDirectoryFailsClosed() throws {
        let (directory, _, _) = try populatedStore()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try VerifierStore(directory: directory)
        try store.log("a check happened")
        for name in ["key", "state.json"] {
            try FileManager.default.removeItem(atPath: directory + "/" + name)
        }
        refuses(directory, "a used directory without its key and state")
        // A fresh directory with only its lock starts afresh.
        try FileManager.default.removeItem(atPath: directory + "/verifier.log")
        try VerifierStore(directory: directory).withVerifier { _ in }
    }

    @Test func looseModesFailClosed() throws {
        for (name, mode) in [("key", 0o640), ("state.json", 0o604), ("", 0o750), ("", 0o707)] {
            let (directory, _, _) = try populatedStore()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            #expect(chmod(directory + "/" + name, mode_t(mode)) == 0)
            refuses(directory, "\(name) at mode \(String(mode, radix: 8))")
        }
    }

    @Test func aStateFromAnotherKeyIsRefused() throws {
        let (first, _, state) = try populatedStore()
        let (second, _, _) = try populatedStore()
        defer {
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        try put(state, second + "/state.json")
        refuses(second, "a state authenticated under another key")
    }

    @Test func aLockoutSurvivesAClockSetBack() throws {
        let (directory, _, _) = try populatedStore()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try VerifierStore(directory: directory)
        let puzzle = try makePuzzle(seed: 34)
        // The fifth failure locks "a" out for a minute, from t = 30.
        let outcome = try store.withVerifier { verifier in
            let id = try verifier.register(puzzle, client: "a", now: 30).id
            return verifier.check(
                id: id, attempt: PuzzleAttempt(position: .zero, displayWidth: 640, track: []),
                client: "a", now: 30)
        }
        #expect(outcome.verdict(now: 0) == .notPassed)
        // The clock goes back a year: still locked, and never for more than a minute.
        let limit = try store.withVerifier { $0.limit(for: "a", now: 30 - 31_536_000) }
        let until = try #require(limit)
        #expect(until > 30 - 31_536_000)
        #expect(until - (30 - 31_536_000) <= VerifierPolicy().lockoutDuration)
    }

    @Test func aFileIsNotADirectory() throws {
        let path = temporaryDirectory()
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: VerifierStoreError.self) { try VerifierStore(directory: path) }
    }
}
