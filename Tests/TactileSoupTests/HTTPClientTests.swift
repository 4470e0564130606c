import CSoup
import Foundation
import TactileHTTP
import TactileSoup
import Testing

/// The libsoup client against the project's own HTTP server on loopback: requests arrive
/// whole, answers come back on the main loop, and failures are reported, not hung.
@Suite(.serialized) struct HTTPClientTests {
    /// Runs the main loop until `done()`, or until `seconds` pass: a bound that only a client
    /// that never finishes reaches.
    func runLoop(until done: () -> Bool, seconds: Double = 30) {
        let end = ContinuousClock.now + .seconds(seconds)
        while !done(), ContinuousClock.now < end {
            if g_main_context_iteration(nil, 0) == 0 { usleep(1000) }
        }
    }

    /// A server that echoes what it was sent; `/slow` answers only once `slowMayEnd` is
    /// signalled (or after a minute).
    func echoServer(slowMayEnd: DispatchSemaphore = DispatchSemaphore(value: 0)) throws
        -> HTTPServer
    {
        try HTTPServer(configuration: HTTPServer.Configuration(port: 0)) { request in
            if request.path == "/slow" { _ = slowMayEnd.wait(timeout: .now() + 60) }
            let summary =
                "\(request.method) \(request.path) origin=\(request.header("Origin") ?? "-") type=\(request.header("Content-Type") ?? "-") body=\(String(decoding: request.body, as: UTF8.self))"
            return HTTPResponse.text(request.path == "/missing" ? 404 : 200, summary).adding(
                "Retry-After", "7")
        }
    }

    @Test func aPostArrivesWholeAndItsAnswerComesBackOnTheMainLoop() throws {
        let server = try echoServer()
        defer { server.stop() }
        let client = HTTPClient()
        var answers: [Result<HTTPClient.Response, HTTPClient.Failure>] = []
        client.send(
            method: "POST", url: "http://127.0.0.1:\(server.port)/v1/x",
            headers: ["Origin": "http://localhost", "Content-Type": "application/json"],
            body: Array(#"{"a": 1}"#.utf8)
        ) { answers.append($0) }
        client.send(method: "GET", url: "http://127.0.0.1:\(server.port)/missing") {
            answers.append($0)
        }
        #expect(answers.isEmpty, "completions wait for the main loop")
        runLoop(until: { answers.count == 2 })
        let responses = answers.compactMap { try? $0.get() }.sorted { $0.status < $1.status }
        #expect(responses.map(\.status) == [200, 404])
        #expect(
            String(decoding: responses[0].body, as: UTF8.self)
                == #"POST /v1/x origin=http://localhost type=application/json body={"a": 1}"#)
        #expect(responses[0].headers["retry-after"] == "7")
    }

    @Test func aServerThatIsNotThereIsAFailure() throws {
        // A port that was free a moment ago.
        let server = try echoServer()
        let port = server.port
        server.stop()
        let client = HTTPClient(timeout: 2)
        var answer: Result<HTTPClient.Response, HTTPClient.Failure>?
        client.send(method: "GET", url: "http://127.0.0.1:\(port)/") { answer = $0 }
        runLoop(until: { answer != nil })
        guard case .failure(let failure) = answer else {
            Issue.record("\(String(describing: answer))")
            return
        }
        #expect(!failure.description.isEmpty)
        var bad: Result<HTTPClient.Response, HTTPClient.Failure>?
        client.send(method: "GET", url: "not a url") { bad = $0 }
        #expect(bad.map { if case .failure = $0 { true } else { false } } == true)
    }

    @Test func aSlowServerTimesOut() throws {
        // The server answers only once the client has given up: a client without a deadline
        // would wait for ever.
        let slowMayEnd = DispatchSemaphore(value: 0)
        let server = try echoServer(slowMayEnd: slowMayEnd)
        defer { server.stop() }
        defer { slowMayEnd.signal() }
        let client = HTTPClient(timeout: 1)
        var answer: Result<HTTPClient.Response, HTTPClient.Failure>?
        client.send(method: "GET", url: "http://127.0.0.1:\(server.port)/slow") { answer = $0 }
        runLoop(until: { answer != nil })
        guard case .failure = answer else {
            Issue.record("gave up on the client instead: \(String(describing: answer))")
            return
        }
    }

    @Test func aBodyOverTheLimitIsRefused() throws {
        let huge = [UInt8](repeating: 65, count: HTTPClient.bodyLimit + 1)
        let server = try HTTPServer(configuration: HTTPServer.Configuration(port: 0)) { _ in
            HTTPResponse(status: 200, contentType: "text/plain", body: huge)
        }
        defer { server.stop() }
        var answer: Result<HTTPClient.Response, HTTPClient.Failure>?
        HTTPClient().send(method: "GET", url: "http://127.0.0.1:\(server.port)/") { answer = $0 }
        runLoop(until: { answer != nil })
        guard case .failure(let failure) = answer else {
            Issue.record("a body over 16 MiB was accepted")
            return
        }
        #expect(failure.description.contains("16 MiB"))
    }

    /// A server that answers at once and then trickles a chunked body forever, a byte every
    /// 50 ms: the client gives up at its deadline instead of reading for ever.
    @Test func aBodyThatNeverEndsStopsAtTheDeadline() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length)
                return getsockname(listener, $0, &length)
            }
        }
        listen(listener, 1)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let stop = ManagedFlag()
        let thread = Thread {
            let connection = accept(listener, nil, nil)
            var request = [UInt8](repeating: 0, count: 4096)
            _ = recv(connection, &request, request.count, 0)
            let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            _ = send(connection, head, head.utf8.count, Int32(MSG_NOSIGNAL))
            while !stop.isSet {
                let chunk = "1\r\nx\r\n"
                if send(connection, chunk, chunk.utf8.count, Int32(MSG_NOSIGNAL)) < 0 { break }
                usleep(50_000)
            }
            close(connection)
        }
        thread.start()
        defer {
            stop.set()
            close(listener)
        }
        let client = HTTPClient(timeout: 1)
        var answer: Result<HTTPClient.Response, HTTPClient.Failure>?
        client.send(method: "GET", url: "http://127.0.0.1:\(port)/") { answer = $0 }
        // The body goes on until the test ends: only the deadline can finish the request.
        runLoop(until: { answer != nil })
        guard case .failure(let failure) = answer else {
            Issue.record("gave up on the client instead: \(String(describing: answer))")
            return
        }
        #expect(failure.description == "no answer within 1 s")
    }
}

/// A flag one thread sets and another reads.
final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}
