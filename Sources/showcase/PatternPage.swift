import CGtk
import Foundation
import TactileCore
import TactileGTK
import TactilePatternLock
import TactilePatternVault

/// The pattern lock page: set, unlock with, change and remove a pattern kept in the user's
/// state directory, with throttling and a live countdown; flows can be cancelled (Cancel, or
/// Esc), and a damaged store can be set aside to start over.
func makePatternPage() -> Widget {
    PatternPage().root
}

/// The page's widgets, wired to a ``PatternSession``: the lock's events go to the session,
/// and the page carries out the effects it answers with (the vault's calls on a thread of
/// their own, the lock's feedback, the words on screen).
private final class PatternPage {
    static let gridSizes = Array(PatternLimits.gridSizes)

    let vault: PatternVault
    let lock: PatternLockView
    let canvas: ComponentView
    let status = Label()
    let detail = Label()
    let storeLabel = Label()
    let gridWarning = Label()
    /// Turns while the vault works (the slow hash takes a moment).
    let spinner = Spinner()
    var cancelButton: Button!
    var startOverButton: Button!
    var retryButton: Button!
    /// The row of those three, hidden with them.
    let flowRow = Box(.horizontal, spacing: 6)
    var gridChoice: DropDown!
    var setButton: Button!
    var unlockButton: Button!
    /// In the unlock button's place while the lock is open.
    var lockButton: Button!
    var changeButton: Button!
    var removeButton: Button!
    var root: Widget!
    /// The task in progress and what it asks for next.
    var session = PatternSession()
    /// Carries out the session's effects in order.
    var runner: SessionRunner<PatternSession.Effect>!
    /// Whether a store that fails closed is also said in an alert (not before the window
    /// exists).
    var alertsOnFailure = true
    var isCountingDown = false
    /// Whether the vault is working (on a thread of its own), and whether the grid choice
    /// took input before it started.
    var isBusy = false
    var gridWasSensitive = true
    var lockHadFocus = false
    /// Whether the page refuses input because the store cannot be used.
    var isClosed = false

    init() {
        let path = PatternStoreLocation.defaultPath()
        vault = PatternVault(path: path)
        lock = try! PatternLockView()
        canvas = ComponentView(lock)
        canvas.setMinimumSize(width: 300, height: 300)
        runner = SessionRunner(
            perform: { [unowned self] in carryOut($0) }, settled: { [unowned self] in settled() })
        build()
        start()
    }

    // MARK: - Layout

    func build() {
        status.addStyleClass("title-4")
        detail.wraps = true
        storeLabel.wraps = true
        storeLabel.isSelectable = true
        storeLabel.text = Localization.text("Store: {1}", vault.path)
        storeLabel.addStyleClass("dim-label")
        gridWarning.wraps = true
        gridWarning.addStyleClass("warning")
        gridWarning.isVisible = false
        setButton = Button(Localization.text("Set pattern")) { [self] in beginEnrollment() }
        unlockButton = Button(Localization.text("Unlock")) { [self] in begin(.unlock) }
        lockButton = Button(Localization.text("Lock")) { [self] in run { $0.lockAgain() } }
        lockButton.isVisible = false
        changeButton = Button(Localization.text("Change")) { [self] in begin(.changeCurrent) }
        removeButton = Button(Localization.text("Remove")) { [self] in begin(.remove) }
        cancelButton = Button(Localization.text("Cancel")) { [self] in cancel() }
        cancelButton.isVisible = false
        startOverButton = Button(Localization.text("Start over…")) { [self] in confirmStartOver() }
        startOverButton.addStyleClass("destructive-action")
        startOverButton.isVisible = false
        retryButton = Button(Localization.text("Try again")) { [self] in start() }
        retryButton.isVisible = false
        for button in [cancelButton!, startOverButton!, retryButton!] { flowRow.append(button) }
        flowRow.isVisible = false
        gridChoice = DropDown(
            Self.gridSizes.map { "\($0) × \($0)" },
            selectedIndex: Self.gridSizes.firstIndex(of: 3)!
        ) { [self] _ in gridChanged() }
        gridChoice.setAccessibleLabel(Localization.text("Grid for a new pattern"))
        let stealth = CheckButton(Localization.text("Stealth (hide the path)")) { [self] on in
            // A path on the grid, hidden or not, must not appear by unticking Stealth.
            lock.update { $0.clear() }
            lock.isStealthy = on
            canvas.setNeedsUpdate()
        }
        lock.onEvent = { [self] event in handle(event) }
        canvas.onTick = { [self] in refreshCountdown() }

        let actions = Box(
            .vertical, spacing: 6,
            [
                Box(.horizontal, spacing: 6, [setButton, unlockButton, lockButton]),
                Box(.horizontal, spacing: 6, [changeButton, removeButton]),
                // Shown while they apply: here, so the lock keeps its size when they come and go.
                flowRow,
            ])
        let options = Box(
            .vertical, spacing: 6,
            [
                Box(
                    .horizontal, spacing: 6,
                    [Label(Localization.text("Grid for a new pattern")), gridChoice]), gridWarning,
                stealth,
            ])
        let controls = Box(
            .vertical, spacing: 10,
            [
                Section(Localization.text("Pattern"), actions),
                Section(Localization.text("Options"), options), storeLabel,
            ])
        // A label, not a tooltip: always in view, no hovering needed.
        let keys = Label(
            Localization.text(
                "Drag across the dots · arrows move the ring, Space selects, Enter finishes, Esc clears, then cancels"
            ))
        keys.wraps = true
        let headline = Box(.horizontal, spacing: 6, [status, spinner])
        root = pageLayout(
            controls: controls, controlsWidth: 300, stage: [canvas, headline, detail, keys])
        whenEscapeIsUnused(in: root) { [self] in
            guard session.isCancellable, !isBusy else { return false }
            cancel()
            return true
        }
    }

    // MARK: - Tasks

    /// The store's status; on first use its folder is made, so "no pattern yet" is not an
    /// error.
    func vaultStatus() -> Result<PatternVaultStatus?, PatternVaultError> {
        do throws(PatternVaultError) {
            try PatternStoreLocation.makeDirectory(for: vault.path)
            return .success(try vault.status())
        } catch {
            return .failure(error)
        }
    }

    /// Reads the store and picks the first task: set a pattern, or unlock.
    func start() {
        // The window does not exist yet, so a failure is said in the status line alone.
        alertsOnFailure = false
        defer { alertsOnFailure = true }
        let status = vaultStatus()
        run { $0.start(status: status) }
    }

    func beginEnrollment() { run { $0.beginEnrollment() } }

    func begin(_ task: PatternSession.Task) {
        run { [self] in $0.begin(task, status: vaultStatus()) }
    }

    func gridChanged() {
        run { [self] in $0.chooseGrid(Self.gridSizes[gridChoice.selectedIndex ?? 1]) }
    }

    /// Ends the flow under way (Cancel, or Esc with nothing drawn).
    func cancel() { run { $0.cancel() } }

    /// Asks before setting the damaged store aside: it cannot be undone from the page.
    func confirmStartOver() {
        guard let root = gtk_widget_get_root(canvas.widget) else { return }
        let dialog = adw_message_dialog_new(
            tactile_window(UnsafeMutableRawPointer(root)),
            Localization.text("Start over with a new pattern?"),
            Localization.text(
                "The damaged store is kept next to it under a new name, and you set a new pattern. Nothing from the old one is used."
            ))!
        let message = UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: AdwMessageDialog.self)
        adw_message_dialog_add_response(message, "cancel", Localization.text("Cancel"))
        adw_message_dialog_add_response(message, "start-over", Localization.text("Start over"))
        adw_message_dialog_set_response_appearance(message, "start-over", ADW_RESPONSE_DESTRUCTIVE)
        adw_message_dialog_set_default_response(message, "cancel")
        adw_message_dialog_set_close_response(message, "cancel")
        whenResponded(dialog) { [self] response in
            if response == "start-over" { run { $0.startOver() } }
        }
        gtk_window_present(tactile_window(UnsafeMutableRawPointer(dialog)))
    }

    func setGrid(_ size: Int) {
        guard lock.configuration.grid.size != size, let grid = try? PatternGrid(size: size) else {
            return
        }
        var configuration = lock.configuration
        configuration.grid = grid
        _ = try? lock.update { try $0.configure(configuration) }
    }

    /// Carries out what the session asks for, in order.
    /// Hands a step of the session (which changes it and says what to do) to the runner,
    /// which carries out its effects in order.
    func run(_ step: @escaping (inout PatternSession) -> [PatternSession.Effect]) {
        runner.run { [unowned self] in step(&session) }
    }

    func carryOut(_ effect: PatternSession.Effect) {
        reopenIfUsable()
        switch effect {
        case .perform(let request): perform(request)
        case .show(.correct):
            lock.update { $0.show(.correct) }
            clearAcceptedPathSoon()
        case .show(.wrong): lock.update { $0.show(.wrong) }
        case .show(.clear): lock.update { $0.clear() }
        case .say(let headline, let explanation): say(headline, explanation)
        case .useGrid(let size): setGrid(size)
        case .countDown(let seconds): startCountdown(seconds)
        case .notify(let message): showMessage(message, over: canvas)
        case .failClosed(let headline, let explanation, let canStartOver):
            failClosed(headline, explanation, canStartOver: canStartOver, alert: alertsOnFailure)
        }
    }

    /// Out of a closed state (started over, or the store reads again): input back first, so
    /// a countdown among the effects holds.
    func reopenIfUsable() {
        if isClosed, session.task != .damaged { reopen() }
    }

    /// After a step's effects: what the page shows of the whole session.
    func settled() {
        reopenIfUsable()
        if !isBusy { gridChoice.isSensitive = session.choosesGrid }
        // An open lock takes no drawing until it is locked again.
        if !isClosed, !isCountingDown, session.takesDrawing != lock.isInputEnabled {
            lock.update { session.takesDrawing ? $0.enableInput() : $0.disableInput() }
        }
        unlockButton.isVisible = session.task != .unlocked
        lockButton.isVisible = session.task == .unlocked
        cancelButton.isVisible = session.isCancellable
        flowRow.isVisible = [cancelButton, startOverButton, retryButton].contains { $0.isVisible }
        gridWarning.text = session.gridWarning ?? ""
        gridWarning.isVisible = session.gridWarning != nil
    }

    // MARK: - Events from the lock

    func handle(_ event: PatternLockEvent) {
        switch event {
        case .started:
            run { [self] in $0.drawingStarted(by: lock.entry ?? .pointer) }
        case .dotAdded:
            break
        case .cleared:
            guard !isCountingDown else { return refreshCountdown() }
            run { $0.drawingCleared() }
        case .tooShort:
            run { [self] in $0.tooShort(minimum: lock.configuration.minimumLength) }
        case .finished(let pattern):
            run { $0.finished(pattern) }
        }
    }

    /// An accepted pattern is a secret on screen: it goes after a second, unless something
    /// else has been drawn since.
    func clearAcceptedPathSoon() {
        // The timer's first call comes a second from now; returning false makes it the last.
        repeatEverySecond { [weak self] in
            guard let self else { return false }
            if self.lock.displayState == .correct {
                self.lock.update { $0.clear() }
                self.canvas.setNeedsUpdate()
            }
            return false
        }
    }

    // MARK: - Vault calls

    /// Runs a vault call on a thread of its own (the deliberately slow hash takes about a
    /// fifth of a second), taking no input meanwhile; then hands the session its answer on
    /// the main loop.
    func perform(_ request: PatternSession.Request) {
        let vault = self.vault
        setBusy(true)
        runInBackground { () -> PatternSession.Answer in
            do throws(PatternVaultError) {
                switch request {
                case .enroll(let pattern):
                    try PatternStoreLocation.makeDirectory(for: vault.path)
                    try vault.enroll(pattern)
                    return .enrolled
                case .verify(let pattern): return .verdict(try vault.verify(pattern))
                case .change(let old, let new):
                    return .verdict(try vault.change(from: old, to: new))
                case .remove(let pattern): return .verdict(try vault.remove(pattern))
                case .setAside: return .setAside(keptAs: try vault.setAside())
                }
            } catch {
                return .failed(error)
            }
        } then: { [self] answer in
            setBusy(false)
            run { $0.answer(answer) }
        }
    }

    // MARK: - Countdown

    /// Disables input and counts down in the status line, driven by the lock's clock.
    func startCountdown(_ seconds: Double) {
        lock.update { $0.disableInput(for: seconds) }
        isCountingDown = true
        refreshCountdown()
        canvas.setNeedsUpdate()
    }

    func refreshCountdown() {
        guard isCountingDown else { return }
        if let remaining = lock.inputLockRemaining {
            status.text = Localization.text("Try again in {1} s", Int(remaining.rounded(.up)))
        } else {
            isCountingDown = false
            showPrompt()
        }
    }

    // MARK: - Status

    /// Shows what the task asks for.
    func showPrompt() {
        guard !isCountingDown else { return refreshCountdown() }
        run { [$0.prompt()] }
    }

    func say(_ headline: String, _ explanation: String?) {
        if !isCountingDown { status.text = headline }
        if let explanation { detail.text = explanation }
        refreshButtons()
        // The lock may have changed outside its own event handling (a button, a verdict).
        canvas.setNeedsUpdate()
    }

    /// Set is for a first pattern; the others need one.
    func refreshButtons() {
        guard !isClosed, !isBusy else { return }
        let enrolled = (try? vault.status()) != nil
        setButton.isSensitive = !enrolled
        unlockButton.isSensitive = enrolled
        lockButton.isSensitive = enrolled
        changeButton.isSensitive = enrolled
        removeButton.isSensitive = enrolled
    }

    // MARK: - Busy and failing

    /// While the vault works, neither the lock nor the controls take input.
    func setBusy(_ busy: Bool) {
        isBusy = busy
        if busy { lockHadFocus = canvas.hasFocus }
        canvas.isSensitive = !busy
        spinner.isSpinning = busy
        for button in [cancelButton, startOverButton, retryButton] { button?.isSensitive = !busy }
        // Someone entering patterns by keyboard keeps typing without clicking back.
        if !busy && lockHadFocus { canvas.grabFocus() }
        if busy {
            gridWasSensitive = gridChoice.isSensitive
            gridChoice.isSensitive = false
            for button in [setButton, unlockButton, lockButton, changeButton, removeButton] {
                button?.isSensitive = false
            }
        } else {
            gridChoice.isSensitive = gridWasSensitive
            refreshButtons()
        }
    }

    /// The store cannot be used: the page refuses all input (fail closed), says what
    /// happened and offers the ways on that keep it closed: read the store again, or start
    /// over.
    func failClosed(_ headline: String, _ explanation: String, canStartOver: Bool, alert: Bool) {
        isClosed = true
        isCountingDown = false
        lock.update { $0.disableInput() }
        for button in [setButton, unlockButton, lockButton, changeButton, removeButton] {
            button?.isSensitive = false
        }
        gridChoice.isSensitive = false
        status.text = headline
        detail.text = explanation
        startOverButton.isVisible = canStartOver
        retryButton.isVisible = true
        if alert { showMessage(headline, over: canvas) }
    }

    /// Takes input again once the session has left the closed state.
    func reopen() {
        isClosed = false
        lock.update { $0.enableInput() }
        startOverButton.isVisible = false
        retryButton.isVisible = false
        refreshButtons()
    }
}

// MARK: - Signals the toolkit's wrappers do not cover

/// Calls `handler` for an Escape key press in `widget` that nothing inside it used (the lock
/// uses Esc while something is drawn); `handler` says whether it used it.
private func whenEscapeIsUnused(in widget: Widget, _ handler: @escaping () -> Bool) {
    handleUnusedKeys(of: widget.widget) { keyval, _ in
        guard Int32(bitPattern: keyval) == GDK_KEY_Escape else { return false }
        return handler()
    }
}

/// Calls `handler` with the id of the response chosen in an `AdwMessageDialog`.
private func whenResponded(
    _ dialog: UnsafeMutablePointer<GtkWidget>, _ handler: @escaping (String) -> Void
) {
    connect(UnsafeMutableRawPointer(dialog), signal: "response") { emission in
        handler(emission.string(at: 1) ?? "")
    }
}
