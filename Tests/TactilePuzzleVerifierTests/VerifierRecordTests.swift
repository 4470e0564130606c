import Foundation
import PuzzleTestSupport
import TactileCore
import TactileCrypto
import TactilePuzzle
import Testing

@testable import TactilePuzzleImaging
@testable import TactilePuzzleVerifier

/// The verifier kept record by record, as the Redis store keeps it: the same operations give
/// the same outcomes as a verifier holding its whole state, and every record fails closed.
@Suite struct VerifierRecordTests {
    /// Records by name, driven the way the Redis store drives them: plan, read (and take),
    /// open, act, write back.
    struct RecordStore {
        let keys: VerifierRecords.Keys
        var policy = plumbingPolicy
        var records: [String: (bytes: [UInt8], expiresAt: Double)] = [:]

        init() throws { keys = try VerifierRecords.Keys(sealed: VerifierSeal.makeKey()) }

        mutating func run<R>(
            _ scope: VerifierScope, now: Double, _ body: (inout PuzzleVerifier) throws -> R
        ) throws -> R {
            let plan = VerifierRecords.plan(for: scope, keys: keys)
            var found: [String: [UInt8]] = [:]
            for name in plan.reads + plan.takes {
                if let record = records[name], record.expiresAt > now { found[name] = record.bytes }
            }
            for name in plan.takes { records[name] = nil }
            let opened = try VerifierRecords.open(
                keys: keys, scope: scope, records: found, policy: policy)
            var verifier = opened
            let result = try body(&verifier)
            for change in try VerifierRecords.changes(
                from: opened, to: verifier, keys: keys, now: now)
            {
                switch change {
                case .put(let name, let bytes, let expiresAt): records[name] = (bytes, expiresAt)
                case .remove(let name): records[name] = nil
                }
            }
            return result
        }
    }

    func register(
        _ store: inout RecordStore, _ puzzle: GeneratedPuzzle, client: String, now: Double
    )
        throws -> Result<PuzzleChallenge, IssueRefusal>
    {
        try store.run(.issuing(client: client), now: now) { verifier in
            do throws(IssueRefusal) {
                return .success(try verifier.register(puzzle, client: client, now: now))
            } catch { return .failure(error) }
        }
    }

    func check(
        _ store: inout RecordStore, id: String, at position: Point, puzzle: GeneratedPuzzle,
        client: String, now: Double
    ) throws -> CheckOutcome {
        let attempt = PuzzleAttempt(
            position: position, displayWidth: 640,
            track: humanTrack(from: puzzle.startPosition, to: position))
        return try store.run(.checking(puzzle: id, client: client), now: now) {
            $0.check(id: id, attempt: attempt, client: client, now: now)
        }
    }

    func redeem(_ store: inout RecordStore, _ token: String, key: String? = nil, now: Double)
        throws -> Result<TokenClaims, TokenError>
    {
        try store.run(.redeeming(token: token, idempotencyKey: key), now: now) { verifier in
            do throws(TokenError) {
                return .success(try verifier.redeemToken(token, now: now, idempotencyKey: key))
            } catch { return .failure(error) }
        }
    }

    @Test func recordsGiveTheSameOutcomesAsTheWholeState() throws {
        var store = try RecordStore()
        var whole = makeVerifier()
        let puzzle = try makePuzzle(seed: 5)
        let wrong = Point(x: puzzle.holePosition.x + 60, y: puzzle.holePosition.y)
        var now = 1000.0
        // Five failures lock the client out, in both.
        var verdicts: [String] = []
        var wholeVerdicts: [String] = []
        for _ in 0..<6 {
            now += 1
            switch try register(&store, puzzle, client: "a", now: now) {
            case .success(let challenge):
                verdicts.append(
                    try check(
                        &store, id: challenge.id, at: wrong, puzzle: puzzle, client: "a", now: now
                    )
                    .verdict(now: now).code)
            case .failure: verdicts.append("rate-limited")
            }
            do {
                let id = try whole.register(puzzle, client: "a", now: now).id
                let attempt = PuzzleAttempt(
                    position: wrong, displayWidth: 640,
                    track: humanTrack(from: puzzle.startPosition, to: wrong))
                wholeVerdicts.append(
                    whole.check(id: id, attempt: attempt, client: "a", now: now).verdict(now: now)
                        .code)
            } catch { wholeVerdicts.append("rate-limited") }
        }
        #expect(verdicts == Array(repeating: "not-passed", count: 5) + ["rate-limited"])
        #expect(verdicts == wholeVerdicts)
        // Another client is not affected by a's lockout.
        guard case .success(let challenge) = try register(&store, puzzle, client: "b", now: now)
        else {
            Issue.record("b was refused")
            return
        }
        let outcome = try check(
            &store, id: challenge.id, at: puzzle.holePosition, puzzle: puzzle, client: "b", now: now
        )
        guard case .passed(let receipt) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        // The puzzle was taken: a second check finds nothing.
        #expect(
            try check(
                &store, id: challenge.id, at: puzzle.holePosition, puzzle: puzzle, client: "b",
                now: now
            ).verdict(now: 0) == .expired)
        // After the lockout, a may try again.
        now += store.policy.lockoutDuration + 1
        #expect(try register(&store, puzzle, client: "a", now: now).isSuccess)

        // The token redeems once; a retry with the same idempotency key gets the same claims.
        let first = try redeem(&store, receipt.token, key: "k1", now: now)
        let claims = try first.get()
        #expect(try redeem(&store, receipt.token, key: "k1", now: now + 1).get() == claims)
        #expect(try redeem(&store, receipt.token, now: now + 2) == .failure(.alreadyUsed))
        #expect(
            try redeem(&store, receipt.token, key: "k2", now: now + 3) == .failure(.alreadyUsed))
        // A token from another verifier is refused and spends nothing.
        #expect(
            try redeem(&store, "pt2.e30." + String(repeating: "0", count: 64), now: now)
                == .failure(.badSignature))
    }

    @Test func everyRecordExpiresWhenNothingCanNeedIt() throws {
        var store = try RecordStore()
        let puzzle = try makePuzzle(seed: 6)
        guard
            case .success(let challenge) = try register(
                &store, puzzle, client: "203.0.113.9", now: 100)
        else {
            Issue.record("refused")
            return
        }
        let puzzleRecord = try #require(store.records["puzzle:\(challenge.id)"])
        #expect(puzzleRecord.expiresAt == 100 + store.policy.puzzleLifetime)
        let outcome = try check(
            &store, id: challenge.id, at: puzzle.holePosition, puzzle: puzzle,
            client: "203.0.113.9", now: 110
        )
        guard case .passed(let receipt) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(store.records["puzzle:\(challenge.id)"] == nil)
        _ = try redeem(&store, receipt.token, now: 111).get()
        let redeemed = try #require(store.records.first { $0.key.hasPrefix("redeemed:") })
        #expect(redeemed.value.expiresAt == 110 + store.policy.tokenLifetime + 120)
        let client = try #require(store.records.first { $0.key.hasPrefix("client:") })
        #expect(client.value.expiresAt == 110 + VerifierRecords.clientRetention(store.policy))
        // No record's name carries the client's name.
        #expect(store.records.keys.allSatisfy { !$0.contains("203.0.113.9") })
    }

    @Test func aDamagedOrMovedRecordFailsClosed() throws {
        var store = try RecordStore()
        let puzzle = try makePuzzle(seed: 7)
        let wrong = Point(x: puzzle.holePosition.x + 60, y: puzzle.holePosition.y)
        for now in [10.0, 11, 12, 13] {
            guard case .success(let challenge) = try register(&store, puzzle, client: "a", now: now)
            else {
                Issue.record("refused")
                return
            }
            _ = try check(
                &store, id: challenge.id, at: wrong, puzzle: puzzle, client: "a", now: now)
        }
        _ = try register(&store, puzzle, client: "b", now: 14)
        let names = store.records.keys.sorted()
        let clientA = VerifierRecords.plan(for: .issuing(client: "a"), keys: store.keys).reads[0]
        let clientB = VerifierRecords.plan(for: .issuing(client: "b"), keys: store.keys).reads[0]
        // Every bit of a's record (a client one failure short of a lockout), flipped.
        let original = try #require(store.records[clientA])
        for index in original.bytes.indices {
            for bit in 0..<8 {
                var damaged = store
                damaged.records[clientA]!.bytes[index] ^= UInt8(1 << bit)
                #expect(throws: VerifierStoreError.self) {
                    _ = try register(&damaged, puzzle, client: "a", now: 15)
                }
            }
        }
        // b's clean record moved under a's name is refused.
        var moved = store
        moved.records[clientA] = store.records[clientB]
        #expect(throws: VerifierStoreError.self) {
            _ = try register(&moved, puzzle, client: "a", now: 15)
        }
        // Sealed under another key: refused too.
        var rekeyed = try RecordStore()
        rekeyed.records = store.records
        let other = VerifierRecords.plan(for: .issuing(client: "a"), keys: rekeyed.keys).reads[0]
        rekeyed.records[other] = original
        #expect(throws: VerifierStoreError.self) {
            _ = try register(&rekeyed, puzzle, client: "a", now: 15)
        }
        #expect(names.count == 3)  // the two clients and b's waiting puzzle
    }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
