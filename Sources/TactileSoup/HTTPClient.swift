import CSoup

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

    /// The largest body accepted; a larger one is a failure.
    public static let bodyLimit = 16 << 20

    private let session: UnsafeMutablePointer<SoupSession>

    /// Creates a client whose requests give up after `timeout` seconds.
    public init(timeout: Int = 10) {
        session = soup_session_new()!
        soup_session_set_timeout(session, guint(max(1, timeout)))
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
        let pending = Pending(client: self, message: message, completion: completion)
        soup_session_send_and_read_async(
            session, message, G_PRIORITY_DEFAULT, nil,
            { source, result, data in
                let pending = Unmanaged<Pending>.fromOpaque(data!).takeRetainedValue()
                pending.finish(result)
            }, Unmanaged.passRetained(pending).toOpaque())
    }

    /// A request in flight: what it needs to finish. Holds the client, so the session lives
    /// until the last completion has run.
    private final class Pending {
        let client: HTTPClient
        let message: OpaquePointer
        let completion: (Result<Response, Failure>) -> Void

        init(
            client: HTTPClient, message: OpaquePointer,
            completion: @escaping (Result<Response, Failure>) -> Void
        ) {
            self.client = client
            self.message = message
            self.completion = completion
        }

        deinit { g_object_unref(gpointer(message)) }

        func finish(_ result: OpaquePointer?) {
            var error: UnsafeMutablePointer<GError>?
            let bytes = soup_session_send_and_read_finish(client.session, result, &error)
            if let error {
                let text = String(cString: error.pointee.message)
                g_error_free(error)
                if let bytes { g_bytes_unref(bytes) }
                completion(.failure(Failure(description: text)))
                return
            }
            var body: [UInt8] = []
            if let bytes {
                var size: gsize = 0
                let data = g_bytes_get_data(bytes, &size)
                if Int(size) > HTTPClient.bodyLimit {
                    g_bytes_unref(bytes)
                    completion(
                        .failure(Failure(description: "the response is larger than 16 MiB")))
                    return
                }
                if let data, size > 0 {
                    body = Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
                }
                g_bytes_unref(bytes)
            }
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
            completion(
                .success(
                    Response(
                        status: Int(soup_message_get_status(message).rawValue), headers: headers,
                        body: body)))
        }
    }
}
