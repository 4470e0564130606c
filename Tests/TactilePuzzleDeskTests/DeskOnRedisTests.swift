import Foundation
@_spi(Testing) import PuzzleTestSupport
import Synchronization
import TactileCore
import TactilePuzzle
import TactilePuzzleDesk
@_spi(Testing) import TactilePuzzleStores
import TactilePuzzleVerifier
import TestSupport
import Testing

/// An answer is one step of a shared Redis: the same drag sent to two instances at once
/// passes once, on an in-memory Redis where another instance's answer slips in between a read
/// and a commit, and on a real `redis-server` with answers racing over real connections.
@Suite(.serialized) struct DeskOnRedisTests {
    let clock = ManualClock(1_800_000_000)
    let redis: InMemoryRedis

    init() {
        redis = InMemoryRedis(clock: clock)
    }

    /// A backend on the in-memory Redis whose wait for a busy record moves the clock.
    func backend() -> RedisBackend {
        redis.backend(clock: clock)
    }

    /// The same drag sent to two instances at once, for two puzzles: the second to commit
    /// finds that a drag came into the list it read and runs again under the lock, where it
    /// is a replay. Only one passes: on the one-script path (A made its puzzle), and under
    /// the lock (B made both puzzles, so A has no copy of them).
    @Test(arguments: [false, true])
    func theSameDragSentToTwoInstancesAtOncePassesOnce(underTheLock: Bool) throws {
        let (a, b) = (backend(), backend())
        let deskA = CaptchaDesk(configuration: .init(policy: plumbingPolicy), store: a)
        let deskB = CaptchaDesk(configuration: .init(policy: plumbingPolicy), store: b)
        let puzzle = try GeneratedPuzzleFixture.make()
        let none = ChallengeImages(background: [], backgroundType: "", piece: [])
        let now = clock.now
        let idA = try (underTheLock ? deskB : deskA).register(
            puzzle, client: "x", site: nil, surcharge: 0, images: none, now: now
        ).get().challenge.id
        let idB = try deskB.register(
            puzzle, client: "y", site: nil, surcharge: 0, images: none, now: now
        ).get().challenge.id
        let end = Point(x: puzzle.holePosition.x, y: puzzle.startPosition.y)
        let answer = DeskAnswer(
            position: end, track: humanTrack(from: puzzle.startPosition, to: end, seed: 3))
        // B's whole answer runs after A has read the lists and before A commits.
        let second = Mutex<CaptchaDesk.Answered?>(nil)
        redis.interrupt(before: .script(underTheLock ? "commit" : "commitIfUnchanged")) {
            let answered = try? deskB.answer(answer, to: idB, client: "y", now: now + 1)
            second.withLock { $0 = answered }
        }
        _ = redis.takeTrips()
        let first = try deskA.answer(answer, to: idA, client: "x", now: now + 1)
        #expect(second.withLock { $0?.outcome.isPassed } == true)
        #expect(first.outcome == .failed(.machineLike(.replayed)))
        // A's commit is refused; under the lock, it reads the lists again and commits (its
        // one-script path goes to the lock first). B's one script is left out.
        let scriptsOfA = redis.takeTrips().scripts.filter { $0 != "commitIfUnchanged" }
        #expect(
            scriptsOfA
                == (underTheLock
                    ? ["lockAndRead", "commit", "commit"] : ["lockAndRead", "commit"]))
    }

    /// The same drag sent at once to eight puzzles, made half on each of two instances, by
    /// eight clients: the memory's read, the check and the memory's write are one step of
    /// Redis's scripts, so it passes once.
    @Test func theSameDragSentToManyPuzzlesAtOncePassesOnce() throws {
        let server = try RedisServer()
        defer { server.stop() }
        let desks = try (0..<2).map { _ in
            CaptchaDesk(
                configuration: .init(policy: plumbingPolicy),
                store: try RedisBackend(
                    url: server.url, policy: plumbingPolicy))
        }
        let puzzle = try GeneratedPuzzleFixture.make()
        let none = ChallengeImages(background: [], backgroundType: "", piece: [])
        let now = Date().timeIntervalSince1970
        let ids = try (0..<8).map { index in
            try desks[index % 2].register(
                puzzle, client: "c\(index)", site: nil, surcharge: 0, images: none, now: now
            ).get().challenge.id
        }
        let end = Point(x: puzzle.holePosition.x, y: puzzle.startPosition.y)
        let answer = DeskAnswer(
            position: end, track: humanTrack(from: puzzle.startPosition, to: end, seed: 4))
        let outcomes = Mutex<[CheckOutcome]>([])
        DispatchQueue.concurrentPerform(iterations: ids.count) { index in
            let answered = try? desks[index % 2].answer(
                answer, to: ids[index], client: "c\(index)", now: now + 1)
            if let answered { outcomes.withLock { $0.append(answered.outcome) } }
        }
        let all = outcomes.withLock { $0 }
        #expect(all.count == 8)
        #expect(all.filter(\.isPassed).count == 1, "\(all)")
        #expect(all.filter { $0 == .failed(.machineLike(.replayed)) }.count == 7)
    }
}
