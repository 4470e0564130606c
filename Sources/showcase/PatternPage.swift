import Foundation
import TactileGTK
import TactilePatternLock
import TactilePatternVault

/// The pattern lock page: set, unlock with, change and remove a pattern kept in the user's
/// state directory, with throttling and a live countdown.
func makePatternPage() -> Widget {
    PatternPage().root
}

/// The page's widgets and the task in progress. The lock reports events; the page decides
/// what they mean for the task and answers with a verdict on the lock.
private final class PatternPage {
    /// What the user is doing.
    enum Task {
        /// Setting a first pattern (draw, then confirm).
        case enroll(PatternEnrollment)
        /// Unlocking with the stored pattern.
        case unlock
        /// Changing: first the current pattern.
        case changeCurrent
        /// Changing: the new pattern, drawn twice; `current` was just verified.
        case changeNew(current: Pattern, PatternEnrollment)
        /// Removing: the current pattern.
        case remove
        /// The store cannot be used.
        case damaged
    }

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
    var task: Task = .unlock
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
        storeLabel.text = "Store: \(vault.path)"
        storeLabel.addStyleClass("dim-label")
        setButton = Button("Set pattern") { [self] in beginEnrollment() }
        unlockButton = Button("Unlock") { [self] in begin(.unlock) }
        changeButton = Button("Change") { [self] in begin(.changeCurrent) }
        removeButton = Button("Remove") { [self] in begin(.remove) }
        gridChoice = DropDown(
            Self.gridSizes.map { "\($0) × \($0)" },
            selectedIndex: Self.gridSizes.firstIndex(of: 3)!
        ) { [self] _ in gridChanged() }
        let stealth = CheckButton("Stealth (hide the path)") { [self] on in
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
            [Box(.horizontal, spacing: 6, [Label("Grid for a new pattern"), gridChoice]), stealth])
        let controls = Box(
            .vertical, spacing: 10,
            [Section("Pattern", actions), Section("Options", options), storeLabel])
        // A label, not a tooltip: always in view, no hovering needed.
        let keys = Label(
            "Drag across the dots · arrows move the ring, Space selects, Enter finishes, Esc clears"
        )
        keys.wraps = true
        root = pageLayout(
            controls: controls, controlsWidth: 300, stage: [canvas, status, detail, keys])
    }

    // MARK: - Tasks

    /// Reads the store and picks the first task: set a pattern, or unlock.
    func start() {
        do throws(PatternVaultError) {
            guard let stored = try vault.status() else {
                return beginEnrollment()
            }
            begin(.unlock)
            if let wait = stored.lockoutRemaining { startCountdown(wait) }
        } catch {
            // The window does not exist yet, so the status line alone says it.
            fail(error, alert: false)
        }
    }

    func beginEnrollment() {
        setGrid(Self.gridSizes[gridChoice.selectedIndex ?? 1])
        task = .enroll(PatternEnrollment())
        lock.clear()
        showPrompt()
    }

    func begin(_ newTask: Task) {
        task = newTask
        do throws(PatternVaultError) {
            if let stored = try vault.status() { setGrid(stored.grid.size) }
        } catch {
            return fail(error)
        }
        lock.clear()
        showPrompt()
    }

    func gridChanged() {
        switch task {
        case .enroll:
            beginEnrollment()
        case .changeNew(let current, _):
            setGrid(Self.gridSizes[gridChoice.selectedIndex ?? 1])
            task = .changeNew(current: current, PatternEnrollment())
            showPrompt()
        default:
            break
        }
    }

    func setGrid(_ size: Int) {
        guard lock.configuration.grid.size != size, let grid = try? PatternGrid(size: size) else {
            return
        }
        var configuration = lock.configuration
        configuration.grid = grid
        try? lock.configure(configuration)
    }

    // MARK: - Events from the lock

    func handle(_ event: PatternLockEvent) {
        switch event {
        case .started:
            detail.text = "Release when done."
        case .dotAdded:
            break
        case .cleared:
            showPrompt(keepingDetail: true)
        case .tooShort:
            say(
                "Connect at least \(lock.configuration.minimumLength) dots",
                "That was too short and was not counted as an attempt.")
        case .finished(let pattern):
            finished(pattern)
        }
    }

    func finished(_ pattern: Pattern) {
        let vault = self.vault
        switch task {
        case .enroll(var enrollment):
            let outcome = enrollment.submit(pattern)
            task = .enroll(enrollment)
            guard case .confirmed(let confirmed) = outcome else { return enrollmentStep(outcome) }
            consult("Saving…") { () throws(PatternVaultError) in
                try PatternStoreLocation.makeDirectory(for: vault.path)
                try vault.enroll(confirmed)
            } then: { [self] in
                lock.show(.correct)
                task = .unlock
                say("Pattern saved", "Draw it to unlock.")
            }
        case .changeNew(let current, var enrollment):
            let outcome = enrollment.submit(pattern)
            task = .changeNew(current: current, enrollment)
            guard case .confirmed(let confirmed) = outcome else { return enrollmentStep(outcome) }
            consult("Checking…") { () throws(PatternVaultError) in
                try vault.change(from: current, to: confirmed)
            } then: { [self] verdict in
                guard verdict == .accepted else { return answer(verdict, success: "") }
                lock.show(.correct)
                task = .unlock
                say("Pattern changed", "Draw the new pattern to unlock.")
            }
        case .unlock:
            consult("Checking…") { () throws(PatternVaultError) in
                try vault.verify(pattern)
            } then: { [self] verdict in
                answer(verdict, success: "Unlocked")
            }
        case .changeCurrent:
            consult("Checking…") { () throws(PatternVaultError) in
                try vault.verify(pattern)
            } then: { [self] verdict in
                answer(verdict, success: "")
                guard verdict == .accepted else { return }
                task = .changeNew(current: pattern, PatternEnrollment())
                setGrid(Self.gridSizes[gridChoice.selectedIndex ?? 1])
                lock.clear()
                showPrompt()
            }
        case .remove:
            consult("Checking…") { () throws(PatternVaultError) in
                try vault.remove(pattern)
            } then: { [self] verdict in
                answer(verdict, success: "")
                guard verdict == .accepted else { return }
                beginEnrollment()
                say("Pattern removed", "Draw a new unlock pattern, or leave the lock unset.")
            }
        case .damaged:
            lock.show(.wrong)
        }
    }

    /// Shows what an enrolment step asks for next.
    func enrollmentStep(_ outcome: PatternEnrollment.Outcome) {
        switch outcome {
        case .tooShort(let minimum):
            lock.show(.wrong)
            say("Connect at least \(minimum) dots", "")
        case .confirmNext:
            lock.clear()
            say("Draw again to confirm", "Pattern recorded.")
        case .mismatch:
            lock.show(.wrong)
            say(
                "Patterns didn't match",
                "Draw the same pattern again to confirm, or press Set pattern to start over.")
        case .confirmed:
            break
        }
    }

    /// Shows the vault's answer on the lock and in the status line.
    func answer(_ verdict: PatternVerification, success: String) {
        switch verdict {
        case .accepted:
            lock.show(.correct)
            if !success.isEmpty { say(success, "") }
        case .rejected(let failures, let wait, let attempts):
            lock.show(.wrong)
            if wait > 0 {
                say("Wrong pattern", "\(failures) wrong in a row.")
                startCountdown(wait)
            } else {
                let next = Int(PatternThrottle.wait(afterFailures: failures + attempts))
                let tries = attempts == 1 ? "1 try" : "\(attempts) tries"
                say("Wrong pattern", "\(tries) left before a \(next) s wait.")
            }
        case .lockedOut(let secondsLeft):
            lock.show(.wrong)
            startCountdown(secondsLeft)
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
            status.text = "Try again in \(Int(remaining.rounded(.up))) s"
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
        let minimum = lock.configuration.minimumLength
        func prompt(_ headline: String, _ explanation: String) {
            say(headline, keepingDetail ? nil : explanation)
        }
        switch task {
        case .enroll(let enrollment), .changeNew(_, let enrollment):
            gridChoice.isSensitive = enrollment.step == .drawing
            if enrollment.step == .drawing {
                prompt(
                    "Draw an unlock pattern",
                    "Connect at least \(minimum) dots. You will draw it twice.")
            } else {
                prompt("Draw again to confirm", "")
            }
        case .unlock:
            gridChoice.isSensitive = false
            prompt("Draw your pattern to unlock", "")
        case .changeCurrent:
            gridChoice.isSensitive = false
            prompt("Draw your current pattern", "Then draw the new one twice.")
        case .remove:
            gridChoice.isSensitive = false
            prompt("Draw your current pattern to remove it", "")
        case .damaged:
            break
        }
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
        if case .damaged = task { return }
        guard !isBusy else { return }
        let enrolled = (try? vault.status()) != nil
        setButton.isSensitive = !enrolled
        unlockButton.isSensitive = enrolled
        changeButton.isSensitive = enrolled
        removeButton.isSensitive = enrolled
    }

    // MARK: - Vault calls

    /// Runs a vault call on a thread of its own (the deliberately slow hash takes about a
    /// fifth of a second), saying `doing` and taking no input meanwhile; then `then` with its
    /// answer on the main loop, or shows its failure.
    func consult<Answer: Sendable>(
        _ doing: String, _ work: @escaping @Sendable () throws(PatternVaultError) -> Answer,
        then: @escaping (Answer) -> Void
    ) {
        setBusy(true)
        say(doing, "")
        runInBackground { () -> Result<Answer, PatternVaultError> in
            do throws(PatternVaultError) {
                return .success(try work())
            } catch {
                return .failure(error)
            }
        } then: { [self] result in
            setBusy(false)
            switch result {
            case .success(let answer): then(answer)
            case .failure(let error): fail(error)
            }
        }
    }

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

    /// Shows a vault failure; anything but bad input makes the page refuse all input
    /// (fail closed).
    func fail(_ error: PatternVaultError, alert: Bool = true) {
        lock.show(.wrong)
        if case .invalidPattern = error {
            return say("Pattern not accepted", error.message)
        }
        task = .damaged
        lock.disableInput()
        for button in [setButton, unlockButton, changeButton, removeButton] {
            button?.isSensitive = false
        }
        gridChoice.isSensitive = false
        status.text = "The pattern store cannot be used"
        detail.text = error.message
        if alert {
            showMessage("The pattern store cannot be used", detail: error.message, over: canvas)
        }
    }
}
