import Foundation
import TactileCore

/// A client of a captcha service that speaks `tactile puzzle serve`'s HTTP contract: it
/// fetches a challenge and its two images, and sends an attempt, with whatever HTTP client
/// the host has (libsoup on the GLib main loop in the showcase, a fake in tests).
///
/// The client never knows an answer: it shows what the service sent, reports the drag, and
/// learns only the verdict a client may know. Every callback comes through the transport's
/// own completion, on whatever thread or loop the transport calls it.
public final class RemoteCaptcha: CaptchaClient {
    /// An HTTP request for the transport.
    public struct Request: Hashable, Sendable {
        /// `GET` or `POST`.
        public var method: String
        /// The absolute URL.
        public var url: String
        /// Request headers.
        public var headers: [String: String]
        /// The body (JSON for `POST`).
        public var body: [UInt8]
    }

    /// What the transport got back.
    public struct Response: Hashable, Sendable {
        /// The HTTP status.
        public var status: Int
        /// Response headers, names in lower case.
        public var headers: [String: String]
        /// The body.
        public var body: [UInt8]

        /// Creates a response; header names are lower-cased.
        public init(status: Int, headers: [String: String] = [:], body: [UInt8]) {
            self.status = status
            self.headers = Dictionary(
                headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
            self.body = body
        }
    }

    /// Sends a request and calls back once with the response or the reason there is none.
    public typealias Transport = (Request, @escaping (Result<Response, CaptchaClientError>) -> Void)
        -> Void

    /// A challenge ready to show: its images, decoded, and where the piece starts.
    public struct Challenge {
        /// The challenge's id.
        public var id: String
        /// How the piece may move.
        public var axis: PuzzleAxis
        /// The background, with its hole(s).
        public var background: Bitmap
        /// The piece, with alpha.
        public var piece: Bitmap
        /// Where the piece starts, in background pixels.
        public var startPosition: Point
        /// For how many seconds the service accepts an answer, by its own clock (`nil` if it
        /// did not say).
        public var lifetime: Double?
        /// The price of an answer, when the service asks one: a proof of work's salt,
        /// difficulty in bits, and the parts it may be paid in (1: one nonce).
        public var price: (salt: String, difficulty: Int, parts: Int)?
    }

    /// Pays a price, then calls `paid` with the answer: a nonce such that SHA-256(salt ":"
    /// nonce) starts with `difficulty` zero bits, or `parts` different nonces joined by commas,
    /// each with log2(`parts`) bits less. It may take seconds: a host searches on a thread of
    /// its own and calls `paid` where it runs ``submit(_:for:completion:)``.
    public typealias WorkSolver = (
        _ salt: String, _ difficulty: Int, _ parts: Int, _ paid: @escaping (String) -> Void
    ) -> Void

    /// The service's base URL, without a trailing slash.
    public let baseURL: String
    /// The site key challenges are asked for.
    public let siteKey: String
    /// The `Origin` sent with every request: a page of one of the site's host names.
    public let origin: String
    private let transport: Transport
    /// The challenge last given through ``nextPuzzle(_:)``, until its attempt is sent.
    private var current: Challenge?
    private let decode: ([UInt8]) throws -> Bitmap
    private let solveWork: WorkSolver?
    private let clock: () -> Double

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - baseURL: `http://HOST:PORT` of the service.
    ///   - siteKey: The site's public key.
    ///   - origin: The origin the service should see; its host name must be one of the site's.
    ///   - transport: Sends HTTP requests.
    ///   - decode: Decodes a JPEG or PNG file into a bitmap.
    ///   - solveWork: Pays a priced challenge's price (the proof of work every answer to it
    ///     carries); without it, answers to priced challenges are refused.
    ///   - clock: This machine's time, in seconds since 1970: what a lifetime is counted
    ///     from when a response has no readable `Date`.
    /// - Throws: ``CaptchaClientError`` when the URL is not `http://` or `https://`.
    public init(
        baseURL: String, siteKey: String, origin: String = "http://localhost",
        transport: @escaping Transport, decode: @escaping ([UInt8]) throws -> Bitmap,
        solveWork: WorkSolver? = nil,
        clock: @escaping () -> Double = { Date().timeIntervalSince1970 }
    ) throws(CaptchaClientError) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        guard base.hasPrefix("http://") || base.hasPrefix("https://"),
            base.split(separator: "/", omittingEmptySubsequences: true).count >= 2
        else {
            throw CaptchaClientError(
                Localization.text(
                    "the captcha server must be an http:// or https:// URL, got \"{1}\"", baseURL))
        }
        self.baseURL = base
        self.siteKey = siteKey
        self.origin = origin
        self.transport = transport
        self.decode = decode
        self.solveWork = solveWork
        self.clock = clock
    }

    // MARK: - As a client of a host's session

    public func nextPuzzle(
        _ completion: @escaping (Result<ShownPuzzle, CaptchaClientError>) -> Void
    ) {
        current = nil
        fetchChallenge { [self] result in
            completion(
                result.map { challenge in
                    current = challenge
                    return ShownPuzzle(
                        id: challenge.id, background: challenge.background, piece: challenge.piece,
                        startPosition: challenge.startPosition, axis: challenge.axis,
                        lifetime: challenge.lifetime)
                })
        }
    }

    public func submit(
        _ result: PuzzleResult,
        _ completion: @escaping (Result<PuzzleVerdict, CaptchaClientError>) -> Void
    ) {
        guard let challenge = current else {
            return completion(
                .failure(CaptchaClientError(Localization.text("no puzzle to answer"))))
        }
        current = nil
        submit(result, for: challenge, completion: completion)
    }

    /// The service never shows the picture whole.
    public var passedPicture: Bitmap? { nil }

    // MARK: - Challenges

    /// Asks for a challenge and fetches both its images.
    public func fetchChallenge(
        action: String? = nil, completion: @escaping (Result<Challenge, CaptchaClientError>) -> Void
    ) {
        var fields: [String: JSONValue] = ["sitekey": .string(siteKey)]
        if let action { fields["action"] = .string(action) }
        post("/v1/challenges", fields) { [self] result in
            switch result {
            case .failure(let error): completion(.failure(error))
            case .success(let response):
                if response.status == 429 {
                    completion(.failure(.rateLimited(retryAfter: Self.retryAfter(response))))
                    return
                }
                guard response.status == 201, let object = Self.object(response.body),
                    let id = object["id"]?.string,
                    let axis = object["axis"]?.string.flatMap(PuzzleAxis.init(rawValue:)),
                    let backgroundPath = object["background"]?.string,
                    let piecePath = object["piece"]?.string
                else {
                    completion(
                        .failure(Self.unexpected(response, Localization.text("a challenge"))))
                    return
                }
                let start = Point(
                    x: Self.number(object["pieceX"]) ?? 0, y: Self.number(object["pieceY"]) ?? 0)
                let lifetime = Self.secondsLeft(until: object["expiresAt"], response, now: clock())
                let work = object["proofOfWork"]
                let price = work?["salt"]?.string.flatMap { salt in
                    Self.number(work?["difficulty"]).flatMap(Int.init(exactly:)).map {
                        (
                            salt: salt, difficulty: $0,
                            parts: Self.number(work?["parts"]).flatMap(Int.init(exactly:)) ?? 1
                        )
                    }
                }
                fetchImage(backgroundPath) { background in
                    switch background {
                    case .failure(let error): completion(.failure(error))
                    case .success(let background):
                        self.fetchImage(piecePath) { piece in
                            completion(
                                piece.map {
                                    Challenge(
                                        id: id, axis: axis, background: background, piece: $0,
                                        startPosition: start, lifetime: lifetime, price: price)
                                })
                        }
                    }
                }
            }
        }
    }

    private func fetchImage(
        _ path: String, completion: @escaping (Result<Bitmap, CaptchaClientError>) -> Void
    ) {
        guard path.hasPrefix("/") else {
            completion(
                .failure(
                    CaptchaClientError(
                        Localization.text("the service named an image at \"{1}\"", path))))
            return
        }
        let request = Request(
            method: "GET", url: baseURL + path, headers: ["Origin": origin], body: [])
        transport(request) { [decode] result in
            switch result {
            case .failure(let error): completion(.failure(error))
            case .success(let response):
                guard response.status == 200 else {
                    completion(.failure(Self.unexpected(response, Localization.text("an image"))))
                    return
                }
                do { completion(.success(try decode(response.body))) } catch {
                    completion(
                        .failure(
                            CaptchaClientError(
                                Localization.text("cannot decode an image: {1}", "\(error)"))))
                }
            }
        }
    }

    // MARK: - Answers

    /// Sends an attempt at a challenge: the release position and the drag, in background
    /// pixels and milliseconds.
    public func submit(
        _ result: PuzzleResult, for challenge: Challenge,
        completion: @escaping (Result<PuzzleVerdict, CaptchaClientError>) -> Void
    ) {
        // The view's area is the background's size; scale anyway, should a host differ.
        let scale =
            result.areaSize.width > 0
            ? Double(challenge.background.width) / result.areaSize.width : 1
        var fields: [String: JSONValue] = [
            "x": .number(result.position.x * scale), "y": .number(result.position.y * scale),
            "track": .array(
                result.track.map {
                    [
                        "x": .number($0.x * scale), "y": .number($0.y * scale),
                        "t": .number(($0.time * 1000).rounded()),
                    ]
                }),
        ]
        if result.inputMethod == .keyboard {
            fields["input"] = "keyboard"
        } else {
            fields["pointer"] = .string(result.pointerDevice.rawValue)
        }
        guard let price = challenge.price, let solveWork else {
            return send(fields, for: challenge, completion: completion)
        }
        solveWork(price.salt, price.difficulty, price.parts) { [self] nonce in
            var fields = fields
            fields["proofOfWork"] = ["nonce": .string(nonce)]
            send(fields, for: challenge, completion: completion)
        }
    }

    /// Posts an answer's fields and reads the verdict.
    private func send(
        _ fields: [String: JSONValue], for challenge: Challenge,
        completion: @escaping (Result<PuzzleVerdict, CaptchaClientError>) -> Void
    ) {
        post("/v1/challenges/\(challenge.id)/answer", fields) { [clock] outcome in
            switch outcome {
            case .failure(let error): completion(.failure(error))
            case .success(let response):
                completion(Self.verdict(from: response, now: clock()))
            }
        }
    }

    /// What an answer's response says; a token's lifetime is counted from `now` when the
    /// response has no readable `Date`.
    static func verdict(
        from response: Response, now: Double
    ) -> Result<PuzzleVerdict, CaptchaClientError> {
        if response.status == 429 {
            return .success(.locked(retryAfter: retryAfter(response)))
        }
        guard response.status == 200, let object = object(response.body),
            let success = object["success"]?.bool
        else { return .failure(unexpected(response, Localization.text("a verdict"))) }
        if success {
            guard let token = object["token"]?.string, let x = number(object["x"]),
                let y = number(object["y"])
            else { return .failure(unexpected(response, Localization.text("a pass"))) }
            return .success(
                .passed(
                    snapTo: Point(x: x, y: y), token: token,
                    tokenLifetime: secondsLeft(until: object["expiresAt"], response, now: now)))
        }
        let codes = object["error-codes"]?.array?.compactMap(\.string) ?? []
        if codes.contains("expired") { return .success(.expired) }
        if codes.contains("rate-limited") { return .success(.locked(retryAfter: 1)) }
        return .success(.notPassed)
    }

    // MARK: - HTTP

    private func post(
        _ path: String, _ fields: [String: JSONValue],
        completion: @escaping (Result<Response, CaptchaClientError>) -> Void
    ) {
        let body = JSONValue.object(fields).serialized()
        transport(
            Request(
                method: "POST", url: baseURL + path,
                headers: ["Origin": origin, "Content-Type": "application/json"], body: body),
            completion)
    }

    private static func object(_ body: [UInt8]) -> JSONValue? {
        guard let value = try? JSONValue.parse(body), value.object != nil else { return nil }
        return value
    }

    /// A finite JSON number.
    private static func number(_ value: JSONValue?) -> Double? {
        value?.number.flatMap { $0.isFinite ? $0 : nil }
    }

    /// The seconds from the response's `Date` (the service's clock; `now`, this machine's,
    /// when the header is missing or unreadable) to an RFC 3339 time, or `nil` when there is
    /// no such time.
    private static func secondsLeft(until time: JSONValue?, _ response: Response, now: Double)
        -> Double?
    {
        guard let text = time?.string,
            let until = ISO8601DateFormatter().date(from: text)?.timeIntervalSince1970
        else { return nil }
        let serviceNow =
            response.headers["date"].flatMap { try? Date($0, strategy: httpDate) }?
            .timeIntervalSince1970 ?? now
        return until - serviceNow
    }

    /// HTTP's `Date` format (IMF-fixdate): `Fri, 04 Dec 2026 11:21:26 GMT`.
    private static let httpDate = Date.ParseStrategy(
        format:
            "\(weekday: .abbreviated), \(day: .twoDigits) \(month: .abbreviated) \(year: .defaultDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) GMT",
        locale: Locale(identifier: "en_US_POSIX"), timeZone: TimeZone(identifier: "GMT")!)

    /// `Retry-After` in whole seconds, held to 1…3600 whatever the service says.
    private static func retryAfter(_ response: Response) -> Double {
        let seconds = response.headers["retry-after"].flatMap {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        return Double(min(max(seconds ?? 1, 1), 3600))
    }

    private static func unexpected(_ response: Response, _ what: String) -> CaptchaClientError {
        switch response.status {
        case 503: CaptchaClientError(Localization.text("the captcha service is unavailable (503)"))
        case 200, 201:
            CaptchaClientError(
                Localization.text("the captcha service sent something that is not {1}", what))
        default:
            CaptchaClientError(
                Localization.text(
                    "the captcha service answered {1} where {2} was expected", response.status,
                    what))
        }
    }
}
