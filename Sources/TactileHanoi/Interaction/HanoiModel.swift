import TactileCore

/// The interactive Tower of Hanoi without drawing: a solution playing back, or manual play
/// with drag-and-drop, click-click or peg keys; every interaction state lives here.
///
/// A value, moved forward by functions of (state, event or time), each returning the
/// ``HanoiEvent``s that happened — the shape every Tactile component has (`ComponentModel`).
/// ``HanoiView`` hosts one and draws it.
public struct HanoiModel: Sendable {
    /// What the user is doing.
    public enum Mode: Hashable, Sendable {
        /// Watching a solution play.
        case solver
        /// Moving disks by hand.
        case manual
    }

    /// The area the tower is drawn in, in points; the layout follows it.
    public var viewSize: Size
    /// Solver or manual play.
    public private(set) var mode: Mode = .solver
    /// The solution being played (in manual mode, the last one started).
    public private(set) var playback: HanoiPlayback
    /// The manual game, in manual mode.
    public private(set) var game: HanoiGame
    /// A sentence for the user: why a move was refused, the hint, "Solved".
    public private(set) var message: String?
    /// The peg picked by a click, waiting for the second click.
    public private(set) var selectedPeg: Int?
    /// The move the last hint showed.
    public private(set) var hintMove: HanoiMove?
    /// The peg the last refused move aimed at.
    public private(set) var refusedPeg: Int?
    /// Whether a move in flight is drawn landed (on its target peg) rather than travelling:
    /// the solution keeps its pace, without motion.
    public var reducesMotion = false

    private var clock = FrameClock()
    private var drag: (disk: Int, from: Int, offset: Vector, location: Point, start: Point)?

    /// The number of disks.
    public var diskCount: Int { game.goal.diskCount }
    /// The number of pegs.
    public var pegCount: Int { game.goal.pegCount }
    /// Where pegs and disks are drawn for ``viewSize``.
    public var layout: HanoiLayout {
        HanoiLayout(viewSize: viewSize, disks: diskCount, pegs: pegCount)
    }

    /// Creates a model with all disks on A, to be moved to the last peg, in solver mode.
    public init(disks: Int = 5, pegs: Int = 3, viewSize: Size = Size(width: 640, height: 400))
        throws(HanoiError)
    {
        game = try HanoiGame(disks: disks, pegs: pegs)
        playback = HanoiPlayback(plan: try HanoiSolver.plan(disks: disks, pegs: pegs))
        self.viewSize = viewSize
    }

    /// Starts over with a new number of disks and pegs, in solver mode; keeps the speed.
    public mutating func configure(disks: Int, pegs: Int) throws(HanoiError) -> [HanoiEvent] {
        let newGame = try HanoiGame(disks: disks, pegs: pegs)
        let plan = try HanoiSolver.plan(disks: disks, pegs: pegs)
        let wasManual = mode == .manual
        game = newGame
        playback = HanoiPlayback(plan: plan, speed: playback.speed)
        mode = .solver
        clearMarks()
        return (wasManual ? [.modeChanged(.solver)] : []) + [.configured] + setMessage(nil)
    }

    /// Back to all disks on A, in solver mode, paused.
    public mutating func reset() -> [HanoiEvent] {
        (try? configure(disks: diskCount, pegs: pegCount)) ?? []
    }

    // MARK: - Solver controls

    /// Starts or resumes the solution. In manual mode, solves from the current position.
    public mutating func play() -> [HanoiEvent] {
        var events: [HanoiEvent] = []
        if mode == .manual {
            do {
                let plan = try HanoiSolver.plan(from: game.position, to: game.goal)
                playback = HanoiPlayback(plan: plan, speed: playback.speed)
                mode = .solver
                clearMarks()
                events.append(.modeChanged(.solver))
            } catch {
                return setMessage(error.message)
            }
        }
        // Moves done before are not told again; from the end it starts over.
        let before = playback.state == .finished ? 0 : playback.completedMoves
        playback.play()
        events.append(.playbackChanged(playback.state))
        return events + setMessage(nil)
            + finishedMoves(since: before, whenSolved: playback.plan.count)
    }

    /// Pauses the solution: a move in flight lands first (at once when motion is reduced, as
    /// it is already drawn landed), then nothing moves.
    public mutating func pause() -> [HanoiEvent] {
        guard mode == .solver, playback.isPlaying else { return [] }
        guard reducesMotion, playback.currentMove != nil else {
            playback.pause()
            return [.playbackChanged(playback.state)]
        }
        let before = playback.completedMoves
        playback.stepForward()
        return [.playbackChanged(playback.state)]
            + finishedMoves(since: before, whenSolved: playback.plan.count)
    }

    /// Plays when paused, pauses when playing.
    public mutating func togglePlayPause() -> [HanoiEvent] {
        playback.isPlaying && mode == .solver ? pause() : play()
    }

    /// Completes the next move and pauses.
    public mutating func stepForward() -> [HanoiEvent] {
        guard mode == .solver else { return [] }
        let before = playback.completedMoves
        playback.stepForward()
        return [.playbackChanged(playback.state)]
            + finishedMoves(since: before, whenSolved: playback.plan.count)
    }

    /// Goes back one move and pauses.
    public mutating func stepBackward() -> [HanoiEvent] {
        guard mode == .solver else { return [] }
        playback.stepBackward()
        return [.playbackChanged(playback.state)]
    }

    /// Jumps to a fraction 0…1 of the solution.
    public mutating func seek(toFraction fraction: Double) -> [HanoiEvent] {
        guard mode == .solver else { return [] }
        playback.seek(toFraction: fraction)
        return [.playbackChanged(playback.state)]
    }

    /// Jumps to the point after `moves` moves.
    public mutating func seek(to moves: UInt64) -> [HanoiEvent] {
        guard mode == .solver else { return [] }
        playback.seek(to: moves)
        return [.playbackChanged(playback.state)]
    }

    /// Sets the playback speed.
    public mutating func setSpeed(_ speed: HanoiSpeed) -> [HanoiEvent] {
        playback.speed = speed
        if speed == .instant, playback.isPlaying { playback.play() }
        return [.playbackChanged(playback.state)]
    }

    // MARK: - Manual play

    /// Switches to manual play from the position currently shown.
    public mutating func startManualPlay() -> [HanoiEvent] {
        guard mode == .solver else { return [] }
        let position = playback.position
        if let fresh = try? HanoiGame(start: position, goal: game.goal) { game = fresh }
        mode = .manual
        clearMarks()
        return [.modeChanged(.manual)]
            + setMessage(
                game.isSolved
                    ? Localization.text("Solved.")
                    : Localization.text("Drag a disk, or click a peg and then another."))
    }

    /// Moves the top disk of `from` onto `to` (manual mode); a refusal sets ``message``.
    public mutating func move(from: Int, to: Int) -> [HanoiEvent] {
        guard mode == .manual else { return [] }
        let hadSelection = selectedPeg != nil
        clearMarks()
        var events: [HanoiEvent] = hadSelection ? [.selectionChanged(peg: nil)] : []
        do {
            let move = try game.move(from: from, to: to)
            events.append(.moveFinished(move))
            if game.isSolved { events.append(.solved) }
            events += setMessage(game.isSolved ? solvedMessage() : nil)
        } catch {
            refusedPeg = to
            events.append(.moveRefused(error))
            events += setMessage(error.description)
        }
        return events
    }

    /// Takes back the last manual move.
    public mutating func undo() -> [HanoiEvent] {
        guard mode == .manual, let move = game.undo() else { return [] }
        clearMarks()
        return [.moveFinished(move.reversed)] + setMessage(nil)
    }

    /// Plays the last undone manual move again.
    public mutating func redo() -> [HanoiEvent] {
        guard mode == .manual, let move = game.redo() else { return [] }
        clearMarks()
        return [.moveFinished(move)] + (game.isSolved ? [.solved] : [])
            + setMessage(game.isSolved ? solvedMessage() : nil)
    }

    /// Shows the best next move (switching to manual play if needed).
    public mutating func hint() -> [HanoiEvent] {
        var events = mode == .solver ? startManualPlay() : []
        clearMarks()
        do {
            if let move = try game.hint() {
                hintMove = move
                events.append(.hintShown(move))
                events += setMessage(
                    Localization.text(
                        "Hint: move disk {1} from {2} to {3}.", move.disk,
                        HanoiPeg.letter(move.from), HanoiPeg.letter(move.to)))
            } else {
                events += setMessage(Localization.text("Solved."))
            }
        } catch {
            events += setMessage(error.message)
        }
        return events
    }

    // MARK: - Status

    /// The line shown under the puzzle, e.g. "Move 5 of 31 — disk 1 from A to C": the last
    /// move done, as the picture shows it (a move in flight counts once it has landed, or at
    /// once when motion is reduced and it is drawn landed); once the last move has landed,
    /// "Solved: 31 moves, the fewest possible".
    public var status: String {
        switch mode {
        case .solver:
            let total = playback.plan.count
            if total == 0 { return Localization.text("Already solved — nothing to move") }
            let done = shownCompletedMoves
            guard done > 0 else {
                return isAnimating
                    ? Localization.text("Move 0 of {1}", total)
                    : Localization.text("Move 0 of {1} — press Start", total)
            }
            if done == total, !isAnimating {
                return Localization.plural(
                    "Solved: {1} move, the fewest possible",
                    "Solved: {1} moves, the fewest possible",
                    count: Int(clamping: total), total)
            }
            let move = playback.plan.move(number: done)
            return Localization.text(
                "Move {1} of {2} — disk {3} from {4} to {5}", done, total, move.disk,
                HanoiPeg.letter(move.from), HanoiPeg.letter(move.to))
        case .manual:
            guard let optimum = game.optimalMoveCount else {
                return Localization.text("Moves: {1}", game.moveCount)
            }
            return Localization.text("Moves: {1} (fewest possible: {2})", game.moveCount, optimum)
        }
    }

    // MARK: - Time and input

    /// Whether time moves something: the solution playing, or its last move landing.
    public var isAnimating: Bool { mode == .solver && playback.isMoving }

    /// The moves the picture shows done: the completed ones, and the one in flight when it is
    /// drawn landed.
    private var shownCompletedMoves: UInt64 {
        playback.completedMoves + (reducesMotion && playback.currentMove != nil ? 1 : 0)
    }

    /// Moves the clock to `time` (host seconds): the solution plays on by the time passed,
    /// never more than a quarter of a second at once (a stall resumes where it was).
    public mutating func advance(to time: Double) -> [HanoiEvent] {
        let step = clock.advance(to: time)
        guard isAnimating, step > 0 else { return [] }
        let before = playback.completedMoves
        let state = playback.state
        playback.advance(by: step)
        return (playback.state != state ? [.playbackChanged(playback.state)] : [])
            + finishedMoves(since: before, whenSolved: playback.plan.count)
    }

    /// Handles a pointer event (manual mode: drag a disk, or click a peg then another);
    /// `nil` when the event is not used.
    public mutating func handle(_ event: PointerEvent) -> [HanoiEvent]? {
        guard mode == .manual else { return nil }
        let layout = self.layout
        switch event.phase {
        case .began:
            guard let peg = layout.peg(at: event.location) else { return nil }
            if let disk = game.position.topDisk(on: peg), selectedPeg == nil {
                let level = game.position.disks(on: peg).count - 1
                let center = layout.restingCenter(onPeg: peg, level: level)
                drag = (disk, peg, center - event.location, event.location, event.location)
            } else {
                drag = nil
            }
            return []
        case .moved:
            guard drag != nil else { return nil }
            drag?.location = event.location
            return [.diskDragged]
        case .ended:
            let target = layout.peg(at: event.location)
            guard let current = drag else { return target.map { click(peg: $0) } ?? [] }
            drag = nil
            if current.start.distance(to: event.location) < 6 { return click(peg: current.from) }
            if let target, target != current.from { return move(from: current.from, to: target) }
            return [.diskDragged]
        case .cancelled:
            drag = nil
            return [.diskDragged]
        }
    }

    /// Handles a key: Space plays or pauses, ← → step (or undo and redo by hand), Esc drops
    /// the pick, a peg's letter (A–Z) or number (1–9, and 0 for the tenth) picks it. `nil` when
    /// the key is not used.
    public mutating func handle(_ event: KeyEvent) -> [HanoiEvent]? {
        switch event.key {
        case .space:
            return togglePlayPause()
        case .right:
            return mode == .solver ? stepForward() : redo()
        case .left:
            return mode == .solver ? stepBackward() : undo()
        case .escape:
            guard selectedPeg != nil else { return [] }
            selectedPeg = nil
            return [.selectionChanged(peg: nil)]
        case .character(let c):
            // Shortcuts with Ctrl or Alt belong to the window, not the pegs.
            guard event.modifiers.isDisjoint(with: [.control, .alternate]),
                let peg = Self.peg(forKey: c), peg < pegCount
            else { return nil }
            let events = mode == .solver ? startManualPlay() : []
            return events + click(peg: peg)
        default:
            return nil
        }
    }

    // MARK: - What is drawn

    /// The position drawn now: the game's by hand, the playback's otherwise.
    public var shownPosition: HanoiPosition {
        mode == .manual ? game.position : playback.position
    }

    /// The disk off its peg, if any: the one in the hand, or the one in flight.
    public var looseDisk: HanoiRenderer.LooseDisk? { looseDisk(in: layout) }

    /// ``looseDisk`` in a layout already worked out (drawing works it out once a frame).
    func looseDisk(in layout: HanoiLayout) -> HanoiRenderer.LooseDisk? {
        switch mode {
        case .manual:
            // Kept whole in the view when the pointer leaves it.
            return drag.map {
                HanoiRenderer.LooseDisk(
                    disk: $0.disk, center: layout.clamped($0.location + $0.offset, ofDisk: $0.disk),
                    opacity: Self.heldDiskOpacity)
            }
        case .solver:
            guard let move = playback.currentMove else { return nil }
            let position = playback.position
            let path = layout.travelPath(
                of: move, fromLevel: position.disks(on: move.from).count - 1,
                toLevel: position.disks(on: move.to).count)
            return HanoiRenderer.LooseDisk(
                disk: move.disk,
                center: point(
                    along: path,
                    fraction: reducesMotion ? 1 : Easing.easeInOut(playback.progress)))
        }
    }

    /// How opaque a disk in the hand is drawn: enough to see, not so much that it hides the
    /// smaller disks it passes over.
    static let heldDiskOpacity = 0.7

    /// The pegs marked: picked, hinted, refused, and the one a dragged disk is over (whether
    /// it may go there shows before it is dropped).
    public var marks: HanoiRenderer.Marks { marks(in: layout) }

    /// ``marks`` in a layout already worked out.
    func marks(in layout: HanoiLayout) -> HanoiRenderer.Marks {
        var marks = HanoiRenderer.Marks(selected: selectedPeg, hint: hintMove, refused: refusedPeg)
        if mode == .manual, let drag, let target = layout.peg(at: drag.location),
            target != drag.from
        {
            marks.dropTarget = target
            marks.dropAllowed = game.position.topDisk(on: target).map { $0 > drag.disk } ?? true
        }
        return marks
    }

    // MARK: - Helpers

    /// The peg a key picks: letters A–Z (either case) the pegs of that letter, digits 1–9 the
    /// first nine, 0 the tenth.
    static func peg(forKey key: Character) -> Int? {
        if let digit = key.wholeNumberValue, key.isASCII {
            return digit == 0 ? 9 : digit - 1
        }
        guard key.isASCII, key.isLetter else { return nil }
        return HanoiPeg.index(of: key)
    }

    private mutating func click(peg: Int) -> [HanoiEvent] {
        guard mode == .manual else { return [] }
        if let selected = selectedPeg {
            selectedPeg = nil
            let dropped: [HanoiEvent] = [.selectionChanged(peg: nil)]
            return selected != peg ? dropped + move(from: selected, to: peg) : dropped
        }
        if game.position.topDisk(on: peg) != nil {
            selectedPeg = peg
            refusedPeg = nil
            hintMove = nil
            return [.selectionChanged(peg: peg)]
        }
        refusedPeg = peg
        let refusal = HanoiRefusal.emptyPeg(peg)
        return [.moveRefused(refusal)] + setMessage(refusal.description)
    }

    /// The moves the playback completed since `before` moves, and `.solved` on reaching the
    /// plan's end.
    private func finishedMoves(since before: UInt64, whenSolved total: UInt64) -> [HanoiEvent] {
        let done = playback.completedMoves
        guard done > before else { return [] }
        // A jump of many moves (instant speed) reports the last one, not millions.
        var events: [HanoiEvent] = [.moveFinished(playback.plan.move(number: done))]
        if done == total { events.append(.solved) }
        return events
    }

    private mutating func setMessage(_ text: String?) -> [HanoiEvent] {
        guard text != message else { return [] }
        message = text
        return [.messageChanged(text)]
    }

    private mutating func clearMarks() {
        selectedPeg = nil
        hintMove = nil
        refusedPeg = nil
        drag = nil
    }

    private func solvedMessage() -> String {
        let moves = game.moveCount
        guard let optimum = game.optimalMoveCount else {
            return Localization.plural(
                "Solved in {1} move.", "Solved in {1} moves.", count: moves, moves)
        }
        return UInt64(moves) > optimum
            ? Localization.plural(
                "Solved in {1} move; the fewest possible is {2}.",
                "Solved in {1} moves; the fewest possible is {2}.", count: moves, moves, optimum)
            : Localization.text("Solved in the fewest possible moves!")
    }
}
