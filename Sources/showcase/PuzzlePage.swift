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
func makeRemoteCaptcha(server: String, siteKey: String) throws(CaptchaClientError) -> RemoteCaptcha
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
                        CaptchaClientError(
                            Localization.text("cannot reach the captcha service: {1}", "\($0)"))
                    })
            }
        },
        decode: { bytes in
            try ImageLoader.decode(bytes, name: Localization.text("the service's image"))
        },
        solveWork: payPrice)
}

/// Pays a puzzle's price on a thread of its own while the page shows it is checking, then
/// goes on up to a second more for the price of the proof of work alone, which lets a drag the
/// verifier doubts pass when it is in the hole (as the widget does).
func payPrice(salt: String, difficulty: Int, parts: Int, paid: @escaping (String) -> Void) {
    runInBackground(
        {
            ProofOfWorkChallenge(salt: salt, difficulty: difficulty, parts: parts)
                .payInParts(grace: 1) { Date().timeIntervalSinceReferenceDate }
        }, then: paid)
}

/// The price of the page's own puzzles, in bits: in one process it protects nothing, but it
/// gives a drag the verifier doubts the same way through as a service does, paying the price
/// of the proof of work alone (2^18 hashes here: a few hundredths of a second).
let localPrice = 16

/// The puzzle captcha page. By default a desk in this process makes each puzzle and keeps
/// its answer; with `remote`, a running service does, and the page only shows what it sends
/// and hands each drag to it. Either way the view never knows an answer, and the flow (ask,
/// answer, verdict, lockout, expiry) is a ``PuzzleSession``'s: the page performs its effects
/// and reports what happened.
func makePuzzlePage(remote: RemoteCaptcha? = nil) -> Widget {
    PuzzlePage(remote: remote).root
}

/// The page's widgets, wired to a ``PuzzleSession`` and a `CaptchaClient` (the service's, or
/// one in this process).
private final class PuzzlePage {
    let client: any CaptchaClient
    /// The client when puzzles are made here: the controls change how it cuts them.
    let local: LocalCaptchaClient?
    /// The service's address, when puzzles come from one.
    let server: String?
    let view: PuzzleView
    let canvas: ComponentView
    let status = Label()
    let tokenLabel = Label()
    let source = Label(Localization.text("Drawn landscape"))
    /// A label, not a tooltip: always in view, no hovering needed; it names only the controls
    /// the puzzle's axis has.
    let keys = Label()
    var redeem: Button!
    var root: Widget!
    // A miss stays on screen while the piece shakes and glides back.
    var session = PuzzleSession(
        failurePause: PuzzleAnimation.shakeDuration + PuzzleAnimation.returnDuration)
    var runner: SessionRunner<PuzzleSession.Effect>!
    var token: String?
    /// The answer made, until the session says to send it.
    var answer: PuzzleResult?
    /// The latest wake-up the session asked for; earlier timers find it changed and do nothing.
    var wakeAt: Double?

    init(remote: RemoteCaptcha?) {
        if let remote {
            (client, local, server) = (remote, nil, remote.baseURL)
        } else {
            var policy = VerifierPolicy()
            policy.proofOfWorkDifficulty = localPrice
            let here = LocalCaptchaClient(
                LocalCaptcha(
                    options: PuzzleOptions(width: 640, height: 360), client: "showcase",
                    policy: policy),
                background: { work, then in runInBackground(work, then: then) },
                solveWork: payPrice,
                clock: { Date().timeIntervalSince1970 },
                log: { FileHandle.standardError.write(Data("tactile captcha: \($0)\n".utf8)) })
            (client, local, server) = (here, here, nil)
        }
        view = try! PuzzleView(
            content: .prepared(
                background: Bitmap(width: 640, height: 360, fill: .white),
                piece: Bitmap(width: 96, height: 96)),
            axis: .horizontal, viewSize: Size(width: 560, height: 365))
        try! view.update { try $0.setMaximumFailures(.max) }  // The verifier decides lockouts.
        // An empty frame until the first puzzle comes.
        view.update { $0.setWaiting(true) }
        canvas = ComponentView(view)
        runner = SessionRunner { [unowned self] in perform($0) }
        build()
        send(.newPuzzle)
    }

    func now() -> Double { Date().timeIntervalSince1970 }

    /// Reports what happened to the session, whose effects the runner performs in order.
    func send(_ event: PuzzleSession.Event) {
        runner.run { [unowned self] in session.handle(event, now: now()) }
    }

    func perform(_ effect: PuzzleSession.Effect) {
        switch effect {
        case .fetch(let request):
            // An attempt still waiting for its verdict belongs to the puzzle being replaced.
            if view.state == .verifying { view.update { $0.reset() } }
            view.update { $0.setEnabled(false) + $0.setWaiting(true) }
            answer = nil
            client.nextPuzzle { [self] in show($0, request: request) }
        case .submit(let request):
            guard let result = answer else { return }
            answer = nil
            client.submit(result) { [self] verdict in
                switch verdict {
                case .success(let verdict): send(.verdictArrived(request: request, verdict))
                case .failure(let error):
                    let reason = Localization.text("Cannot check the attempt: {1}", error)
                    send(.checkFailed(request: request, reason: reason))
                }
            }
        case .settle(let verdict):
            view.update { $0.deliverVerdict(verdict) }
        case .token(let given):
            showToken(given)
        case .show(let phase, let notice):
            status.text = Self.statusText(phase, notice: notice, now: now())
            if case .locked = phase { view.update { $0.lock() } }
            canvas.setNeedsUpdate()
        case .schedule(let at):
            wakeAt = at
            runAfter(at - now()) { [self] in
                guard wakeAt == at else { return }
                wakeAt = nil
                send(.timePassed)
            }
        }
    }

    /// Shows a puzzle the client gave for `request`, or says why there is none.
    func show(_ result: Result<ShownPuzzle, CaptchaClientError>, request: Int) {
        guard request == session.request else { return }
        let puzzle: ShownPuzzle
        switch result {
        case .success(let given): puzzle = given
        case .failure(let error):
            if let wait = error.retryAfter {
                return send(.challengeLocked(request: request, retryAfter: wait))
            }
            if let detail = error.detail {
                showMessage(error.description, detail: detail, over: canvas)
            }
            if local?.captcha.picture == nil { source.text = Localization.text("Drawn landscape") }
            let reason =
                error.detail == nil
                ? Localization.text("Cannot get a puzzle: {1}", error) : error.description
            return send(.challengeUnavailable(request: request, reason: reason))
        }
        showKeys(for: puzzle.axis)
        if let id = puzzle.id, let server {
            // Not a secret (the service names it in every URL): for whoever reads the log.
            FileHandle.standardError.write(Data("showcase: puzzle \(id) from \(server)\n".utf8))
        }
        if let shape = puzzle.shape { view.shape = shape }
        do {
            try view.update {
                try $0.load(
                    .prepared(background: puzzle.background, piece: puzzle.piece),
                    startPosition: puzzle.startPosition, axis: puzzle.axis)
            }
        } catch {
            let reason = Localization.text(
                "The service sent a puzzle that does not fit: {1}", "\(error)")
            return send(.challengeUnavailable(request: request, reason: reason))
        }
        canvas.refitHeight()
        view.update { $0.setEnabled(true) }
        send(.challengeLoaded(request: request, lifetime: puzzle.lifetime))
    }

    func showToken(_ given: String?) {
        token = given
        tokenLabel.text = ""
        if let given {
            tokenLabel.text = Localization.text("Pass token (single use, valid 180 s):\n{1}", given)
            if server != nil {
                tokenLabel.text +=
                    "\n\n"
                    + Localization.text("The site's server redeems it with POST /v1/siteverify.")
            }
        }
        redeem.isSensitive = given != nil && local != nil
    }

    func redeemToken() {
        guard let token, let local else { return }
        do {
            let claims = try local.captcha.redeem(token, now: now()).get()
            let left = Int((claims.expiresAt - now()).rounded())
            tokenLabel.text = Localization.text(
                "Token redeemed for puzzle {1}… ({2} s were left). Redeem again to see it refused.",
                claims.puzzleID.prefix(8), left)
        } catch {
            tokenLabel.text = Localization.text("Token refused: {1}", "\(error)")
        }
    }

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

    /// The status line for where the session is.
    static func statusText(
        _ phase: PuzzleSession.Phase, notice: PuzzleSession.Notice?, now: Double
    ) -> String {
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
                "Locked — try again in {1} s", max(0, Int((until - now).rounded(.up))))
        case (.unavailable(let reason), _):
            Localization.text("{1}. Trying again in a moment, or press New puzzle.", reason)
        }
    }

    // MARK: - Building

    func build() {
        // The picture keeps its aspect ratio; extra height would only add empty space.
        canvas.expandsVertically = false
        // As tall as the picture at the width the canvas gets, and the slider under it when
        // the puzzle has one (a vertical or free puzzle has none): no empty band.
        canvas.fitsHeight(minimumWidth: 480, minimumHeight: 200) { [view] in
            view.model.fittingHeight(forWidth: $0)
        }
        status.addStyleClass("title-4")
        // A message from the network can be long (and hold a URL): it wraps rather than
        // widen the page.
        status.wraps = true
        status.breaksLongWords = true
        tokenLabel.wraps = true
        tokenLabel.isSelectable = true
        tokenLabel.addStyleClass("monospace")
        // A token has no spaces: break inside it rather than widen the column.
        tokenLabel.breaksLongWords = true
        tokenLabel.maximumWidthInCharacters = 36
        source.wraps = true
        source.addStyleClass("dim-label")
        keys.wraps = true
        redeem = Button(Localization.text("Redeem token")) { [unowned self] in redeemToken() }
        redeem.isSensitive = false
        // Both kinds of client answer later, through the session.
        view.verification = .pending
        // The view holds the page: it lives as long as the view is shown.
        view.onEvent = { [self] event in
            switch event {
            case .stateChanged(.dragging):
                send(.answerStarted)
            case .attemptMade(let result):
                answer = result
                send(.answered)
            case .passed:
                // The verifier's whole picture: the decoys go, the piece is simply in place.
                if let picture = client.passedPicture { view.update { $0.revealPicture(picture) } }
            case .stateChanged, .failed, .pieceMoved:
                break
            }
        }
        let controls = makeControls()
        if let server {
            source.text = Localization.text("Puzzles from {1}", server)
        }
        root = pageLayout(controls: controls, controlsWidth: 300, stage: [canvas, status, keys])
    }

    /// The controls: a new puzzle, the picture, how puzzles are cut, the pass token.
    func makeControls() -> Widget {
        /// Changes how the next puzzle is cut, and asks for it.
        func recut(_ change: @escaping (inout LocalCaptcha) -> Void) {
            guard let local else { return }
            change(&local.captcha)
            send(.newPuzzle)
        }
        let shapes: [(String, PuzzleShape)] = [
            (Localization.text("Classic jigsaw"), .classic()),
            (Localization.text("Circle"), .circle),
            (Localization.text("Square"), .square),
            (
                Localization.text("Star (SVG path)"),
                try! PuzzleShape.svg(
                    "M50 0 L61 35 L98 35 L68 57 L79 91 L50 70 L21 91 L32 57 L2 35 L39 35 Z")
            ),
        ]
        let shape = DropDown(shapes.map(\.0)) { index in
            recut { $0.options.shape = shapes[index].1 }
        }
        let axes = PuzzleAxis.allCases
        let axisNames = axes.map { axis in
            switch axis {
            case .horizontal: Localization.text("Horizontal")
            case .vertical: Localization.text("Vertical")
            case .free: Localization.text("Free")
            }
        }
        let axis = DropDown(axisNames) { index in recut { $0.options.axis = axes[index] } }
        let tolerance = SpinButton(range: 2...24, step: 1, value: 8) { [unowned self] pixels in
            local?.captcha.policy.verificationTolerance = pixels
        }
        let decoys = SpinButton(range: 0...2, step: 1, value: 1) { count in
            recut { $0.options.decoyCount = Int(count) }
        }
        let treated = CheckButton(Localization.text("Treat holes against gap finders"), isOn: true)
        {
            on in recut { $0.options.treatment = on ? .standard : .plain }
        }
        let openImage = Button(Localization.text("Open image…")) { [unowned self] in
            chooseFile(
                title: Localization.text("Open image"), mimeTypes: imageTypes,
                filterName: Localization.text("Images"), over: canvas
            ) { [unowned self] path in
                source.text = URL(fileURLWithPath: path).lastPathComponent
                recut { $0.picture = .file(path) }
            }
        }
        let drawn = Button(Localization.text("Drawn picture")) { [unowned self] in
            source.text = Localization.text("Drawn landscape")
            recut { $0.picture = nil }
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
                    stacking: [
                        Button(Localization.text("New puzzle")) { [unowned self] in
                            send(.newPuzzle)
                        },
                        Box(.horizontal, spacing: 6, [openImage, drawn]), source,
                    ]),
                Section(
                    Localization.text("Options"),
                    stacking: [
                        row(Localization.text("Shape"), shape),
                        row(Localization.text("Axis"), axis),
                        row(Localization.text("Tolerance (px)"), tolerance),
                        row(Localization.text("Decoy holes"), decoys), treated,
                    ]),
                // The button above the token, so it stays put as the text under it changes.
                Section(
                    Localization.text("Pass token"),
                    stacking: [redeem, tokenLabel]),
            ])
        if local == nil {
            // The service decides what its puzzles look like.
            for control in [shape, axis, tolerance, decoys, treated, openImage, drawn] as [Widget] {
                control.isSensitive = false
            }
        }
        return controls
    }
}
