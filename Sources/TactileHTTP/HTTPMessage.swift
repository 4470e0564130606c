/// A request as a handler sees it: method, path, query, headers, the whole body, and who
/// sent it.
public struct HTTPRequest: Sendable {
    /// The method, upper case: `GET`, `POST`, …
    public var method: String
    /// The path, without the query string: `/v1/challenges`.
    public var path: String
    /// The query arguments, decoded.
    public var query: [String: String]
    /// The headers by lower-case name; a repeated header keeps its last value.
    public var headers: [String: String]
    /// The body, at most the server's ``HTTPServer/Configuration/maximumBodyBytes``.
    public var body: [UInt8]
    /// The peer's address (IPv4 or IPv6 text); a proxy's when behind one.
    public var clientAddress: String
    /// When the server had the whole request, before it waited for a worker: a handler that
    /// times from here counts that wait, which is what a client sees of a busy server.
    public var received: ContinuousClock.Instant

    /// Creates a request (for tests and for handlers calling handlers).
    public init(
        method: String, path: String, query: [String: String] = [:],
        headers: [String: String] = [:], body: [UInt8] = [], clientAddress: String = "127.0.0.1",
        received: ContinuousClock.Instant = .now
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { $1 }
        self.body = body
        self.clientAddress = clientAddress
        self.received = received
    }

    /// A header's value, by name in any case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A response: status, headers in order, body.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The headers, in the order they are sent.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a body of the given media type.
    public init(status: Int, contentType: String, body: [UInt8]) {
        self.init(status: status, headers: [("Content-Type", contentType)], body: body)
    }

    /// A plain-text response.
    public static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(
            status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }

    /// The same response with one more header.
    public func adding(_ name: String, _ value: String) -> HTTPResponse {
        var copy = self
        copy.headers.append((name, value))
        return copy
    }
}
