import TactileHTTP

/// One endpoint of the service: a method, a path pattern and what answers it. The table of
/// them (``CaptchaService/routes``) is the one place endpoints are written: dispatch, the
/// 405's `Allow`, the label of the metrics and the log, the values a path carries (its
/// `{id}`) and which pages of other origins may read its answers (CORS) all come from it.
struct Route: Sendable {
    /// `GET`, `POST` or `OPTIONS` (`HEAD` is answered wherever `GET` is).
    let method: String
    /// The path's segments; `{id}` stands for any one segment, handed to the handler.
    let pattern: [String]
    /// When the service offers it.
    let offer: Offer
    /// Which pages of other origins may read its answers.
    let crossOrigin: CrossOrigin
    /// The answer, given the path's values in order.
    let handle: @Sendable (CaptchaService, HTTPRequest, [String]) -> HTTPResponse

    /// When a route is offered.
    enum Offer: Sendable {
        case always
        /// With a demo site (`--demo`, or no `--sites`).
        case withDemo
        /// With `--reveal-answers-for-tests`.
        case withAnswersRevealed
    }

    init(
        _ method: String, _ path: String, offered offer: Offer = .always,
        sharedWith crossOrigin: CrossOrigin = .none,
        _ handle: @escaping @Sendable (CaptchaService, HTTPRequest, [String]) -> HTTPResponse
    ) {
        self.method = method
        pattern = CaptchaService.segments(of: path)
        self.offer = offer
        self.crossOrigin = crossOrigin
        self.handle = handle
    }

    /// Whether `service` offers it.
    func isOffered(by service: CaptchaService) -> Bool {
        switch offer {
        case .always: true
        case .withDemo: service.configuration.demoSite != nil
        case .withAnswersRevealed: service.configuration.revealsAnswers
        }
    }

    /// The path as the metrics and the log name it: `/v1/challenges/{id}/answer`.
    var label: String { "/" + pattern.joined(separator: "/") }

    /// The values of `segments` where the pattern has `{id}`, or `nil` when they do not match.
    func values(of segments: [String]) -> [String]? {
        guard segments.count == pattern.count else { return nil }
        var values: [String] = []
        for (part, segment) in zip(pattern, segments) {
            if part == "{id}" {
                values.append(segment)
            } else if part != segment {
                return nil
            }
        }
        return values
    }
}

extension CaptchaService {
    /// Every endpoint of the public listener (the metrics have a listener of their own).
    static let routes: [Route] = [
        Route("POST", "/v1/challenges", sharedWith: .sitePages) { service, request, _ in
            service.issue(request)
        },
        Route("OPTIONS", "/v1/challenges") { service, request, _ in service.preflight(request) },
        Route("GET", "/v1/challenges/{id}/background", sharedWith: .anyPage) {
            service, _, values in
            service.image(id: values[0], kind: "background")
        },
        Route("OPTIONS", "/v1/challenges/{id}/background") { service, request, _ in
            service.preflight(request)
        },
        Route("GET", "/v1/challenges/{id}/piece", sharedWith: .anyPage) { service, _, values in
            service.image(id: values[0], kind: "piece")
        },
        Route("OPTIONS", "/v1/challenges/{id}/piece") { service, request, _ in
            service.preflight(request)
        },
        Route("POST", "/v1/challenges/{id}/answer", sharedWith: .sitePages) {
            service, request, values in
            service.answer(request, id: values[0])
        },
        Route("OPTIONS", "/v1/challenges/{id}/answer") { service, request, _ in
            service.preflight(request)
        },
        Route("POST", "/v1/siteverify") { service, request, _ in service.siteverify(request) },
        Route("GET", "/") { service, _, _ in service.homePage() },
        Route("GET", "/widget.js", sharedWith: .anyPage) { _, _, _ in WebResources.widget() },
        Route("GET", "/widget/{id}", sharedWith: .anyPage) { _, _, values in
            WebResources.widgetPart(values[0])
        },
        Route("GET", "/demo", offered: .withDemo) { service, _, _ in
            service.demoPage()
        },
        Route("POST", "/demo", offered: .withDemo) {
            service, request, _ in service.demoSubmit(request)
        },
        Route("GET", "/healthz") { service, _, _ in
            service.backend.isHealthy()
                ? json(200, ["status": "ok"]) : json(503, ["status": "store unavailable"])
        },
        Route("GET", "/test/answer/{id}", offered: .withAnswersRevealed) {
            service, _, values in service.revealAnswer(id: values[0])
        },
    ]

    /// Answers a request from the table: its route's handler; else 405 with the methods its
    /// path does take (`Allow`), or 404 when no route offered here has its path.
    func route(_ request: HTTPRequest) -> HTTPResponse {
        let segments = Self.segments(of: request.path)
        // HEAD is GET without the body (libmicrohttpd leaves it out).
        let method = request.method == "HEAD" ? "GET" : request.method
        var allowed: [String] = []
        for route in Self.routes where route.isOffered(by: self) {
            guard let values = route.values(of: segments) else { continue }
            if route.method == method {
                return shared(
                    route.handle(self, request, values), with: route.crossOrigin, for: request)
            }
            allowed += route.method == "GET" ? ["GET", "HEAD"] : [route.method]
        }
        guard !allowed.isEmpty else { return Self.error(404, "no such endpoint") }
        return Self.error(405, "method not allowed").adding(
            "Allow", allowed.joined(separator: ", "))
    }

    /// The endpoint a path names, for logs and metrics; `other` for a path that names none,
    /// so that made-up paths neither add series to the metrics without end nor write what
    /// they like into the log.
    static func endpoint(of path: String) -> String {
        let segments = segments(of: path)
        return routes.first { $0.values(of: segments) != nil }?.label ?? "other"
    }

    /// The path's non-empty segments between slashes.
    static func segments(of path: String) -> [String] {
        path.utf8.split(separator: UInt8(ascii: "/")).map { String(Substring($0)) }
    }
}
