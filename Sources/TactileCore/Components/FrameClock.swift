/// A component's own time, read from its host's clock: it never runs backwards, a long stall
/// (a suspended window, a debugger) resumes where it was instead of jumping ahead, and it
/// stands still while paused.
///
/// Every component keeps one and feeds it each time the host hands it a time (a frame tick
/// or an event); animations read ``now``. Times are seconds.
///
/// ```swift
/// var clock = FrameClock()
/// clock.advance(to: 10.0)    // the first reading sets the clock: now == 10
/// clock.advance(to: 10.5)    // now == 10.5
/// clock.advance(to: 99.0)    // a stall: now == 10.75 (at most maximumStep more)
/// clock.pause()
/// clock.advance(to: 100.0)   // paused: now stays 10.75
/// ```
///
/// Until a stall or a pause, ``now`` is the host's time, so event times and ``now`` compare.
public struct FrameClock: Hashable, Sendable {
    /// The most one reading may move ``now`` forward, in seconds.
    public var maximumStep: Double
    /// The component's time: the first host time read, plus the time since, less stalls
    /// and pauses. Zero before the first reading.
    public private(set) var now = 0.0
    /// Whether the clock stands still.
    public private(set) var isPaused = false
    private var lastHostTime: Double?

    /// Creates a clock at zero.
    ///
    /// - Parameter maximumStep: The most one reading may add (a quarter of a second by
    ///   default: a stall longer than that is not caught up).
    public init(maximumStep: Double = 0.25) {
        self.maximumStep = maximumStep
    }

    /// Reads the host's time and returns how far ``now`` moved: zero for the first reading
    /// (which sets ``now``), while paused, or for a host time that is earlier than the last
    /// or not finite.
    @discardableResult
    public mutating func advance(to hostTime: Double) -> Double {
        guard hostTime.isFinite else { return 0 }
        defer { lastHostTime = max(lastHostTime ?? hostTime, hostTime) }
        guard let last = lastHostTime else {
            now = hostTime
            return 0
        }
        guard !isPaused else { return 0 }
        let step = min(max(hostTime - last, 0), maximumStep)
        now += step
        return step
    }

    /// Stops the clock; host time that passes while paused is skipped.
    public mutating func pause() { isPaused = true }

    /// Starts the clock again from where it stopped.
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
