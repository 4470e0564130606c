import Foundation
import PuzzleTestSupport
import TactileCore
import TactileHTTP
import TactilePuzzle
import TactilePuzzleSolvers
@_spi(AnswerReveal) import TactilePuzzleVerifier
import TestSupport
import Testing

@testable import TactilePuzzleService
@testable import TactilePuzzleStores

/// What the operator sees: the log's lines (timed, bounded, never a client's made-up text)
/// and the metrics (Prometheus's conventions, one series per route).
@Suite struct ServiceLogAndMetricsTests: ServiceTesting {
    let log = TestLog()
    let backend = MemoryBackend(policy: plumbingPolicy)

    /// The metrics follow Prometheus's conventions from the start: every family has a HELP
    /// and a TYPE line before its samples, and the counters an alert would watch are there at
    /// zero before their first event.
    @Test func metricsHaveHelpTypeAndZerosFromTheStart() {
        let fresh = CaptchaService(
            configuration: .init(sites: [site], policy: plumbingPolicy),
            backend: MemoryBackend(policy: plumbingPolicy), log: { _ in })
        let lines = metricLines(fresh)
        for zero in [
            #"tactile_passes_total{site="site-one-key"} 0"#,
            #"tactile_challenges_issued_total{site="site-one-key"} 0"#,
            #"tactile_challenges_refused_total{reason="hostname"} 0"#,
            "tactile_store_errors_total 0", #"tactile_rate_limited_total{scope="client"} 0"#,
        ] {
            #expect(lines.contains(zero), "\(zero) missing: \(lines)")
        }
        var helped: Set<String> = []
        var typed: Set<String> = []
        for line in lines {
            let words = line.split(separator: " ")
            if line.hasPrefix("# HELP ") {
                helped.insert(String(words[2]))
                #expect(words.count > 3, "HELP without text: \(line)")
            } else if line.hasPrefix("# TYPE ") {
                #expect(helped.contains(String(words[2])), "TYPE before HELP: \(line)")
                typed.insert(String(words[2]))
            } else {
                var family = String(line.prefix { $0 != "{" && $0 != " " })
                for suffix in ["_bucket", "_sum", "_count"] where !typed.contains(family) {
                    if family.hasSuffix(suffix) { family = String(family.dropLast(suffix.count)) }
                }
                #expect(typed.contains(family), "a sample before its TYPE: \(line)")
            }
        }
    }

    /// One histogram's cumulative counts by bound, from the metrics' lines.
    func buckets(_ lines: [String], _ series: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in lines where line.hasPrefix(series + "_bucket{") {
            guard let bound = line.split(separator: "le=\"").last?.prefix(while: { $0 != "\"" }),
                let count = line.split(separator: " ").last.flatMap({ Int($0) })
            else { continue }
            counts[String(bound)] = count
        }
        return counts
    }

    @Test func madeUpPathsShareOneSeriesAndWriteNothingOfTheirOwnToTheLog() {
        let service = service
        // One made-up path and one look at the metrics first: both have their series then.
        _ = service.handle(HTTPRequest(method: "GET", path: "/nothing-here"))
        _ = metricLines(service)
        let before = metricLines(service).count
        // libmicrohttpd hands over the path decoded: %0A arrives as a line break.
        let forged = "2026-01-01T00:00:00Z 203.0.113.9 POST /v1/siteverify 200 1.0 ms"
        let paths =
            (0..<300).map { "/made-up-\($0)" } + ["/x\n\(forged)", "/v1/challenges/a/b/c/d", "/v1"]
        for path in paths {
            let response = service.handle(HTTPRequest(method: "GET", path: path))
            #expect(response.status == 404, "\(path)")
        }
        let lines = metricLines(service)
        // The counts went up; no line was added.
        #expect(lines.count == before, "\(lines.count - before) lines added")
        let others = lines.first {
            $0.hasPrefix(#"tactile_http_request_duration_seconds_count{endpoint="other"}"#)
        }
        #expect(others?.hasSuffix(" \(paths.count + 1)") == true, "\(others ?? "none")")
        #expect(
            !log.text.contains("made-up") && !log.text.contains(forged), "\(log.text.suffix(300))")
        #expect(log.lines.allSatisfy { !$0.contains("\n") })
        // Real endpoints keep their names, ids replaced.
        let id = String(repeating: "ab", count: 16)
        _ = service.handle(HTTPRequest(method: "GET", path: "/v1/challenges/\(id)/piece"))
        #expect(
            log.lines.last?.contains(" GET /v1/challenges/{id}/piece 404 ") == true,
            "\(log.lines.last ?? "")")
        #expect(!log.text.contains(id))
    }

    @Test func theServersOwnMessagesAreTimedAndBounded() {
        let clock = ManualClock(1_767_225_600.25)
        let service = CaptchaService(
            configuration: .init(sites: [site], policy: plumbingPolicy), backend: backend,
            log: { [log] in log.append($0) }, clock: { clock.now })
        service.logServerMessage("Error processing request (HTTP response code is 431)")
        service.logServerMessage(String(repeating: "m", count: 5000))
        #expect(
            log.lines.first
                == "2026-01-01T00:00:00Z server: Error processing request (HTTP response code is 431)",
            "\(log.lines)")
        #expect(
            log.lines.last == "2026-01-01T00:00:00Z server: " + String(repeating: "m", count: 300))
        // A flood: 1,000 in one second, then one more a second later.
        for index in 0..<1000 { service.logServerMessage("refused \(index)") }
        #expect(log.lines.count == 10, "\(log.lines.count) lines in the first second")
        #expect(log.lines.last == "2026-01-01T00:00:00Z server: refused 7")
        clock.now += 1
        service.logServerMessage("refused again")
        #expect(
            log.lines.last
                == "2026-01-01T00:00:01Z server: refused again (992 more held back before this one)",
            "\(log.lines.last ?? "")")
        service.logServerMessage("and again")
        #expect(log.lines.last == "2026-01-01T00:00:01Z server: and again")
        let metrics = metricLines(service)
        #expect(metrics.contains(#"tactile_server_messages_total{logged="no"} 992"#), "\(metrics)")
        #expect(metrics.contains(#"tactile_server_messages_total{logged="yes"} 12"#))
    }

    @Test func requestTimeCountsTheWaitForAWorker() {
        let service = service
        // Read whole 0.3 s ago, answered now: it waited 0.3 s for a worker.
        _ = service.handle(
            HTTPRequest(method: "GET", path: "/healthz", received: .now - .milliseconds(300)))
        _ = service.handle(HTTPRequest(method: "GET", path: "/healthz"))
        let lines = metricLines(service)
        let durations = buckets(
            lines.filter { $0.contains(#"endpoint="/healthz""#) },
            "tactile_http_request_duration_seconds")
        let waits = buckets(lines, "tactile_http_request_wait_seconds")
        for (name, counts) in [("duration", durations), ("wait", waits)] {
            // One of the two at most 0.1 s, both at most 0.5 s, one above 0.25 s.
            #expect(counts["0.1"] == 1, "\(name): \(counts)")
            #expect(counts["0.25"] == 1, "\(name): \(counts)")
            #expect(counts["0.5"] == 2, "\(name): \(counts)")
            #expect(counts["+Inf"] == 2, "\(name): \(counts)")
        }
        #expect(lines.contains("# TYPE tactile_http_request_wait_seconds histogram"))
        #expect(log.lines.first?.hasSuffix(" ms") == true)
        let logged = log.lines.first.flatMap { $0.split(separator: " ").dropLast().last }
            .flatMap { Double($0) }
        #expect((logged ?? 0) >= 300, "\(log.lines.first ?? "")")
    }

    @Test func durationsAreMillisecondsToATenth() {
        #expect(CaptchaService.milliseconds(0.01234) == "12.3")
        #expect(CaptchaService.milliseconds(0.00006) == "0.1")
        #expect(CaptchaService.milliseconds(0) == "0.0")
        #expect(CaptchaService.milliseconds(2.5) == "2500.0")
    }

    /// The default clock counts whole milliseconds, so the times records and tokens keep
    /// are written in at most 13 digits, and read back exactly.
    @Test func theDefaultClockCountsMilliseconds() throws {
        for _ in 0..<200 {
            let before = Date().timeIntervalSince1970
            let now = CaptchaService.millisecondClock()
            let after = Date().timeIntervalSince1970
            #expect(now >= before - 0.001 && now <= after + 0.001)
            let text = String(decoding: JSONValue(now).serialized(), as: UTF8.self)
            #expect(text.filter(\.isNumber).count <= 13, "\(text)")
            #expect(try JSONValue.parse(Array(text.utf8)).number == now)
        }
    }

    /// What a client sends as its method reaches the log only when it is a standard one: a
    /// made-up method could carry terminal escapes or fill a line.
    @Test func madeUpMethodsDoNotReachTheLog() {
        let service = service
        let method = "\u{1B}]0;owned\u{07}" + String(repeating: "X", count: 50_000)
        _ = service.handle(HTTPRequest(method: method, path: "/healthz"))
        let line = log.lines.last ?? ""
        #expect(line.contains(" other ") && !line.contains("\u{1B}") && line.count < 200, "\(line)")
    }
}
