import TactileCore

/// The gesture pattern lock as a `Component`: a grid of dots the user connects by dragging,
/// or with the keyboard.
///
/// A ``PatternLockModel`` behind the generic host: the host forwards pointer and key events,
/// moves time forward while it animates and draws; `onEvent` hears what happened. The owner
/// verifies a ``PatternLockEvent/finished(_:)`` pattern (see `PatternVault`) and answers
/// with ``PatternLockModel/show(_:)``:
///
/// ```swift
/// let lock = try PatternLockView()
/// lock.onEvent = { event in
///     if case .finished(let pattern) = event {
///         lock.update { $0.show(isRight(pattern) ? .correct : .wrong) }
///     }
/// }
/// ```
public typealias PatternLockView = ComponentHost<PatternLockModel>

extension ComponentHost where Model == PatternLockModel {
    /// Creates a view.
    ///
    /// - Throws: a ``PatternError`` when the configuration is out of range.
    public convenience init(configuration: PatternLockConfiguration = PatternLockConfiguration())
        throws(PatternError)
    {
        self.init(try PatternLockModel(configuration: configuration))
    }
}

extension PatternLockModel: ComponentModel {
    public static var standardThemes: Themes<PatternLockTheme> {
        Themes(light: .light, dark: .dark)
    }

    /// Counts the dots, never names them: the pattern is a secret.
    public var accessibility: ComponentAccessibility {
        let n = pattern.count
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

    public func draw(in canvas: any Canvas, theme: PatternLockTheme) {
        PatternRenderer.draw(self, theme: theme, in: canvas)
    }
}
