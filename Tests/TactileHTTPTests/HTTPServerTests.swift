import Foundation
import Synchronization
import Testing

@testable import TactileHTTP

/// The HTTP server over real loopback sockets: requests reach the handler whole, limits are
/// kept, a slow client is cut off, and concurrent requests are served.
@Suite(.serialized) struct HTTPServerTests {
    /// Sends raw bytes to the server and returns everything it answers until it closes or
    /// `seconds` pass.
    func exchange(_ port: Int, _ request: [UInt8], wait seconds: Double = 5) -> String {
        exchangeToTheEnd(port, request, wait: seconds).answer
    }

    /// Sends raw bytes to the server and returns everything it answers, and whether the server
    /// closed the connection (`false` when a read waited `seconds` for nothing).
    func exchangeToTheEnd(_ port: Int, _ request: [UInt8], wait seconds: Double)
        -> (answer: String, closedByServer: Bool)
    {
        guard let socket = Self.connect(to: port, timeout: seconds) else { return ("", false) }
        defer { close(socket) }
        _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                answer += chunk[0..<n]
                continue
            }
            // End of stream or a reset is the server closing; a read timing out is not.
            let closed = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
            return (String(decoding: answer, as: UTF8.self), closed)
        }
    }

    /// Waits for `condition` to hold, checking every few milliseconds: false only if it still
    /// does not after `seconds`, a bound that a working server never comes near.
    static func waitUntil(seconds: Double = 30, _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            usleep(2000)
        }
        return true
    }

    /// A socket connected to the server on loopback, its reads timing out after `timeout`
    /// seconds; `nil` when it cannot connect.
    static func connect(to port: Int, timeout: Double, from source: String? = nil) -> Int32? {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(socket)
                return nil
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            return nil
        }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        return socket
    }

    /// A server on a free port, `edit`ed, that answers every request with a line naming it.
    func echoServer(_ edit: (inout HTTPServer.Configuration) -> Void = { _ in }) throws
        -> HTTPServer
    {
        try HTTPServer(configuration: configuration(edit)) { request in
            let summary =
                "\(request.method) \(request.path) q=\(request.query["a"] ?? "-") h=\(request.header("X-Test") ?? "-") n=\(request.body.count) from=\(request.clientAddress)"
            return HTTPResponse.text(200, summary).adding("X-Echo", "yes")
        }
    }

    /// Runs `work` on a thread of its own (blocking socket calls would hold up the test
    /// runner's shared threads); the function returned waits for its result.
    func inBackground(_ work: @escaping @Sendable () -> String) -> () -> String {
        final class Box: @unchecked Sendable { var value = "" }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Thread {
            box.value = work()
            done.signal()
        }.start()
        return {
            done.wait()
            return box.value
        }
    }

    func configuration(_ edit: (inout HTTPServer.Configuration) -> Void = { _ in })
        -> HTTPServer.Configuration
    {
        var c = HTTPServer.Configuration(port: 0)
        edit(&c)
        return c
    }

    @Test func requestsReachTheHandlerWhole() throws {
        let server = try echoServer()
        defer { server.stop() }
        #expect(server.port > 0)
        let body = String(repeating: "x", count: 3000)
        let answer = exchange(
            server.port,
            Array(
                "POST /v1/thing?a=b%20c HTTP/1.1\r\nHost: x\r\nX-Test: 7\r\nContent-Length: 3000\r\nConnection: close\r\n\r\n\(body)"
                    .utf8))
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
        #expect(answer.contains("X-Echo: yes"))
        #expect(answer.contains("POST /v1/thing q=b c h=7 n=3000 from=127.0.0.1"), "\(answer)")
    }

    @Test func oversizedBodiesAreRefused() throws {
        let server = try echoServer { $0.maximumBodyBytes = 1000 }
        defer { server.stop() }
        let declared = exchange(
            server.port,
            Array(
                "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nConnection: close\r\n\r\n"
                    .utf8))
        #expect(declared.hasPrefix("HTTP/1.1 413"), "\(declared)")
        // Chunked, so the size is only known as it arrives.
        let chunk = String(repeating: "y", count: 800)
        let chunked = exchange(
            server.port,
            Array(
                "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n320\r\n\(chunk)\r\n320\r\n\(chunk)\r\n0\r\n\r\n"
                    .utf8))
        #expect(chunked.hasPrefix("HTTP/1.1 413"), "\(chunked)")
    }

    /// A message whose length could be read two ways is refused and the connection closed,
    /// so that no leftover can run as a second request (request smuggling): Content-Length
    /// with Transfer-Encoding, two Content-Lengths, a length that is not a number, and a
    /// transfer coding other than chunked. Each gets one answer, with one head — but for a
    /// length that is not a number, which libmicrohttpd refuses itself before any handler
    /// sees it, and (in Debian 12's 0.9.75) with its head sent twice.
    @Test(arguments: [
        (
            "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
            "0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n", 400
        ),
        ("Content-Length: 3\r\nContent-Length: 40\r\n", "abcGET /smuggled HTTP/1.1\r\n\r\n", 400),
        ("Content-Length: 3\r\nContent-Length: 3\r\n", "abc", 400),
        ("Content-Length: +3\r\n", "abc", 400),  // refused by libmicrohttpd itself
        ("Transfer-Encoding: gzip, chunked\r\n", "0\r\n\r\n", 501),
        ("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n", "0\r\n\r\n", 501),
    ])
    func ambiguousFramingIsRefusedAndTheConnectionClosed(
        headers: String, body: String, status: Int
    ) throws {
        // Closed by the server rather than left to time out: no timeout of the server's can
        // end the connection before the client stops waiting.
        let server = try echoServer {
            $0.timeoutSeconds = 120
            $0.limits.requestSeconds = 120
        }
        defer { server.stop() }
        let (answer, closed) = exchangeToTheEnd(
            server.port, Array("POST /first HTTP/1.1\r\nHost: x\r\n\(headers)\r\n\(body)".utf8),
            wait: 30)
        #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(answer)")
        if !headers.contains("+3") {
            #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "one head: \(answer)")
        }
        #expect(!answer.contains("smuggled") && !answer.contains("POST /first"), "\(answer)")
        #expect(closed, "the connection was left open: \(answer)")
    }

    /// Which host a request is for must not be read two ways: HTTP/1.1 needs exactly one
    /// `Host` (HTTP/1.0 may have none).
    @Test func aRequestHasOneHost() throws {
        let server = try echoServer()
        defer { server.stop() }
        for (head, status) in [
            ("GET /none HTTP/1.1\r\n", 400),
            ("GET /two HTTP/1.1\r\nHost: a\r\nHost: b\r\n", 400),
            ("GET /old HTTP/1.0\r\nHost: a\r\nHost: b\r\n", 400),
            ("GET /old HTTP/1.0\r\n", 200),
            ("GET /one HTTP/1.1\r\nHost: a\r\n", 200),
        ] {
            let answer = exchange(server.port, Array("\(head)Connection: close\r\n\r\n".utf8))
            #expect(
                answer.hasPrefix("HTTP/1.1 \(status)") || answer.hasPrefix("HTTP/1.0 \(status)"),
                "\(head): \(answer)")
        }
    }

    /// A URI with more arguments than a request's memory holds used to stall until the idle
    /// timeout; it is closed at once, and one with a few hundred is answered.
    @Test func aThousandQueryArgumentsDoNotHoldAConnection() throws {
        // No timeout of the server's can close the connection while the client waits.
        let server = try echoServer {
            $0.timeoutSeconds = 120
            $0.limits.requestSeconds = 120
        }
        defer { server.stop() }
        func ask(_ count: Int) -> (answer: String, closed: Bool) {
            guard let socket = Self.connect(to: server.port, timeout: 5) else { return ("", false) }
            defer { close(socket) }
            let query = (0..<count).map { "a\($0)=1" }.joined(separator: "&")
            let request = Array(
                "GET /q?\(query) HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".utf8)
            _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
            let closed = Self.isClosed(socket, within: 30)
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes {
                recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
            }
            return (String(decoding: chunk.prefix(max(0, n)), as: UTF8.self), closed)
        }
        #expect(ask(300).answer.hasPrefix("HTTP/1.1 200"))
        let many = ask(600)
        #expect(many.answer.hasPrefix("HTTP/1.1 414"), "\(many)")
        #expect(many.answer.contains("Connection: close"), "\(many)")
        #expect(ask(1000).closed, "a thousand arguments held the connection")
    }

    @Test func chunkedAloneAndOneContentLengthStillWork() throws {
        let server = try echoServer()
        defer { server.stop() }
        let chunked = exchange(
            server.port,
            Array(
                "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
                    .utf8))
        #expect(chunked.hasPrefix("HTTP/1.1 200") && chunked.contains("n=3"), "\(chunked)")
        let plain = exchange(
            server.port,
            Array(
                "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc"
                    .utf8))
        #expect(plain.hasPrefix("HTTP/1.1 200") && plain.contains("n=3"), "\(plain)")
    }

    /// Headers of the size browsers send pass; headers past the connection's memory are
    /// answered 431, and a body larger than that memory still arrives whole (it is copied
    /// out as it comes, so several requests on one connection each get the memory afresh).
    @Test func headersAreBoundedBodiesAreNot() throws {
        let messages = Lines()
        let server = try echoServer { $0.messages = { messages.append($0) } }
        defer { server.stop() }
        let cookie = String(repeating: "c", count: 16 << 10)
        let body = String(repeating: "b", count: 200_000)
        let request =
            "POST / HTTP/1.1\r\nHost: x\r\nCookie: \(cookie)\r\nContent-Length: 200000\r\n\r\n\(body)"
        let twice = exchange(
            server.port,
            Array(
                (request
                    + request.replacingOccurrences(
                        of: "Host: x", with: "Host: x\r\nConnection: close"))
                    .utf8))
        #expect(twice.components(separatedBy: "HTTP/1.1 200").count == 3, "\(twice.prefix(300))")
        #expect(twice.contains("n=200000"))
        let huge = String(repeating: "h", count: HTTPServer.connectionMemory)
        let refused = exchange(
            server.port,
            Array("GET / HTTP/1.1\r\nHost: x\r\nCookie: \(huge)\r\nConnection: close\r\n\r\n".utf8))
        #expect(refused.hasPrefix("HTTP/1.1 431"), "\(refused.prefix(200))")
        // libmicrohttpd says why it refused, as one line to the server's messages (not to
        // standard error), naming the status but nothing the client sent.
        let said = messages.all
        #expect(said.contains { $0.contains("431") }, "\(said)")
        #expect(said.allSatisfy { !$0.contains("\n") && !$0.contains("hhhh") }, "\(said)")
    }

    /// Lines collected from any thread.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) {
            lock.lock()
            lines.append(line)
            lock.unlock()
        }
        var all: [String] {
            lock.lock()
            defer { lock.unlock() }
            return lines
        }
    }

    @Test func aSlowClientIsCutOff() throws {
        // The idle timeout alone can close the connection before the client stops waiting.
        let server = try echoServer {
            $0.timeoutSeconds = 1
            $0.limits.requestSeconds = 120
        }
        defer { server.stop() }
        // Half a request line, then nothing: the server must close the connection itself.
        let (answer, closed) = exchangeToTheEnd(
            server.port, Array("GET / HTTP/1.1\r\nHo".utf8), wait: 30)
        #expect(answer.isEmpty)
        #expect(closed, "the idle connection stayed open")
    }

    @Test func manyConcurrentRequestsAreServed() async throws {
        let server = try echoServer()
        defer { server.stop() }
        let port = server.port
        let answers = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<64 {
                group.addTask {
                    self.exchange(
                        port, Array("GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
                    ).hasPrefix("HTTP/1.1 200")
                }
            }
            var ok = 0
            for await answer in group where answer { ok += 1 }
            return ok
        }
        #expect(answers == 64)
    }

    /// A kept-alive connection: one request at a time, each answer read to its end.
    final class Connection: @unchecked Sendable {
        let socket: Int32
        var buffered: [UInt8] = []

        init?(port: Int) {
            guard let socket = HTTPServerTests.connect(to: port, timeout: 10) else { return nil }
            self.socket = socket
        }

        deinit { close(socket) }

        /// GETs `path` and returns the answer's body ("" when none came).
        func get(_ path: String) -> String {
            let request = Array("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let text = String(decoding: buffered, as: UTF8.self)
                if let end = text.range(of: "\r\n\r\n"),
                    let line = text[..<end.lowerBound].split(separator: "\r\n").first(where: {
                        $0.lowercased().hasPrefix("content-length:")
                    }),
                    let length = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces))
                {
                    let head = text[..<end.upperBound].utf8.count
                    if buffered.count >= head + length {
                        let body = String(decoding: buffered[head..<(head + length)], as: UTF8.self)
                        buffered.removeFirst(head + length)
                        return body
                    }
                }
                let n = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                if n <= 0 { return "" }
                buffered += chunk[0..<n]
            }
        }
    }

    /// A free worker takes the next request whatever connection it came on: while one worker
    /// is held by a slow request, requests on every other kept-alive connection are answered
    /// by the other. (With connections tied to threads, those sharing the slow one's thread
    /// would wait behind it.)
    @Test func aSlowRequestHoldsOneWorkerNotItsNeighbours() throws {
        // The slow request holds its worker until every fast one is answered: a fast one
        // waiting behind it would never be (its read gives up after 10 s).
        let slowStarted = DispatchSemaphore(value: 0)
        let slowMayEnd = DispatchSemaphore(value: 0)
        let server = try HTTPServer(configuration: configuration { $0.threads = 2 }) { request in
            if request.path == "/slow" {
                slowStarted.signal()
                _ = slowMayEnd.wait(timeout: .now() + 60)
            }
            return .text(200, request.path)
        }
        defer { server.stop() }
        defer { slowMayEnd.signal() }
        let connections = (0..<9).compactMap { _ in Connection(port: server.port) }
        try #require(connections.count == 9)
        for (index, connection) in connections.enumerated() {
            #expect(connection.get("/hello\(index)") == "/hello\(index)")
        }
        let slow = inBackground { connections[0].get("/slow") }
        try #require(slowStarted.wait(timeout: .now() + 30) == .success)
        for round in 0..<3 {
            for (index, connection) in connections.enumerated().dropFirst() {
                #expect(connection.get("/fast\(round)-\(index)") == "/fast\(round)-\(index)")
            }
        }
        slowMayEnd.signal()
        #expect(slow() == "/slow")
    }

    /// A request's `received` is when it came in whole, not when a worker took it: with the
    /// one worker held, a request that comes in meanwhile was received before the worker was
    /// let go, and taken after.
    @Test func aRequestKnowsWhenItCameInNotWhenAWorkerTookIt() throws {
        let slowStarted = DispatchSemaphore(value: 0)
        let slowMayEnd = DispatchSemaphore(value: 0)
        /// Each request's `received`, and when its handler started.
        let seen = Mutex<
            [String: (received: ContinuousClock.Instant, taken: ContinuousClock.Instant)]
        >(
            [:])
        let server = try HTTPServer(configuration: configuration { $0.threads = 1 }) { request in
            let taken = ContinuousClock.now
            seen.withLock { $0[request.path] = (request.received, taken) }
            if request.path == "/slow" {
                slowStarted.signal()
                _ = slowMayEnd.wait(timeout: .now() + 60)
            }
            return .text(200, request.path)
        }
        defer { server.stop() }
        defer { slowMayEnd.signal() }
        let port = server.port
        let get = { (path: String) in
            self.inBackground {
                self.exchange(
                    port,
                    Array("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8),
                    wait: 30)
            }
        }
        let sent = ContinuousClock.now
        let slow = get("/slow")
        try #require(slowStarted.wait(timeout: .now() + 30) == .success)
        let queued = get("/queued")
        // Both are handed to the workers: the slow one running, the other waiting for it.
        try #require(Self.waitUntil { server.unsent.load(ordering: .acquiring) == 2 })
        let released = ContinuousClock.now
        slowMayEnd.signal()
        #expect(slow().hasSuffix("\r\n\r\n/slow") && queued().hasSuffix("\r\n\r\n/queued"))
        let times = seen.withLock { $0 }
        let first = try #require(times["/slow"])
        let second = try #require(times["/queued"])
        #expect(sent <= first.received && first.received <= first.taken)
        #expect(sent <= second.received && second.received < released, "received when taken")
        #expect(released <= second.taken)
    }

    /// Stopping answers the requests under way, those running and those queued, before it
    /// closes their connections.
    @Test func stoppingFinishesRequestsUnderWay() throws {
        let events = Mutex<[String]>([])
        let server = try HTTPServer(configuration: configuration { $0.threads = 1 }) { request in
            usleep(200_000)
            events.withLock { $0.append("done \(request.path)") }
            return .text(200, "done \(request.path)")
        }
        let port = server.port
        let answers = (0..<3).map { index in
            inBackground {
                self.exchange(
                    port,
                    Array("GET /\(index) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8),
                    wait: 30)
            }
        }
        // All three are in: one running, two queued behind it.
        try #require(Self.waitUntil { server.unsent.load(ordering: .acquiring) == 3 })
        server.stop()
        events.withLock { $0.append("stopped") }
        let order = events.withLock { $0 }
        #expect(
            order.last == "stopped", "stop returned before the requests under way ran: \(order)")
        #expect(Set(order.dropLast()) == ["done /0", "done /1", "done /2"], "\(order)")
        for (index, answer) in answers.enumerated() {
            let text = answer()
            #expect(text.hasPrefix("HTTP/1.1 200") && text.hasSuffix("done /\(index)"), "\(text)")
        }
    }

    @Test func badAddressesAreNamed() {
        #expect(throws: HTTPServer.StartError.self) {
            try echoServer { $0.host = "localhost" }
        }
        #expect(throws: HTTPServer.StartError.self) {
            try echoServer { $0.port = 70000 }
        }
        do {
            let first = try echoServer()
            defer { first.stop() }
            let messages = Mutex<[String]>([])
            #expect(throws: HTTPServer.StartError.self) {
                try echoServer {
                    $0.port = first.port
                    $0.messages = { message in messages.withLock { $0.append(message) } }
                }
            }
            // libmicrohttpd's own message names the address, not "port 0".
            let said = messages.withLock { $0 }
            #expect(
                said.contains { $0.hasPrefix("Failed to bind to 127.0.0.1:\(first.port): ") },
                "\(said)")
        } catch {
            Issue.record("\(error)")
        }
    }

    /// Whether the server has closed `socket` (end of stream, or reset), waiting at most
    /// `seconds` for it.
    static func isClosed(_ socket: Int32, within seconds: Double) -> Bool {
        var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(seconds * 1000)) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, Int32(MSG_PEEK)) <= 0
    }

    @Test func aClientTricklingItsHeadersIsCutOffAtTheDeadline() throws {
        // A byte every 0.3 s never leaves the connection idle for the 10 s idle timeout: the
        // whole-request deadline (1 s here) must close it.
        let server = try echoServer { $0.limits.requestSeconds = 1 }
        defer { server.stop() }
        let socket = try #require(Self.connect(to: server.port, timeout: 5))
        defer { close(socket) }
        let request = Array(
            "GET / HTTP/1.1\r\nHost: a\r\nX-Padding: \(String(repeating: "x", count: 60))".utf8)
        var sent = 0
        for byte in request {
            var copy = byte
            guard send(socket, &copy, 1, Int32(MSG_NOSIGNAL)) == 1 else { break }
            sent += 1
            if Self.isClosed(socket, within: 0.3) { break }
        }
        #expect(sent < request.count, "a trickle of \(sent) header bytes held the connection")
        #expect(Self.isClosed(socket, within: 1))
    }

    @Test func aBodyPastTheLimitBuysNoMoreTime() throws {
        // A chunked body over the limit is dropped; what follows of it, however steady, no
        // longer moves the deadline on.
        let server = try echoServer {
            $0.limits.requestSeconds = 1
            $0.maximumBodyBytes = 10_000
        }
        defer { server.stop() }
        let socket = try #require(Self.connect(to: server.port, timeout: 5))
        defer { close(socket) }
        let head =
            "POST /big HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "3a98\r\n" + String(repeating: "x", count: 15000) + "\r\n"
        _ = Array(head.utf8).withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        var sent = 0
        for _ in 0..<40 {
            let chunk = Array("1\r\ny\r\n".utf8)
            guard
                chunk.withUnsafeBytes({
                    send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }) > 0
            else { break }
            sent += 1
            if Self.isClosed(socket, within: 0.25) { break }
        }
        #expect(sent < 40, "a trickle after an oversized body held the connection")
    }

    @Test func aClientOverItsLimitIsRefusedAndOthersAreServed() throws {
        let server = try echoServer {
            $0.limits.perClient = 2
            $0.limits.perNetwork = 3
        }
        defer { server.stop() }
        // Two idle connections from 127.0.0.1 hold its share.
        let held = try Self.open(2, to: server)
        defer { for socket in held { close(socket) } }
        // A third from it is closed at once, unanswered.
        let third = try #require(Self.connect(to: server.port, timeout: 5))
        defer { close(third) }
        #expect(Self.isClosed(third, within: 30))
        // Another address of the network gets one connection (the network's third) and an
        // answer; a second from that address is over the network's limit.
        let other = try #require(Self.connect(to: server.port, timeout: 5, from: "127.0.0.2"))
        defer { close(other) }
        let request = Array("GET /x HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        #expect(Self.ask(other, request).hasPrefix("HTTP/1.1 200"))
        let fourth = try #require(Self.connect(to: server.port, timeout: 5, from: "127.0.0.3"))
        defer { close(fourth) }
        #expect(Self.isClosed(fourth, within: 30))
        // Another network is not held back by this one.
        let elsewhere = exchangeFrom("127.1.0.1", server.port, request)
        #expect(elsewhere.hasPrefix("HTTP/1.1 200"), "\(elsewhere)")
    }

    /// `count` connections to `server` from 127.0.0.1, once the server holds them all (the
    /// caller closes them).
    static func open(_ count: Int, to server: HTTPServer) throws -> [Int32] {
        let sockets = (0..<count).compactMap { _ in connect(to: server.port, timeout: 5) }
        guard sockets.count == count,
            waitUntil({ server.connectionGuard.usage.connections >= count })
        else {
            let held = server.connectionGuard.usage.connections
            for socket in sockets { close(socket) }
            throw OpenFailure(opened: sockets.count, held: held)
        }
        return sockets
    }

    /// Fewer connections opened, or held by the server, than asked for.
    struct OpenFailure: Error {
        var opened: Int
        var held: Int
    }

    /// `exchange` from a given source address.
    func exchangeFrom(_ source: String, _ port: Int, _ request: [UInt8]) -> String {
        guard let socket = Self.connect(to: port, timeout: 5, from: source) else { return "" }
        defer { close(socket) }
        return Self.ask(socket, request)
    }

    /// Sends `request` on an open connection and returns what one read brings back.
    static func ask(_ socket: Int32, _ request: [UInt8]) -> String {
        _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        return String(decoding: chunk.prefix(max(0, n)), as: UTF8.self)
    }

    @Test func bodiesPastTheBudgetAre503AndTheBudgetComesBack() throws {
        let server = try echoServer {
            $0.limits.bodyBudget = 100_000
            $0.limits.bodyBudgetPerNetwork = 100_000
        }
        defer { server.stop() }
        // Declaring costs nothing: two requests that declare 80 kB and send none of it hold
        // no budget.
        let idle = try Self.open(2, to: server)
        defer { for socket in idle { close(socket) } }
        for socket in idle {
            let head = "POST /idle HTTP/1.1\r\nHost: a\r\nContent-Length: 80000\r\n\r\n"
            _ = Array(head.utf8).withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        }
        // (Nothing to wait for: a head that holds nothing changes nothing; a moment for the
        // server to read them.)
        usleep(200_000)
        let small = exchange(
            server.port,
            Array(
                ("POST /small HTTP/1.1\r\nHost: a\r\nContent-Length: 5000\r\nConnection: close\r\n\r\n"
                    + String(repeating: "s", count: 5000)).utf8))
        #expect(small.hasPrefix("HTTP/1.1 200"), "\(small.prefix(80))")
        // One request sends 70 kB of its 80 kB and waits: the budget holds those 70 kB.
        let slow = try #require(Self.connect(to: server.port, timeout: 5))
        let head =
            "POST /slow HTTP/1.1\r\nHost: a\r\nContent-Length: 80000\r\n\r\n"
            + String(repeating: "a", count: 70000)
        _ = Array(head.utf8).withUnsafeBytes { send(slow, $0.baseAddress, $0.count, 0) }
        try #require(Self.waitUntil { server.connectionGuard.usage.bodyBytes == 70000 })
        let over = exchange(
            server.port,
            Array(
                ("POST /over HTTP/1.1\r\nHost: a\r\nContent-Length: 40000\r\n\r\n"
                    + String(repeating: "b", count: 40000)).utf8))
        #expect(over.hasPrefix("HTTP/1.1 503"), "\(over.prefix(80))")
        #expect(over.contains("Retry-After: 1"))
        // The slow one finishes: it is answered, and its share comes back.
        _ = Array(String(repeating: "a", count: 10000).utf8).withUnsafeBytes {
            send(slow, $0.baseAddress, $0.count, 0)
        }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = chunk.withUnsafeMutableBytes { recv(slow, $0.baseAddress, $0.count, 0) }
        close(slow)
        #expect(String(decoding: chunk.prefix(max(0, n)), as: UTF8.self).contains("n=80000"))
        try #require(Self.waitUntil { server.connectionGuard.usage.bodyBytes == 0 })
        let after = exchange(
            server.port,
            Array(
                ("POST /after HTTP/1.1\r\nHost: a\r\nContent-Length: 40000\r\nConnection: close\r\n\r\n"
                    + String(repeating: "b", count: 40000)).utf8))
        #expect(after.hasPrefix("HTTP/1.1 200") && after.contains("n=40000"), "\(after.prefix(80))")
    }

    @Test func theUnspecifiedIPv6AddressTakesIPv4ClientsToo() throws {
        let server = try echoServer { $0.host = "::" }
        defer { server.stop() }
        let answer = exchange(
            server.port, Array("GET /v4 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".utf8))
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
    }
}
