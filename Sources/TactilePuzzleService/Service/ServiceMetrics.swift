import Foundation
import Synchronization

/// Counters and latency histograms in the Prometheus text format.
final class ServiceMetrics: Sendable {
    private let state = Mutex(State())

    /// Everything counted so far.
    private struct State {
        var counters: [String: Double] = [:]
        /// Values that go up and down, by series.
        var gauges: [String: Double] = [:]
        /// Time in the service, by endpoint.
        var durations: [String: Histogram] = [:]
        /// Time waiting for a worker, over every endpoint.
        var waits = Histogram()
    }

    /// Every counter family: its name, what it counts, and the series it shows from the
    /// start, at zero (Prometheus's `rate()` and alerts need a series before its first event).
    static let counterFamilies: [(name: String, help: String, zeros: [String])] = [
        ("tactile_challenges_issued_total", "Puzzles handed out, by site key.", []),
        (
            "tactile_challenges_refused_total",
            "Requests for a puzzle refused for the site's settings, by reason: an unknown site key, or a page whose host name is not the site's.",
            [
                #"tactile_challenges_refused_total{reason="hostname"}"#,
                #"tactile_challenges_refused_total{reason="sitekey"}"#,
            ]
        ),
        ("tactile_passes_total", "Answers that passed, by site key.", []),
        (
            "tactile_failures_total",
            "Answers that failed, by site key and the rule that refused them.", []
        ),
        (
            "tactile_rate_limited_total", "Requests refused by a rate limit, by scope.",
            [
                #"tactile_rate_limited_total{scope="client"}"#,
                #"tactile_rate_limited_total{scope="site"}"#,
            ]
        ),
        ("tactile_siteverify_total", "siteverify calls, by result.", []),
        ("tactile_http_requests_total", "HTTP requests answered, by status.", []),
        (
            "tactile_server_messages_total",
            "Messages of the HTTP server's own, by whether they were logged or held back.",
            [
                #"tactile_server_messages_total{logged="no"}"#,
                #"tactile_server_messages_total{logged="yes"}"#,
            ]
        ),
        (
            "tactile_store_errors_total", "Operations the store could not carry out.",
            ["tactile_store_errors_total"]
        ),
    ]

    /// Every gauge family: its name and what it shows.
    static let gaugeFamilies: [(name: String, help: String)] = [
        (
            "tactile_price_surge_doublings",
            "How many times this instance last doubled the work of a site's puzzles for its answers per minute against its own normal, by site key."
        )
    ]

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
        count(name, labels: label.map { [$0] } ?? [])
    }

    /// Adds one to a counter with labels (in the order given, which must not vary).
    func count(_ name: String, labels: [(String, String)]) {
        let key = Self.series(name, labels)
        state.withLock { $0.counters[key, default: 0] += 1 }
    }

    /// Sets a gauge with labels (in the order given, which must not vary).
    func set(_ name: String, labels: [(String, String)], to value: Double) {
        let key = Self.series(name, labels)
        state.withLock { $0.gauges[key] = value }
    }

    /// Shows each site's counters from now on, at zero until their first event.
    func declare(sites: [String]) {
        state.withLock { state in
            for site in sites {
                for name in ["tactile_challenges_issued_total", "tactile_passes_total"] {
                    let key = Self.series(name, [("site", site)])
                    if state.counters[key] == nil { state.counters[key] = 0 }
                }
                let surge = Self.series("tactile_price_surge_doublings", [("site", site)])
                if state.gauges[surge] == nil { state.gauges[surge] = 0 }
            }
        }
    }

    private static func series(_ name: String, _ labels: [(String, String)]) -> String {
        guard !labels.isEmpty else { return name }
        let pairs = labels.map { "\($0.0)=\"\(escape($0.1))\"" }
        return "\(name){\(pairs.joined(separator: ","))}"
    }

    /// Records a request's status, its time in the service from when it was read whole, and
    /// how much of that time it waited for a worker.
    func observe(endpoint: String, status: Int, seconds: Double, waited: Double) {
        count("tactile_http_requests_total", label: ("status", String(status)))
        state.withLock { state in
            state.durations[endpoint, default: Histogram()].add(seconds)
            state.waits.add(waited)
        }
    }

    /// Everything, in the text exposition format.
    func text() -> String {
        state.withLock { Self.text(of: $0) }
    }

    private static func text(of state: State) -> String {
        var lines: [String] = []
        var series = state.counters
        for family in counterFamilies {
            for zero in family.zeros where series[zero] == nil { series[zero] = 0 }
        }
        let helps = Dictionary(counterFamilies.map { ($0.name, $0.help) }) { first, _ in first
        }
        var families: [String: [String]] = [:]
        for key in series.keys {
            families[String(key.prefix { $0 != "{" }), default: []].append(key)
        }
        for name in Set(families.keys).union(helps.keys).sorted() {
            lines.append("# HELP \(name) \(helps[name] ?? "A count.")")
            lines.append("# TYPE \(name) counter")
            for key in (families[name] ?? []).sorted() {
                lines.append("\(key) \(Int(series[key]!))")
            }
        }
        for (name, help) in gaugeFamilies {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) gauge")
            for key in state.gauges.keys.sorted() where key.hasPrefix(name + "{") {
                lines.append("\(key) \(Int(state.gauges[key]!))")
            }
        }
        let duration = "tactile_http_request_duration_seconds"
        lines.append(
            "# HELP \(duration) Time from having a request whole to its answer, waiting for a worker included."
        )
        lines.append("# TYPE \(duration) histogram")
        for endpoint in state.durations.keys.sorted() {
            lines += state.durations[endpoint]!.lines(
                duration, labels: "endpoint=\"\(escape(endpoint))\"")
        }
        let wait = "tactile_http_request_wait_seconds"
        lines.append(
            "# HELP \(wait) Time a request waited for a free worker: high when the service is saturated."
        )
        lines.append("# TYPE \(wait) histogram")
        lines += state.waits.lines(wait, labels: "")
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
