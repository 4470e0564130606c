import Foundation

/// Counters and a latency histogram in the Prometheus text format.
final class ServiceMetrics: @unchecked Sendable {
    private let lock = NSLock()
    private var counters: [String: Double] = [:]
    private var buckets: [String: [Int]] = [:]
    private var sums: [String: Double] = [:]
    private var counts: [String: Int] = [:]
    /// Latency bucket bounds in seconds.
    static let bounds = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

    /// Adds one to a counter, with an optional label.
    func count(_ name: String, label: (String, String)? = nil) {
        let key = label.map { "\(name){\($0.0)=\"\(Self.escape($0.1))\"}" } ?? name
        lock.lock()
        counters[key, default: 0] += 1
        lock.unlock()
    }

    /// Records a request's status and duration.
    func observe(endpoint: String, status: Int, seconds: Double) {
        count("tactile_http_requests_total", label: ("status", String(status)))
        lock.lock()
        defer { lock.unlock() }
        // In place: no copy of the bucket array per request.
        buckets[endpoint, default: [Int](repeating: 0, count: Self.bounds.count)]
            .withUnsafeMutableBufferPointer {
                for (index, bound) in Self.bounds.enumerated() where seconds <= bound {
                    $0[index] += 1
                }
            }
        sums[endpoint, default: 0] += seconds
        self.counts[endpoint, default: 0] += 1
    }

    /// Everything, in the text exposition format.
    func text() -> String {
        lock.lock()
        defer { lock.unlock() }
        var lines: [String] = []
        var typed: Set<String> = []
        for key in counters.keys.sorted() {
            let name = String(key.prefix { $0 != "{" })
            if typed.insert(name).inserted { lines.append("# TYPE \(name) counter") }
            lines.append("\(key) \(Int(counters[key]!))")
        }
        lines.append("# TYPE tactile_http_request_duration_seconds histogram")
        for endpoint in buckets.keys.sorted() {
            let label = "endpoint=\"\(Self.escape(endpoint))\""
            for (index, bound) in Self.bounds.enumerated() {
                lines.append(
                    "tactile_http_request_duration_seconds_bucket{\(label),le=\"\(bound)\"} \(buckets[endpoint]![index])"
                )
            }
            lines.append(
                "tactile_http_request_duration_seconds_bucket{\(label),le=\"+Inf\"} \(counts[endpoint]!)"
            )
            lines.append("tactile_http_request_duration_seconds_sum{\(label)} \(sums[endpoint]!)")
            lines.append(
                "tactile_http_request_duration_seconds_count{\(label)} \(counts[endpoint]!)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func escape(_ value: String) -> String {
        // Label values are nearly always plain: leave them as they are.
        guard value.utf8.contains(where: { $0 == 0x5C || $0 == 0x22 || $0 == 0x0A }) else {
            return value
        }
        return value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
            of: "\"", with: "\\\""
        )
        .replacingOccurrences(of: "\n", with: "\\n")
    }
}
