#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A time as RFC 3339 (ISO 8601) in UTC to the second, `2026-12-02T01:41:58Z`: how the HTTP
/// API, the command line's files and the logs write a time.
public enum UTCTimestamp {
    /// The time `seconds` since 1970, for the years 1970 to 9999; a time outside them (or not
    /// a number) is written as the nearer end.
    public static func string(_ seconds: Double) -> String {
        var time = time_t(seconds.isNaN ? 0 : min(max(seconds, 0), 253_402_300_799).rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
