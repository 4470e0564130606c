import TactileCore

/// The interactive Tower of Hanoi: an animated optimal solution with playback controls, and
/// manual play with drag-and-drop, click-click or peg keys (letters, and digits for ten pegs).
///
/// A thin `Component` over a ``HanoiModel``: the host forwards pointer and key events and
/// moves time forward while ``isAnimating``; the view hands them to the model, tells
/// ``onEvent`` what happened, and draws the model with a ``HanoiRenderer`` and its theme.
/// Controls outside the drawing (buttons, a seek bar) call the methods below and read
/// ``status``.
public final class HanoiView: Component {
    /// Everything the view shows and remembers.
    public private(set) var model: HanoiModel
    /// Told what happened, after each operation, in order.
    public var onEvent: ((HanoiEvent) -> Void)?
    /// Colours for a light and a dark desktop.
    public var themes = Themes(light: HanoiTheme.light, dark: .dark)
    public var appearance = Appearance.light

    public var reducesMotion: Bool {
        get { model.reducesMotion }
        set { model.reducesMotion = newValue }
    }

    public var viewSize: Size {
        get { model.viewSize }
        set { model.viewSize = newValue }
    }

    /// Creates a view with all disks on A, to be moved to the last peg.
    public init(disks: Int = 5, pegs: Int = 3) throws(HanoiError) {
        model = try HanoiModel(disks: disks, pegs: pegs)
    }

    /// Tells ``onEvent`` each event in order; returns whether there were any to tell (`nil`,
    /// an input the model did not use, has none).
    @discardableResult
    private func report(_ events: [HanoiEvent]?) -> Bool {
        guard let events else { return false }
        for event in events { onEvent?(event) }
        return true
    }

    // MARK: - Reading

    /// Solver or manual play.
    public var mode: HanoiModel.Mode { model.mode }
    /// The solution being played (in manual mode, the last one started).
    public var playback: HanoiPlayback { model.playback }
    /// The manual game, in manual mode.
    public var game: HanoiGame { model.game }
    /// A sentence for the user: why a move was refused, the hint, "Solved".
    public var accessibility: ComponentAccessibility {
        let description =
            if let message = model.message {
                Localization.plural(
                    "{1} disk on {2} pegs. {3}. {4}", "{1} disks on {2} pegs. {3}. {4}",
                    count: diskCount, diskCount, pegCount, model.status, message)
            } else {
                Localization.plural(
                    "{1} disk on {2} pegs. {3}", "{1} disks on {2} pegs. {3}", count: diskCount,
                    diskCount, pegCount, model.status)
            }
        return ComponentAccessibility(
            role: .group, label: Localization.text("Tower of Hanoi"), description: description)
    }

    public var message: String? { model.message }
    /// The line shown under the puzzle, e.g. "Move 5 of 31 — disk 1 from A to C".
    public var status: String { model.status }
    /// The number of disks.
    public var diskCount: Int { model.diskCount }
    /// The number of pegs.
    public var pegCount: Int { model.pegCount }
    /// Where pegs and disks are drawn.
    public var layout: HanoiLayout { model.layout }

    // MARK: - Controls (see ``HanoiModel`` for each)

    /// Starts over with a new number of disks and pegs, in solver mode; keeps the speed.
    public func configure(disks: Int, pegs: Int) throws(HanoiError) {
        report(try model.configure(disks: disks, pegs: pegs))
    }
    /// Starts or resumes the solution; in manual mode, solves from the current position.
    public func play() { report(model.play()) }
    /// Pauses the solution.
    public func pause() { report(model.pause()) }
    /// Plays when paused, pauses when playing.
    public func togglePlayPause() { report(model.togglePlayPause()) }
    /// Completes the next move and pauses.
    public func stepForward() { report(model.stepForward()) }
    /// Goes back one move and pauses.
    public func stepBackward() { report(model.stepBackward()) }
    /// Jumps to a fraction 0…1 of the solution.
    public func seek(toFraction fraction: Double) { report(model.seek(toFraction: fraction)) }
    /// Jumps to the point after `moves` moves.
    public func seek(to moves: UInt64) { report(model.seek(to: moves)) }
    /// Sets the playback speed.
    public func setSpeed(_ speed: HanoiSpeed) { report(model.setSpeed(speed)) }
    /// Back to all disks on A, in solver mode, paused.
    public func reset() { report(model.reset()) }
    /// Switches to manual play from the position currently shown.
    public func startManualPlay() { report(model.startManualPlay()) }
    /// Moves the top disk of `from` onto `to` (manual mode).
    public func move(from: Int, to: Int) { report(model.move(from: from, to: to)) }
    /// Takes back the last manual move.
    public func undo() { report(model.undo()) }
    /// Plays the last undone manual move again.
    public func redo() { report(model.redo()) }
    /// Shows the best next move.
    public func hint() { report(model.hint()) }

    // MARK: - Component

    public var isAnimating: Bool { model.isAnimating }

    public func advance(to time: Double) { report(model.advance(to: time)) }

    @discardableResult
    public func handle(_ event: PointerEvent) -> Bool { report(model.handle(event)) }

    @discardableResult
    public func handle(_ event: KeyEvent) -> Bool { report(model.handle(event)) }

    public func draw(in canvas: any Canvas) {
        HanoiRenderer(layout: model.layout, theme: themes[appearance]).draw(
            model.shownPosition, loose: model.looseDisk, marks: model.marks, in: canvas)
    }
}
