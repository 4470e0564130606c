internal import CMicroHTTPD
import Foundation

// libmicrohttpd's calls into the server, each given the server as its context: accepting a
// connection, its start and end, a request's URI, its headers and body as they arrive, its
// completion, and libmicrohttpd's own messages.

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
func uptime() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// A connection's key in the connection guard.
private func guardID(_ connection: OpaquePointer?) -> Int { Int(bitPattern: connection) }

/// The client and network of a connection; a fixed one when its address is unknown.
private func origin(of connection: OpaquePointer?) -> ClientNetwork {
    var bytes = [UInt8](repeating: 0, count: 16)
    let count = Int(tactile_mhd_client_bytes(connection, &bytes))
    return ClientNetwork(addressBytes: Array(bytes.prefix(count))) ?? unknownOrigin
}

private let unknownOrigin = ClientNetwork(addressBytes: [0, 0, 0, 0])!

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

let acceptPolicy: MHD_AcceptPolicyCallback = { context, address, _ in
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

let connectionHandler: tactile_mhd_connection_callback = {
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
let uriHandler: tactile_mhd_uri_callback = { context, uri, connection in
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

let accessHandler: MHD_AccessHandlerCallback = {
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

let messageHandler:
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

let completionHandler: MHD_RequestCompletedCallback = {
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
