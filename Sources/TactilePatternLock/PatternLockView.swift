import TactileCore

/// The gesture pattern lock as a `Component`: a grid of dots the user connects by dragging,
/// or with the keyboard.
///
/// The host forwards pointer and key events, moves time forward while ``isAnimating`` and
/// asks the view to draw; the view reports what happened through ``onEvent``. The owner
/// verifies a ``PatternLockEvent/finished(_:)`` pattern (see `PatternVault`) and answers
/// with ``show(_:)``:
///
/// ```swift
/// let lock = try PatternLockView()
/// lock.onEvent = { event in
///     if case .finished(let pattern) = event {
///         lock.show(isRight(pattern) ? .correct : .wrong)
///     }
/// }
/// ```
public final class PatternLockView: Component {
    /// The state machine the view shows.
    public private(set) var model: PatternLockModel
    /// Colours and proportions, for a light and a dark desktop.
    public var themes = Themes(light: PatternLockTheme.light, dark: .dark)
    public var appearance = Appearance.light

    public var reducesMotion: Bool {
        get { model.reducesMotion }
        set { model.reducesMotion = newValue }
    }
    /// Called for each event, in order, as it happens.
    public var onEvent: ((PatternLockEvent) -> Void)?

    /// Creates a view.
    ///
    /// - Throws: a ``PatternError`` when the configuration is out of range.
    public init(configuration: PatternLockConfiguration = PatternLockConfiguration())
        throws(PatternError)
    {
        model = try PatternLockModel(configuration: configuration)
    }

    public var viewSize: Size {
        get { model.viewSize }
        set { model.viewSize = newValue }
    }

    /// The grid, rules and timing.
    public var configuration: PatternLockConfiguration { model.configuration }

    /// Changes the settings; a new grid clears the pattern.
    public func configure(_ configuration: PatternLockConfiguration) throws(PatternError) {
        report(try model.configure(configuration))
    }

    /// Hides the path and the highlight of selected dots.
    public var isStealthy: Bool {
        get { model.isStealthy }
        set { model.isStealthy = newValue }
    }

    /// How the pattern is shown.
    public var displayState: PatternDisplayState { model.displayState }

    /// How the pattern in progress is being entered, or `nil` when none is.
    public var entry: PatternLockModel.Entry? { model.entry }

    /// Shows the owner's verdict; see ``PatternLockModel/show(_:)``.
    public func show(_ state: PatternDisplayState) { report(model.show(state)) }

    /// Removes the pattern.
    public func clear() { report(model.clear()) }

    /// Draws `pattern` dot by dot; see ``PatternLockModel/replay(_:stepDuration:endingIn:)``.
    public func replay(
        _ pattern: Pattern, stepDuration: Double = 0.35,
        endingIn endState: PatternDisplayState = .correct
    ) {
        model.replay(pattern, stepDuration: stepDuration, endingIn: endState)
    }

    /// Refuses input for `seconds` from the next frame while ``inputLockRemaining`` counts
    /// down, or with `nil` until ``enableInput()``.
    public func disableInput(for seconds: Double? = nil) { model.disableInput(for: seconds) }

    /// Accepts input again.
    public func enableInput() { model.enableInput() }

    /// Whether input is accepted.
    public var isInputEnabled: Bool { model.isInputEnabled }

    /// Seconds until input is accepted again, or `nil`.
    public var inputLockRemaining: Double? { model.inputLockRemaining }

    // MARK: - Component

    /// Counts the dots, never names them: the pattern is a secret.
    public var accessibility: ComponentAccessibility {
        let n = model.pattern.count
        var description = Localization.plural(
            "{1}×{1} grid, {2} dot selected", "{1}×{1} grid, {2} dots selected", count: n,
            configuration.grid.size, n)
        if let wait = inputLockRemaining, wait.isFinite {
            description += Localization.text("; locked, try again in {1} s", Int(wait.rounded(.up)))
        } else if inputLockRemaining != nil {
            description += Localization.text("; locked")
        }
        return ComponentAccessibility(
            role: .group, label: Localization.text("Pattern lock"), description: description,
            isDisabled: !isInputEnabled)
    }

    public var isAnimating: Bool { model.isAnimating }

    public var nextChangeTime: Double? { model.nextChangeTime }

    public func advance(to time: Double) { report(model.advance(to: time)) }

    @discardableResult
    public func handle(_ event: PointerEvent) -> Bool { report(model.handle(event)) }

    @discardableResult
    public func handle(_ event: KeyEvent) -> Bool { report(model.handle(event)) }

    public func draw(in canvas: any Canvas) {
        PatternRenderer.draw(model, theme: themes[appearance], in: canvas)
    }

    /// Tells ``onEvent`` each event in order; returns whether there were any to tell (`nil`,
    /// an input the model did not use, has none).
    @discardableResult
    private func report(_ events: [PatternLockEvent]?) -> Bool {
        guard let events else { return false }
        for event in events { onEvent?(event) }
        return true
    }
}
