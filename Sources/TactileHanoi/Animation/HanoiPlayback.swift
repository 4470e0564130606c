import TactileCore

/// How fast a solution plays.
public enum HanoiSpeed: Hashable, Sendable {
    /// A number of moves per second, 0.5…1,000.
    case movesPerSecond(Double)
    /// Jump straight to the end.
    case instant

    /// The accepted range of moves per second.
    public static let range: ClosedRange<Double> = 0.5...1000

    /// The speed with its rate limited to ``range`` (NaN becomes the slowest).
    public var clamped: HanoiSpeed {
        switch self {
        case .instant: .instant
        case .movesPerSecond(let rate): .movesPerSecond(rate.clamped(to: Self.range))
        }
    }
}

/// Whether a solution is playing.
public enum HanoiPlaybackState: Hashable, Sendable {
    /// Moving forward with time.
    case playing
    /// Stopped: time passes without changes, except that a move in flight when playback was
    /// paused still lands (``HanoiPlayback/isLanding``).
    case paused
    /// Every move has been played.
    case finished
}

/// The state of a solution being animated: which move is in flight and how far along.
///
/// A value type moved only by ``advance(by:)`` and the explicit controls; nothing waits or
/// sleeps. Move numbers count from 1; ``completedMoves`` of them are done and, while
/// ``progress`` is above 0, move ``completedMoves`` + 1 is in flight. Pausing lets a move in
/// flight land, at the playback's speed, and then holds: a disk is never left in mid-air.
public struct HanoiPlayback: Sendable {
    /// The moves being played.
    public let plan: HanoiPlan
    /// How many moves are complete, 0…``HanoiPlan/count``.
    public private(set) var completedMoves: UInt64 = 0
    /// How far the next move has gone, 0 ≤ progress < 1.
    public private(set) var progress: Double = 0
    /// Playing, paused or finished.
    public private(set) var state: HanoiPlaybackState
    /// The playback speed.
    public var speed: HanoiSpeed {
        didSet { speed = speed.clamped }
    }

    /// Creates a paused playback at the start of a plan.
    public init(plan: HanoiPlan, speed: HanoiSpeed = .movesPerSecond(2)) {
        self.plan = plan
        self.speed = speed.clamped
        self.state = plan.count == 0 ? .finished : .paused
    }

    /// The move in flight, if any.
    public var currentMove: HanoiMove? {
        progress > 0 && completedMoves < plan.count ? plan.move(number: completedMoves + 1) : nil
    }

    /// The resting position: after the completed moves (the in-flight disk still counted on
    /// its source peg).
    public var position: HanoiPosition { plan.position(after: completedMoves) }

    /// Whether the solution is playing.
    public var isPlaying: Bool { state == .playing }

    /// Whether a move that was in flight when the playback paused is still landing.
    public var isLanding: Bool { state == .paused && progress > 0 }

    /// Whether time changes anything: playing, or landing.
    public var isMoving: Bool { isPlaying || isLanding }

    /// The fraction of the plan done, 0…1.
    public var fractionComplete: Double {
        guard plan.count > 0 else { return 1 }
        return min(1, (Double(completedMoves) + progress) / Double(plan.count))
    }

    /// Starts or resumes playing; from the end it starts over.
    public mutating func play() {
        guard plan.count > 0 else { return }
        if state == .finished { seek(to: 0) }
        state = .playing
        if speed == .instant { finish() }
    }

    /// Stops after the move in flight, if any, has landed.
    public mutating func pause() {
        if state == .playing { state = .paused }
    }

    /// Plays when paused, pauses when playing.
    public mutating func togglePlayPause() {
        state == .playing ? pause() : play()
    }

    /// Moves time forward by `seconds` (negative or NaN is ignored): playing, by as many
    /// moves as the speed makes; landing, at most until the move in flight lands.
    public mutating func advance(by seconds: Double) {
        guard isMoving, seconds > 0, seconds.isFinite else { return }
        if isLanding {
            guard case .movesPerSecond(let rate) = speed, progress + seconds * rate < 1 else {
                return stepForward()
            }
            progress += seconds * rate
            return
        }
        guard case .movesPerSecond(let rate) = speed else { return finish() }
        let total = progress + seconds * rate
        let whole = total.rounded(.down)
        let remaining = plan.count - completedMoves
        if whole >= Double(remaining) {
            finish()
        } else {
            completedMoves += min(UInt64(whole), remaining)
            progress = total - whole
        }
    }

    /// Completes the move in flight, or the next one, and pauses.
    public mutating func stepForward() {
        guard completedMoves < plan.count else { return }
        completedMoves += 1
        progress = 0
        state = completedMoves == plan.count ? .finished : .paused
    }

    /// Returns to the start of the move in flight, or undoes the last move, and pauses.
    public mutating func stepBackward() {
        if progress > 0 {
            progress = 0
        } else if completedMoves > 0 {
            completedMoves -= 1
        }
        state = plan.count == 0 ? .finished : .paused
    }

    /// Jumps to the point where `moves` moves are complete (clamped to the plan), keeping the
    /// play/pause state unless the end is reached.
    public mutating func seek(to moves: UInt64) {
        completedMoves = min(moves, plan.count)
        progress = 0
        if completedMoves == plan.count {
            state = .finished
        } else if state == .finished {
            state = .paused
        }
    }

    /// Jumps to the move nearest a fraction 0…1 of the plan (NaN counts as 0), so the last
    /// stretch of a seek bar is the end of the plan, as its first is the start.
    public mutating func seek(toFraction fraction: Double) {
        let f = fraction.clamped(to: 0...1)
        let target = (Double(plan.count) * f).rounded(.toNearestOrAwayFromZero)
        // Double(UInt64.max) rounds up to 2⁶⁴, which does not fit back into a UInt64.
        seek(to: target >= Double(UInt64.max) ? plan.count : UInt64(target))
    }

    private mutating func finish() {
        completedMoves = plan.count
        progress = 0
        state = .finished
    }
}
