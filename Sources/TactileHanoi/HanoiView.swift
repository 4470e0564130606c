import TactileCore

/// The interactive Tower of Hanoi: an animated optimal solution with playback controls, and
/// manual play with drag-and-drop, click-click or digit keys.
///
/// A `Component`: the host forwards pointer and key events, moves time forward
/// while ``isAnimating``, and asks it to draw. Controls outside the drawing (buttons, a seek
/// bar) call the methods below and read ``status``.
public final class HanoiView: Component {
    /// What the user is doing.
    public enum Mode: Hashable, Sendable {
        /// Watching a solution play.
        case solver
        /// Moving disks by hand.
        case manual
    }

    public var viewSize: Size = Size(width: 640, height: 400) {
        didSet { layout = HanoiLayout(viewSize: viewSize, disks: diskCount, pegs: pegCount) }
    }
    public private(set) var mode: Mode = .solver
    /// The solution being played (in manual mode, the last one started).
    public private(set) var playback: HanoiPlayback
    /// The manual game, in manual mode.
    public private(set) var game: HanoiGame
    /// A sentence for the user: why a move was refused, the hint, "Solved".
    public private(set) var message: String?
    /// Called after anything the page shows changes (state, counter, message).
    public var onChange: (() -> Void)?
    public var theme = HanoiTheme()

    private(set) var layout: HanoiLayout
    private var clock = FrameClock()
    private var selectedPeg: Int?
    private var hintMove: HanoiMove?
    private var refusedPeg: Int?
    private var drag: (disk: Int, from: Int, offset: Vector, location: Point, start: Point)?

    /// The number of disks.
    public var diskCount: Int { game.goal.diskCount }
    /// The number of pegs.
    public var pegCount: Int { game.goal.pegCount }

    /// Creates a view with all disks on A, to be moved to the last peg.
    public init(disks: Int = 5, pegs: Int = 3) throws(HanoiError) {
        game = try HanoiGame(disks: disks, pegs: pegs)
        playback = HanoiPlayback(plan: try HanoiSolver.plan(disks: disks, pegs: pegs))
        layout = HanoiLayout(viewSize: viewSize, disks: disks, pegs: pegs)
    }

    /// Starts over with a new number of disks and pegs, in solver mode; keeps the speed.
    public func configure(disks: Int, pegs: Int) throws(HanoiError) {
        let newGame = try HanoiGame(disks: disks, pegs: pegs)
        let plan = try HanoiSolver.plan(disks: disks, pegs: pegs)
        game = newGame
        playback = HanoiPlayback(plan: plan, speed: playback.speed)
        layout = HanoiLayout(viewSize: viewSize, disks: disks, pegs: pegs)
        mode = .solver
        clearMarks()
        message = nil
        changed()
    }

    // MARK: - Solver controls

    /// Starts or resumes the solution. In manual mode, solves from the current position.
    public func play() {
        if mode == .manual {
            do {
                let plan = try HanoiSolver.plan(from: game.position, to: game.goal)
                playback = HanoiPlayback(plan: plan, speed: playback.speed)
                mode = .solver
                clearMarks()
            } catch {
                message = error.message
                return changed()
            }
        }
        playback.play()
        message = nil
        changed()
    }

    /// Pauses the solution.
    public func pause() {
        playback.pause()
        changed()
    }

    /// Plays when paused, pauses when playing.
    public func togglePlayPause() {
        playback.isPlaying && mode == .solver ? pause() : play()
    }

    /// Completes the next move and pauses.
    public func stepForward() {
        guard mode == .solver else { return }
        playback.stepForward()
        changed()
    }

    /// Goes back one move and pauses.
    public func stepBackward() {
        guard mode == .solver else { return }
        playback.stepBackward()
        changed()
    }

    /// Jumps to a fraction 0…1 of the solution.
    public func seek(toFraction fraction: Double) {
        guard mode == .solver else { return }
        playback.seek(toFraction: fraction)
        changed()
    }

    /// Jumps to the point after `moves` moves.
    public func seek(to moves: UInt64) {
        guard mode == .solver else { return }
        playback.seek(to: moves)
        changed()
    }

    /// Sets the playback speed.
    public func setSpeed(_ speed: HanoiSpeed) {
        playback.speed = speed
        if speed == .instant, playback.isPlaying { playback.play() }
        changed()
    }

    /// Back to all disks on A, in solver mode, paused.
    public func reset() {
        try? configure(disks: diskCount, pegs: pegCount)
    }

    // MARK: - Manual play

    /// Switches to manual play from the position currently shown.
    public func startManualPlay() {
        guard mode == .solver else { return }
        let position = playback.position
        if let fresh = try? HanoiGame(start: position, goal: game.goal) {
            game = fresh
        }
        mode = .manual
        clearMarks()
        message = game.isSolved ? "Solved." : "Drag a disk, or click a peg and then another."
        changed()
    }

    /// Moves the top disk of `from` onto `to` (manual mode); a refusal sets ``message``.
    public func move(from: Int, to: Int) {
        guard mode == .manual else { return }
        clearMarks()
        do {
            try game.move(from: from, to: to)
            message = game.isSolved ? solvedMessage() : nil
        } catch {
            refusedPeg = to
            message = error.description
        }
        changed()
    }

    /// Takes back the last manual move.
    public func undo() {
        guard mode == .manual, game.undo() != nil else { return }
        clearMarks()
        message = nil
        changed()
    }

    /// Plays the last undone manual move again.
    public func redo() {
        guard mode == .manual, game.redo() != nil else { return }
        clearMarks()
        message = game.isSolved ? solvedMessage() : nil
        changed()
    }

    /// Shows the best next move (manual mode).
    public func hint() {
        if mode == .solver { startManualPlay() }
        clearMarks()
        do {
            if let move = try game.hint() {
                hintMove = move
                message = "Hint: move \(move)."
            } else {
                message = "Solved."
            }
        } catch {
            message = error.message
        }
        changed()
    }

    // MARK: - Status

    /// The line shown under the puzzle, e.g. "Move 5 of 31 — disk 1 from A to C".
    public var status: String {
        switch mode {
        case .solver:
            let total = playback.plan.count
            let done = playback.completedMoves
            if total == 0 { return "Already solved — nothing to move" }
            if done == 0 && playback.progress == 0 {
                return "Move 0 of \(total) — press Start"
            }
            let shown = playback.progress > 0 ? done + 1 : done
            let move = playback.plan.move(number: max(shown, 1))
            return "Move \(shown) of \(total) — \(move)"
        case .manual:
            guard let optimum = game.optimalMoveCount else { return "Moves: \(game.moveCount)" }
            return "Moves: \(game.moveCount) (fewest possible: \(optimum))"
        }
    }

    // MARK: - Component

    public var isAnimating: Bool { mode == .solver && playback.isPlaying }

    public func advance(to time: Double) {
        // A long stall (a suspended window) resumes where it was rather than jumping ahead.
        let step = clock.advance(to: time)
        guard isAnimating else { return }
        let before = playback.state
        playback.advance(by: step)
        if playback.state != before || step > 0 { changed() }
    }

    @discardableResult
    public func handle(_ event: PointerEvent) -> Bool {
        guard mode == .manual else { return false }
        switch event.phase {
        case .began:
            guard let peg = layout.peg(at: event.location) else { return false }
            if let disk = game.position.topDisk(on: peg), selectedPeg == nil {
                let level = game.position.disks(on: peg).count - 1
                let center = layout.restingCenter(onPeg: peg, level: level)
                drag = (disk, peg, center - event.location, event.location, event.location)
            } else {
                drag = nil
            }
            return true
        case .moved:
            guard drag != nil else { return false }
            drag?.location = event.location
            onChange?()
            return true
        case .ended:
            let target = layout.peg(at: event.location)
            if let current = drag {
                drag = nil
                let isClick = current.start.distance(to: event.location) < 6
                if isClick {
                    click(peg: current.from)
                } else if let target, target != current.from {
                    move(from: current.from, to: target)
                } else {
                    changed()
                }
            } else if let target {
                click(peg: target)
            }
            return true
        case .cancelled:
            drag = nil
            changed()
            return true
        }
    }

    @discardableResult
    public func handle(_ event: KeyEvent) -> Bool {
        switch event.key {
        case .space:
            togglePlayPause()
        case .right:
            mode == .solver ? stepForward() : redo()
        case .left:
            mode == .solver ? stepBackward() : undo()
        case .escape:
            selectedPeg = nil
            changed()
        case .character(let c):
            guard let digit = c.wholeNumberValue, (1...pegCount).contains(digit) else {
                return false
            }
            if mode == .solver { startManualPlay() }
            click(peg: digit - 1)
        default:
            return false
        }
        return true
    }

    public func draw(in canvas: any Canvas) {
        let renderer = HanoiRenderer(layout: layout, theme: theme)
        let marks = HanoiRenderer.Marks(selected: selectedPeg, hint: hintMove, refused: refusedPeg)
        switch mode {
        case .manual:
            let loose = drag.map {
                HanoiRenderer.LooseDisk(disk: $0.disk, center: $0.location + $0.offset)
            }
            renderer.draw(game.position, loose: loose, marks: marks, in: canvas)
        case .solver:
            let position = playback.position
            renderer.draw(position, loose: flyingDisk(from: position), marks: marks, in: canvas)
        }
    }

    /// The disk in flight and where it is, for the current playback.
    func flyingDisk(from position: HanoiPosition) -> HanoiRenderer.LooseDisk? {
        guard let move = playback.currentMove else { return nil }
        let path = layout.travelPath(
            of: move, fromLevel: position.disks(on: move.from).count - 1,
            toLevel: position.disks(on: move.to).count)
        return HanoiRenderer.LooseDisk(
            disk: move.disk,
            center: point(along: path, fraction: Easing.easeInOut(playback.progress)))
    }

    // MARK: - Helpers

    private func click(peg: Int) {
        guard mode == .manual else { return }
        if let selected = selectedPeg {
            selectedPeg = nil
            if selected != peg { return move(from: selected, to: peg) }
        } else if game.position.topDisk(on: peg) != nil {
            selectedPeg = peg
            refusedPeg = nil
            hintMove = nil
        } else {
            refusedPeg = peg
            message = HanoiRefusal.emptyPeg(peg).description
        }
        changed()
    }

    private func clearMarks() {
        selectedPeg = nil
        hintMove = nil
        refusedPeg = nil
        drag = nil
    }

    private func solvedMessage() -> String {
        guard let optimum = game.optimalMoveCount else {
            return "Solved in \(game.moveCount) moves."
        }
        return UInt64(game.moveCount) > optimum
            ? "Solved in \(game.moveCount) moves; the fewest possible is \(optimum)."
            : "Solved in the fewest possible moves!"
    }

    private func changed() { onChange?() }
}
