import CGtk
import Foundation
import TactileCore
import TactileGTK
import TactileHanoi

/// The Tower of Hanoi page: the puzzle, and the controls around it.
func makeHanoiPage() -> Widget {
    HanoiPage().root
}

/// The page's widgets around a ``HanoiView``: the tower's size, the solution's playback and
/// speed, play by hand; every label and button follows the tower.
private final class HanoiPage {
    let hanoi = try! HanoiView(disks: 5)
    let canvas: ComponentView
    let status = Label()
    let message = Label()
    /// A label, not a tooltip: always in view, no hovering needed.
    let keys = Label()
    let disks = Entry(text: "5", placeholder: "1…64", widthInCharacters: 4)
    let pegs = Entry(text: "3", placeholder: "3…26", widthInCharacters: 4)
    let startPause = Button(Localization.text("Start")) {}
    var seek: Slider!
    /// Moves or thousandths of the solution the seek bar counts (see ``fitSeekRange()``).
    var seekSteps = 1000.0
    let speedLabel = Label()
    var speed: Slider!
    var stepBack: Button!
    var stepOn: Button!
    var undo: Button!
    var redo: Button!
    var isInstant = false
    var rateValue = 2.0
    /// The tower and the width the status line's height was last reserved for.
    var reservedFor: (moves: UInt64, width: Int32)?
    var root: Widget!

    init() {
        canvas = ComponentView(hanoi)
        canvas.setMinimumSize(width: 320, height: 240)
        status.addStyleClass("title-4")
        // 64 disks make a long line ("Move 11932334453273662057 of 18446744073709551615 —
        // …"): it wraps, even inside a number, rather than widen the window or be cut off.
        status.wraps = true
        status.breaksLongWords = true
        message.wraps = true
        keys.wraps = true
        sizeStartPause()
        // The view holds the page: it lives as long as the view is shown.
        hanoi.onEvent = { [self] _ in
            refresh()
            canvas.setNeedsUpdate()
        }
        // The seek bar and the move counter follow the playback frame by frame.
        canvas.onTick = { [unowned self] in refresh() }
        root = pageLayout(
            controls: makeControls(), controlsWidth: 330,
            stage: [canvas, status, message, keys])
        refresh()
    }

    /// As wide as the start button's longest title, so neither the buttons beside it nor
    /// the page move as it changes (in the reader's language: measured once it has a style).
    func sizeStartPause() {
        let startPause = startPause
        startPause.setMinimumSize(width: 130)
        connect(startPause.widget, signal: "realize") {
            let titles = [
                Localization.text("Start"), Localization.text("Pause"), Localization.text("Resume"),
                Localization.text("Solve from here"), Localization.text("Jump to the end"),
            ]
            let widest = largest(titles, through: \.title, of: startPause) {
                startPause.measure(.horizontal).natural
            }
            startPause.setMinimumSize(width: Int(max(130, widest)))
        }
    }

    /// Fits the seek bar's range to the solution's number of moves.
    func fitSeekRange() {
        let steps = Double(min(max(hanoi.playback.plan.count, 1), 1000))
        guard steps != seekSteps else { return }
        seekSteps = steps
        // Inside every range first, so changing the range moves nothing.
        seek.value = 0
        gtk_range_set_range(tactile_range(seek.widget), 0, steps)
        gtk_range_set_increments(tactile_range(seek.widget), 1, max(1, (steps / 10).rounded()))
    }

    /// Speed slider position 0…1 ↔ 0.5…1,000 moves per second, on a log scale.
    func rate(atSlider v: Double) -> Double { 0.5 * pow(2000, v) }

    /// Keeps the status line as tall as its longest text for this tower needs at its width,
    /// so the canvas above does not jump as the move numbers grow (64 disks: 20 digits).
    func reserveStatusHeight() {
        let width = gtk_widget_get_width(status.widget)
        let moves = hanoi.playback.plan.count
        guard width > 0, reservedFor.map({ $0 != (moves, width) }) ?? true else { return }
        reservedFor = (moves, width)
        let longest = [
            Localization.text(
                "Move {1} of {2} — disk {3} from {4} to {5}", moves, moves, hanoi.diskCount, "W",
                "W"),
            Localization.plural(
                "Solved: {1} move, the fewest possible", "Solved: {1} moves, the fewest possible",
                count: Int(clamping: moves), moves),
        ]
        let tallest = largest(longest, through: \.text, of: status) {
            status.measure(.vertical, forSize: width).natural
        }
        status.setMinimumSize(height: Int(tallest))
    }

    /// Whether the solution is playing.
    func isSolving() -> Bool { hanoi.mode == .solver && hanoi.playback.isPlaying }

    func refresh() {
        status.text = hanoi.status
        reserveStatusHeight()
        message.text = hanoi.message ?? ""
        let playing = isSolving()
        let partWay = hanoi.playback.completedMoves > 0 && hanoi.playback.state == .paused
        let finished = hanoi.playback.state == .finished
        startPause.title =
            playing
            ? Localization.text("Pause")
            : (hanoi.mode == .manual
                ? Localization.text("Solve from here")
                : isInstant && !finished
                    ? Localization.text("Jump to the end")
                    : partWay ? Localization.text("Resume") : Localization.text("Start"))
        seek.isSensitive = hanoi.mode == .solver
        // Steps move the solution: not by hand (← → undo and redo there), nor past its ends.
        let solution = hanoi.playback
        stepBack.isSensitive =
            hanoi.mode == .solver && (solution.completedMoves > 0 || solution.progress > 0)
        stepOn.isSensitive = hanoi.mode == .solver && solution.completedMoves < solution.plan.count
        fitSeekRange()
        seek.value = hanoi.playback.fractionComplete * seekSteps
        keys.text = Localization.text(
            "Keys: Space play/pause · ← → step (undo/redo by hand) · {1} pick pegs",
            Self.pegKeys(hanoi.pegCount))
        undo.isSensitive = hanoi.mode == .manual && hanoi.game.canUndo
        redo.isSensitive = hanoi.mode == .manual && hanoi.game.canRedo
        speedLabel.text =
            isInstant
            ? Localization.text("Instant")
            : Localization.text("{1} moves/s", String(format: "%.1f", rateValue))
    }

    /// The keys that pick pegs, e.g. "A–C, 1–3", or "A–L, 1–9, 0" (digits reach ten pegs).
    static func pegKeys(_ pegs: Int) -> String {
        let letters = "A–" + HanoiPeg.letter(pegs - 1)
        return pegs < 10 ? "\(letters), 1–\(pegs)" : "\(letters), 1–9, 0"
    }

    /// Reads both fields; on bad input shows the reason inline (once: no dialog on top of
    /// it), and keeps the current puzzle.
    func applyCounts() -> Bool {
        do throws(HanoiError) {
            let n = try HanoiInput.disks(from: disks.text)
            let p = try HanoiInput.pegs(from: pegs.text)
            if n != hanoi.diskCount || p != hanoi.pegCount {
                try hanoi.update { tower throws(HanoiError) in
                    try tower.configure(disks: n, pegs: p)
                }
            }
            return true
        } catch {
            message.text = error.message
            return false
        }
    }

    /// The seek bar: moving it seeks; refreshing it from the model does not (setting is
    /// silent). It counts moves when there are at most a thousand (a key press is one move),
    /// else thousandths of the solution; either way its end is the last move.
    func makeSeek() -> Slider {
        Slider(range: 0...1000, step: 1, value: 0, showsValue: false) { [unowned self] value in
            let moves = hanoi.playback.plan.count
            if Double(moves) == seekSteps {
                hanoi.update { $0.seek(to: UInt64(value.rounded().clamped(to: 0...seekSteps))) }
            } else {
                hanoi.update { $0.seek(toFraction: value / seekSteps) }
            }
        }
    }

    /// The speed slider and the Instant box beside it.
    func makeSpeedRow() -> Box {
        let hanoi = hanoi
        speed = Slider(range: 0...1, step: 0.01, value: log(4) / log(2000), showsValue: false) {
            [unowned self] v in
            rateValue = rate(atSlider: v)
            if !isInstant { hanoi.update { $0.setSpeed(.movesPerSecond(rateValue)) } }
            refresh()
        }
        let instant = CheckButton(Localization.text("Instant")) { [unowned self] on in
            isInstant = on
            // Ticked while the solution plays, it does not jump there and then: the solution
            // pauses, and the button now says what it does (Jump to the end).
            if on, isSolving() { hanoi.update { $0.pause() } }
            // Under Instant the rate does not apply: its slider says so by resting.
            speed.isSensitive = !on
            hanoi.update { $0.setSpeed(on ? .instant : .movesPerSecond(rateValue)) }
            refresh()
        }
        hanoi.update { $0.setSpeed(.movesPerSecond(rateValue)) }
        speed.setAccessibleLabel(Localization.text("Speed"))
        speed.expandsHorizontally = true
        return Box(.horizontal, spacing: 6, [speed, instant])
    }

    /// The controls: the tower's size, the solution, its speed, and play by hand.
    func makeControls() -> Widget {
        let hanoi = hanoi
        seek = makeSeek()
        stepBack = Button(Localization.text("◀ Step")) { hanoi.update { $0.stepBackward() } }
        stepOn = Button(Localization.text("Step ▶")) { hanoi.update { $0.stepForward() } }
        undo = Button(Localization.text("Undo")) { hanoi.update { $0.undo() } }
        redo = Button(Localization.text("Redo")) { hanoi.update { $0.redo() } }
        connect(startPause.widget, signal: "clicked") { [unowned self] in
            if isSolving() {
                hanoi.update { $0.pause() }
            } else if applyCounts() {
                hanoi.update { $0.play() }
            }
        }
        for field in [disks, pegs] {
            connect(field.widget, signal: "activate") { [unowned self] in
                if applyCounts() { hanoi.update { $0.reset() } }
            }
        }
        let speedRow = makeSpeedRow()
        disks.setAccessibleLabel(Localization.text("Disks"))
        pegs.setAccessibleLabel(Localization.text("Pegs"))
        seek.setAccessibleLabel(Localization.text("Seek to a move"))
        let counts = Box(
            .horizontal, spacing: 6,
            [
                Label(Localization.text("Disks")), disks, Label(Localization.text("Pegs")), pegs,
                Button(Localization.text("Apply")) { [unowned self] in
                    if applyCounts() { hanoi.update { $0.reset() } }
                },
            ])
        let playback = Box(.horizontal, spacing: 6, [startPause, stepBack, stepOn])
        let manual = Box(
            .horizontal, spacing: 6,
            [
                Button(Localization.text("Play by hand")) { hanoi.update { $0.startManualPlay() } },
                undo, redo,
            ])
        let tools = Box(
            .horizontal, spacing: 6,
            [
                Button(Localization.text("Hint")) { hanoi.update { $0.hint() } },
                Button(Localization.text("Reset")) { hanoi.update { $0.reset() } },
            ])
        return Box(
            .vertical, spacing: 10,
            [
                Section(Localization.text("Tower"), counts),
                Section(
                    Localization.text("Solution"), stacking: [playback, seek]),
                Section(
                    Localization.text("Speed"), stacking: [speedRow, speedLabel], spacing: 4),
                Section(Localization.text("By hand"), stacking: [manual, tools]),
            ])
    }
}

/// The largest `size` a widget takes with each of `texts` put in its `text` property; the text
/// it showed is put back.
private func largest<Shown: AnyObject>(
    _ texts: [String], through text: ReferenceWritableKeyPath<Shown, String>, of widget: Shown,
    size: () -> Int32
) -> Int32 {
    let shown = widget[keyPath: text]
    defer { widget[keyPath: text] = shown }
    return texts.map { candidate in
        widget[keyPath: text] = candidate
        return size()
    }.max() ?? 0
}
