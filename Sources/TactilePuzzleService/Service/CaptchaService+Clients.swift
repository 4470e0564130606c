import Foundation
import TactileHTTP
import TactilePuzzleDesk

/// Who a request comes from: its address (from a trusted proxy, the one it was forwarded for)
/// and the network limits count it in.
extension CaptchaService {
    /// The client's address: the connection's, or, from a trusted proxy, the last address
    /// in `X-Forwarded-For` that is not itself a trusted proxy.
    func client(of request: HTTPRequest) -> String {
        CaptchaDesk.network(of: address(of: request))
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
}
