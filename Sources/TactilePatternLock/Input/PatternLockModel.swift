import TactileCore

/// The pattern lock's state machine: pointer, keys and time in, events and a drawable state
/// out.
///
/// A value (a `ComponentModel`) with no timer of its own: every change comes from
/// ``handle(_:)-(PointerEvent)``, ``handle(_:)-(KeyEvent)``, ``advance(to:)`` or the owner's
/// calls, so tests replay any sequence exactly. Each of them returns the events it caused, in order.
///
/// - Pointer: a press on a dot starts a pattern; each motion sample is hit-tested along the
///   segment from the previous sample, so a fast swipe never skips a dot; a dot lying
///   exactly on the way to a new one is added first (``Pattern/extend(to:)``); release
///   finishes.
/// - Keys: arrows move a focus ring, Space selects the focused dot, Enter finishes, Escape
///   clears.
/// - Time: a wrong pattern clears after ``PatternLockConfiguration/wrongClearDelay``; a
///   new touch cancels the pending clear. Selected dots grow over
///   ``dotGrowthDuration``; ``replay(_:stepDuration:endingIn:)`` draws a pattern dot by dot.
public struct PatternLockModel: Equatable, Sendable {
    /// Seconds a newly selected dot takes to grow to its full size.
    public static let dotGrowthDuration = 0.15

    /// A programmatic replay in progress.
    struct Replay: Equatable, Sendable {
        var dots: [Int]
        var start: Double
        var step: Double
        var endState: PatternDisplayState
    }

    /// How a pattern is being entered.
    public enum Entry: Hashable, Sendable {
        /// Dragged with a pointer or a finger.
        case pointer
        /// Picked dot by dot with the keys.
        case keys
    }

    /// Input refused for a while (the end fixed at the first clock reading), or until
    /// enabled again.
    enum InputLock: Equatable, Sendable {
        case pending(Double)
        case until(Double)
        case indefinite
    }

    /// The grid, hit area, rules and timing.
    public private(set) var configuration: PatternLockConfiguration
    /// The dots selected so far.
    public private(set) var pattern: Pattern
    /// How the pattern is shown.
    public private(set) var displayState: PatternDisplayState = .normal
    /// The end of the line while drawing: the pointer, or the tip of a replay.
    public private(set) var tip: Point?
    /// The dot with the keyboard focus ring, while the ring is shown: from the first key
    /// press until the next pointer press.
    public var focusedDot: Int? { isFocusVisible ? focusPosition : nil }
    /// The latest time seen, from events or ``advance(to:)``.
    public var time: Double { clock.now }
    /// Host time, never backwards (`FrameClock.now`): lockout deadlines are real time.
    private var clock = FrameClock()
    /// When a wrong pattern will clear.
    public private(set) var clearDeadline: Double?
    /// Hides the path and the highlight of selected dots.
    public var isStealthy = false
    /// Whether selected dots appear at full size at once instead of growing.
    public var reducesMotion = false

    /// When each dot of ``pattern`` was selected, for the grow animation.
    private(set) var selectionTimes: [Double] = []
    /// How the pattern in progress is being entered, or `nil` when none is (so an owner can
    /// word its hints for the pointer or for the keys).
    public private(set) var entry: Entry?
    private(set) var focusPosition = 0
    private(set) var isFocusVisible = false
    private(set) var replayInProgress: Replay?
    private(set) var inputLock: InputLock?

    /// Creates an idle lock.
    ///
    /// - Throws: a ``PatternError`` when the configuration is out of range.
    public init(
        configuration: PatternLockConfiguration = PatternLockConfiguration(),
        viewSize: Size = Size(width: 300, height: 300)
    ) throws(PatternError) {
        try configuration.validate()
        self.configuration = configuration
        self.viewSize = viewSize
        pattern = Pattern(grid: configuration.grid)
    }

    /// The size of the area the dots are laid out in.
    public var viewSize: Size

    /// Where the dots are for ``viewSize``.
    public var layout: PatternLayout {
        PatternLayout(
            viewSize: viewSize, grid: configuration.grid,
            hitRadiusFraction: configuration.hitRadiusFraction)
    }

    /// Changes the settings; a change of grid clears the pattern and the focus.
    @discardableResult
    public mutating func configure(_ configuration: PatternLockConfiguration)
        throws(PatternError) -> [PatternLockEvent]
    {
        try configuration.validate()
        var events: [PatternLockEvent] = []
        if configuration.grid != self.configuration.grid {
            events = clear()
            pattern = Pattern(grid: configuration.grid)
            focusPosition = 0
            isFocusVisible = false
        }
        self.configuration = configuration
        return events
    }

    // MARK: - Owner's controls

    /// Shows the owner's verdict on the current pattern: `.correct` keeps it in the success
    /// colour, `.wrong` shows it in the error colour and clears it after the delay,
    /// `.normal` clears it now, `.drawing` shows it as in progress.
    @discardableResult
    public mutating func show(_ state: PatternDisplayState) -> [PatternLockEvent] {
        switch state {
        case .normal:
            return clear()
        case .wrong:
            displayState = .wrong
            clearDeadline = time + configuration.wrongClearDelay
        case .correct, .drawing:
            displayState = state
            clearDeadline = nil
        }
        return []
    }

    /// Removes the pattern and any pending clear or replay.
    @discardableResult
    public mutating func clear() -> [PatternLockEvent] {
        let hadSomething = !pattern.isEmpty || displayState != .normal
        pattern.removeAll()
        selectionTimes.removeAll()
        displayState = .normal
        tip = nil
        entry = nil
        clearDeadline = nil
        replayInProgress = nil
        return hadSomething ? [.cleared] : []
    }

    /// Refuses pointer and key input for `seconds`, counted from the next clock reading
    /// (``advance(to:)``), and animates until then so a host can show a countdown; with
    /// `nil`, refuses input until ``enableInput()`` without animating. A pattern being
    /// entered is dropped.
    @discardableResult
    public mutating func disableInput(for seconds: Double? = nil) -> [PatternLockEvent] {
        if let seconds {
            guard seconds > 0 else { return enableInput() }
            inputLock = .pending(seconds)
        } else {
            inputLock = .indefinite
        }
        if entry != nil {
            entry = nil
            tip = nil
            if displayState == .drawing { displayState = .normal }
        }
        return []
    }

    /// Accepts input again now.
    @discardableResult
    public mutating func enableInput() -> [PatternLockEvent] {
        inputLock = nil
        return []
    }

    /// Whether pointer and key input are accepted.
    public var isInputEnabled: Bool { inputLock == nil }

    /// Seconds until input is accepted again (infinite when disabled without a duration),
    /// or `nil` when it is accepted.
    public var inputLockRemaining: Double? {
        switch inputLock {
        case nil: nil
        case .pending(let seconds): seconds
        case .until(let end): max(0, end - time)
        case .indefinite: .infinity
        }
    }

    /// Draws `pattern` dot by dot, one every `stepDuration` seconds from now, with the line's
    /// tip travelling between dots; then shows it as `endState`. A replay reports no events;
    /// any pointer or key input stops it.
    @discardableResult
    public mutating func replay(
        _ pattern: Pattern, stepDuration: Double = 0.35,
        endingIn endState: PatternDisplayState = .correct
    ) -> [PatternLockEvent] {
        precondition(pattern.grid == configuration.grid, "replay a pattern of the lock's grid")
        precondition(stepDuration > 0, "replay step must be positive")
        _ = clear()
        guard !pattern.isEmpty else { return [] }
        displayState = .drawing
        replayInProgress = Replay(
            dots: pattern.dots, start: time, step: stepDuration, endState: endState)
        advanceReplay()
        return []
    }

    // MARK: - Time

    /// Whether anything moves with time: a pending clear, a replay, a growing dot, or a
    /// lockout whose countdown starts at the next clock reading. A countdown under way does not
    /// animate: it changes once a second, at ``nextChangeTime``.
    public var isAnimating: Bool {
        if case .pending = inputLock { return true }
        return clearDeadline != nil || replayInProgress != nil
            || (!reducesMotion
                && (selectionTimes.last.map { time < $0 + Self.dotGrowthDuration } ?? false))
    }

    /// During a lockout's countdown, when the whole seconds left next change (or the lockout
    /// ends); `nil` otherwise.
    public var nextChangeTime: Double? {
        guard case .until(let end) = inputLock else { return nil }
        let shown = (end - time).rounded(.up)
        return shown <= 1 ? end : end - (shown - 1)
    }

    /// Moves the clock to `newTime` (seconds; earlier times are ignored).
    @discardableResult
    public mutating func advance(to newTime: Double) -> [PatternLockEvent] {
        clock.advance(to: newTime)
        switch inputLock {
        case .pending(let seconds): inputLock = .until(time + seconds)
        case .until(let end) where time >= end: inputLock = nil
        default: break
        }
        advanceReplay()
        if let deadline = clearDeadline, time >= deadline {
            return clear()
        }
        return []
    }

    /// How far a selected dot has grown, 0…1, by its index in ``pattern``.
    public func growth(ofSelection index: Int) -> Double {
        if reducesMotion { return 1 }
        let t = (time - selectionTimes[index]) / Self.dotGrowthDuration
        let u = t.clamped(to: 0...1)
        return u * (2 - u)
    }

    private mutating func advanceReplay() {
        guard let replay = replayInProgress else { return }
        let elapsed = time - replay.start
        let due = min(replay.dots.count, Int((elapsed / replay.step).rounded(.down)) + 1)
        // The dots come from a `Pattern`, so each extension adds exactly that dot.
        while pattern.count < due {
            let index = pattern.count
            pattern.extend(to: replay.dots[index])
            selectionTimes.append(replay.start + Double(index) * replay.step)
        }
        if elapsed >= Double(replay.dots.count) * replay.step {
            replayInProgress = nil
            tip = nil
            show(replay.endState)
        } else if due < replay.dots.count {
            let fraction = (elapsed / replay.step - Double(due - 1)).clamped(to: 0...1)
            tip = layout.center(of: replay.dots[due - 1]).interpolated(
                to: layout.center(of: replay.dots[due]), fraction: fraction)
        } else {
            tip = nil
        }
    }

    // MARK: - Selection

    /// Starts a fresh pattern, clearing whatever is shown.
    private mutating func beginPattern(by source: Entry) -> [PatternLockEvent] {
        let events = clear()
        displayState = .drawing
        entry = source
        return events
    }

    /// Selects `dot` by the rules; reports `started` for the first dot, then each dot added.
    private mutating func select(_ dot: Int) -> [PatternLockEvent] {
        var partial = pattern
        let added = pattern.extend(to: dot)
        var events: [PatternLockEvent] = partial.isEmpty && !added.isEmpty ? [.started] : []
        for dot in added {
            partial.extend(to: dot)
            selectionTimes.append(time)
            events.append(.dotAdded(dot, pattern: partial))
        }
        return events
    }

    /// Ends the pattern: too short shows as wrong; otherwise the owner gets it.
    private mutating func finish() -> [PatternLockEvent] {
        entry = nil
        tip = nil
        if pattern.isEmpty {
            displayState = .normal
            return []
        }
        if pattern.count < configuration.minimumLength {
            _ = show(.wrong)
            return [.tooShort(pattern)]
        }
        return [.finished(pattern)]
    }
}

// MARK: - Pointer

extension PatternLockModel {
    /// Handles a pointer event in view coordinates; `nil` when it is not used (input
    /// disabled, or motion without a press).
    public mutating func handle(_ event: PointerEvent) -> [PatternLockEvent]? {
        guard isInputEnabled else { return nil }
        clock.advance(to: event.time)
        switch event.phase {
        case .began:
            var events = beginPattern(by: .pointer)
            isFocusVisible = false
            tip = event.location
            if let dot = layout.dot(at: event.location) {
                events += select(dot)
            }
            return events
        case .moved, .ended:
            guard entry == .pointer, let previous = tip else { return nil }
            var events: [PatternLockEvent] = []
            for dot in layout.dots(alongSegmentFrom: previous, to: event.location) {
                events += select(dot)
            }
            tip = event.location
            if event.phase == .ended { events += finish() }
            return events
        case .cancelled:
            guard entry == .pointer else { return nil }
            return clear()
        }
    }
}

// MARK: - Keyboard

extension PatternLockModel {
    /// Handles a key: arrows move the focus ring (the first press shows it where it was
    /// last, dot 1 at first), Space selects the focused dot, Enter finishes, Escape clears. `nil` when the key is not
    /// used.
    public mutating func handle(_ event: KeyEvent) -> [PatternLockEvent]? {
        guard isInputEnabled, entry != .pointer else { return nil }
        let size = configuration.grid.size
        switch event.key {
        case .left, .right, .up, .down:
            guard isFocusVisible else {
                isFocusVisible = true
                return []
            }
            var row = configuration.grid.row(of: focusPosition)
            var column = configuration.grid.column(of: focusPosition)
            switch event.key {
            case .left: column = max(0, column - 1)
            case .right: column = min(size - 1, column + 1)
            case .up: row = max(0, row - 1)
            default: row = min(size - 1, row + 1)
            }
            focusPosition = configuration.grid.dot(row: row, column: column)
            return []
        case .space:
            isFocusVisible = true
            let events = entry == .keys ? [] : beginPattern(by: .keys)
            return events + select(focusPosition)
        case .enter:
            guard entry == .keys else { return nil }
            return finish()
        case .escape:
            guard displayState != .normal || !pattern.isEmpty else { return nil }
            return clear()
        default:
            return nil
        }
    }
}
