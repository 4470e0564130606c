// A verifier state (the JSON body of `state.json`): a state the store would accept (one with
// no implausibility) goes into a verifier, which issues one more puzzle, then checks every
// pending puzzle and redeems the tokens it hands out, so expiry, eviction, rate limits and
// lockouts all run on the decoded values. The same bytes, sealed as each kind of record the
// Redis store keeps, are opened as those records, and read as a token's nonce. Refusals are
// expected; a trap or a hang is a finding.

import Foundation
import FuzzDriver
import TactileCore
import TactilePuzzle
import TactilePuzzleImaging

@testable import TactilePuzzleVerifier

@_cdecl("FuzzVerifierState_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    tactile_fuzz_main(argc, argv)
}

private let key = [UInt8](repeating: 0x5A, count: 32)
/// The time every check happens at: 2023-11-14T22:13:20Z.
private let now = 1_700_000_000.0

/// A 1.2 s drag of 180 px that ends at (0, 0), slowing down and wavering on the way.
private let track = (0...60).map { i in
    let t = Double(i) / 60
    let eased = 1 - (1 - t) * (1 - t) * (1 - t)
    return PuzzleTrackPoint(
        x: 180 * (eased - 1), y: 1.5 * sin(5 * t) * (1 - t), time: 1.2 * t)
}

/// The default policy with its memory bounds cut to a few entries, so that the eviction code
/// runs on states small enough for the fuzzer to write.
private let policy: VerifierPolicy = {
    var policy = VerifierPolicy()
    policy.maximumPending = 4
    policy.maximumClients = 4
    policy.maximumRedeemed = 4
    // Attempts without a track are then judged on position alone (see `makeAttempt`).
    policy.requiresTrack = false
    return policy
}()

/// A puzzle to register against the decoded state, generated once.
private let puzzle: GeneratedPuzzle = {
    var random = SeededRandom(seed: 1)
    return try! PuzzleGenerator.generate(
        picture: ProceduralPicture.make(width: 160, height: 120, seed: 1),
        options: PuzzleOptions(width: 160, height: 120), using: &random)
}()

/// The attempts made in turn: on the answer without a track (judged on position alone, as
/// the policy above allows, so it passes and hands out a token), on the answer with the track
/// (judged by the trajectory rules too), and 50 pixels off without a track (a failure, so
/// failures count up to a lockout).
private func makeAttempt(_ kind: Int, answer: Point, imageWidth: Int) -> PuzzleAttempt {
    switch kind % 3 {
    case 0:
        return PuzzleAttempt(position: answer, displayWidth: Double(imageWidth), track: [])
    case 1:
        let moved = track.map {
            PuzzleTrackPoint(x: $0.x + answer.x, y: $0.y + answer.y, time: $0.time)
        }
        return PuzzleAttempt(position: answer, displayWidth: Double(imageWidth), track: moved)
    default:
        let miss = Point(x: answer.x + 50, y: answer.y + 50)
        return PuzzleAttempt(position: miss, displayWidth: Double(imageWidth), track: [])
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let json = Data(UnsafeBufferPointer(start: data, count: size))
    fuzzRecords(Array(json))
    guard let value = try? JSONValue.parse(Array(json)), let state = VerifierState(json: value),
        state.implausibility() == nil
    else { return 0 }
    guard
        var verifier = PuzzleVerifier(
            key: key, policy: policy, state: state, random: SeededRandom(seed: 1))
    else { fatalError("a 32-byte key was refused") }
    _ = try? verifier.register(puzzle, client: "fuzz", now: now)
    // Every puzzle as issued to "fuzz" (stores keep only a keyed digest of the client), so
    // each check gets past the owner test to the position and drag rules.
    let owner = verifier.owner("fuzz")
    for id in verifier.state.pending.keys { verifier.state.pending[id]?.client = owner }
    // Sorted, so that a reproducer replays the same checks in the same order.
    for (index, id) in verifier.state.pending.keys.sorted().enumerated() {
        guard let pending = verifier.state.pending[id] else { continue }
        let attempt = makeAttempt(
            index, answer: Point(x: pending.answerX, y: pending.answerY),
            imageWidth: pending.imageWidth)
        let outcome = verifier.check(id: id, attempt: attempt, client: "fuzz", now: now)
        if case .passed(let receipt) = outcome {
            _ = try? verifier.redeemToken(receipt.token, now: now)
            _ = try? verifier.redeemToken(receipt.token, now: now)
        }
        _ = verifier.limit(for: "fuzz", now: now)
    }
    return 0
}

/// The bytes as each kind of record, sealed as the store seals them, so that opening gets
/// past the seal to the decoding and the plausibility checks.
private let recordKeys = try! VerifierRecords.Keys(sealed: VerifierSeal.makeKey())

private func fuzzRecords(_ body: [UInt8]) {
    let id = String(repeating: "ab", count: 16)
    let text = String(decoding: body, as: UTF8.self)
    _ = TokenSigner.unverifiedNonce(text)
    let scopes: [VerifierScope] = [
        .issuing(client: "fuzz"), .checking(puzzle: id, client: "fuzz"), .peeking(puzzle: id),
        .redeeming(token: text, idempotencyKey: "k"), .inspecting(client: "fuzz"),
    ]
    for scope in scopes {
        let plan = VerifierRecords.plan(for: scope, keys: recordKeys)
        var records: [String: [UInt8]] = [:]
        for name in plan.reads + plan.takes {
            records[name] = VerifierRecords.seal(body: body, name: name, mac: recordKeys.mac)
        }
        if let opened = try? VerifierRecords.open(
            keys: recordKeys, scope: scope, records: records, policy: policy)
        {
            var verifier = opened
            _ = verifier.pendingPuzzle(id: id)
            _ = verifier.limit(for: "fuzz", now: now)
            _ = try? verifier.register(puzzle, client: "fuzz", now: now)
            _ = try? VerifierRecords.changes(from: opened, to: verifier, keys: recordKeys, now: now)
        }
    }
}
