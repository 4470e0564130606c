import Foundation
import Synchronization
import TactileCore
import TactileCrypto
import TactileHTTP
import TactilePuzzle
import TactilePuzzleDesk
@_spi(AnswerReveal) import TactilePuzzleImaging
import TactilePuzzleStores
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
        /// How a site's price follows a surge of its answers.
        public var surge = SurgePricing()

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
    /// The captcha's flow over ``backend``: every request that issues, answers or redeems
    /// goes through it.
    let desk: CaptchaDesk
    let metrics = ServiceMetrics()
    let serverMessages = MessageBudget(perSecond: 10)
    let log: @Sendable (String) -> Void
    /// The surge bits this instance last priced each site's puzzles with, by site key.
    let surgeLevels = Mutex<[String: Int]>([:])
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
        var desk = CaptchaDesk.Configuration(
            policy: configuration.policy, options: configuration.options,
            pictures: configuration.pictures)
        desk.acceptedDragLifetime = configuration.acceptedDragLifetime
        desk.surge = configuration.surge
        self.desk = CaptchaDesk(configuration: desk, store: backend)
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
            "\(UTCTimestamp.string(clock())) \(client(of: request)) \(Self.loggable(request.method)) \(endpoint) \(response.status) \(Self.milliseconds(seconds)) ms"
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
        log("\(UTCTimestamp.string(now)) server: \(message.prefix(300))\(note)")
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
}
