import Foundation
import Synchronization
import TactileCore
import TactileCrypto
import TactileHTTP
import TactilePuzzle
@_spi(AnswerReveal) import TactilePuzzleImaging
@_spi(AnswerReveal) import TactilePuzzleVerifier

/// The captcha as a web service: the HTTP contract of `tactile puzzle serve`, as a function
/// from request to response (``handle(_:)``), safe to call from many threads.
///
/// A client learns only whether it passed and, if not, whether the puzzle expired, it did
/// not pass, or it must wait; the rule that failed goes to the log and the metrics.
/// Challenge endpoints answer only pages of a site's own host names (CORS); siteverify is
/// server to server and needs no CORS.
public final class CaptchaService: Sendable {
    /// What the service is set up with.
    public struct Configuration: Sendable {
        /// The sites it serves.
        public var sites: [ServiceSite]
        /// The verifier's limits (lifetimes, rate limits, tolerance, trajectory rules).
        public var policy: VerifierPolicy
        /// The puzzles' shape, size and treatment.
        public var options: PuzzleOptions
        /// Photos to cut puzzles from, ideally kept at `PictureVariation.kept(_:width:height:)`
        /// of the options' size; empty for drawn pictures. Every puzzle varies its photo anew
        /// (zoom, crop, mirror, colour), so that comparing puzzles reveals neither the photo
        /// nor the hole.
        public var pictures: [Bitmap]
        /// Addresses whose `X-Forwarded-For` is believed (the load balancers in front).
        public var trustedProxies: Set<String>
        /// Adds `/test/answer/{id}`, which gives any puzzle's answer away: for browser tests
        /// only, and said loudly at start-up.
        public var revealsAnswers: Bool
        /// The site `/demo` shows a sign-up form of (and verifies its tokens with), or `nil`
        /// for no `/demo`. Its puzzles are also allowed on pages this service serves itself
        /// (the `Host` of the request), wherever it runs.
        public var demoSite: ServiceSite?
        /// How long an accepted drag is remembered, in seconds: a drag that matches it is
        /// refused as a replay until then.
        public var acceptedDragLifetime = 86_400.0

        /// Creates a configuration.
        public init(
            sites: [ServiceSite], policy: VerifierPolicy = VerifierPolicy(),
            options: PuzzleOptions = PuzzleOptions(), pictures: [Bitmap] = [],
            trustedProxies: Set<String> = [], revealsAnswers: Bool = false,
            demoSite: ServiceSite? = nil
        ) {
            self.sites = sites
            self.policy = policy
            self.options = options
            self.pictures = pictures
            self.trustedProxies = trustedProxies
            self.revealsAnswers = revealsAnswers
            self.demoSite = demoSite
        }
    }

    let configuration: Configuration
    let backend: any VerifierBackend
    let metrics = ServiceMetrics()
    let serverMessages = MessageBudget(perSecond: 10)
    let log: @Sendable (String) -> Void
    let clock: @Sendable () -> Double
    /// The sites served now (the demo site among them): replaced whole by
    /// ``replaceSites(_:)``.
    private let siteTable: Mutex<SiteTable>

    /// The sites, by key too.
    struct SiteTable {
        var sites: [ServiceSite]
        var byKey: [String: ServiceSite]

        init(_ sites: [ServiceSite]) {
            self.sites = sites
            byKey = Dictionary(sites.map { ($0.sitekey, $0) }) { first, _ in first }
        }
    }

    /// The sites served now.
    var sites: SiteTable { siteTable.withLock { $0 } }

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - configuration: Sites, policy, pictures.
    ///   - backend: Where the verifier lives.
    ///   - log: Receives one line per request and one per check, never a token, secret or
    ///     answer.
    ///   - clock: Seconds since 1970. The default counts whole milliseconds, so that every
    ///     time kept in a record or a token has at most 13 digits: short to write, read on
    ///     the exact fast path.
    public init(
        configuration: Configuration, backend: any VerifierBackend,
        log: @escaping @Sendable (String) -> Void,
        clock: @escaping @Sendable () -> Double = CaptchaService.millisecondClock
    ) {
        self.configuration = configuration
        self.backend = backend
        self.log = log
        self.clock = clock
        let all = configuration.sites + (configuration.demoSite.map { [$0] } ?? [])
        siteTable = Mutex(SiteTable(all))
        metrics.declare(sites: all.map(\.sitekey))
    }

    /// Serves `sites` from now on instead of those it was given (the demo site stays):
    /// a new site key works at once, a removed one is refused, a changed secret or host
    /// name holds for the next request. Challenges and tokens already issued keep the site
    /// key they were issued for.
    public func replaceSites(_ sites: [ServiceSite]) {
        let all = sites + (configuration.demoSite.map { [$0] } ?? [])
        siteTable.withLock { $0 = SiteTable(all) }
        metrics.declare(sites: all.map(\.sitekey))
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// The time now, in seconds since 1970, to the nearest millisecond.
    @Sendable public static func millisecondClock() -> Double {
        (Date().timeIntervalSince1970 * 1000).rounded() / 1000
    }

    // MARK: - Routing

    /// Answers one request.
    ///
    /// Its time, in the log and the metrics, runs from when the server had the whole request
    /// (`HTTPRequest.received`), so it includes any wait for a free worker.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let start = ContinuousClock.now
        let response = route(request)
        let seconds = Self.seconds(.now - request.received)
        let endpoint = Self.endpoint(of: request.path)
        metrics.observe(
            endpoint: endpoint, status: response.status, seconds: seconds,
            waited: Self.seconds(max(.zero, start - request.received)))
        log(
            "\(Self.timestamp(clock())) \(client(of: request)) \(Self.loggable(request.method)) \(endpoint) \(response.status) \(Self.milliseconds(seconds)) ms"
        )
        return response
    }

    /// A request method as the log shows it: a standard method's name, else `other` (a
    /// client's made-up method could carry terminal escapes or fill a line).
    static func loggable(_ method: String) -> String {
        ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE"].contains(
            method) ? method : "other"
    }

    /// Logs a message of the HTTP server's own (a request it refused before any handler
    /// saw it, a connection over the limit), timed and named like the request lines, at most
    /// 300 characters. At most 10 a second are written, so a flood of refused connections
    /// cannot flood the log; the next one written says how many were held back, and
    /// `/metrics` counts them (`tactile_server_messages_total`).
    public func logServerMessage(_ message: String) {
        let now = clock()
        guard let heldBack = serverMessages.take(now: now) else {
            metrics.count("tactile_server_messages_total", label: ("logged", "no"))
            return
        }
        metrics.count("tactile_server_messages_total", label: ("logged", "yes"))
        let note = heldBack > 0 ? " (\(heldBack) more held back before this one)" : ""
        log("\(Self.timestamp(now)) server: \(message.prefix(300))\(note)")
    }

    /// The metrics listener's one endpoint, `GET /metrics` (Prometheus text); kept off the
    /// public listener, since the counts by rule would tell a script what refused it.
    public func handleMetrics(_ request: HTTPRequest) -> HTTPResponse {
        guard Self.segments(of: request.path) == ["metrics"] else {
            return Self.error(404, "no such endpoint")
        }
        guard request.method == "GET" else { return Self.error(405, "method not allowed") }
        let epochs = [
            "# HELP tactile_store_epochs_total Times this process found the store's secret gone (an emptied Redis) and began a new epoch, in which limits and lockouts start afresh.",
            "# TYPE tactile_store_epochs_total counter",
            "tactile_store_epochs_total \(backend.epochsTakenUp)",
        ]
        return HTTPResponse(
            status: 200, contentType: "text/plain; version=0.0.4",
            body: Array((metrics.text() + epochs.joined(separator: "\n") + "\n").utf8))
    }

    // MARK: - Challenges

    func issue(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = Self.object(request.body), let key = body["sitekey"]?.string else {
            return Self.error(400, "expected JSON {\"sitekey\": …, \"action\"?: …}")
        }
        guard let site = sites.byKey[key] else {
            refuseChallenge(
                "the site key \(Self.quoted(key)) is not one of the sites' (check the page's "
                    + "data-sitekey against --sites)", reason: "sitekey", request: request)
            return Self.error(400, "invalid-sitekey")
        }
        let action = body["action"]?.string ?? ""
        guard action.utf8.count <= 64,
            action.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_./".contains($0)) })
        else { return Self.error(400, "action must be at most 64 letters, digits or -_./") }
        guard let hostname = pageHostname(request), allows(site, hostname, request) else {
            let page = pageHostname(request).map { "host name \(Self.quoted($0))" }
            refuseChallenge(
                "the page's \(page ?? "origin (none, or opaque)") is not one of site key "
                    + "\(site.sitekey)'s host names (\(site.hostnames.joined(separator: ", ")))",
                reason: "hostname", request: request)
            return Self.error(403, "this page's host name is not one of the site's")
        }
        let client = client(of: request)
        let policy = site.policy(from: configuration.policy)
        // Refuse before the costly part: a limited client or site makes no puzzle.
        let early = clock()
        let surcharge: Int
        do {
            // The client first: requests it is refused do not use up the site's budget.
            // The network is counted under a keyed digest: no store key names an address.
            let network = Self.pricingNetwork(of: address(of: request))
            let (limited, networkName) = try backend.withVerifier(
                .inspecting(client: client), now: early
            ) { verifier in
                verifier.policy = policy
                return (
                    verifier.issueLimit(for: client, now: early),
                    verifier.digest("network:" + network)
                )
            }
            if let until = limited {
                metrics.count("tactile_rate_limited_total", label: ("scope", "client"))
                return rateLimited(until: until, now: early, origin: request)
            }
            let sitewide = try backend.increment(
                "site-puzzles:\(key)", window: 60, now: early)
            if sitewide.count
                > site.sitePuzzlesPerMinute ?? ServiceSite.defaultSitePuzzlesPerMinute
            {
                metrics.count("tactile_rate_limited_total", label: ("scope", "site"))
                return rateLimited(until: sitewide.windowEnds, now: early, origin: request)
            }
            surcharge = try priceSurcharge(network: networkName, now: early)
        } catch {
            return storeUnavailable(error)
        }
        let puzzle: GeneratedPuzzle
        do { puzzle = try generate() } catch {
            log("\(Self.timestamp(clock())) error: cannot make a puzzle: \(error)")
            return Self.error(500, "internal-error")
        }
        let files = PuzzleImageEncoder().encode(puzzle)
        let images = ChallengeImages(
            background: files.background, backgroundType: files.format.mediaType,
            piece: files.piece)
        let now = clock()
        let registered: Result<PuzzleChallenge, IssueRefusal>
        do {
            registered = try backend.register(client: client, now: now, images: images) {
                verifier in
                verifier.policy = policy
                do throws(IssueRefusal) {
                    return .success(
                        try verifier.register(
                            puzzle, client: client,
                            site: SiteBinding(siteKey: key, hostname: hostname, action: action),
                            now: now, surcharge: surcharge))
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            return storeUnavailable(error)
        }
        switch registered {
        case .failure(let refusal):
            metrics.count("tactile_rate_limited_total", label: ("scope", "client"))
            return rateLimited(until: refusal.until, now: now, origin: request)
        case .success(let challenge):
            metrics.count("tactile_challenges_issued_total", labels: [("site", key)])
            var fields: [String: JSONValue] = [
                "id": JSONValue(challenge.id), "axis": JSONValue(challenge.axis.rawValue),
                "imageWidth": JSONValue(challenge.imageWidth),
                "imageHeight": JSONValue(challenge.imageHeight),
                "pieceWidth": JSONValue(challenge.pieceWidth),
                "pieceHeight": JSONValue(challenge.pieceHeight),
                "background": JSONValue("/v1/challenges/\(challenge.id)/background"),
                "piece": JSONValue("/v1/challenges/\(challenge.id)/piece"),
                "expiresAt": JSONValue(Self.timestamp(challenge.expiresAt)),
                "shape": JSONValue(challenge.shape),
            ]
            if let y = challenge.pieceY { fields["pieceY"] = JSONValue(y) }
            if let x = challenge.pieceX { fields["pieceX"] = JSONValue(x) }
            if let work = challenge.proofOfWork {
                fields["proofOfWork"] = [
                    "salt": JSONValue(work.salt), "difficulty": JSONValue(work.difficulty),
                ]
            }
            return withCORS(Self.json(201, fields), for: request, site: site)
        }
    }

    /// Puzzles a network may ask for in an hour at the base price; beyond them, every
    /// ``puzzlesPerExtraBit`` more double the price of an answer.
    static let puzzlesAtBasePrice = 30
    static let puzzlesPerExtraBit = 8

    /// The bits added to the price of an answer for the volume of the client's network
    /// (``pricingNetwork(of:)``, named by its keyed digest) in the last hour: counted in two
    /// hourly windows half an hour apart, the fuller one counting, so a burst across the hour
    /// does not start afresh.
    func priceSurcharge(network: String, now: Double) throws -> Int {
        let counts = try [0.0, 1800].enumerated().map { index, shift in
            try backend.increment("price\(index):\(network)", window: 3600, now: now + shift).count
        }
        let over = counts.max()! - Self.puzzlesAtBasePrice
        return over <= 0 ? 0 : (over + Self.puzzlesPerExtraBit - 1) / Self.puzzlesPerExtraBit
    }

    /// The network an address is priced by: its IPv4 /24 (an IPv4-mapped IPv6 address mapped
    /// back first) or its IPv6 /64. Offices and carriers share such networks; scripts rent
    /// addresses in them.
    static func pricingNetwork(of address: String) -> String {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            let octets = withUnsafeBytes(of: &v4) { Array($0) }
            return "\(octets[0]).\(octets[1]).\(octets[2]).0/24"
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return address }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return "\(bytes[12]).\(bytes[13]).\(bytes[14]).0/24"
        }
        return network(of: address)
    }

    func generate() throws -> GeneratedPuzzle {
        var random = SecureRandom()
        let options = configuration.options
        let picture =
            try configuration.pictures.randomElement(using: &random).map {
                PictureVariation.picture(
                    from: $0, width: options.width, height: options.height, using: &random)
            }
            ?? PictureSource.procedural(seed: random.next())
            .picture(width: options.width, height: options.height)
        return try PuzzleGenerator.generate(picture: picture, options: options, using: &random)
    }

    func image(id: String, kind: String) -> HTTPResponse {
        guard Hex.isHex(id, count: 32) else { return Self.error(404, "no such puzzle") }
        let found: ChallengeImages?
        do { found = try backend.images(id: id, now: clock()) } catch {
            return storeUnavailable(error)
        }
        guard let stored = found else {
            return Self.error(404, "no such puzzle (or it expired)")
        }
        let response = HTTPResponse(
            status: 200, contentType: kind == "background" ? stored.backgroundType : "image/png",
            body: kind == "background" ? stored.background : stored.piece)
        return response.adding("Cache-Control", "no-store").adding(
            "Access-Control-Allow-Origin", "*")
    }

    // MARK: - Answers

    /// The answer body: a drag (`x`, `y`, `track`, `input`) or a proof of work.
    private struct AnswerBody {
        struct Sample {
            var x: Double
            var y: Double
            var t: Double
        }
        struct Work { var nonce: String }
        var x: Double?
        var y: Double?
        var track: [Sample]?
        var input: String?
        var proofOfWork: Work?
        var displayWidth: Double?

        /// Reads the body; `nil` when it is not JSON or a field has the wrong type (a missing
        /// or `null` field is absent; other fields are skipped). Read as it comes, with no
        /// tree: a track has hundreds of samples.
        init?(_ bytes: [UInt8]) {
            do throws(JSONError) {
                self = try JSONScanner.scan(bytes) { scanner throws(JSONError) in
                    var body = AnswerBody()
                    try scanner.members { scanner, key throws(JSONError) in
                        guard try !scanner.null() else { return }
                        switch key {
                        case "x": body.x = try scanner.number()
                        case "y": body.y = try scanner.number()
                        case "input": body.input = try scanner.string()
                        case "displayWidth": body.displayWidth = try scanner.number()
                        case "proofOfWork": body.proofOfWork = try Self.work(&scanner)
                        case "track": body.track = try Self.samples(&scanner)
                        default: try scanner.skip()
                        }
                    }
                    return body
                }
            } catch {
                return nil
            }
        }

        private init() {}

        private static func work(_ scanner: inout JSONScanner) throws(JSONError) -> Work {
            var nonce: String?
            try scanner.members { scanner, key throws(JSONError) in
                if key == "nonce" { nonce = try scanner.string() }
            }
            guard let nonce else { throw JSONError(offset: 0, reason: "no nonce") }
            return Work(nonce: nonce)
        }

        private static func samples(_ scanner: inout JSONScanner) throws(JSONError) -> [Sample] {
            var samples: [Sample] = []
            samples.reserveCapacity(128)
            try scanner.elements { scanner throws(JSONError) in
                var x: Double?
                var y: Double?
                var t: Double?
                try scanner.members { scanner, key throws(JSONError) in
                    switch key {
                    case "x": x = try scanner.number()
                    case "y": y = try scanner.number()
                    case "t": t = try scanner.number()
                    default: try scanner.skip()
                    }
                }
                guard let x, let y, let t else {
                    throw JSONError(offset: 0, reason: "a sample without x, y and t")
                }
                samples.append(Sample(x: x, y: y, t: t))
            }
            return samples
        }
    }

    func answer(_ request: HTTPRequest, id: String) -> HTTPResponse {
        let origin = request
        guard Hex.isHex(id, count: 32) else { return Self.error(404, "no such puzzle") }
        // Count samples in the raw text before decoding builds anything.
        let objects = request.body.reduce(0) { $0 + ($1 == UInt8(ascii: "{") ? 1 : 0) }
        // The body is one object, each sample another (a proof of work one more).
        guard objects <= DragTrack.maximumSamples + 2,
            let body = AnswerBody(request.body),
            (body.track?.count ?? 0) <= DragTrack.maximumSamples
        else {
            return Self.error(
                400, "expected JSON {\"x\", \"y\"?, \"track\": [{\"x\",\"y\",\"t\"}, …]}")
        }
        let client = client(of: request)
        let now = clock()
        // A pointer drag that matches one accepted before is a replay; the memory is read
        // before the check and written after a pass, across every instance of the store.
        let isDrag = body.input != "keyboard" && !(body.track ?? []).isEmpty
        let start = body.track?.first?.t ?? 0
        let track = (body.track ?? []).map {
            PuzzleTrackPoint(x: $0.x, y: $0.y, time: ($0.t - start) / 1000)
        }
        let fingerprint = isDrag ? DragFingerprint(track, axis: configuration.options.axis) : nil
        let repeats: Bool
        do {
            repeats =
                try fingerprint.map { mine in
                    try backend.acceptedDrags(in: mine.nearbyBuckets, now: now).contains {
                        DragFingerprint(bytes: $0)?.matches(mine) ?? false
                    }
                } ?? false
        } catch {
            return storeUnavailable(error)
        }
        let outcome: (CheckOutcome, String, String?)
        do {
            outcome = try backend.withVerifier(.checking(puzzle: id, client: client), now: now) {
                verifier in
                let pending = verifier.pendingPuzzle(id: id)
                // The limits of the site the puzzle was issued for, whatever the request's
                // Origin claims.
                verifier.policy =
                    pending?.siteKey.flatMap { sites.byKey[$0] }?.policy(
                        from: configuration.policy) ?? configuration.policy
                var attempt = PuzzleAttempt(
                    position: Point(x: body.x ?? .nan, y: body.y ?? 0),
                    displayWidth: Double(pending?.imageWidth ?? 1), track: track,
                    inputMethod: body.input == "keyboard" ? .keyboard : .pointer,
                    proofOfWorkNonce: body.proofOfWork?.nonce)
                attempt.repeatsAcceptedDrag = repeats
                attempt.shownWidth = body.displayWidth
                // The far end of the slider, where End (or a step cut short) lands.
                let side = Double(configuration.options.resolvedPieceSide)
                attempt.farEdge =
                    pending?.axis == .vertical
                    ? Double(pending?.imageHeight ?? 0) - side
                    : Double(pending?.imageWidth ?? 0) - side
                let outcome = verifier.check(id: id, attempt: attempt, client: client, now: now)
                return (outcome, verifier.digest(client), pending?.siteKey)
            }
        } catch {
            return storeUnavailable(error)
        }
        let (result, digest, siteKey) = outcome
        let siteLabel = [("site", siteKey ?? "")]
        let site = siteOfOrigin(origin)
        switch result {
        case .passed(let receipt):
            metrics.count("tactile_passes_total", labels: siteLabel)
            if let fingerprint {
                // A memory that cannot be written now only lets this drag be replayed.
                try? backend.rememberAcceptedDrag(
                    fingerprint.bytes, in: fingerprint.bucket,
                    lifetime: configuration.acceptedDragLifetime, now: now)
            }
            log(
                "\(Self.timestamp(now)) check puzzle=\(id.prefix(8)) client=\(digest) passed (\(receipt.mode.rawValue))"
            )
            return withCORS(
                Self.json(
                    200,
                    [
                        "success": true, "token": JSONValue(receipt.token),
                        // When the token lapses (to the second, rounded down), so that a
                        // page can ask for a new puzzle rather than submit a dead token.
                        "expiresAt": JSONValue(
                            Self.timestamp(now + configuration.policy.tokenLifetime)),
                        "x": JSONValue(receipt.holePosition.x),
                        "y": JSONValue(receipt.holePosition.y),
                    ]), for: origin, site: site)
        case .failed(let failure):
            metrics.count("tactile_failures_total", labels: siteLabel + [("rule", failure.rule)])
            log(
                "\(Self.timestamp(now)) check puzzle=\(id.prefix(8)) client=\(digest) \(failure.verdict.code): \(failure)"
            )
            return withCORS(
                Self.json(
                    200,
                    ["success": false, "error-codes": [JSONValue(failure.verdict.code)]]),
                for: origin, site: site)
        case .locked(let until):
            metrics.count("tactile_rate_limited_total", label: ("scope", "client"))
            return rateLimited(until: until, now: now, origin: origin)
        }
    }

    func revealAnswer(id: String) -> HTTPResponse {
        let answer = try? backend.withVerifier(.peeking(puzzle: id), now: clock()) {
            $0.testingAnswer(id: id)
        }
        guard let answer = answer ?? nil else { return Self.error(404, "no such puzzle") }
        return Self.json(200, ["x": JSONValue(answer.x), "y": JSONValue(answer.y)])
    }

    // MARK: - Clients, origins, CORS

    /// The client's address: the connection's, or, from a trusted proxy, the last address
    /// in `X-Forwarded-For` that is not itself a trusted proxy.
    func client(of request: HTTPRequest) -> String {
        Self.network(of: address(of: request))
    }

    /// The client's address: the connection's, or from a trusted proxy the last address it
    /// was forwarded for.
    func address(of request: HTTPRequest) -> String {
        guard configuration.trustedProxies.contains(request.clientAddress),
            let forwarded = request.header("X-Forwarded-For")
        else { return request.clientAddress }
        let hops = forwarded.split(separator: ",").reversed().map(Self.trimmingBlanks)
        return hops.first { !$0.isEmpty && !configuration.trustedProxies.contains($0) }
            ?? request.clientAddress
    }

    /// `text` without the spaces and tabs around it (HTTP's optional white space).
    static func trimmingBlanks(_ text: Substring) -> String {
        let isBlank = { (character: Character) in character == " " || character == "\t" }
        guard let first = text.firstIndex(where: { !isBlank($0) }),
            let last = text.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(text[first...last])
    }

    /// What limits count as one client: an IPv4 address, or an IPv6 address's /64 network
    /// (one subscriber's usual allocation, so a client cannot be a new one per address).
    static func network(of address: String) -> String {
        var bytes = in6_addr()
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else {
            return address
        }
        // An IPv4 address written as IPv6 (as some proxies forward it) is that address: as
        // a /64 it would put every IPv4 client in one bucket.
        let raw = withUnsafeBytes(of: &bytes) { Array($0) }
        if raw.prefix(10).allSatisfy({ $0 == 0 }), raw[10] == 0xFF, raw[11] == 0xFF {
            return raw.suffix(4).map(String.init).joined(separator: ".")
        }
        let words = withUnsafeBytes(of: &bytes) { raw in
            (0..<4).map { String(format: "%x", UInt16(raw[2 * $0]) << 8 | UInt16(raw[2 * $0 + 1])) }
        }
        return words.joined(separator: ":") + "::/64"
    }

    /// The page's host name, from `Origin`, else (when there is no `Origin` at all)
    /// `Referer`. An opaque origin (`Origin: null`, a sandboxed frame or a file) has none,
    /// whatever its `Referer` says.
    func pageHostname(_ request: HTTPRequest) -> String? {
        let value = request.header("Origin") ?? request.header("Referer")
        guard let value, let url = URL(string: value), let host = url.host else { return nil }
        return host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
    }

    func siteOfOrigin(_ request: HTTPRequest) -> ServiceSite? {
        guard let host = pageHostname(request) else { return nil }
        return sites.sites.first { $0.hostnames.contains(host) }
    }

    /// Whether `site`'s puzzles may be shown on a page of `hostname`: one of its host names,
    /// or for the demo site, a page of this service itself.
    func allows(_ site: ServiceSite, _ hostname: String, _ request: HTTPRequest) -> Bool {
        if site.hostnames.contains(hostname) { return true }
        guard site.sitekey == configuration.demoSite?.sitekey, let host = request.header("Host"),
            let own = URL(string: "http://" + host)?.host
        else { return false }
        return (own.hasPrefix("[") ? String(own.dropFirst().dropLast()) : own) == hostname
    }

    /// Logs why a request for a puzzle was refused, naming the page's origin, so that an
    /// operator finds the setting that is wrong; counted by reason.
    func refuseChallenge(_ why: String, reason: String, request: HTTPRequest) {
        metrics.count("tactile_challenges_refused_total", label: ("reason", reason))
        let origin = request.header("Origin") ?? request.header("Referer").map { "referer " + $0 }
        log(
            "\(Self.timestamp(clock())) refused a challenge from \(Self.quoted(origin ?? "no origin")): \(why)"
        )
    }

    /// A client's text for the log: in quotes, at most 100 characters, anything but
    /// printable ASCII escaped, so that it can neither fill a line nor reach a terminal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars.prefix(100) {
            switch scalar {
            case "\"", "\\": out += "\\" + String(scalar)
            case " "..."~": out.unicodeScalars.append(scalar)
            default: out += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return out + (text.unicodeScalars.count > 100 ? "…\"" : "\"")
    }

    func withCORS(_ response: HTTPResponse, for request: HTTPRequest, site: ServiceSite?)
        -> HTTPResponse
    {
        guard let origin = request.header("Origin"), let site, let host = pageHostname(request),
            site.hostnames.contains(host)
        else { return response }
        return response.adding("Access-Control-Allow-Origin", origin).adding("Vary", "Origin")
            .adding("Access-Control-Expose-Headers", "Retry-After, Date")
    }

    func preflight(_ request: HTTPRequest) -> HTTPResponse {
        guard siteOfOrigin(request) != nil, let origin = request.header("Origin") else {
            refuseChallenge(
                "the page's host name is not one of any site's (a cross-origin page must be "
                    + "listed in its site's hostnames)", reason: "hostname", request: request)
            return HTTPResponse(status: 403)
        }
        return HTTPResponse(status: 204).adding("Access-Control-Allow-Origin", origin)
            .adding("Vary", "Origin").adding("Access-Control-Allow-Methods", "GET, POST")
            .adding("Access-Control-Allow-Headers", "Content-Type")
            .adding("Access-Control-Max-Age", "600")
    }

    func rateLimited(until: Double, now: Double, origin: HTTPRequest) -> HTTPResponse {
        let seconds = max(1, Int((until - now).rounded(.up)))
        return withCORS(
            Self.json(429, ["success": false, "error-codes": ["rate-limited"]]), for: origin,
            site: siteOfOrigin(origin)
        ).adding("Retry-After", String(seconds))
    }

    func storeUnavailable(_ error: any Error) -> HTTPResponse {
        log("\(Self.timestamp(clock())) error: the store is unavailable: \(error)")
        metrics.count("tactile_store_errors_total")
        return Self.error(503, "store unavailable")
    }

    // MARK: - Helpers

    static func json(_ status: Int, _ object: [String: JSONValue]) -> HTTPResponse {
        HTTPResponse(
            status: status, contentType: "application/json",
            body: JSONValue.object(object).serialized()
        ).adding("Cache-Control", "no-store")
    }

    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, ["error": JSONValue(message)])
    }

    static func object(_ body: [UInt8]) -> [String: JSONValue]? {
        (try? JSONValue.parse(body))?.object
    }

    static func form(_ body: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            if let name = parts.first { fields[name] = parts.count > 1 ? parts[1] : "" }
        }
        return fields
    }

    static func escapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
            of: "<", with: "&lt;"
        )
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The time as ISO 8601 in UTC to the second, `2026-12-02T01:41:58Z` (the years 1970 to
    /// 9999; a time outside them is written as the nearer end).
    public static func timestamp(_ seconds: Double) -> String {
        var time = time_t(seconds.isNaN ? 0 : min(max(seconds, 0), 253_402_300_799).rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// Milliseconds to one decimal place, `12.3`.
    static func milliseconds(_ seconds: Double) -> String {
        let tenths = Int((min(max(seconds, 0), 1e9) * 10_000).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
