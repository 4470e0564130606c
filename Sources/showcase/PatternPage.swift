import Foundation
import TactileCore
import TactileGTK
import TactilePatternLock
import TactilePatternVault

/// The pattern lock page: set, unlock with, change and remove a pattern kept in the user's
/// state directory, with throttling and a live countdown.
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
    var gridChoice: DropDown!
    var setButton: Button!
    var unlockButton: Button!
    var changeButton: Button!
    var removeButton: Button!
    var root: Widget!
    /// The task in progress and what it asks for next.
    var session = PatternSession()
    var isCountingDown = false
    /// Whether the vault is working (on a thread of its own), and whether the grid choice
    /// took input before it started.
    var isBusy = false
    var gridWasSensitive = true
    var lockHadFocus = false

    init() {
        let path = PatternStoreLocation.defaultPath()
        vault = PatternVault(path: path)
        lock = try! PatternLockView()
        canvas = ComponentView(lock)
        canvas.setMinimumSize(width: 300, height: 300)
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
        setButton = Button(Localization.text("Set pattern")) { [self] in beginEnrollment() }
        unlockButton = Button(Localization.text("Unlock")) { [self] in begin(.unlock) }
        changeButton = Button(Localization.text("Change")) { [self] in begin(.changeCurrent) }
        removeButton = Button(Localization.text("Remove")) { [self] in begin(.remove) }
        gridChoice = DropDown(
            Self.gridSizes.map { "\($0) × \($0)" },
            selectedIndex: Self.gridSizes.firstIndex(of: 3)!
        ) { [self] _ in gridChanged() }
        gridChoice.setAccessibleLabel(Localization.text("Grid for a new pattern"))
        let stealth = CheckButton(Localization.text("Stealth (hide the path)")) { [self] on in
            // A path on the grid, hidden or not, must not appear by unticking Stealth.
            lock.clear()
            lock.isStealthy = on
            canvas.setNeedsUpdate()
        }
        lock.onEvent = { [self] event in handle(event) }
        canvas.onTick = { [self] in refreshCountdown() }

        let actions = Box(
            .vertical, spacing: 6,
            [
                Box(.horizontal, spacing: 6, [setButton, unlockButton]),
                Box(.horizontal, spacing: 6, [changeButton, removeButton]),
            ])
        let options = Box(
            .vertical, spacing: 6,
            [
                Box(
                    .horizontal, spacing: 6,
                    [Label(Localization.text("Grid for a new pattern")), gridChoice]), stealth,
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
                "Drag across the dots · arrows move the ring, Space selects, Enter finishes, Esc clears"
            ))
        keys.wraps = true
        root = pageLayout(
            controls: controls, controlsWidth: 300, stage: [canvas, status, detail, keys])
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
        run(session.start(status: vaultStatus()), alertOnFailure: false)
    }

    func beginEnrollment() { run(session.beginEnrollment()) }

    func begin(_ task: PatternSession.Task) { run(session.begin(task, status: vaultStatus())) }

    func gridChanged() { run(session.chooseGrid(Self.gridSizes[gridChoice.selectedIndex ?? 1])) }

    func setGrid(_ size: Int) {
        guard lock.configuration.grid.size != size, let grid = try? PatternGrid(size: size) else {
            return
        }
        var configuration = lock.configuration
        configuration.grid = grid
        try? lock.configure(configuration)
    }

    /// Carries out what the session asks for, in order.
    func run(_ effects: [PatternSession.Effect], alertOnFailure: Bool = true) {
        for effect in effects {
            switch effect {
            case .perform(let request): perform(request)
            case .show(.correct):
                lock.show(.correct)
                clearAcceptedPathSoon()
            case .show(.wrong): lock.show(.wrong)
            case .show(.clear): lock.clear()
            case .say(let headline, let explanation): say(headline, explanation)
            case .useGrid(let size): setGrid(size)
            case .countDown(let seconds): startCountdown(seconds)
            case .failClosed(let message): failClosed(message, alert: alertOnFailure)
            }
        }
        if !isBusy, !isCountingDown { gridChoice.isSensitive = session.choosesGrid }
    }

    // MARK: - Events from the lock

    func handle(_ event: PatternLockEvent) {
        switch event {
        case .started:
            detail.text = Localization.text("Release when done.")
        case .dotAdded:
            break
        case .cleared:
            showPrompt(keepingDetail: true)
        case .tooShort:
            let minimum = lock.configuration.minimumLength
            say(
                Localization.plural(
                    "Connect at least {1} dot", "Connect at least {1} dots", count: minimum,
                    minimum),
                Localization.text("That was too short and was not counted as an attempt."))
        case .finished(let pattern):
            run(session.finished(pattern))
        }
    }

    /// An accepted pattern is a secret on screen: it goes after a second, unless something
    /// else has been drawn since.
    func clearAcceptedPathSoon() {
        // The timer's first call comes a second from now; returning false makes it the last.
        repeatEverySecond { [weak self] in
            guard let self else { return false }
            if self.lock.displayState == .correct {
                self.lock.clear()
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
                }
            } catch {
                return .failed(error)
            }
        } then: { [self] answer in
            setBusy(false)
            run(session.answer(answer))
        }
    }

    // MARK: - Countdown

    /// Disables input and counts down in the status line, driven by the lock's clock.
    func startCountdown(_ seconds: Double) {
        lock.disableInput(for: seconds)
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

    /// Shows what the task asks for; `keepingDetail` leaves the explanation line (such as
    /// the tries left) as it is.
    func showPrompt(keepingDetail: Bool = false) {
        guard !isCountingDown else { return refreshCountdown() }
        run([session.prompt(keepingExplanation: keepingDetail)])
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
        if case .damaged = session.task { return }
        guard !isBusy else { return }
        let enrolled = (try? vault.status()) != nil
        setButton.isSensitive = !enrolled
        unlockButton.isSensitive = enrolled
        changeButton.isSensitive = enrolled
        removeButton.isSensitive = enrolled
    }

    // MARK: - Busy and failing

    /// While the vault works, neither the lock nor the controls take input.
    func setBusy(_ busy: Bool) {
        isBusy = busy
        if busy { lockHadFocus = canvas.hasFocus }
        canvas.isSensitive = !busy
        // Someone entering patterns by keyboard keeps typing without clicking back.
        if !busy && lockHadFocus { canvas.grabFocus() }
        if busy {
            gridWasSensitive = gridChoice.isSensitive
            gridChoice.isSensitive = false
            for button in [setButton, unlockButton, changeButton, removeButton] {
                button?.isSensitive = false
            }
        } else {
            gridChoice.isSensitive = gridWasSensitive
            refreshButtons()
        }
    }

    /// The store cannot be used: the page refuses all input (fail closed) and says why.
    func failClosed(_ message: String, alert: Bool = true) {
        lock.disableInput()
        for button in [setButton, unlockButton, changeButton, removeButton] {
            button?.isSensitive = false
        }
        gridChoice.isSensitive = false
        status.text = Localization.text("The pattern store cannot be used")
        detail.text = message
        if alert {
            showMessage(
                Localization.text("The pattern store cannot be used"), detail: message,
                over: canvas)
        }
    }
}
