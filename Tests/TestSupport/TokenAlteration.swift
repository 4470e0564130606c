import Foundation

/// A pass token (`pt2.<base64url claims>.<mac>`) with one claim changed and the old MAC kept:
/// what a forger who cannot sign would send.
public func alteringClaim(of token: String, _ key: String, to value: Any) -> String {
    var fields = token.split(separator: ".").map(String.init)
    var base64 = fields[1].replacingOccurrences(of: "-", with: "+")
        .replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
    let data = Data(base64Encoded: base64) ?? Data()
    var claims = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    claims[key] = value
    let changed =
        (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])) ?? Data()
    fields[1] = changed.base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    return fields.joined(separator: ".")
}
