import Foundation
import TactileCore
import TactileGTK
import TactileHanoi

/// The Tower of Hanoi page: the puzzle, and the controls around it.
func makeHanoiPage() -> Widget {
    let hanoi = try! HanoiView(disks: 5)
    let canvas = ComponentView(hanoi)
    canvas.setMinimumSize(width: 320, height: 240)

    let status = Label()
    status.addStyleClass("title-4")
    let message = Label()
    message.wraps = true
    // A label, not a tooltip: always in view, no hovering needed.
    let keys = Label(
        Localization.text(
            "Keys: Space play/pause · ← → step (undo/redo by hand) · 1–9 pick pegs"))
    keys.wraps = true
    let disks = Entry(text: "5", placeholder: "1…64", widthInCharacters: 4)
    let pegs = Entry(text: "3", placeholder: "3…26", widthInCharacters: 4)
    let startPause = Button(Localization.text("Start")) {}
    // As wide as its longest title, so the buttons beside it do not move as it changes.
    startPause.setMinimumSize(width: 130)
    // Moving the seek bar seeks; refreshing it from the model does not (setting is silent).
    let seek = Slider(range: 0...1000, step: 1, value: 0, showsValue: false) { value in
        hanoi.seek(toFraction: value / 1000)
    }
    let speedLabel = Label()
    let undo = Button(Localization.text("Undo")) { hanoi.undo() }
    let redo = Button(Localization.text("Redo")) { hanoi.redo() }

    /// Speed slider position 0…1 ↔ 0.5…1,000 moves per second, on a log scale.
    func rate(atSlider v: Double) -> Double { 0.5 * pow(2000, v) }
    var isInstant = false
    var rateValue = 2.0

    /// A line the solution itself leaves (solved by playing), shown until something else
    /// speaks.
    var solvedNote: String?

    func refresh() {
        status.text = hanoi.status
        message.text = hanoi.message ?? solvedNote ?? ""
        let playing = hanoi.mode == .solver && hanoi.playback.isPlaying
        startPause.title =
            playing
            ? Localization.text("Pause")
            : (hanoi.mode == .manual
                ? Localization.text("Solve from here") : Localization.text("Start"))
        seek.isSensitive = hanoi.mode == .solver
        seek.value = hanoi.playback.fractionComplete * 1000
        undo.isSensitive = hanoi.mode == .manual && hanoi.game.canUndo
        redo.isSensitive = hanoi.mode == .manual && hanoi.game.canRedo
        speedLabel.text =
            isInstant
            ? Localization.text("Instant")
            : Localization.text("{1} moves/s", String(format: "%.1f", rateValue))
    }
    var speed: Slider!

    /// Reads both fields; on bad input shows the reason inline (once: no dialog on top of
    /// it), and keeps the current puzzle.
    func applyCounts() -> Bool {
        do throws(HanoiError) {
            let n = try HanoiInput.disks(from: disks.text)
            let p = try HanoiInput.pegs(from: pegs.text)
            if n != hanoi.diskCount || p != hanoi.pegCount {
                try hanoi.configure(disks: n, pegs: p)
            }
            return true
        } catch {
            message.text = error.message
            return false
        }
    }

    hanoi.onEvent = { [weak canvas] event in
        switch event {
        case .solved where hanoi.mode == .solver:
            let moves = hanoi.playback.plan.count
            solvedNote = Localization.plural(
                "Solved in {1} move, the fewest possible.",
                "Solved in {1} moves, the fewest possible.", count: Int(clamping: moves), moves)
        case .playbackChanged, .configured, .modeChanged, .moveRefused, .hintShown:
            solvedNote = nil
        default:
            break
        }
        refresh()
        canvas?.setNeedsUpdate()
    }
    // The seek bar and the move counter follow the playback frame by frame.
    canvas.onTick = refresh
    let startPauseAction = {
        if hanoi.mode == .solver && hanoi.playback.isPlaying {
            hanoi.pause()
        } else if applyCounts() {
            hanoi.play()
        }
    }
    connect(startPause.widget, signal: "clicked", startPauseAction)
    for field in [disks, pegs] {
        connect(field.widget, signal: "activate") { if applyCounts() { hanoi.reset() } }
    }

    speed = Slider(range: 0...1, step: 0.01, value: log(4) / log(2000), showsValue: false) {
        v in
        rateValue = rate(atSlider: v)
        if !isInstant { hanoi.setSpeed(.movesPerSecond(rateValue)) }
        refresh()
    }
    let instant = CheckButton(Localization.text("Instant")) { on in
        isInstant = on
        // Under Instant the rate does not apply: its slider says so by resting.
        speed.isSensitive = !on
        hanoi.setSpeed(on ? .instant : .movesPerSecond(rateValue))
        refresh()
    }
    hanoi.setSpeed(.movesPerSecond(rateValue))

    disks.setAccessibleLabel(Localization.text("Disks"))
    pegs.setAccessibleLabel(Localization.text("Pegs"))
    seek.setAccessibleLabel(Localization.text("Seek to a move"))
    speed.setAccessibleLabel(Localization.text("Speed"))
    let counts = Box(
        .horizontal, spacing: 6,
        [
            Label(Localization.text("Disks")), disks, Label(Localization.text("Pegs")), pegs,
            Button(Localization.text("Apply")) { if applyCounts() { hanoi.reset() } },
        ])
    let playback = Box(
        .horizontal, spacing: 6,
        [
            startPause, Button(Localization.text("◀ Step")) { hanoi.stepBackward() },
            Button(Localization.text("Step ▶")) { hanoi.stepForward() },
        ])
    let speedRow = Box(.horizontal, spacing: 6, [speed, instant])
    speed.expandsHorizontally = true
    let manual = Box(
        .horizontal, spacing: 6,
        [Button(Localization.text("Play by hand")) { hanoi.startManualPlay() }, undo, redo])
    let tools = Box(
        .horizontal, spacing: 6,
        [
            Button(Localization.text("Hint")) { hanoi.hint() },
            Button(Localization.text("Reset")) { hanoi.reset() },
        ])
    let controls = Box(
        .vertical, spacing: 10,
        [
            Section(Localization.text("Tower"), counts),
            Section(
                Localization.text("Solution"), Box(.vertical, spacing: 6, [playback, seek])),
            Section(
                Localization.text("Speed"), Box(.vertical, spacing: 4, [speedRow, speedLabel])),
            Section(Localization.text("By hand"), Box(.vertical, spacing: 6, [manual, tools])),
        ])
    let page = pageLayout(
        controls: controls, controlsWidth: 330, stage: [canvas, status, message, keys])
    refresh()
    return page
}
