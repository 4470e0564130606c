import Foundation
import PuzzleTestSupport
import TactileCairo
import TactileCore
import TactileHTTP
import TactilePuzzle
import TactilePuzzleSolvers
@_spi(AnswerReveal) import TactilePuzzleVerifier
import TestSupport
import Testing

@testable import TactilePuzzleService
@testable import TactilePuzzleStores

/// The client the showcase uses for a running service, against the service itself: it
/// speaks the HTTP contract, shows what it is sent, and learns only the verdict.
@Suite struct RemoteCaptchaTests {
    let site = ServiceSite(
        sitekey: "site-remote-key", secret: "secret-remote-0123456789", hostnames: ["localhost"],
        proofOfWorkDifficulty: 16)
    let backend = MemoryBackend(policy: plumbingPolicy)
    /// The service's clock and this machine's: they stand still unless a test moves them.
    let serviceClock = ManualClock(1_800_000_000)
    let localClock = ManualClock(1_800_000_000)

    /// A service on `site`, on ``backend``, keeping time by ``serviceClock``.
    func service(_ site: ServiceSite) -> CaptchaService {
        CaptchaService(
            configuration: .init(sites: [site], policy: plumbingPolicy), backend: backend,
            log: { _ in }, clock: { [serviceClock] in serviceClock.now })
    }

    /// A client whose transport hands each request straight to `service` (one address),
    /// keeping time by ``localClock``.
    ///
    /// - Parameter serviceDate: The `Date` header the service sends, if any.
    func client(
        _ service: CaptchaService, log: Box<[String]>? = nil, bodies: Box<[[UInt8]]>? = nil,
        serviceDate: String? = nil
    ) throws -> RemoteCaptcha {
        try RemoteCaptcha(
            baseURL: "http://captcha.test:8080/", siteKey: site.sitekey,
            transport: { request, completion in
                let path = String(request.url.dropFirst("http://captcha.test:8080".count))
                log?.value.append("\(request.method) \(path)")
                bodies?.value.append(request.body)
                let response = service.handle(
                    HTTPRequest(
                        method: request.method, path: path, headers: request.headers,
                        body: request.body, clientAddress: "192.0.2.40"))
                completion(
                    .success(
                        RemoteCaptcha.Response(
                            status: response.status,
                            headers: Dictionary(
                                response.headers.map { ($0.name, $0.value) },
                                uniquingKeysWith: { a, _ in a }
                            ).merging(serviceDate.map { ["date": $0] } ?? [:]) { _, date in date },
                            body: response.body)))
            },
            decode: { try ImageLoader.decode($0, name: "test image") },
            solveWork: {
                $3(ProofOfWorkChallenge(salt: $0, difficulty: $1, parts: $2).solveInParts())
            },
            clock: { [localClock] in localClock.now })
    }

    /// `seconds` since 1970 as HTTP's `Date` header writes it (IMF-fixdate, whole seconds).
    func httpDate(_ seconds: Double) -> String {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return format.string(from: Date(timeIntervalSince1970: seconds))
    }

    /// Runs one asynchronous call whose transport is synchronous: the result at once.
    func answer<T>(_ call: (@escaping (T) -> Void) -> Void) throws -> T {
        var result: T?
        call { result = $0 }
        return try #require(result)
    }

    func drag(to hole: Point, from start: Point, seed: UInt64, areaSize: Size) -> PuzzleResult {
        var random = SeededRandom(seed: seed)
        let track = HumanDrag.track(
            from: start, to: Point(x: hole.x, y: start.y), axis: .horizontal, using: &random)
        return PuzzleResult(
            position: track.last!.position, areaSize: areaSize, offset: nil, elapsedTime: 1,
            dragDistance: 0, track: track, inputMethod: .pointer)
    }

    @Test func aChallengeIsShownAsSentAndAHandDragPasses() throws {
        let service = service(site)
        let log = Box<[String]>([])
        let remote = try client(service, log: log)
        let challenge = try answer { remote.fetchChallenge(completion: $0) }.get()
        #expect(
            log.value == [
                "POST /v1/challenges", "GET /v1/challenges/\(challenge.id)/background",
                "GET /v1/challenges/\(challenge.id)/piece",
            ])
        #expect(challenge.background.width == 640 && challenge.background.height == 360)
        #expect(challenge.piece.width > 0 && challenge.axis == .horizontal)
        // No Date from the service: the lifetime by this machine's clock, which agrees.
        #expect(challenge.lifetime == plumbingPolicy.puzzleLifetime)
        let hole = try #require(
            try backend.withVerifier(.peeking(puzzle: challenge.id), now: 0) {
                $0.testingAnswer(id: challenge.id)
            })
        #expect(challenge.startPosition.y == hole.y, "a horizontal piece starts on the hole's row")

        let attempt = drag(
            to: hole, from: challenge.startPosition, seed: 3,
            areaSize: Size(width: 640, height: 360))
        let verdict = try answer { remote.submit(attempt, for: challenge, completion: $0) }.get()
        guard case .passed(let snap, let token?, let tokenLifetime) = verdict else {
            Issue.record("\(verdict)")
            return
        }
        #expect(snap == hole)
        #expect(tokenLifetime == plumbingPolicy.tokenLifetime)
        let verified = service.verify(["secret": site.secret, "response": token])
        #expect(verified["success"]?.bool == true)
        // Answered once: the same challenge again is gone.
        let again = try answer { remote.submit(attempt, for: challenge, completion: $0) }.get()
        #expect(again == .expired)
    }

    /// The app says which device made a drag: the answer carries it, and a keyboard attempt
    /// says it is one instead.
    @Test(arguments: PointerDevice.allCases)
    func theAnswerSaysWhichDeviceMadeTheDrag(device: PointerDevice) throws {
        let service = service(site)
        let bodies = Box<[[UInt8]]>([])
        let remote = try client(service, bodies: bodies)
        let challenge = try answer { remote.fetchChallenge(completion: $0) }.get()
        var attempt = drag(
            to: Point(x: 300, y: challenge.startPosition.y), from: challenge.startPosition,
            seed: 5, areaSize: Size(width: 640, height: 360))
        attempt.pointerDevice = device
        _ = try answer { remote.submit(attempt, for: challenge, completion: $0) }
        let sent = try #require(bodies.value.last.flatMap { try? JSONValue.parse($0) }?.object)
        #expect(sent["pointer"]?.string == device.rawValue)
        #expect(sent["input"] == nil)
    }

    @Test func aLifetimeIsCountedByTheServicesClock() throws {
        let service = service(site)
        // The service's clock is a minute behind this machine's: by the service's Date the
        // puzzle has its whole lifetime, which this machine's clock would cut by a minute.
        localClock.advance(by: 60)
        let remote = try client(service, serviceDate: httpDate(serviceClock.now))
        let lifetime = try answer { remote.fetchChallenge(completion: $0) }.get().lifetime
        #expect(lifetime == plumbingPolicy.puzzleLifetime)

        let unreadable = try client(service, serviceDate: "yesterday")
        let local = try answer { unreadable.fetchChallenge(completion: $0) }.get().lifetime
        #expect(
            local == plumbingPolicy.puzzleLifetime - 60, "an unreadable Date: this machine's clock")
    }

    @Test func anAttemptInAnotherScaleIsSentInBackgroundPixels() throws {
        let service = service(site)
        let remote = try client(service)
        let challenge = try answer { remote.fetchChallenge(completion: $0) }.get()
        let hole = try #require(
            try backend.withVerifier(.peeking(puzzle: challenge.id), now: 0) {
                $0.testingAnswer(id: challenge.id)
            })
        // A host whose area is half the background's size.
        let half = drag(
            to: Point(x: hole.x / 2, y: hole.y / 2),
            from: Point(x: challenge.startPosition.x / 2, y: challenge.startPosition.y / 2),
            seed: 4, areaSize: Size(width: 320, height: 180))
        let verdict = try answer { remote.submit(half, for: challenge, completion: $0) }.get()
        guard case .passed = verdict else {
            Issue.record("\(verdict)")
            return
        }
    }

    @Test func aMissIsNotPassedAndALimitSaysHowLongToWait() throws {
        var strict = site
        strict.puzzlesPerMinute = 1
        let service = service(strict)
        let remote = try client(service)
        let challenge = try answer { remote.fetchChallenge(completion: $0) }.get()
        let hole = try #require(
            try backend.withVerifier(.peeking(puzzle: challenge.id), now: 0) {
                $0.testingAnswer(id: challenge.id)
            })
        let miss = drag(
            to: Point(x: hole.x + 40, y: hole.y), from: challenge.startPosition, seed: 5,
            areaSize: Size(width: 640, height: 360))
        #expect(
            try answer { remote.submit(miss, for: challenge, completion: $0) }.get() == .notPassed)
        let refused = try answer { remote.fetchChallenge(completion: $0) }
        guard case .failure(let error) = refused else {
            Issue.record("a second puzzle in the minute was given")
            return
        }
        let wait = try #require(error.retryAfter)
        #expect(wait > 0 && wait <= 60)
    }

    @Test(arguments: [
        ("1e300", 1.0), ("inf", 1.0), ("99999999", 3600.0), ("-5", 1.0), ("30", 30.0),
    ])
    func aWaitTheServiceAsksForIsHeldToAnHour(header: String, seconds: Double) throws {
        let remote = try RemoteCaptcha(
            baseURL: "http://127.0.0.1:1", siteKey: "k",
            transport: { _, completion in
                completion(.success(.init(status: 429, headers: ["Retry-After": header], body: [])))
            }, decode: { _ in Bitmap(width: 1, height: 1) })
        let result = try answer { remote.fetchChallenge(completion: $0) }
        guard case .failure(let error) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(error.retryAfter == seconds)
    }

    @Test func aServiceThatIsDownOrWrongIsAnErrorThatSaysSo() throws {
        #expect(throws: CaptchaClientError.self) {
            try RemoteCaptcha(
                baseURL: "ftp://x", siteKey: "k", transport: { _, _ in },
                decode: { _ in Bitmap(width: 1, height: 1) })
        }
        let down = try RemoteCaptcha(
            baseURL: "http://127.0.0.1:1", siteKey: "k",
            transport: { _, completion in
                completion(
                    .success(
                        .init(status: 503, body: Array(#"{"error": "store unavailable"}"#.utf8))))
            }, decode: { _ in Bitmap(width: 1, height: 1) })
        let result = try answer { down.fetchChallenge(completion: $0) }
        guard case .failure(let error) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(error.description.contains("unavailable"))
        #expect(error.retryAfter == nil)
    }
}
