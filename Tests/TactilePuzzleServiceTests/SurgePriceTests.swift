import Foundation
import PuzzleTestSupport
import TactileCore
import TactilePuzzleService
import TactilePuzzleStores
import TactilePuzzleVerifier
import TestSupport
import Testing

/// A site's price follows a surge of its answers: many times its normal in a minute raises
/// the price of its puzzles for every client, bounded, logged and shown in the metrics, and it
/// falls back after a quiet minute or two.
@Suite struct SurgePriceTests: ServiceTesting {
    let log = TestLog()
    let backend = MemoryBackend(policy: plumbingPolicy)

    @Test func aSurgeOfAnswersRaisesTheSitesPriceAndQuietLowersIt() throws {
        // Noon: both day windows have covered hours, and nothing was answered before.
        let clock = ManualClock(
            1_800_000_000 - 1_800_000_000.truncatingRemainder(dividingBy: 86_400) + 43_200 + 30)
        var configuration = CaptchaService.Configuration(
            sites: [site, other], policy: plumbingPolicy)
        configuration.surge.floor = 2  // so 8 answers in a minute are 4 times the normal
        let service = CaptchaService(
            configuration: configuration, backend: backend, log: { [log] in log.append($0) },
            clock: { clock.now })
        var address = 0
        // Each request from its own network: no network surcharge, no client limit.
        func price() throws -> Int {
            address += 1
            let made = json(
                post(
                    service, "/v1/challenges", ["sitekey": site.sitekey], from: "10.\(address).0.1")
            )
            let work = try #require(made["proofOfWork"] as? [String: Any])
            return try #require(work["difficulty"] as? Int)
        }
        func answer() throws {
            address += 1
            let from = "10.\(address).0.1"
            let made = json(post(service, "/v1/challenges", ["sitekey": site.sitekey], from: from))
            let id = try #require(made["id"] as? String)
            let reply = json(
                post(
                    service, "/v1/challenges/\(id)/answer", ["x": 0, "y": 0, "track": []],
                    from: from))
            #expect(reply["success"] as? Bool == false)
        }
        func gauge() -> String? {
            metricLines(service).first {
                $0.hasPrefix(#"tactile_price_surge_doublings{site="site-one-key"}"#)
            }
        }
        #expect(try price() == 16)
        #expect(gauge() == #"tactile_price_surge_doublings{site="site-one-key"} 0"#)
        // 8 answers in the minute: 4 times the floor, not more.
        for _ in 0..<8 { try answer() }
        #expect(try price() == 16)
        // The 9th: past 4 times; past 8 times, 2 bits, and no more however many follow.
        try answer()
        #expect(try price() == 17)
        #expect(gauge() == #"tactile_price_surge_doublings{site="site-one-key"} 1"#)
        for _ in 0..<30 { try answer() }
        #expect(try price() == 18)
        #expect(gauge() == #"tactile_price_surge_doublings{site="site-one-key"} 2"#)
        #expect(
            log.text.contains("surge site=site-one-key bits=2 answers-per-minute="), "\(log.text)")
        // Half a minute later the last minute still counts; two quiet minutes later it does not.
        clock.now += 45
        #expect(try price() == 18)
        clock.now += 120
        #expect(try price() == 16)
        #expect(gauge() == #"tactile_price_surge_doublings{site="site-one-key"} 0"#)
        #expect(log.text.contains("surge site=site-one-key bits=0"))
    }
}
