internal import CMicroHTTPD
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
    /// The handler: a request in, a response out.
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    private var daemon: OpaquePointer?
    let handler: Handler
    let workers: WorkQueue
    /// Requests handed to the workers whose answers are not yet sent.
    let unsent = Atomic<Int>(0)
    let configuration: Configuration
    /// Who may connect, and the deadlines and body budget of every connection.
    let connectionGuard: ConnectionGuard
    /// Closes connections past their deadline, and reports refusals.
    let reaper: Reaper
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
        let (storage, isIPv6) = try configuration.socketAddress()
        self.configuration = configuration
        self.handler = handler
        connectionGuard = ConnectionGuard(limits: configuration.limits)
        reaper = Reaper(guard: connectionGuard, messages: configuration.messages)
        workers = WorkQueue(threads: configuration.threads, name: "http-worker")
        logger = .allocate(capacity: 1)
        let context = Unmanaged.passUnretained(self).toOpaque()
        logger.initialize(to: tactile_mhd_logger(log: messageHandler, context: context))
        daemon = withUnsafePointer(to: storage) { pointer in
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
