import Foundation
import PuzzleTestSupport
import Synchronization
import TactileCore
import TactilePuzzle
import TactilePuzzleSolvers
@_spi(AnswerReveal) import TactilePuzzleVerifier
import TestSupport
import Testing

@testable import TactilePuzzleService
@testable import TactilePuzzleStores

/// What the service's suites share: two sites, a log, a memory backend, a service on them
/// (trusting `10.0.0.1` as a proxy), and a person's drag into a challenge's hole.
protocol ServiceTesting {
    /// The lines the service logged.
    var log: TestLog { get }
    /// Where the service keeps its verifier.
    var backend: MemoryBackend { get }
}

extension ServiceTesting {
    var site: ServiceSite {
        ServiceSite(
            sitekey: "site-one-key", secret: "secret-one-0123456789", hostnames: ["example.com"],
            proofOfWorkDifficulty: 16)
    }

    var other: ServiceSite {
        ServiceSite(
            sitekey: "site-two-key", secret: "secret-two-0123456789", hostnames: ["other.org"],
            proofOfWorkDifficulty: nil)
    }

    /// A service on both sites and ``backend``, logging to ``log``.
    var service: CaptchaService {
        CaptchaService(
            configuration: .init(
                sites: [site, other], policy: plumbingPolicy, trustedProxies: ["10.0.0.1"]),
            backend: backend, log: { [log] in log.append($0) })
    }

    /// A challenge, and a hand-like drag into its hole, as the widget would send it.
    func challengeAndDrag(
        _ service: CaptchaService, seed: UInt64 = 1, off: Double = 0,
        store: (any VerifierBackend)? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (id: String, answer: [String: Any]) {
        let backend = store ?? backend
        let made = post(service, "/v1/challenges", ["sitekey": site.sitekey, "action": "signup"])
        #expect(made.status == 201, sourceLocation: sourceLocation)
        let challenge = json(made)
        let id = try #require(challenge["id"] as? String, sourceLocation: sourceLocation)
        let hole = try #require(
            try backend.withVerifier(.peeking(puzzle: id), now: Date().timeIntervalSince1970) {
                $0.testingAnswer(id: id)
            }, sourceLocation: sourceLocation)
        let start = Point(x: 0, y: Double(challenge["pieceY"] as! Int))
        var random = SeededRandom(seed: seed)
        // `off` from the hole, the other way when that would be past the slider's end (where
        // the piece stops, so no track could end there).
        let far = Double((challenge["imageWidth"] as! Int) - (challenge["pieceWidth"] as! Int))
        let target = Point(x: hole.x + off <= far ? hole.x + off : hole.x - off, y: start.y)
        let track = HumanDrag.track(from: start, to: target, axis: .horizontal, using: &random)
        let samples = track.map { ["x": $0.x, "y": $0.y, "t": $0.time * 1000] }
        var answer: [String: Any] = ["x": track.last!.x, "y": start.y, "track": samples]
        if let price = challenge["proofOfWork"] as? [String: Any] {
            answer["proofOfWork"] = ["nonce": try paying(price, sourceLocation: sourceLocation)]
        }
        return (id, answer)
    }
}

/// The lines a service logged, from any thread.
final class TestLog: Sendable {
    private let kept = Mutex<[String]>([])

    func append(_ line: String) { kept.withLock { $0.append(line) } }

    /// Every line, oldest first.
    var lines: [String] { kept.withLock { $0 } }

    /// Every line, joined by newlines.
    var text: String { lines.joined(separator: "\n") }
}
