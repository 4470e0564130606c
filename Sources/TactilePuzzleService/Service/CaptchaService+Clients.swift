import Foundation
import TactileHTTP

/// Who a request comes from: its address (from a trusted proxy, the one it was forwarded for)
/// and the network limits count it in.
extension CaptchaService {
    /// The client's address: the connection's, or, from a trusted proxy, the last address
    /// in `X-Forwarded-For` that is not itself a trusted proxy.
    func client(of request: HTTPRequest) -> String {
        Self.network(of: address(of: request))
    }

    /// The client's address: the connection's, or from a trusted proxy the last address it
    /// was forwarded for.
    func address(of request: HTTPRequest) -> String {
        guard configuration.trustedProxies.contains(request.clientAddress),
            let forwarded = request.header("X-Forwarded-For")
        else { return request.clientAddress }
        let hops = forwarded.split(separator: ",").reversed().map(Self.trimmingBlanks)
        return hops.first { !$0.isEmpty && !configuration.trustedProxies.contains($0) }
            ?? request.clientAddress
    }

    /// `text` without the spaces and tabs around it (HTTP's optional white space).
    static func trimmingBlanks(_ text: Substring) -> String {
        let isBlank = { (character: Character) in character == " " || character == "\t" }
        guard let first = text.firstIndex(where: { !isBlank($0) }),
            let last = text.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(text[first...last])
    }

    /// What limits count as one client: an IPv4 address, or an IPv6 address's /64 network
    /// (one subscriber's usual allocation, so a client cannot be a new one per address).
    static func network(of address: String) -> String {
        var bytes = in6_addr()
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else {
            return address
        }
        // An IPv4 address written as IPv6 (as some proxies forward it) is that address: as
        // a /64 it would put every IPv4 client in one bucket.
        let raw = withUnsafeBytes(of: &bytes) { Array($0) }
        if raw.prefix(10).allSatisfy({ $0 == 0 }), raw[10] == 0xFF, raw[11] == 0xFF {
            return raw.suffix(4).map(String.init).joined(separator: ".")
        }
        let words = withUnsafeBytes(of: &bytes) { raw in
            (0..<4).map { String(format: "%x", UInt16(raw[2 * $0]) << 8 | UInt16(raw[2 * $0 + 1])) }
        }
        return words.joined(separator: ":") + "::/64"
    }
}
