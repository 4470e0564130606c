import Foundation
import TactileCore
import Testing

@Suite struct UTCTimestampTests {
    /// Times read as Foundation's ISO 8601 writer writes them.
    @Test func timesAreRFC3339InUTCToTheSecond() {
        var random = SystemRandomNumberGenerator()
        for seconds in [0, 951_782_400, 1_764_639_718.9, 4_102_444_799]
            + (0..<500).map({ _ in
                Double.random(in: 0..<253_402_300_800, using: &random)
            })
        {
            #expect(
                UTCTimestamp.string(seconds)
                    == Date(timeIntervalSince1970: seconds.rounded(.down)).ISO8601Format(),
                "\(seconds)")
        }
    }

    @Test func timesOutsideTheYears1970To9999AreTheNearerEnd() {
        #expect(UTCTimestamp.string(-5) == "1970-01-01T00:00:00Z")
        #expect(UTCTimestamp.string(.nan) == "1970-01-01T00:00:00Z")
        #expect(UTCTimestamp.string(.infinity) == "9999-12-31T23:59:59Z")
    }
}
