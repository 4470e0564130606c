internal import CSoup

/// An HTTP client on the GLib main loop (libsoup 3): requests run asynchronously and their
/// completions come back on the main context of the thread that sent them — in a GTK app,
/// the UI thread, between frames, so nothing ever blocks the interface.
public final class HTTPClient {
    /// What came back.
    public struct Response: Sendable {
        /// The HTTP status.
        public var status: Int
        /// Response headers, names in lower case.
        public var headers: [String: String]
        /// The body.
        public var body: [UInt8]
    }

    /// Why there is no response: the request could not be made, or the connection failed.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// The largest body accepted; a larger one is a failure, and reading it stops there.
    public static let bodyLimit = 16 << 20

    private let session: UnsafeMutablePointer<SoupSession>
    private let deadline: Int

    /// Creates a client whose requests give up after `timeout` seconds, whether the server
    /// is silent or merely slow.
    public init(timeout: Int = 10) {
        session = soup_session_new()!
        deadline = max(1, timeout)
        soup_session_set_timeout(session, guint(deadline))
    }

    deinit { g_object_unref(gpointer(session)) }

    /// Sends a request; `completion` runs once, on the main loop.
    ///
    /// - Parameters:
    ///   - method: `GET`, `POST`, …
    ///   - url: An absolute `http://` or `https://` URL.
    ///   - headers: Request headers.
    ///   - body: The request body (sent with the `Content-Type` header's type).
    ///   - completion: The response, or why there is none.
    public func send(
        method: String, url: String, headers: [String: String] = [:], body: [UInt8] = [],
        completion: @escaping (Result<Response, Failure>) -> Void
    ) {
        guard let message = soup_message_new(method, url) else {
            completion(.failure(Failure(description: "not a URL: \(url)")))
            return
        }
        let requestHeaders = soup_message_get_request_headers(message)
        for (name, value) in headers where name.lowercased() != "content-type" {
            soup_message_headers_replace(requestHeaders, name, value)
        }
        if method != "GET" {
            let type = headers.first { $0.key.lowercased() == "content-type" }?.value
            let bytes = body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            soup_message_set_request_body_from_bytes(message, type, bytes)
            g_bytes_unref(bytes)
        }
        Exchange(client: self, message: message, completion: completion).start()
    }

    /// One request in flight: sent, then its body read a chunk at a time up to
    /// ``HTTPClient/bodyLimit``, all within the deadline. Every asynchronous call and the
    /// timer hold a reference to it, so it lives until the last of them has called back.
    private final class Exchange {
        let client: HTTPClient
        let message: OpaquePointer
        let cancellable = g_cancellable_new()!
        var completion: ((Result<Response, Failure>) -> Void)?
        var stream: UnsafeMutablePointer<GInputStream>?
        var body: [UInt8] = []
        var timer: guint = 0

        init(
            client: HTTPClient, message: OpaquePointer,
            completion: @escaping (Result<Response, Failure>) -> Void
        ) {
            self.client = client
            self.message = message
            self.completion = completion
        }

        deinit {
            if let stream { g_object_unref(gpointer(stream)) }
            g_object_unref(gpointer(cancellable))
            g_object_unref(gpointer(message))
        }

        /// A reference for one callback to take back.
        private var retained: gpointer { Unmanaged.passRetained(self).toOpaque() }

        private static func taken(_ data: gpointer?) -> Exchange {
            Unmanaged<Exchange>.fromOpaque(data!).takeRetainedValue()
        }

        func start() {
            timer = g_timeout_add_seconds_full(
                G_PRIORITY_DEFAULT, guint(client.deadline),
                { data in
                    let exchange = Unmanaged<Exchange>.fromOpaque(data!).takeUnretainedValue()
                    exchange.timer = 0
                    exchange.finish(
                        .failure(
                            Failure(description: "no answer within \(exchange.client.deadline) s")))
                    return 0  // G_SOURCE_REMOVE: the destroy notify releases the reference.
                }, retained,
                { data in Unmanaged<Exchange>.fromOpaque(data!).release() })
            soup_session_send_async(
                client.session, message, G_PRIORITY_DEFAULT, cancellable,
                { _, result, data in Exchange.taken(data).sent(result) }, retained)
        }

        private func sent(_ result: OpaquePointer?) {
            var error: UnsafeMutablePointer<GError>?
            let opened = soup_session_send_finish(client.session, result, &error)
            if let opened { stream = opened }
            guard completion != nil else { return }
            if let error { return fail(Self.take(error)) }
            guard stream != nil else { return fail("no response") }
            let length = soup_message_headers_get_content_length(
                soup_message_get_response_headers(message))
            guard length <= Int64(HTTPClient.bodyLimit) else {
                return fail("the response is larger than 16 MiB")
            }
            readMore()
        }

        private func readMore() {
            g_input_stream_read_bytes_async(
                stream, 64 << 10, G_PRIORITY_DEFAULT, cancellable,
                { _, result, data in Exchange.taken(data).read(result) }, retained)
        }

        private func read(_ result: OpaquePointer?) {
            var error: UnsafeMutablePointer<GError>?
            let chunk = g_input_stream_read_bytes_finish(stream, result, &error)
            defer { if let chunk { g_bytes_unref(chunk) } }
            guard completion != nil else {
                if let error { g_error_free(error) }
                return
            }
            if let error { return fail(Self.take(error)) }
            guard let chunk else { return fail("the response could not be read") }
            var size: gsize = 0
            let data = g_bytes_get_data(chunk, &size)
            guard size > 0 else { return succeed() }
            guard body.count + Int(size) <= HTTPClient.bodyLimit else {
                return fail("the response is larger than 16 MiB")
            }
            if let data { body += UnsafeRawBufferPointer(start: data, count: Int(size)) }
            readMore()
        }

        private func succeed() {
            var headers: [String: String] = [:]
            withUnsafeMutablePointer(to: &headers) { pointer in
                soup_message_headers_foreach(
                    soup_message_get_response_headers(message),
                    { name, value, data in
                        guard let name, let value, let data else { return }
                        let headers = data.assumingMemoryBound(to: [String: String].self)
                        headers.pointee[String(cString: name).lowercased()] = String(
                            cString: value)
                    }, pointer)
            }
            finish(
                .success(
                    Response(
                        status: Int(soup_message_get_status(message).rawValue),
                        headers: headers, body: body)))
        }

        private func fail(_ reason: String) {
            finish(.failure(Failure(description: reason)))
        }

        /// Tells the result once; stops the timer and cancels whatever is still in flight
        /// (whose callbacks then only let go of their references).
        private func finish(_ result: Result<Response, Failure>) {
            guard let completion else { return }
            self.completion = nil
            if timer != 0 {
                let source = timer
                timer = 0
                g_source_remove(source)
            }
            g_cancellable_cancel(cancellable)
            completion(result)
        }

        private static func take(_ error: UnsafeMutablePointer<GError>) -> String {
            defer { g_error_free(error) }
            return String(cString: error.pointee.message)
        }
    }
}
