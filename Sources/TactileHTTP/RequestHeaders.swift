internal import CMicroHTTPD
import Foundation

// A request's headers and query arguments as libmicrohttpd holds them, and the checks that
// its headers frame one message only.

/// Collects a connection's headers or query arguments.
private final class ValueCollector {
    var values: [String: String] = [:]
    let lowercasesNames: Bool
    init(lowercasesNames: Bool) { self.lowercasesNames = lowercasesNames }
}

func collect(
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
func framingRefusal(_ connection: OpaquePointer?, version: String) -> HTTPResponse? {
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
