/// A component's time, read from its host's clock, with one policy for every component: two
/// readings of the same host time.
///
/// - ``now`` is the host's time, never backwards: what deadlines (a lockout's end, a wrong
///   pattern's clear) and the timing of a person's input are measured on.
/// - ``motionTime`` is what animations play on: it stands still while paused, and a long stall
///   (a suspended window, a debugger) adds at most ``stallLimit``, so motion resumes where it
///   was instead of jumping ahead.
///
/// Every component keeps one and feeds it each time the host hands it a time (a frame tick
/// or an event). Times are seconds.
///
/// ```swift
/// var clock = FrameClock()
/// clock.advance(to: 10.0)    // the first reading sets both: now == motionTime == 10
/// clock.advance(to: 10.5)    // both 10.5
/// clock.advance(to: 99.0)    // a stall: now == 99, motionTime == 10.75
/// clock.pause()
/// clock.advance(to: 100.0)   // paused: now == 100, motionTime stays 10.75
/// ```
public struct FrameClock: Hashable, Sendable {
    /// The most one reading may move ``motionTime`` forward, in seconds: a stall longer than
    /// a quarter of a second is not caught up.
    public static let stallLimit = 0.25

    /// The latest host time read; zero before the first reading.
    public private(set) var now = 0.0
    /// The time motion plays on: the first host time read, plus the time since, less stalls
    /// and pauses. Zero before the first reading.
    public private(set) var motionTime = 0.0
    /// Whether motion stands still.
    public private(set) var isPaused = false
    private var hasReading = false

    /// Creates a clock at zero.
    public init() {}

    /// Reads the host's time and returns how far ``motionTime`` moved: zero for the first
    /// reading (which sets both readings), while paused, or for a host time that is earlier
    /// than the last or not finite.
    @discardableResult
    public mutating func advance(to hostTime: Double) -> Double {
        guard hostTime.isFinite else { return 0 }
        guard hasReading else {
            hasReading = true
            now = hostTime
            motionTime = hostTime
            return 0
        }
        let step = max(hostTime - now, 0)
        now = max(now, hostTime)
        guard !isPaused else { return 0 }
        let motion = min(step, Self.stallLimit)
        motionTime += motion
        return motion
    }

    /// Stops motion; host time that passes while paused is skipped.
    public mutating func pause() { isPaused = true }

    /// Starts motion again from where it stopped.
    public mutating func resume() { isPaused = false }
}

/// The frame times of a run at a steady rate — `start`, `start + 1/rate`, … up to `end`
/// (included when it falls on a frame) — computed by multiplication, not accumulation, so
/// the thousandth frame is as exact as the first. What a host's frame clock would hand a
/// component; tests and offscreen renders drive components with it.
public struct FrameTimes: Sequence, Sendable {
    /// The first frame's time.
    public var start: Double
    /// The time the last frame may not pass.
    public var end: Double
    /// Frames per second.
    public var rate: Double

    /// Frames from `start` to `end` at `rate` per second (60 by default).
    public init(from start: Double = 0, to end: Double, rate: Double = 60) {
        self.start = start
        self.end = end
        self.rate = rate
    }

    /// The number of frames.
    public var count: Int {
        guard rate > 0, end >= start, (end - start).isFinite else { return 0 }
        return Int(((end - start) * rate + 1e-9).rounded(.down)) + 1
    }

    public func makeIterator() -> AnyIterator<Double> {
        var frame = 0
        let count = count
        return AnyIterator {
            guard frame < count else { return nil }
            defer { frame += 1 }
            return start + Double(frame) / rate
        }
    }
}
