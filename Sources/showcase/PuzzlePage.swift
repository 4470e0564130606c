import Foundation
import TactileCairo
import TactileCore
import TactileCrypto
import TactileGTK
import TactilePuzzle
import TactilePuzzleDesk
import TactilePuzzleImaging
import TactilePuzzleVerifier
import TactileSoup

/// The picture formats the file chooser offers.
private let imageTypes = ["image/png", "image/jpeg", "image/gif", "image/bmp", "image/webp"]

/// A client of a running `tactile puzzle serve`, over libsoup on the GLib main loop.
func makeRemoteCaptcha(server: String, siteKey: String) throws(RemoteCaptchaError) -> RemoteCaptcha
{
    let http = HTTPClient(timeout: 10)
    return try RemoteCaptcha(
        baseURL: server, siteKey: siteKey,
        transport: { request, completion in
            http.send(
                method: request.method, url: request.url, headers: request.headers,
                body: request.body
            ) { result in
                completion(
                    result.map {
                        RemoteCaptcha.Response(
                            status: $0.status, headers: $0.headers, body: $0.body)
                    }.mapError {
                        RemoteCaptchaError(
                            Localization.text("cannot reach the captcha service: {1}", "\($0)"))
                    })
            }
        },
        decode: { bytes in
            try ImageLoader.decode(bytes, name: Localization.text("the service's image"))
        },
        // The price, on a thread of its own while the page shows it is checking, then up to a
        // second more for the price of the proof of work alone, which lets a drag the verifier
        // doubts pass when it is in the hole (as the widget does).
        solveWork: { salt, difficulty, parts, paid in
            runInBackground(
                {
                    ProofOfWorkChallenge(salt: salt, difficulty: difficulty, parts: parts)
                        .payInParts(grace: 1) { Date().timeIntervalSinceReferenceDate }
                }, then: paid)
        })
}

/// The puzzle captcha page. By default a verifier in this process generates each puzzle and
/// keeps its answer; with `remote`, a running service does, and the page only shows what
/// it sends and hands each drag to it. Either way the view never knows an answer, and the
/// flow (ask, answer, verdict, lockout, expiry) is a ``PuzzleSession``'s: the page performs
/// its effects and reports what happened.
func makePuzzlePage(remote: RemoteCaptcha? = nil) -> Widget {
    var local = LocalCaptcha(options: PuzzleOptions(width: 640, height: 360), client: "showcase")
    // A miss stays on screen while the piece shakes and glides back.
    var session = PuzzleSession(
        failurePause: PuzzleAnimation.shakeDuration + PuzzleAnimation.returnDuration)
    var token: String?
    /// The puzzle from the service, while it takes an answer.
    var remoteChallenge: RemoteCaptcha.Challenge?
    /// The answer made, until the session says to send it.
    var answer: PuzzleResult?
    /// The latest wake-up the session asked for; earlier timers find it changed and do nothing.
    var wakeAt: Double?

    let view = try! PuzzleView(
        content: .prepared(
            background: Bitmap(width: 640, height: 360, fill: .white),
            piece: Bitmap(width: 96, height: 96)),
        axis: .horizontal, viewSize: Size(width: 560, height: 365))
    try! view.update { try $0.setMaximumFailures(.max) }  // The verifier decides about lockouts.
    // An empty frame until the first puzzle comes.
    view.update { $0.setWaiting(true) }
    let canvas = ComponentView(view)
    // The picture keeps its aspect ratio; extra height would only add empty space.
    canvas.expandsVertically = false
    // As tall as the picture at the width the canvas gets, and the slider under it when the
    // puzzle has one (a vertical or free puzzle has none): no empty band above or below.
    canvas.fitsHeight(minimumWidth: 480, minimumHeight: 200) {
        view.model.fittingHeight(forWidth: $0)
    }

    let status = Label()
    status.addStyleClass("title-4")
    // A message from the network can be long (and hold a URL): it wraps rather than widen
    // the page.
    status.wraps = true
    status.breaksLongWords = true
    let tokenLabel = Label()
    tokenLabel.wraps = true
    tokenLabel.isSelectable = true
    tokenLabel.addStyleClass("monospace")
    // A token has no spaces: break inside it rather than widen the column.
    tokenLabel.breaksLongWords = true
    tokenLabel.maximumWidthInCharacters = 36
    let source = Label(Localization.text("Drawn landscape"))
    source.wraps = true
    source.addStyleClass("dim-label")
    let redeem = Button(Localization.text("Redeem token")) {}
    redeem.isSensitive = false
    // A label, not a tooltip: always in view, no hovering needed; it names only the controls
    // the puzzle's axis has.
    let keys = Label()

    func showKeys(for axis: PuzzleAxis) {
        keys.text =
            switch axis {
            case .horizontal:
                Localization.text(
                    "Drag the piece (or the slider) into the gap · ← →: move · Shift: fine · Enter: submit"
                )
            case .vertical:
                Localization.text(
                    "Drag the piece up or down into the gap · ↑ ↓: move · Shift: fine · Enter: submit"
                )
            case .free:
                Localization.text(
                    "Drag the piece into the gap · arrow keys: move · Shift: fine · Enter: submit")
            }
    }

    func now() -> Double { Date().timeIntervalSince1970 }

    /// The status line for where the session is.
    func statusText(_ phase: PuzzleSession.Phase, notice: PuzzleSession.Notice?) -> String {
        // What a client may know: expired, or not passed; never which rule failed.
        switch (phase, notice) {
        case (.loading, _): Localization.text("Fetching a puzzle…")
        case (.ready, .expired?), (.failed, .expired?):
            Localization.text("That puzzle had expired — here is a fresh one")
        case (.ready, .notPassed?), (.failed, _):
            Localization.text("Not passed — try again with this new puzzle")
        case (.ready, .tokenExpired?):
            Localization.text("The pass token expired unused — here is a fresh puzzle")
        case (.ready, nil): Localization.text("Drag the piece into the gap")
        case (.checking, _): Localization.text("Checking…")
        case (.passed, _): Localization.text("Verified")
        case (.locked(let until), _):
            Localization.text(
                "Locked — try again in {1} s", max(0, Int((until - now()).rounded(.up))))
        case (.unavailable(let reason), _):
            Localization.text("{1}. Trying again in a moment, or press New puzzle.", reason)
        }
    }

    /// Reports what happened; the session's effects are performed in order, and what they
    /// report in turn (a verdict reached here at once) waits until they are done.
    var queued: [PuzzleSession.Event] = []
    var handling = false
    func send(_ event: PuzzleSession.Event) {
        queued.append(event)
        guard !handling else { return }
        handling = true
        while !queued.isEmpty {
            for effect in session.handle(queued.removeFirst(), now: now()) { perform(effect) }
        }
        handling = false
    }

    func perform(_ effect: PuzzleSession.Effect) {
        switch effect {
        case .fetch(let request):
            // An attempt still waiting for its verdict belongs to the puzzle being replaced.
            if view.state == .verifying { view.update { $0.reset() } }
            view.update { $0.setEnabled(false) + $0.setWaiting(true) }
            remoteChallenge = nil
            answer = nil
            if let remote { fetchRemote(remote, request: request) } else { cutLocal() }
        case .submit(let request):
            guard let result = answer else { return }
            answer = nil
            if let remote {
                submitRemote(remote, result, request: request)
            } else {
                checkHere(result, request: request)
            }
        case .settle(let verdict):
            view.update { $0.deliverVerdict(verdict) }
        case .token(let given):
            token = given
            if let given {
                tokenLabel.text = Localization.text(
                    "Pass token (single use, valid 180 s):\n{1}", given)
                if remote != nil {
                    tokenLabel.text +=
                        "\n\n"
                        + Localization.text(
                            "The site's server redeems it with POST /v1/siteverify.")
                }
            } else {
                tokenLabel.text = ""
            }
            redeem.isSensitive = given != nil && remote == nil
        case .show(let phase, let notice):
            status.text = statusText(phase, notice: notice)
            if case .locked = phase { view.update { $0.lock() } }
            canvas.setNeedsUpdate()
        case .schedule(let at):
            wakeAt = at
            runAfter(at - now()) {
                guard wakeAt == at else { return }
                wakeAt = nil
                send(.timePassed)
            }
        }
    }

    // MARK: Puzzles from a service

    func fetchRemote(_ remote: RemoteCaptcha, request: Int) {
        remote.fetchChallenge { result in
            guard request == session.request else { return }
            switch result {
            case .success(let challenge):
                showKeys(for: challenge.axis)
                // Not a secret (the service names it in every URL): for whoever reads the log.
                FileHandle.standardError.write(
                    Data("showcase: puzzle \(challenge.id) from \(remote.baseURL)\n".utf8))
                do {
                    try view.update {
                        try $0.load(
                            .prepared(background: challenge.background, piece: challenge.piece),
                            startPosition: challenge.startPosition, axis: challenge.axis)
                    }
                    canvas.refitHeight()
                } catch {
                    send(
                        .challengeUnavailable(
                            request: request,
                            reason: Localization.text(
                                "The service sent a puzzle that does not fit: {1}",
                                "\(error)")))
                    return
                }
                remoteChallenge = challenge
                view.update { $0.setEnabled(true) }
                send(.challengeLoaded(request: request, lifetime: challenge.lifetime))
            case .failure(let error):
                if let wait = error.retryAfter {
                    send(.challengeLocked(request: request, retryAfter: wait))
                } else {
                    send(
                        .challengeUnavailable(
                            request: request,
                            reason: Localization.text(
                                "Cannot get a puzzle: {1}",
                                error)))
                }
            }
        }
    }

    func submitRemote(_ remote: RemoteCaptcha, _ result: PuzzleResult, request: Int) {
        guard let challenge = remoteChallenge else { return }
        remoteChallenge = nil
        remote.submit(result, for: challenge) { verdict in
            switch verdict {
            case .success(let verdict):
                send(.verdictArrived(request: request, verdict))
            case .failure(let error):
                send(
                    .checkFailed(
                        request: request,
                        reason: Localization.text(
                            "Cannot check the attempt: {1}",
                            error)))
            }
        }
    }

    // MARK: Puzzles made here

    /// Whether a puzzle is being cut on another thread; when it is done, a newer request
    /// than the one it was cut for has one cut for it instead (clicks never queue up).
    var cutting = false

    /// Cuts a new puzzle off the main loop (the window keeps answering), then registers and
    /// shows it.
    func cutLocal() {
        guard !cutting else { return }
        cutting = true
        let request = session.request
        let picture = local.picture
        let options = local.options
        runInBackground(
            { () -> Result<LocalCaptcha.CutPuzzle, any Error> in
                var random = SecureRandom()
                return Result {
                    try LocalCaptcha.cut(picture: picture, options: options, using: &random)
                }
            },
            then: { result in
                cutting = false
                guard request == session.request else {
                    if session.phase == .loading { cutLocal() }
                    return
                }
                showCut(result, request: request)
            })
    }

    /// Registers a cut puzzle and shows it, or says why there is none.
    func showCut(_ result: Result<LocalCaptcha.CutPuzzle, any Error>, request: Int) {
        do {
            switch local.register(try result.get(), now: now()) {
            case .success(let puzzle):
                showKeys(for: puzzle.axis)
                view.shape = puzzle.shape
                try view.update {
                    try $0.load(
                        .prepared(background: puzzle.background, piece: puzzle.piece),
                        startPosition: puzzle.startPosition, axis: puzzle.axis)
                }
                canvas.refitHeight()
                view.update { $0.setEnabled(true) }
                send(.challengeLoaded(request: request, lifetime: local.policy.puzzleLifetime))
            case .failure(let refusal):
                send(.challengeLocked(request: request, retryAfter: refusal.until - now()))
            }
        } catch let error as ImageFileError {
            showMessage(
                Localization.text("Cannot open the image"), detail: "\(error)", over: canvas)
            local.picture = nil
            source.text = Localization.text("Drawn landscape")
            send(
                .challengeUnavailable(
                    request: request, reason: Localization.text("Cannot open the image")))
        } catch {
            showMessage(Localization.text("Cannot make a puzzle"), detail: "\(error)", over: canvas)
            send(
                .challengeUnavailable(
                    request: request, reason: Localization.text("Cannot make a puzzle")))
        }
    }

    func checkHere(_ result: PuzzleResult, request: Int) {
        let outcome = local.check(result, now: now())
        if case .failed(let failure) = outcome {
            // The operator's side of the verdict (the rule and its figures) goes to the log.
            FileHandle.standardError.write(
                Data("tactile captcha: \(failure.verdict.code): \(failure)\n".utf8))
        }
        send(.verdictArrived(request: request, outcome.verdict(now: now())))
    }

    // Both kinds of verifier answer later, through the session.
    view.verification = .pending
    view.onEvent = { event in
        switch event {
        case .stateChanged(.dragging):
            send(.answerStarted)
        case .attemptMade(let result):
            answer = result
            send(.answered)
        case .passed:
            // The verifier's whole picture: the decoys go, the piece is simply in place.
            if let picture = local.passedPicture, remote == nil {
                view.update { $0.revealPicture(picture) }
            }
        case .stateChanged, .failed, .pieceMoved:
            break
        }
    }
    func newPuzzle() { send(.newPuzzle) }

    connect(redeem.widget, signal: "clicked") {
        guard let token else { return }
        do {
            let claims = try local.redeem(token, now: now()).get()
            let left = Int((claims.expiresAt - now()).rounded())
            tokenLabel.text = Localization.text(
                "Token redeemed for puzzle {1}… ({2} s were left). Redeem again to see it refused.",
                claims.puzzleID.prefix(8), left)
        } catch {
            tokenLabel.text = Localization.text("Token refused: {1}", "\(error)")
        }
    }

    let shapes: [(String, PuzzleShape)] = [
        (Localization.text("Classic jigsaw"), .classic()), (Localization.text("Circle"), .circle),
        (Localization.text("Square"), .square),
        (
            Localization.text("Star (SVG path)"),
            try! PuzzleShape.svg(
                "M50 0 L61 35 L98 35 L68 57 L79 91 L50 70 L21 91 L32 57 L2 35 L39 35 Z")
        ),
    ]
    let shape = DropDown(shapes.map(\.0)) { index in
        local.options.shape = shapes[index].1
        newPuzzle()
    }
    let axes = PuzzleAxis.allCases
    let axisNames = axes.map { axis in
        switch axis {
        case .horizontal: Localization.text("Horizontal")
        case .vertical: Localization.text("Vertical")
        case .free: Localization.text("Free")
        }
    }
    let axis = DropDown(axisNames) { index in
        local.options.axis = axes[index]
        newPuzzle()
    }
    let tolerance = SpinButton(range: 2...24, step: 1, value: 8) { pixels in
        local.policy.verificationTolerance = pixels
    }
    let decoys = SpinButton(range: 0...2, step: 1, value: 1) { count in
        local.options.decoyCount = Int(count)
        newPuzzle()
    }
    let treated = CheckButton(Localization.text("Treat holes against gap finders"), isOn: true) {
        on in
        local.options.treatment = on ? .standard : .plain
        newPuzzle()
    }
    let openImage = Button(Localization.text("Open image…")) {
        chooseFile(
            title: Localization.text("Open image"), mimeTypes: imageTypes,
            filterName: Localization.text("Images"), over: canvas
        ) { path in
            local.picture = .file(path)
            source.text = URL(fileURLWithPath: path).lastPathComponent
            newPuzzle()
        }
    }
    let drawn = Button(Localization.text("Drawn picture")) {
        local.picture = nil
        source.text = Localization.text("Drawn landscape")
        newPuzzle()
    }

    func row(_ title: String, _ widget: Widget) -> Box {
        let label = Label(title)
        label.expandsHorizontally = true
        widget.setAccessibleLabel(title)
        return Box(.horizontal, spacing: 6, [label, widget])
    }
    let controls = Box(
        .vertical, spacing: 10,
        [
            Section(
                Localization.text("Puzzle"),
                Box(
                    .vertical, spacing: 6,
                    [
                        Button(Localization.text("New puzzle")) { newPuzzle() },
                        Box(.horizontal, spacing: 6, [openImage, drawn]), source,
                    ])),
            Section(
                Localization.text("Options"),
                Box(
                    .vertical, spacing: 6,
                    [
                        row(Localization.text("Shape"), shape),
                        row(Localization.text("Axis"), axis),
                        row(Localization.text("Tolerance (px)"), tolerance),
                        row(Localization.text("Decoy holes"), decoys), treated,
                    ])),
            // The button above the token, so it stays put as the text under it changes.
            Section(
                Localization.text("Pass token"), Box(.vertical, spacing: 6, [redeem, tokenLabel])),
        ])
    keys.wraps = true
    if let remote {
        // The service decides what its puzzles look like.
        for control in [shape, axis, tolerance, decoys, treated, openImage, drawn] as [Widget] {
            control.isSensitive = false
        }
        source.text = Localization.text("Puzzles from {1}", remote.baseURL)
        redeem.isSensitive = false
    }
    let page = pageLayout(controls: controls, controlsWidth: 300, stage: [canvas, status, keys])
    newPuzzle()
    return page
}
