import CMicroHTTPD
import Foundation
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: threads on epoll move the bytes (one for every four
/// cores), a pool of worker threads runs the handler, with limits that keep one client or a
/// flood of them from taking it over.
///
/// Each request is read whole (up to ``Configuration/maximumBodyBytes``; a larger declared
/// or sent body is answered 413) and queued for the workers, first come first served: the
/// first worker free takes the request that has waited longest, whichever connection it
/// came on. (Handing each worker connections of its own instead would leave a core idle
/// while another has a queue, and answers on some connections far slower than on others.)
/// The handler must be safe to call concurrently. Connections idle longer than the timeout
/// are closed (a slow client cannot hold a worker: only a whole request reaches one), and
/// there are limits on connections overall and per client address. Keep-alive is
/// libmicrohttpd's default.
public final class HTTPServer: @unchecked Sendable {
    /// Where and how the server listens.
    public struct Configuration: Sendable {
        /// The address to listen on: an IPv4 or IPv6 literal.
        public var host: String
        /// The port; 0 picks a free one (see ``HTTPServer/port``).
        public var port: Int
        /// Worker threads that run the handler; by default one per core. A handler that
        /// waits (on a database, say) wants more.
        public var threads: Int
        /// What one client or network may hold (connections, time, body bytes): see
        /// ``ConnectionGuard``.
        public var limits: ConnectionGuard.Limits
        /// Seconds a connection may sit idle, between requests or within one, before it
        /// is closed (a request's whole deadline is in ``limits``).
        public var timeoutSeconds: Int
        /// The largest request body accepted.
        public var maximumBodyBytes: Int
        /// Where libmicrohttpd's own messages go (a request it refused itself, a connection
        /// over the limit), one line each, control characters made spaces; by default to
        /// standard error.
        public var messages: @Sendable (String) -> Void

        /// Creates a configuration; by default 127.0.0.1:8080, a thread per core, the
        /// guard's default limits, 10 s idle timeout, 1 MiB bodies.
        public init(
            host: String = "127.0.0.1", port: Int = 8080,
            threads: Int = ProcessInfo.processInfo.activeProcessorCount,
            limits: ConnectionGuard.Limits = ConnectionGuard.Limits(),
            timeoutSeconds: Int = 10, maximumBodyBytes: Int = 1 << 20,
            messages: @escaping @Sendable (String) -> Void = HTTPServer.standardErrorMessages
        ) {
            self.host = host
            self.port = port
            self.threads = threads
            self.limits = limits
            self.timeoutSeconds = timeoutSeconds
            self.maximumBodyBytes = maximumBodyBytes
            self.messages = messages
        }
    }

    /// Writes a libmicrohttpd message to standard error, named as such.
    @Sendable public static func standardErrorMessages(_ message: String) {
        FileHandle.standardError.write(Data("libmicrohttpd: \(message)\n".utf8))
    }

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible, Sendable {
        /// What went wrong, naming the address.
        public var description: String
    }

    /// The handler: a request in, a response out.
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    private var daemon: OpaquePointer?
    fileprivate let handler: Handler
    fileprivate let workers: WorkQueue
    /// Requests handed to the workers whose answers are not yet sent.
    fileprivate let unsent = Atomic<Int>(0)
    fileprivate let configuration: Configuration
    /// Who may connect, and the deadlines and body budget of every connection.
    fileprivate let connectionGuard: ConnectionGuard
    /// Closes connections past their deadline, and reports refusals.
    fileprivate let reaper: Reaper
    /// libmicrohttpd's messages' way to ``Configuration/messages``, alive as long as the server.
    private let logger: UnsafeMutablePointer<tactile_mhd_logger>
    /// The port the server listens on.
    public private(set) var port: Int = 0

    /// Starts listening.
    ///
    /// - Throws: ``StartError`` for an address that is not a literal, a port out of range,
    ///   or one that cannot be bound (in use, not permitted).
    public init(configuration: Configuration, handler: @escaping Handler) throws(StartError) {
        guard (0...65535).contains(configuration.port) else {
            throw StartError(description: "port \(configuration.port) is outside 0…65535")
        }
        var storage = sockaddr_storage()
        let isIPv6: Bool
        if configuration.host.contains(":") {
            isIPv6 = true
            let ok = withUnsafeMutableBytes(of: &storage) { raw -> Bool in
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                address.pointee.sin6_family = sa_family_t(AF_INET6)
                address.pointee.sin6_port = UInt16(configuration.port).bigEndian
                return inet_pton(AF_INET6, configuration.host, &address.pointee.sin6_addr) == 1
            }
            guard ok else {
                throw StartError(description: "\(configuration.host) is not an IPv6 address")
            }
        } else {
            isIPv6 = false
            let ok = withUnsafeMutableBytes(of: &storage) { raw -> Bool in
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
                address.pointee.sin_family = sa_family_t(AF_INET)
                address.pointee.sin_port = UInt16(configuration.port).bigEndian
                return inet_pton(AF_INET, configuration.host, &address.pointee.sin_addr) == 1
            }
            guard ok else {
                throw StartError(
                    description: "\(configuration.host) is not an IPv4 or IPv6 address")
            }
        }
        self.configuration = configuration
        self.handler = handler
        connectionGuard = ConnectionGuard(limits: configuration.limits)
        reaper = Reaper(guard: connectionGuard, messages: configuration.messages)
        workers = WorkQueue(threads: configuration.threads, name: "http-worker")
        logger = .allocate(capacity: 1)
        let context = Unmanaged.passUnretained(self).toOpaque()
        logger.initialize(to: tactile_mhd_logger(log: messageHandler, context: context))
        daemon = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                // "::" takes IPv4 clients too, as "0.0.0.0" would on its own.
                tactile_mhd_start(
                    address, isIPv6 ? 1 : 0, configuration.host == "::" ? 1 : 0, acceptPolicy,
                    context, accessHandler, context, completionHandler, context,
                    connectionHandler, context, uriHandler, context,
                    UInt32(Self.networkThreads),
                    UInt32(max(1, configuration.limits.connections)),
                    UInt32(max(1, configuration.timeoutSeconds)), Self.connectionMemory, logger)
            }
        }
        guard let daemon else {
            workers.close()
            reaper.stop()
            throw StartError(
                description:
                    "cannot listen on \(configuration.host):\(configuration.port) (in use, or not permitted)"
            )
        }
        reaper.start()
        port = Int(tactile_mhd_port(daemon))
    }

    /// Threads moving bytes: reading a request and sending an answer is a small part of the
    /// work of one.
    static let networkThreads = max(1, ProcessInfo.processInfo.activeProcessorCount / 4)

    /// Each connection's memory in libmicrohttpd: its headers and read buffer (bodies are
    /// copied out as they arrive). libmicrohttpd clears it for every request on a
    /// connection, so it is kept to what a request's headers need (browsers send a few KiB).
    static let connectionMemory = 64 << 10

    /// The most query arguments a request may have: about what ``connectionMemory`` holds.
    static let maximumArguments = 512

    /// Finishes the requests under way, stops accepting, and closes every connection.
    public func stop() {
        guard let daemon else { return }
        self.daemon = nil
        // Requests that arrive meanwhile are answered on the network thread; none is left
        // suspended, which libmicrohttpd does not allow when it stops.
        workers.close()
        reaper.stop()
        // The network thread sends what the workers answered (a client that does not read
        // its answer gets two seconds).
        let deadline = DispatchTime.now().uptimeNanoseconds + 2_000_000_000
        while unsent.load(ordering: .acquiring) > 0, DispatchTime.now().uptimeNanoseconds < deadline
        {
            usleep(1000)
        }
        MHD_stop_daemon(daemon)
    }

    deinit {
        stop()
        logger.deallocate()
    }
}

/// A connection handle that a worker may hold: libmicrohttpd allows queueing a response on a
/// suspended connection, and resuming it, from any thread.
private struct SuspendedConnection: @unchecked Sendable {
    let connection: OpaquePointer?
}

/// What is kept for one request between libmicrohttpd's calls: the body so far.
private final class RequestBody {
    var bytes: [UInt8] = []
    /// The answer it gets once its body has been read: a body too large, or past the budget.
    var refusal: HTTPResponse?
    /// Body budget taken for it, given back when it completes.
    var budget = 0
    let origin: ClientNetwork
    /// Whether the request has gone to a worker.
    var isDispatched = false
    init(origin: ClientNetwork) { self.origin = origin }
}

/// Now, on the clock the connection guard keeps its deadlines by.
private func uptime() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// A connection's key in the connection guard.
private func guardID(_ connection: OpaquePointer?) -> Int { Int(bitPattern: connection) }

/// The client and network of a connection; a fixed one when its address is unknown.
private func origin(of connection: OpaquePointer?) -> ClientNetwork {
    var bytes = [UInt8](repeating: 0, count: 16)
    let count = Int(tactile_mhd_client_bytes(connection, &bytes))
    return ClientNetwork(addressBytes: Array(bytes.prefix(count))) ?? unknownOrigin
}

private let unknownOrigin = ClientNetwork(addressBytes: [0, 0, 0, 0])!

/// Closes connections past their deadline every quarter second, and says every ten seconds
/// how many connections were refused or closed for being slow, if any.
private final class Reaper: Sendable {
    private let connectionGuard: ConnectionGuard
    private let messages: @Sendable (String) -> Void
    private let running = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    /// Connections refused at accepting, and closed at their deadline, since the last report.
    let refused = Atomic<Int>(0)
    let closedSlow = Atomic<Int>(0)

    init(guard connectionGuard: ConnectionGuard, messages: @escaping @Sendable (String) -> Void) {
        self.connectionGuard = connectionGuard
        self.messages = messages
    }

    func start() {
        running.store(true, ordering: .releasing)
        let thread = Thread { [self] in
            var ticks = 0
            while running.load(ordering: .acquiring) {
                usleep(250_000)
                connectionGuard.expired(at: uptime()) { socket in
                    // The network thread sees the end of the stream and closes it.
                    shutdown(socket, Int32(SHUT_RDWR))
                    closedSlow.add(1, ordering: .relaxed)
                }
                ticks += 1
                if ticks % 40 == 0 { report() }
            }
            finished.signal()
        }
        thread.name = "http-deadlines"
        thread.start()
    }

    private func report() {
        let refused = refused.exchange(0, ordering: .relaxed)
        let slow = closedSlow.exchange(0, ordering: .relaxed)
        guard refused > 0 || slow > 0 else { return }
        let usage = connectionGuard.usage
        messages(
            "in the last 10 s: \(refused) connections refused (a client or network over its "
                + "limit, or the server full), \(slow) closed for being too slow; "
                + "\(usage.connections) open, \(usage.bodyBytes) body bytes held")
    }

    /// Stops the thread and waits for it; nothing when it never started.
    func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        finished.wait()
    }
}

/// Collects a connection's headers or query arguments.
private final class ValueCollector {
    var values: [String: String] = [:]
    let lowercasesNames: Bool
    init(lowercasesNames: Bool) { self.lowercasesNames = lowercasesNames }
}

private func collect(
    _ connection: OpaquePointer?, kind: MHD_ValueKind, lowercasing: Bool
) -> [String: String] {
    let collector = ValueCollector(lowercasesNames: lowercasing)
    withExtendedLifetime(collector) {
        _ = MHD_get_connection_values(
            connection, kind,
            { context, _, key, value in
                guard let context, let key else { return MHD_Result.YES }
                let collector = Unmanaged<ValueCollector>.fromOpaque(context)
                    .takeUnretainedValue()
                let name = String(cString: key)
                collector.values[collector.lowercasesNames ? name.lowercased() : name] =
                    value.map { String(cString: $0) } ?? ""
                return MHD_Result.YES
            }, Unmanaged.passUnretained(collector).toOpaque())
    }
    return collector.values
}

/// Every value of a request header, in order (`collect` keeps the last of each name).
private func values(of name: String, on connection: OpaquePointer?) -> [String] {
    final class Found {
        var values: [String] = []
        let name: String
        init(_ name: String) { self.name = name }
    }
    let found = Found(name.lowercased())
    withExtendedLifetime(found) {
        _ = MHD_get_connection_values(
            connection, MHD_ValueKind.HEADER_KIND,
            { context, _, key, value in
                guard let context, let key else { return MHD_Result.YES }
                let found = Unmanaged<Found>.fromOpaque(context).takeUnretainedValue()
                if String(cString: key).lowercased() == found.name {
                    found.values.append(value.map { String(cString: $0) } ?? "")
                }
                return MHD_Result.YES
            }, Unmanaged.passUnretained(found).toOpaque())
    }
    return found.values
}

/// Why a request's framing is refused, or `nil`: no `Host` in HTTP/1.1 or more than one,
/// both `Content-Length` and
/// `Transfer-Encoding`, `Content-Length` given more than once or not a plain number (400), or a
/// transfer coding other than `chunked` alone (501).
private func framingRefusal(_ connection: OpaquePointer?, version: String) -> HTTPResponse? {
    // Which site a request is for must not be read two ways either (HTTP/1.1 requires one).
    let hosts = values(of: "Host", on: connection)
    if hosts.count > 1 || (hosts.isEmpty && version == "HTTP/1.1") {
        return .text(400, "a request must have one Host header, not \(hosts.count)")
    }
    let lengths = values(of: "Content-Length", on: connection)
    let codings = values(of: "Transfer-Encoding", on: connection)
    if !lengths.isEmpty, !codings.isEmpty {
        return .text(400, "a request may not have both Content-Length and Transfer-Encoding")
    }
    if lengths.count > 1 {
        return .text(400, "a request may have one Content-Length, not \(lengths.count)")
    }
    if let length = lengths.first,
        length.isEmpty || !length.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
    {
        return .text(400, "Content-Length must be a number of bytes")
    }
    if !codings.isEmpty,
        codings.count > 1
            || codings[0].trimmingCharacters(in: .whitespaces).lowercased() != "chunked"
    {
        return .text(501, "only the chunked transfer coding is accepted")
    }
    return nil
}

private func send(_ response: HTTPResponse, on connection: OpaquePointer?) -> MHD_Result {
    let made = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(
            bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
            // MHD_RESPMEM_MUST_COPY: libmicrohttpd keeps its own copy of the body.
            MHD_ResponseMemoryMode(rawValue: 2)!)
    }
    guard let made else { return MHD_Result.NO }
    defer { MHD_destroy_response(made) }
    for header in response.headers {
        // libmicrohttpd refuses values with line breaks; a handler's bug must not split one.
        guard !header.value.contains(where: { $0 == "\r" || $0 == "\n" }) else { continue }
        MHD_add_response_header(made, header.name, header.value)
    }
    return MHD_queue_response(connection, UInt32(response.status), made)
}

/// Queues an answer on the network thread, due to be read at the minimum rate.
private func answer(
    _ response: HTTPResponse, on connection: OpaquePointer?, server: HTTPServer
) -> MHD_Result {
    server.connectionGuard.answered(guardID(connection), bytes: response.body.count, at: uptime())
    return send(response, on: connection)
}

/// The answer when the body budget is spent: try again shortly, on a new connection.
private let overBudget = HTTPResponse.text(503, "the server is busy; try again shortly")
    .adding("Retry-After", "1").adding("Connection", "close")

private let acceptPolicy: MHD_AcceptPolicyCallback = { context, address, _ in
    guard let context else { return MHD_Result.NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    var bytes = [UInt8](repeating: 0, count: 16)
    let count = Int(tactile_address_bytes(address, &bytes))
    let client = ClientNetwork(addressBytes: Array(bytes.prefix(count))) ?? unknownOrigin
    guard server.connectionGuard.admits(client) else {
        server.reaper.refused.add(1, ordering: .relaxed)
        return MHD_Result.NO
    }
    return MHD_Result.YES
}

private let connectionHandler: tactile_mhd_connection_callback = {
    context, connection, _, code in
    guard let context else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    let id = guardID(connection)
    if code.rawValue == 0 {  // MHD_CONNECTION_NOTIFY_STARTED
        server.connectionGuard.opened(
            id, origin: origin(of: connection), socket: tactile_mhd_socket(connection),
            at: uptime())
    } else {
        server.connectionGuard.closed(id)
    }
}

/// A URI with more arguments than a request's memory holds makes libmicrohttpd (0.9.75) stall
/// until the connection times out, answering nothing: such a connection is closed at once.
private let uriHandler: tactile_mhd_uri_callback = { context, uri, connection in
    guard let context, let uri else { return nil }
    var separators = 0
    var byte = uri
    while byte.pointee != 0 {
        if byte.pointee == 0x26 || byte.pointee == 0x3B { separators += 1 }  // & ;
        byte += 1
    }
    if separators >= HTTPServer.maximumArguments {
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        server.connectionGuard.expireNow(guardID(connection))
    }
    return nil
}

private let accessHandler: MHD_AccessHandlerCallback = {
    context, connection, url, method, version, uploadData, uploadSize, requestContext in
    guard let context, let requestContext, let uploadSize else { return MHD_Result.NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    let limit = server.configuration.maximumBodyBytes
    guard let stored = requestContext.pointee else {
        // First call: only the headers are in. A message whose length two headers could
        // read two ways is refused, and the connection closed: what a proxy in front takes
        // for the rest of one request must never run here as another.
        if let refusal = framingRefusal(
            connection, version: version.map { String(cString: $0) } ?? "")
        {
            return answer(refusal.adding("Connection", "close"), on: connection, server: server)
        }
        let id = guardID(connection)
        if server.connectionGuard.isDoomed(id) {
            return answer(
                .text(
                    414, "a request may have at most \(HTTPServer.maximumArguments) query arguments"
                )
                .adding("Connection", "close"), on: connection, server: server)
        }
        server.connectionGuard.headersArrived(id, at: uptime())
        // Refuse a declared body over the limit now.
        let declared =
            MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, "Content-Length")
            .flatMap { Int(String(cString: $0)) } ?? 0
        if declared > limit {
            return answer(
                .text(413, "the request body is larger than \(limit) bytes"), on: connection,
                server: server)
        }
        let body = RequestBody(origin: origin(of: connection))
        requestContext.pointee = Unmanaged.passRetained(body).toOpaque()
        return MHD_Result.YES
    }
    let body = Unmanaged<RequestBody>.fromOpaque(stored).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        let id = guardID(connection)
        let size = uploadSize.pointee
        uploadSize.pointee = 0
        // The budget is taken as bytes arrive (what is declared costs nothing until sent). A
        // body past the limit or the budget is dropped, and what follows of it no longer
        // moves the deadline on: it is answered (413, 503) if it ends in time, else closed.
        // (libmicrohttpd 0.9.75 cannot answer before the body is read.)
        if body.refusal != nil { return MHD_Result.YES }
        if body.bytes.count + size > limit {
            body.bytes = []
            body.refusal = .text(413, "the request body is larger than \(limit) bytes")
                .adding("Connection", "close")
            return MHD_Result.YES
        }
        guard server.connectionGuard.takeBody(size, for: id) else {
            body.bytes = []
            body.refusal = overBudget
            return MHD_Result.YES
        }
        body.budget += size
        server.connectionGuard.bodyArrived(size, on: id)
        if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: size) {
                body.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
            }
        }
        return MHD_Result.YES
    }
    if let refusal = body.refusal { return answer(refusal, on: connection, server: server) }
    // Called again after a worker's answer could not be queued: give up on the connection.
    guard !body.isDispatched else { return MHD_Result.NO }
    var address = [CChar](repeating: 0, count: 64)
    tactile_mhd_client_address(connection, &address, address.count)
    let request = HTTPRequest(
        method: method.map { String(cString: $0) } ?? "GET",
        path: url.map { String(cString: $0) } ?? "/",
        query: collect(connection, kind: MHD_ValueKind.GET_ARGUMENT_KIND, lowercasing: false),
        headers: collect(connection, kind: MHD_ValueKind.HEADER_KIND, lowercasing: true),
        body: body.bytes,
        clientAddress: String(
            decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    guard server.workers.reserve() else {
        // Stopping: answer here rather than leave the connection waiting.
        return answer(server.handler(request), on: connection, server: server)
    }
    body.isDispatched = true
    server.connectionGuard.dispatched(guardID(connection))
    server.unsent.add(1, ordering: .relaxed)
    // The connection waits, off the network thread's list, until a worker has queued the
    // answer; the worker then resumes it and the network thread sends it.
    MHD_suspend_connection(connection)
    let suspended = SuspendedConnection(connection: connection)
    let handler = server.handler
    let connectionGuard = server.connectionGuard
    server.workers.enqueue {
        // Should nothing be queued (out of memory), the handler is called again on resuming
        // and closes the connection.
        let response = handler(request)
        _ = send(response, on: suspended.connection)
        connectionGuard.answered(
            guardID(suspended.connection), bytes: response.body.count, at: uptime())
        MHD_resume_connection(suspended.connection)
    }
    return MHD_Result.YES
}

private let messageHandler:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) ->
        Void = { context, message in
            guard let context, let message else { return }
            let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
            // One line, whatever a client sent that ended up in it.
            let bytes = UnsafeBufferPointer(start: message, count: strlen(message)).map {
                $0 >= 0 && $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: " ") : UInt8(bitPattern: $0)
            }
            var text = String(decoding: bytes, as: UTF8.self)
            // The address is handed over whole, so libmicrohttpd's port is always 0: name it.
            let bindFailure = "Failed to bind to port "
            if text.hasPrefix(bindFailure), let colon = text.firstIndex(of: ":") {
                let host = server.configuration.host
                text =
                    "Failed to bind to \(host.contains(":") ? "[\(host)]" : host):"
                    + "\(server.configuration.port)\(text[colon...])"
            }
            server.configuration.messages(text)
        }

private let completionHandler: MHD_RequestCompletedCallback = {
    context, connection, requestContext, _ in
    guard let context else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    server.connectionGuard.completed(guardID(connection), at: uptime())
    guard let requestContext, let stored = requestContext.pointee else { return }
    let body = Unmanaged<RequestBody>.fromOpaque(stored)
    let request = body.takeUnretainedValue()
    server.connectionGuard.returnBody(request.budget, from: request.origin)
    if request.isDispatched {
        // Sent, or the connection is gone: either way nothing more is owed.
        server.unsent.subtract(1, ordering: .releasing)
    }
    body.release()
    requestContext.pointee = nil
}
