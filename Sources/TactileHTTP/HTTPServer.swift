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
        /// The most connections at once.
        public var connectionLimit: Int
        /// The most connections at once from one address.
        public var connectionsPerAddress: Int
        /// Seconds a connection may sit idle before it is closed.
        public var timeoutSeconds: Int
        /// The largest request body accepted.
        public var maximumBodyBytes: Int
        /// Where libmicrohttpd's own messages go (a request it refused itself, a connection
        /// over the limit), one line each, control characters made spaces; by default to
        /// standard error.
        public var messages: @Sendable (String) -> Void

        /// Creates a configuration; by default 127.0.0.1:8080, a thread per core, 1,024
        /// connections (64 per address), 10 s idle timeout, 1 MiB bodies.
        public init(
            host: String = "127.0.0.1", port: Int = 8080,
            threads: Int = ProcessInfo.processInfo.activeProcessorCount,
            connectionLimit: Int = 1024, connectionsPerAddress: Int = 64,
            timeoutSeconds: Int = 10, maximumBodyBytes: Int = 1 << 20,
            messages: @escaping @Sendable (String) -> Void = HTTPServer.standardErrorMessages
        ) {
            self.host = host
            self.port = port
            self.threads = threads
            self.connectionLimit = connectionLimit
            self.connectionsPerAddress = connectionsPerAddress
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
        workers = WorkQueue(threads: configuration.threads, name: "http-worker")
        logger = .allocate(capacity: 1)
        let context = Unmanaged.passUnretained(self).toOpaque()
        logger.initialize(to: tactile_mhd_logger(log: messageHandler, context: context))
        daemon = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                tactile_mhd_start(
                    address, isIPv6 ? 1 : 0, accessHandler, context, completionHandler, context,
                    UInt32(Self.networkThreads),
                    UInt32(max(1, configuration.connectionLimit)),
                    UInt32(max(1, configuration.connectionsPerAddress)),
                    UInt32(max(1, configuration.timeoutSeconds)), Self.connectionMemory, logger)
            }
        }
        guard let daemon else {
            workers.close()
            throw StartError(
                description:
                    "cannot listen on \(configuration.host):\(configuration.port) (in use, or not permitted)"
            )
        }
        port = Int(tactile_mhd_port(daemon))
    }

    /// Threads moving bytes: reading a request and sending an answer is a small part of the
    /// work of one.
    static let networkThreads = max(1, ProcessInfo.processInfo.activeProcessorCount / 4)

    /// Each connection's memory in libmicrohttpd: its headers and read buffer (bodies are
    /// copied out as they arrive). libmicrohttpd clears it for every request on a
    /// connection, so it is kept to what a request's headers need (browsers send a few KiB).
    static let connectionMemory = 64 << 10

    /// Finishes the requests under way, stops accepting, and closes every connection.
    public func stop() {
        guard let daemon else { return }
        self.daemon = nil
        // Requests that arrive meanwhile are answered on the network thread; none is left
        // suspended, which libmicrohttpd does not allow when it stops.
        workers.close()
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
    var isTooLarge = false
    /// Whether the request has gone to a worker.
    var isDispatched = false
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

/// Why a request's framing is refused, or `nil`: both `Content-Length` and
/// `Transfer-Encoding`, `Content-Length` given more than once or not a plain number (400), or a
/// transfer coding other than `chunked` alone (501).
private func framingRefusal(_ connection: OpaquePointer?) -> HTTPResponse? {
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

private let accessHandler: MHD_AccessHandlerCallback = {
    context, connection, url, method, _, uploadData, uploadSize, requestContext in
    guard let context, let requestContext, let uploadSize else { return MHD_Result.NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    let limit = server.configuration.maximumBodyBytes
    guard let stored = requestContext.pointee else {
        // First call: only the headers are in. A message whose length two headers could
        // read two ways is refused, and the connection closed: what a proxy in front takes
        // for the rest of one request must never run here as another.
        if let refusal = framingRefusal(connection) {
            return send(refusal.adding("Connection", "close"), on: connection)
        }
        // Refuse a declared body over the limit now.
        if let length = MHD_lookup_connection_value(
            connection, MHD_ValueKind.HEADER_KIND, "Content-Length"),
            let declared = Int(String(cString: length)), declared > limit
        {
            return send(
                .text(413, "the request body is larger than \(limit) bytes"), on: connection)
        }
        requestContext.pointee = Unmanaged.passRetained(RequestBody()).toOpaque()
        return MHD_Result.YES
    }
    let body = Unmanaged<RequestBody>.fromOpaque(stored).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        if let uploadData, !body.isTooLarge {
            if body.bytes.count + uploadSize.pointee > limit {
                body.isTooLarge = true
                body.bytes = []
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                    body.bytes.append(
                        contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
                }
            }
        }
        uploadSize.pointee = 0
        return MHD_Result.YES
    }
    if body.isTooLarge {
        return send(.text(413, "the request body is larger than \(limit) bytes"), on: connection)
    }
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
        return send(server.handler(request), on: connection)
    }
    body.isDispatched = true
    server.unsent.add(1, ordering: .relaxed)
    // The connection waits, off the network thread's list, until a worker has queued the
    // answer; the worker then resumes it and the network thread sends it.
    MHD_suspend_connection(connection)
    let suspended = SuspendedConnection(connection: connection)
    let handler = server.handler
    server.workers.enqueue {
        // Should nothing be queued (out of memory), the handler is called again on resuming
        // and closes the connection.
        _ = send(handler(request), on: suspended.connection)
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
            server.configuration.messages(String(decoding: bytes, as: UTF8.self))
        }

private let completionHandler: MHD_RequestCompletedCallback = {
    context, _, requestContext, _ in
    guard let requestContext, let stored = requestContext.pointee else { return }
    let body = Unmanaged<RequestBody>.fromOpaque(stored)
    if body.takeUnretainedValue().isDispatched, let context {
        // Sent, or the connection is gone: either way nothing more is owed.
        Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().unsent.subtract(
            1, ordering: .releasing)
    }
    body.release()
    requestContext.pointee = nil
}
