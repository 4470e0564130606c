import Foundation
import PuzzleTestSupport
import Testing

@testable import TactileCore
@testable import TactilePuzzleVerifier

/// The verifier's reading of a proof-of-work answer against the table the widget's hashing is
/// tested with too (`Tests/Shared/proof-of-work-cases.json`), whose verdicts Python's hashlib
/// decided; and the price's split into several smaller puzzles.
@Suite struct ProofOfWorkAnswerTests {
    static let tablePath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Shared/proof-of-work-cases.json").path

    @Test func everyCaseOfTheTable() throws {
        let bytes = try #require(FileManager.default.contents(atPath: Self.tablePath))
        let cases = try #require(try JSONValue.parse(Array(bytes))["cases"]?.array)
        #expect(cases.count >= 20)
        var verdicts: Set<Bool> = []
        for entry in cases {
            let challenge = ProofOfWorkChallenge(
                salt: try #require(entry["salt"]?.string),
                difficulty: try #require(entry["difficulty"]?.number.flatMap(Int.init(exactly:))),
                parts: try #require(entry["parts"]?.number.flatMap(Int.init(exactly:))))
            let solved = try #require(entry["solved"]?.bool)
            verdicts.insert(solved)
            #expect(
                challenge.isSolved(
                    by: try #require(entry["answer"]?.string),
                    extraBits: try #require(entry["extraBits"]?.number.flatMap(Int.init(exactly:))))
                    == solved,
                "\(entry["note"]?.string ?? "")")
        }
        #expect(verdicts == [true, false])
    }

    @Test(arguments: [(22, 16, 18), (16, 16, 12), (5, 16, 1), (4, 1, 4), (1, 1, 1)])
    func aPriceIsOfferedInSixteenParts(difficulty: Int, parts: Int, partDifficulty: Int) {
        let work = ProofOfWorkChallenge.priced(salt: "s", difficulty: difficulty)
        #expect(work.difficulty == difficulty)
        #expect(work.parts == parts)
        #expect(work.partDifficulty == partDifficulty)
        #expect(work.hasValidParts || parts == 1)
    }

    @Test func eitherFormPaysAndNeitherPaysLess() {
        let work = ProofOfWorkChallenge(salt: "c2FsdA", difficulty: 9, parts: 16)
        let inParts = work.solveInParts()
        #expect(work.isSolved(by: inParts))
        #expect(work.isSolved(by: work.solve()))
        let nonces = inParts.split(separator: ",").map(String.init)
        #expect(nonces.count == 16)
        #expect(!work.isSolved(by: nonces.dropLast().joined(separator: ",")))
        // A part alone is not the whole price, unless it happens to carry all its bits.
        #expect(
            nonces.contains { work.isSolved(by: $0) }
                == nonces.contains { work.zeroBits(of: $0) >= 9 })
        let deeper = work.solveInParts(extraBits: ProofOfWorkChallenge.aloneSurcharge)
        #expect(work.isSolved(by: deeper, extraBits: ProofOfWorkChallenge.aloneSurcharge))
        #expect(work.isSolved(by: deeper))
    }

    /// The app's search: the price, then the deeper price when it comes within the grace.
    @Test func payingInPartsGoesOnToTheDeeperPriceWithinItsGrace() {
        let work = ProofOfWorkChallenge(salt: "c2FsdA", difficulty: 12, parts: 16)
        let alone = ProofOfWorkChallenge.aloneSurcharge
        let patient = work.payInParts(grace: .infinity) { 0 }
        #expect(work.isSolved(by: patient, extraBits: alone))
        // A clock that leaps an hour each time it is read: no grace left once the price is paid.
        var hours = 0.0
        let hurried = work.payInParts(grace: 1) {
            hours += 3600
            return hours
        }
        #expect(work.isSolved(by: hurried))
        #expect(hurried == work.solveInParts())
        #expect(!work.isSolved(by: hurried, extraBits: alone))
    }

    /// The search counts its nonces' digits in place: across every carry, including into one
    /// more digit, each nonce's count of zero bits is that of its decimal text hashed whole.
    @Test(arguments: [0, 9_990, 999_990, 9_999_999_999_999_999_990] as [UInt64])
    func theSearchHashesEveryNonceAsItsText(from first: UInt64) {
        let work = ProofOfWorkChallenge(salt: "c2FsdA", difficulty: 12)
        let hits = ProofOfWorkChallenge.scan(
            Array("c2FsdA:".utf8), from: first, count: 20, atLeast: 0)
        #expect(hits.map(\.nonce) == Array(first..<first + 20))
        for hit in hits { #expect(hit.zeros == work.zeroBits(of: String(hit.nonce))) }
    }

    /// On one thread or several, the search finds the same nonces in the same order.
    @Test func theSearchFindsTheSameOnAnyNumberOfThreads() throws {
        let work = ProofOfWorkChallenge(salt: "c2FsdA", difficulty: 12)
        func first(_ count: Int, threads: Int) -> [UInt64] {
            var found: [UInt64] = []
            work.search(atLeast: 10, threads: threads) { hits in
                found += hits.map(\.nonce)
                return found.count >= count
            }
            return Array(found.prefix(count))
        }
        let alone = first(40, threads: 1)
        #expect(alone == first(40, threads: 3))
        // None skipped: every nonce up to the last one found, hashed one at a time.
        let last = try #require(alone.last)
        #expect(alone == (0...last).filter { work.zeroBits(of: String($0)) >= 10 })
    }
}
