/// The captcha's flow on the client side — ask for a puzzle, take one answer, show the
/// verdict, wait out a lockout, replace a puzzle before it expires, forget a token that
/// lapsed — as a value that takes events and returns the effects the host performs.
///
/// It does no input or output and reads no clock: every event comes with the time, and the
/// host fetches, submits, animates, shows and wakes the session up when it asks
/// (``Effect/schedule(at:)``). The app's puzzle page and the browser widget's `session.js`
/// are hosts of the same machine, under the same names, and one table of cases
/// (`Tests/Shared/puzzle-session.json`) tests both.
///
/// Each request for a puzzle has a number; a late answer to an older request is stale and
/// changes nothing. No puzzle to be had, or an answer that could not be sent or read, is asked
/// again by itself after 5 s, then 10, 20, 40 and every 60 s while it goes on failing
/// (`retryDelays`); a puzzle loaded starts the count again.
public struct PuzzleSession: Hashable, Sendable {
    /// Where the flow is.
    public enum Phase: Hashable, Sendable {
        /// A puzzle is asked for.
        case loading
        /// A puzzle is shown and takes an answer.
        case ready
        /// An answer is being checked.
        case checking
        /// Passed: the token was handed over.
        case passed
        /// Not passed: the miss stays on screen a moment before a fresh puzzle.
        case failed
        /// Too many attempts: nothing is asked for until `until` (seconds since 1970).
        case locked(until: Double)
        /// No puzzle can be had or checked, for `reason` (the host's words): a fresh one is
        /// asked for when the person asks, or after a while by itself.
        case unavailable(reason: String)
    }

    /// Why the puzzle shown replaced the one before, for the status line.
    public enum Notice: String, Hashable, Sendable {
        /// The one before had expired.
        case expired
        /// The one before was not passed.
        case notPassed = "not-passed"
        /// The token of the one before lapsed unused.
        case tokenExpired = "token-expired"
    }

    /// What happened.
    public enum Event: Hashable, Sendable {
        /// The person (or the host, at the start) asks for a fresh puzzle.
        case newPuzzle
        /// The puzzle asked for by `request` is shown; the service accepts an answer for
        /// `lifetime` seconds (by its own clock), when it says.
        case challengeLoaded(request: Int, lifetime: Double?)
        /// The service refused to give the puzzle asked for by `request`: wait `retryAfter`
        /// seconds.
        case challengeLocked(request: Int, retryAfter: Double)
        /// No puzzle could be had for `request`, for `reason`.
        case challengeUnavailable(request: Int, reason: String)
        /// An answer has begun: the first pointer press, key move or proof of work.
        case answerStarted
        /// The answer is complete; the host holds it until ``Effect/submit(request:)``.
        case answered
        /// The verifier's verdict on the answer to `request`.
        case verdictArrived(request: Int, PuzzleVerdict)
        /// The answer to `request` could not be sent or its verdict read, for `reason`.
        case checkFailed(request: Int, reason: String)
        /// Time passed: a wake-up the session asked for, or any tick.
        case timePassed
    }

    /// What the host should do, in order.
    public enum Effect: Hashable, Sendable {
        /// Ask for a puzzle; report back with this request number.
        case fetch(request: Int)
        /// Send the answer the host holds for the puzzle of `request`.
        case submit(request: Int)
        /// Play the verdict on the control (snap, shake, lock).
        case settle(PuzzleVerdict)
        /// Hand a pass token over (`nil`: forget the one handed over).
        case token(String?)
        /// Show where the flow is, and why the puzzle shown replaced the one before.
        case show(Phase, notice: Notice?)
        /// Send ``Event/timePassed`` at this time; replaces any earlier wake-up.
        case schedule(at: Double)
    }

    /// Where the flow is.
    public private(set) var phase = Phase.loading
    /// Why the puzzle shown replaced the one before.
    public private(set) var notice: Notice?
    /// The number of the latest request for a puzzle (0 before the first).
    public private(set) var request = 0
    /// Whether an answer to the puzzle shown is under way.
    public private(set) var isAnswering = false
    /// How long a miss stays on screen before a fresh puzzle, in seconds.
    public var failurePause: Double

    private var refreshAt: Double?
    private var failedUntil: Double?
    private var tokenExpiresAt: Double?
    private var retryAt: Double?
    /// Failures in a row to have a puzzle or a verdict, since a puzzle last loaded.
    private var unavailableCount = 0

    /// Seconds before a fresh puzzle is asked for after the first, second, … failure in a
    /// row to have one; the last repeats.
    static let retryDelays: [Double] = [5, 10, 20, 40, 60]

    /// A session that has asked for nothing yet: send ``Event/newPuzzle`` first.
    ///
    /// - Parameter failurePause: How long a miss stays on screen, in seconds.
    public init(failurePause: Double = 0.9) {
        self.failurePause = failurePause
    }

    /// Takes an event that happened at `now` (seconds since 1970) and returns what to do.
    public mutating func handle(_ event: Event, now: Double) -> [Effect] {
        switch event {
        case .newPuzzle:
            if case .locked = phase { return [] }
            let forget: [Effect] = phase == .passed ? [.token(nil)] : []
            return forget + reload(notice: nil)
        case .challengeLoaded(let asked, let lifetime):
            guard asked == request, phase == .loading else { return [] }
            phase = .ready
            isAnswering = false
            unavailableCount = 0
            var effects: [Effect] = [.show(.ready, notice: notice)]
            if let lifetime {
                let at = now + Self.refreshDelay(lifetime: lifetime)
                refreshAt = at
                effects.append(.schedule(at: at))
            }
            return effects
        case .challengeLocked(let asked, let retryAfter):
            guard asked == request, phase == .loading else { return [] }
            return lock(retryAfter: retryAfter, now: now)
        case .challengeUnavailable(let asked, let reason):
            guard asked == request, phase == .loading else { return [] }
            return unavailable(reason: reason, now: now)
        case .answerStarted:
            guard phase == .ready else { return [] }
            isAnswering = true
            guard notice != nil else { return [] }
            notice = nil
            return [.show(.ready, notice: nil)]
        case .answered:
            guard phase == .ready else { return [] }
            phase = .checking
            isAnswering = false
            refreshAt = nil
            return [.submit(request: request), .show(.checking, notice: nil)]
        case .verdictArrived(let asked, let verdict):
            guard asked == request, phase == .checking else { return [] }
            return settle(verdict, now: now)
        case .checkFailed(let asked, let reason):
            guard asked == request, phase == .checking else { return [] }
            return [.settle(.notPassed)] + unavailable(reason: reason, now: now)
        case .timePassed:
            return wake(now: now)
        }
    }

    private mutating func settle(_ verdict: PuzzleVerdict, now: Double) -> [Effect] {
        switch verdict {
        case .passed(_, let token, let lifetime):
            phase = .passed
            var effects: [Effect] = [.settle(verdict), .token(token), .show(.passed, notice: nil)]
            if let lifetime {
                let at = now + max(5, lifetime)
                tokenExpiresAt = at
                effects.append(.schedule(at: at))
            }
            return effects
        case .expired:
            return [.settle(verdict)] + reload(notice: .expired)
        case .notPassed:
            phase = .failed
            notice = .notPassed
            let until = now + failurePause
            failedUntil = until
            return [.settle(verdict), .show(.failed, notice: notice), .schedule(at: until)]
        case .locked(let retryAfter):
            return [.settle(verdict)] + lock(retryAfter: retryAfter ?? 0, now: now)
        }
    }

    private mutating func wake(now: Double) -> [Effect] {
        switch phase {
        case .ready:
            guard let at = refreshAt, now >= at else { return [] }
            refreshAt = nil
            // An answer under way goes on: its verdict says "expired" if it comes too late.
            return isAnswering ? [] : reload(notice: nil)
        case .failed:
            guard let until = failedUntil, now >= until else { return [] }
            return reload(notice: .notPassed)
        case .locked(let until):
            guard now < until else { return reload(notice: nil) }
            return [.show(phase, notice: nil), .schedule(at: min(until, now + 1))]
        case .passed:
            guard let at = tokenExpiresAt, now >= at else { return [] }
            return [.token(nil)] + reload(notice: .tokenExpired)
        case .unavailable:
            guard let at = retryAt, now >= at else { return [] }
            return reload(notice: nil)
        case .loading, .checking:
            return []
        }
    }

    /// Asks for a fresh puzzle; whatever was asked for before is stale.
    private mutating func reload(notice: Notice?) -> [Effect] {
        request += 1
        phase = .loading
        self.notice = notice
        isAnswering = false
        refreshAt = nil
        failedUntil = nil
        tokenExpiresAt = nil
        retryAt = nil
        return [.fetch(request: request), .show(.loading, notice: notice)]
    }

    /// Shows why there is no puzzle, and asks again later, later each time it goes on.
    private mutating func unavailable(reason: String, now: Double) -> [Effect] {
        phase = .unavailable(reason: reason)
        unavailableCount += 1
        let at = now + Self.retryDelays[min(unavailableCount, Self.retryDelays.count) - 1]
        retryAt = at
        return [.show(phase, notice: nil), .schedule(at: at)]
    }

    private mutating func lock(retryAfter: Double, now: Double) -> [Effect] {
        let until = now + max(0, retryAfter)
        phase = .locked(until: until)
        notice = nil
        isAnswering = false
        refreshAt = nil
        failedUntil = nil
        tokenExpiresAt = nil
        return [.show(phase, notice: nil), .schedule(at: min(until, now + 1))]
    }

    /// How long after a puzzle is shown it is replaced: a little before it expires (a tenth
    /// of its lifetime, 2 to 15 s), and never sooner than 3 s. A lifetime that makes no sense
    /// (a skewed clock) counts as a minute.
    static func refreshDelay(lifetime: Double) -> Double {
        let lifetime = lifetime > 1 && lifetime < 86_400 ? lifetime : 60
        let margin = min(max(lifetime * 0.1, 2), 15)
        return max(3, lifetime - margin)
    }
}
