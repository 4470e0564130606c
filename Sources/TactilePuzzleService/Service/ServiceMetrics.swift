import Foundation

/// Counters and latency histograms in the Prometheus text format.
final class ServiceMetrics: @unchecked Sendable {
    private let lock = NSLock()
    private var counters: [String: Double] = [:]
    /// Time in the service, by endpoint.
    private var durations: [String: Histogram] = [:]
    /// Time waiting for a worker, over every endpoint.
    private var waits = Histogram()
    /// Latency bucket bounds in seconds.
    static let bounds = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

    /// Counts of observations at or under each bound, their sum and their number.
    private struct Histogram {
        var buckets = [Int](repeating: 0, count: ServiceMetrics.bounds.count)
        var sum = 0.0
        var count = 0

        mutating func add(_ seconds: Double) {
            // In place: no copy of the bucket array per request.
            buckets.withUnsafeMutableBufferPointer {
                for (index, bound) in ServiceMetrics.bounds.enumerated() where seconds <= bound {
                    $0[index] += 1
                }
            }
            sum += seconds
            count += 1
        }

        func lines(_ name: String, labels: String) -> [String] {
            let prefix = labels.isEmpty ? "" : labels + ","
            let braces = labels.isEmpty ? "" : "{\(labels)}"
            var lines = zip(ServiceMetrics.bounds, buckets).map { bound, count in
                "\(name)_bucket{\(prefix)le=\"\(bound)\"} \(count)"
            }
            lines.append("\(name)_bucket{\(prefix)le=\"+Inf\"} \(count)")
            lines.append("\(name)_sum\(braces) \(sum)")
            lines.append("\(name)_count\(braces) \(count)")
            return lines
        }
    }

    /// Adds one to a counter, with an optional label.
    func count(_ name: String, label: (String, String)? = nil) {
        let key = label.map { "\(name){\($0.0)=\"\(Self.escape($0.1))\"}" } ?? name
        lock.lock()
        counters[key, default: 0] += 1
        lock.unlock()
    }

    /// Records a request's status, its time in the service from when it was read whole, and
    /// how much of that time it waited for a worker.
    func observe(endpoint: String, status: Int, seconds: Double, waited: Double) {
        count("tactile_http_requests_total", label: ("status", String(status)))
        lock.lock()
        defer { lock.unlock() }
        durations[endpoint, default: Histogram()].add(seconds)
        waits.add(waited)
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
        let duration = "tactile_http_request_duration_seconds"
        lines.append(
            "# HELP \(duration) Time from having a request whole to its answer, waiting for a worker included."
        )
        lines.append("# TYPE \(duration) histogram")
        for endpoint in durations.keys.sorted() {
            lines += durations[endpoint]!.lines(
                duration, labels: "endpoint=\"\(Self.escape(endpoint))\"")
        }
        let wait = "tactile_http_request_wait_seconds"
        lines.append(
            "# HELP \(wait) Time a request waited for a free worker: high when the service is saturated."
        )
        lines.append("# TYPE \(wait) histogram")
        lines += waits.lines(wait, labels: "")
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
