import TactileCore
import TactilePatternLock

/// The pattern lock's tasks as people go through them — set a first pattern (draw it, then
/// again to confirm), unlock, change (the current pattern, then the new one twice), remove,
/// and start over from a damaged store — as a value that takes what happened and says what to
/// do next.
///
/// A flow under way (confirming a new pattern, changing, removing) can be cancelled
/// (``cancel()``). The words it says fit the flow and the way the pattern is entered: tell
/// it when a drawing starts, goes away or is too short (``drawingStarted(by:)``,
/// ``drawingCleared()``, ``tooShort(minimum:)``).
///
/// The vault's calls are slow on purpose (Argon2id), so the session does not make them: it
/// asks for one with ``Effect/perform(_:)`` and is told its result with ``answer(_:)``. Its
/// host (the showcase page, a test) only carries the effects out: run the request on the
/// vault, show the feedback on the lock, put the words on screen.
///
/// ```swift
/// var session = PatternSession()
/// run(session.start(status: Result { try vault.status() }))
/// lock.onEvent = { event in
///     if case .finished(let pattern) = event { run(session.finished(pattern)) }
/// }
/// // … and for .perform(request): run it in the background, then run(session.answer(…)).
/// ```
public struct PatternSession: Hashable, Sendable {

    /// The task under way.
    public private(set) var task: Task = .unlock
    /// The request the session waits an answer for.
    public private(set) var pending: Request?
    /// The grid a new pattern is drawn on.
    public private(set) var newPatternGrid: Int
    /// The fewest dots a new pattern needs.
    public let minimumLength: Int
    /// Why the store cannot be used, while ``task`` is ``Task/damaged``.
    public private(set) var failure: PatternVaultError?
    /// The explanation last said, not counting a hint about the drawing in progress: what
    /// comes back when that drawing goes away.
    private var explanation = ""

    /// A warning about the grid chosen for a new pattern when it allows fewer than
    /// ``fewPatterns`` patterns (2 × 2: 24, counted by `PatternCounter`), `nil` otherwise.
    public private(set) var gridWarning: String?

    /// A grid allowing fewer patterns than this gets a warning (``gridWarning``).
    public static let fewPatterns: UInt64 = 1000

    /// Creates a session; call ``start(status:)`` with the store's status next.
    public init(
        newPatternGrid: Int = 3, minimumLength: Int = PatternLimits.defaultMinimumLength
    ) {
        self.newPatternGrid = newPatternGrid
        self.minimumLength = minimumLength
        gridWarning = Self.warning(forGrid: newPatternGrid, minimumLength: minimumLength)
    }

    // MARK: - Tasks

    /// Starts from the store as it is: set a pattern when there is none, otherwise unlock
    /// (counting down first if a wait is running).
    public mutating func start(status: Result<PatternVaultStatus?, PatternVaultError>)
        -> [Effect]
    {
        switch status {
        case .failure(let error):
            return fail(error)
        case .success(nil):
            return beginEnrollment()
        case .success(let stored?):
            task = .unlock
            pending = nil
            failure = nil
            return [.useGrid(stored.grid.size), .show(.clear), prompt()] + waiting(stored)
        }
    }

    /// Starts setting a first pattern, on the chosen grid.
    public mutating func beginEnrollment() -> [Effect] {
        task = .enroll(PatternEnrollment(minimumLength: minimumLength))
        pending = nil
        failure = nil
        return [.useGrid(newPatternGrid), .show(.clear), prompt()]
    }

    /// Starts unlocking, changing or removing, on the stored pattern's grid.
    public mutating func begin(
        _ newTask: Task, status: Result<PatternVaultStatus?, PatternVaultError>
    ) -> [Effect] {
        if case .enroll = newTask { return beginEnrollment() }
        guard case .success(let stored) = status else {
            if case .failure(let error) = status { return fail(error) }
            return []
        }
        task = newTask
        pending = nil
        failure = nil
        var effects = (stored.map { [.useGrid($0.grid.size)] } ?? []) + [.show(.clear), prompt()]
        if let stored { effects += waiting(stored) }
        return effects
    }

    /// Locks an open lock again: the pattern is asked for next time. Nothing unless
    /// ``Task/unlocked``.
    public mutating func lockAgain() -> [Effect] {
        guard task == .unlocked, pending == nil else { return [] }
        task = .unlock
        return [.show(.clear), prompt()]
    }

    /// Whether the lock takes a drawing now: not while it is open, nor when the store cannot
    /// be used.
    public var takesDrawing: Bool { task != .unlocked && task != .damaged }

    /// A lockout still running in the store: the count of wrong patterns that caused it, and
    /// the countdown. (A task begun meanwhile keeps saying why it waits.)
    private mutating func waiting(_ stored: PatternVaultStatus) -> [Effect] {
        guard let wait = stored.lockoutRemaining else { return [] }
        return [
            say(
                promptText().headline,
                Localization.text(
                    "{1} wrong in a row. When the countdown ends, draw again.", stored.failures)),
            .countDown(wait),
        ]
    }

    /// Chooses the grid for a new pattern; a new pattern being drawn starts over on it.
    public mutating func chooseGrid(_ size: Int) -> [Effect] {
        newPatternGrid = size
        gridWarning = Self.warning(forGrid: size, minimumLength: minimumLength)
        switch task {
        case .enroll:
            return beginEnrollment()
        case .changeNew(let current, _):
            task = .changeNew(current: current, PatternEnrollment(minimumLength: minimumLength))
            return [.useGrid(size), .show(.clear), prompt()]
        default:
            return []
        }
    }

    /// Whether the grid of a new pattern may be chosen now (before its first drawing).
    public var choosesGrid: Bool {
        switch task {
        case .enroll(let enrollment), .changeNew(_, let enrollment):
            enrollment.step == .drawing && pending == nil
        default: false
        }
    }

    /// A warning about a grid for a new pattern that allows fewer than ``fewPatterns``
    /// patterns (2 × 2: 24), counted by `PatternCounter`; `nil` otherwise.
    private static func warning(forGrid size: Int, minimumLength: Int) -> String? {
        guard let grid = try? PatternGrid(size: size),
            let count = try? PatternCounter.count(grid: grid, minimumLength: minimumLength),
            count.total < fewPatterns
        else { return nil }
        let total = Int(count.total)
        return Localization.plural(
            "A {2} × {2} grid allows only {1} pattern, which is easy to guess.",
            "A {2} × {2} grid allows only {1} patterns, which are easy to guess.", count: total,
            total, size)
    }

    // MARK: - Cancelling and starting over

    /// Whether a flow is under way that ``cancel()`` ends: confirming a first pattern,
    /// changing, removing.
    public var isCancellable: Bool {
        switch task {
        case .enroll(let enrollment): enrollment.step == .confirming
        case .changeCurrent, .changeNew, .remove: true
        case .unlock, .unlocked, .damaged: false
        }
    }

    /// Ends the flow under way, storing nothing: a first pattern is drawn afresh, a change or
    /// removal goes back to unlocking. Nothing while the vault works or no flow is under way.
    public mutating func cancel() -> [Effect] {
        guard isCancellable, pending == nil else { return [] }
        switch task {
        case .changeCurrent, .changeNew, .remove:
            // A new pattern may be on a grid of its own: the stored pattern's comes back.
            var effects: [Effect] = []
            if case .changeNew(let current, _) = task {
                effects.append(.useGrid(current.grid.size))
            }
            return effects
                + unlock(
                    showing: .clear, Localization.text("Draw your pattern to unlock"),
                    Localization.text("Nothing was changed."))
        default:
            return beginEnrollment()
        }
    }

    /// Starts over from a damaged store (after asking the person): asks for the store to be
    /// kept aside, then sets a new pattern. Nothing unless the store failed closed in a way
    /// starting over mends (``Effect/failClosed(_:_:canStartOver:)``).
    public mutating func startOver() -> [Effect] {
        guard case .damaged = task, pending == nil, let failure, Self.startsOver(failure) else {
            return []
        }
        return request(.setAside, saying: Localization.text("Setting the damaged store aside…"))
    }

    // MARK: - What the drawing asks for

    /// A drawing started: how to finish it, for the way it is entered.
    public func drawingStarted(by entry: PatternLockModel.Entry) -> [Effect] {
        guard takesDrawing else { return [] }
        let hint =
            switch entry {
            case .pointer: Localization.text("Release when done.")
            case .keys: Localization.text("Space adds the dot in the ring; press Enter when done.")
            }
        return [.say(promptText().headline, hint)]
    }

    /// The drawing went away (cleared, escaped, a wrong one timed out): what the task asks
    /// for, with the explanation that stood before the drawing.
    public func drawingCleared() -> [Effect] {
        guard takesDrawing else { return [] }
        return [.say(promptText().headline, explanation)]
    }

    /// A drawing ended with fewer than `minimum` dots (the lock shows it as wrong): say so, in
    /// the words of the flow. Not an attempt.
    public mutating func tooShort(minimum: Int) -> [Effect] {
        guard takesDrawing else { return [] }
        let explanation =
            switch task {
            case .enroll(let enrollment), .changeNew(_, let enrollment):
                enrollment.step == .drawing
                    ? Localization.text(
                        "A shorter pattern is too easy to guess. Draw a longer one.")
                    : Localization.text("To confirm, draw the same pattern as the first time.")
            default:
                Localization.text("That was too short and was not counted as an attempt.")
            }
        return [
            say(
                Localization.plural(
                    "Connect at least {1} dot", "Connect at least {1} dots", count: minimum,
                    minimum), explanation)
        ]
    }

    // MARK: - Patterns and answers

    /// A pattern was drawn.
    public mutating func finished(_ pattern: Pattern) -> [Effect] {
        guard pending == nil else { return [] }
        switch task {
        case .enroll(var enrollment):
            let outcome = enrollment.submit(pattern)
            task = .enroll(enrollment)
            guard case .confirmed(let confirmed) = outcome else { return step(outcome) }
            return request(.enroll(confirmed), saying: Localization.text("Saving…"))
        case .changeNew(let current, var enrollment):
            let outcome = enrollment.submit(pattern)
            task = .changeNew(current: current, enrollment)
            guard case .confirmed(let confirmed) = outcome else { return step(outcome) }
            return request(
                .change(from: current, to: confirmed), saying: Localization.text("Checking…"))
        case .unlock, .changeCurrent:
            return request(.verify(pattern), saying: Localization.text("Checking…"))
        case .remove:
            return request(.remove(pattern), saying: Localization.text("Checking…"))
        case .unlocked:
            return []
        case .damaged:
            return [.show(.wrong)]
        }
    }

    /// The vault's answer to the pending request.
    public mutating func answer(_ answer: Answer) -> [Effect] {
        guard let request = pending else { return [] }
        pending = nil
        if case .failed(let error) = answer { return fail(error) }
        switch (request, answer) {
        case (.enroll, .enrolled):
            return unlock(
                showing: .correct, Localization.text("Pattern saved"),
                Localization.text("Draw it to unlock."))
        case (.change, .verdict(.accepted)):
            return unlock(
                showing: .correct, Localization.text("Pattern changed"),
                Localization.text("Draw the new pattern to unlock."))
        case (.setAside, .setAside(let keptAs)):
            let effects = beginEnrollment()
            guard let keptAs else { return effects }
            return effects + [
                say(
                    Localization.text("Draw an unlock pattern"),
                    Localization.text(
                        "The damaged store was kept as {1}. Draw a new pattern twice.", keptAs))
            ]
        case (.verify(let pattern), .verdict(let verdict)):
            guard case .changeCurrent = task else {
                guard verdict == .accepted else { return show(verdict) }
                task = .unlocked
                return [.show(.correct), prompt(), .notify(Localization.text("Unlocked"))]
            }
            guard verdict == .accepted else { return show(verdict) }
            task = .changeNew(current: pattern, PatternEnrollment(minimumLength: minimumLength))
            return [.show(.correct), .useGrid(newPatternGrid), .show(.clear), prompt()]
        case (.remove, .verdict(.accepted)):
            return [.show(.correct)] + beginEnrollment()
                + [
                    say(
                        Localization.text("Pattern removed"),
                        Localization.text("Draw a new unlock pattern, or leave the lock unset."))
                ]
        case (.change, .verdict(let verdict)), (.remove, .verdict(let verdict)):
            return show(verdict)
        default:
            return fail(.hashingFailed)
        }
    }

    /// What the task asks for now, as a headline and an explanation (`keepingExplanation`:
    /// the headline alone).
    public mutating func prompt(keepingExplanation: Bool = false) -> Effect {
        let (headline, explanation) = promptText()
        return keepingExplanation ? .say(headline, nil) : say(headline, explanation)
    }

    private func promptText() -> (headline: String, explanation: String) {
        switch task {
        case .enroll(let enrollment), .changeNew(_, let enrollment):
            enrollment.step == .drawing
                ? (
                    Localization.text("Draw an unlock pattern"),
                    Localization.plural(
                        "Connect at least {1} dot. You will draw it twice.",
                        "Connect at least {1} dots. You will draw it twice.",
                        count: minimumLength, minimumLength)
                )
                : (Localization.text("Draw again to confirm"), "")
        case .unlock: (Localization.text("Draw your pattern to unlock"), "")
        case .unlocked:
            (
                Localization.text("Unlocked"),
                Localization.text("It stays open until you press Lock.")
            )
        case .changeCurrent:
            (
                Localization.text("Draw your current pattern"),
                Localization.text("Then draw the new one twice.")
            )
        case .remove: (Localization.text("Draw your current pattern to remove it"), "")
        case .damaged: (Localization.text("The pattern store cannot be used"), "")
        }
    }

    // MARK: - Helpers

    /// Says `headline` and `explanation`, remembering the explanation for ``drawingCleared()``.
    private mutating func say(_ headline: String, _ explanation: String) -> Effect {
        self.explanation = explanation
        return .say(headline, explanation)
    }

    /// Ends the flow under way at unlocking: shows `feedback` on the lock and says what became
    /// of the flow.
    private mutating func unlock(
        showing feedback: Feedback, _ headline: String, _ explanation: String
    ) -> [Effect] {
        task = .unlock
        return [.show(feedback), say(headline, explanation)]
    }

    private mutating func request(_ request: Request, saying doing: String) -> [Effect] {
        pending = request
        return [say(doing, ""), .perform(request)]
    }

    private mutating func step(_ outcome: PatternEnrollment.Outcome) -> [Effect] {
        switch outcome {
        case .tooShort(let minimum):
            return [.show(.wrong)] + tooShort(minimum: minimum)
        case .confirmNext:
            return [
                .show(.clear),
                say(
                    Localization.text("Draw again to confirm"),
                    Localization.text("Pattern recorded.")),
            ]
        case .mismatch:
            let explanation =
                if case .changeNew = task {
                    Localization.text(
                        "Draw the same pattern again to confirm, or press Cancel to keep your current pattern."
                    )
                } else {
                    Localization.text(
                        "Draw the same pattern again to confirm, or press Cancel to start over.")
                }
            return [.show(.wrong), say(Localization.text("Patterns didn't match"), explanation)]
        case .confirmed:
            return []
        }
    }

    private mutating func show(_ verdict: PatternVerification) -> [Effect] {
        switch verdict {
        case .accepted:
            return [.show(.correct)]
        case .rejected(let failures, let wait, let attempts):
            if wait > 0 {
                return [
                    .show(.wrong),
                    say(
                        Localization.text("Wrong pattern"),
                        Localization.text("{1} wrong in a row.", failures)),
                    .countDown(wait),
                ]
            }
            let next = Int(PatternThrottle.wait(afterFailures: failures + attempts))
            return [
                .show(.wrong),
                say(
                    Localization.text("Wrong pattern"),
                    Localization.plural(
                        "{1} try left before a {2} s wait.", "{1} tries left before a {2} s wait.",
                        count: attempts, attempts, next)),
            ]
        case .lockedOut(let secondsLeft):
            return [.show(.wrong), .countDown(secondsLeft)]
        }
    }

    /// Whether starting over (keeping the store aside, setting a new pattern) mends `error`:
    /// only a store that is there but cannot be trusted or read in this format.
    private static func startsOver(_ error: PatternVaultError) -> Bool {
        switch error {
        case .damaged, .unsupportedVersion: true
        default: false
        }
    }

    private mutating func fail(_ error: PatternVaultError) -> [Effect] {
        if case .invalidPattern = error {
            return [.show(.wrong), say(Localization.text("Pattern not accepted"), error.message)]
        }
        task = .damaged
        pending = nil
        failure = error
        let (headline, explanation): (String, String) =
            switch error {
            case .damaged(_, let reason):
                (
                    Localization.text("The pattern store is damaged"),
                    Localization.text(
                        "The file that keeps your pattern cannot be trusted ({1}), so no pattern unlocks. Start over to keep that file aside and set a new pattern.",
                        reason)
                )
            case .unsupportedVersion(_, let version):
                (
                    Localization.text("The pattern store is from a newer version"),
                    Localization.text(
                        "The file that keeps your pattern has format version {1}, which this version cannot read, so no pattern unlocks. Use the newer version, or start over to keep that file aside and set a new pattern.",
                        version)
                )
            default:
                (
                    Localization.text("The pattern store cannot be used"),
                    Localization.text(
                        "No pattern unlocks until this is fixed: {1}. Then press Try again.",
                        error.message)
                )
            }
        return [
            .show(.wrong), .failClosed(headline, explanation, canStartOver: Self.startsOver(error)),
        ]
    }
}
