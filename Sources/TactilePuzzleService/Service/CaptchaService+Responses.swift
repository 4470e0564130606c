import Foundation
import TactileCore
import TactileHTTP

/// Answers as the service writes them: JSON, its errors and waits, and text for the log.
extension CaptchaService {
    /// 429: a wait until `until`, in whole seconds (at least one) from `now`.
    func rateLimited(until: Double, now: Double) -> HTTPResponse {
        let seconds = max(1, Int((until - now).rounded(.up)))
        return Self.json(429, ["success": false, "error-codes": ["rate-limited"]]).adding(
            "Retry-After", String(seconds))
    }

    func storeUnavailable(_ error: any Error) -> HTTPResponse {
        log("\(UTCTimestamp.string(clock())) error: the store is unavailable: \(error)")
        metrics.count("tactile_store_errors_total")
        return Self.error(503, "store unavailable")
    }

    static func json(_ status: Int, _ object: [String: JSONValue]) -> HTTPResponse {
        HTTPResponse(
            status: status, contentType: "application/json",
            body: JSONValue.object(object).serialized()
        ).adding("Cache-Control", "no-store")
    }

    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, ["error": JSONValue(message)])
    }

    static func object(_ body: [UInt8]) -> [String: JSONValue]? {
        (try? JSONValue.parse(body))?.object
    }

    static func form(_ body: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            if let name = parts.first { fields[name] = parts.count > 1 ? parts[1] : "" }
        }
        return fields
    }

    static func escapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
            of: "<", with: "&lt;"
        )
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Milliseconds to one decimal place, `12.3`.
    static func milliseconds(_ seconds: Double) -> String {
        let tenths = Int((min(max(seconds, 0), 1e9) * 10_000).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// A client's text for the log: in quotes, at most 100 characters, anything but
    /// printable ASCII escaped, so that it can neither fill a line nor reach a terminal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars.prefix(100) {
            switch scalar {
            case "\"", "\\": out += "\\" + String(scalar)
            case " "..."~": out.unicodeScalars.append(scalar)
            default: out += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return out + (text.unicodeScalars.count > 100 ? "…\"" : "\"")
    }
}
