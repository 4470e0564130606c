import Foundation
import TactileCairo
import TactileCore
import TactileCrypto
import TactileGTK
import TactilePuzzle
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
        // The price of the proof of work alone (a fraction of a second here), which also pays
        // the answer's own price and lets a drag the verifier doubts pass when it is in the hole.
        solveWork: {
            ProofOfWorkChallenge(salt: $0, difficulty: $1).solve(
                extraBits: ProofOfWorkChallenge.aloneSurcharge)
        })
}

/// The puzzle captcha page. By default a verifier in this process generates each puzzle and
/// keeps its answer; with `remote`, a running service does, and the page only shows what
/// it sends and hands each drag to it. Either way the view never knows an answer.
func makePuzzlePage(remote: RemoteCaptcha? = nil) -> Widget {
    let client = "showcase"
    var local = LocalCaptcha(options: PuzzleOptions(width: 640, height: 360), client: client)
    var token: String?
    var lockedUntil: Double?
    var lastVerdict = ClientVerdict.passed
    var remoteChallenge: RemoteCaptcha.Challenge?
    /// When the puzzle shown stops being accepted (seconds since 1970).
    var puzzleExpiresAt: Double?
    /// Whether the puzzle shown replaced one that just failed (so the status says why).
    var replacedAfterFailure = false
    /// Counts puzzle requests, so an answer that comes after a newer request is dropped.
    var generation = 0

    let view = try! PuzzleView(
        content: .prepared(
            background: Bitmap(width: 640, height: 360, fill: .white),
            piece: Bitmap(width: 96, height: 96)),
        axis: .horizontal, viewSize: Size(width: 560, height: 365))
    try! view.setMaximumFailures(.max)  // The verifier decides about lockouts.
    view.currentTime = { ComponentView.currentTime }
    let canvas = ComponentView(view)
    canvas.setMinimumSize(width: 480, height: 380)
    // The picture keeps its aspect ratio; extra height would only add empty space.
    canvas.expandsVertically = false

    let status = Label()
    status.addStyleClass("title-4")
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

    func refreshStatus() {
        if let until = lockedUntil {
            let seconds = max(0, Int((until - now()).rounded(.up)))
            status.text = Localization.text("Locked — try again in {1} s", seconds)
            return
        }
        switch view.state {
        case .idle where replacedAfterFailure:
            // What a client may know: expired, or not passed; never which rule failed.
            status.text =
                lastVerdict == .expired
                ? Localization.text("That puzzle had expired — here is a fresh one")
                : Localization.text("Not passed — try again with this new puzzle")
        case .idle, .dragging: status.text = Localization.text("Drag the piece into the gap")
        case .verifying: status.text = Localization.text("Checking…")
        case .verified: status.text = Localization.text("Verified")
        case .failed:
            // What a client may know: expired, or not passed; never which rule failed.
            status.text =
                lastVerdict == .expired
                ? Localization.text("That puzzle had expired — here is a fresh one")
                : Localization.text("Not passed — try again with this new puzzle")
        case .locked: status.text = Localization.text("Locked out")
        }
    }

    /// Asks the service for a puzzle and shows it when it comes; the page waits meanwhile.
    func newRemotePuzzle(_ remote: RemoteCaptcha) {
        generation += 1
        let asked = generation
        remoteChallenge = nil
        // An attempt still waiting for its verdict belongs to the puzzle being replaced.
        if view.state == .verifying { view.reset() }
        view.isEnabled = false
        status.text = Localization.text("Fetching a puzzle…")
        canvas.setNeedsUpdate()
        remote.fetchChallenge { result in
            guard asked == generation else { return }
            switch result {
            case .success(let challenge):
                puzzleExpiresAt = challenge.expiresAt
                showKeys(for: challenge.axis)
                // Not a secret (the service names it in every URL): for whoever reads the log.
                FileHandle.standardError.write(
                    Data("showcase: puzzle \(challenge.id) from \(remote.baseURL)\n".utf8))
                do {
                    try view.load(
                        .prepared(background: challenge.background, piece: challenge.piece),
                        startPosition: challenge.startPosition, axis: challenge.axis)
                } catch {
                    status.text = Localization.text(
                        "The service sent a puzzle that does not fit: {1}. Press New puzzle to try again.",
                        "\(error)")
                    break
                }
                remoteChallenge = challenge
                view.isEnabled = true
                refreshStatus()
            case .failure(let error):
                if let wait = error.retryAfter {
                    lock(until: now() + wait)
                } else {
                    status.text = Localization.text(
                        "Cannot get a puzzle: {1}. Press New puzzle to try again.", error)
                }
            }
            canvas.setNeedsUpdate()
        }
    }

    /// Whether a puzzle is being cut on another thread; asking meanwhile asks for one more,
    /// with the options as they are then (clicks never queue up).
    var cutting = false
    var wantsAnother = false

    /// Cuts a new puzzle off the main loop (the window keeps answering), then registers and
    /// shows it; a remote service is asked instead when there is one.
    func newPuzzle() {
        token = nil
        tokenLabel.text = ""
        redeem.isSensitive = false
        if let remote {
            newRemotePuzzle(remote)
            return
        }
        if cutting {
            wantsAnother = true
            return
        }
        cutting = true
        view.isEnabled = false
        status.text = Localization.text("Making a puzzle…")
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
                if wantsAnother {
                    wantsAnother = false
                    return newPuzzle()
                }
                show(result)
            })
    }

    /// Registers a cut puzzle and shows it, or says why there is none.
    func show(_ result: Result<LocalCaptcha.CutPuzzle, any Error>) {
        do {
            switch local.register(try result.get(), now: now()) {
            case .success(let puzzle):
                puzzleExpiresAt = now() + local.policy.puzzleLifetime
                showKeys(for: puzzle.axis)
                view.shape = puzzle.shape
                try view.load(
                    .prepared(background: puzzle.background, piece: puzzle.piece),
                    startPosition: puzzle.startPosition, axis: puzzle.axis)
                view.isEnabled = true
            case .failure(let refusal):
                lock(until: refusal.until)
                return
            }
        } catch let error as ImageFileError {
            showMessage(
                Localization.text("Cannot open the image"), detail: "\(error)", over: canvas)
            local.picture = nil
            source.text = Localization.text("Drawn landscape")
            status.text = Localization.text("Press New puzzle to try again.")
            return
        } catch {
            showMessage(Localization.text("Cannot make a puzzle"), detail: "\(error)", over: canvas)
            status.text = Localization.text("Press New puzzle to try again.")
            return
        }
        refreshStatus()
        canvas.setNeedsUpdate()
    }

    /// Shows the lockout and counts it down once a second; a new puzzle comes when it ends.
    func lock(until: Double) {
        guard lockedUntil == nil else {
            lockedUntil = max(lockedUntil!, until)
            return
        }
        lockedUntil = until
        view.lock()
        refreshStatus()
        repeatEverySecond {
            guard let until = lockedUntil else { return false }
            if now() >= until {
                lockedUntil = nil
                newPuzzle()
                return false
            }
            refreshStatus()
            return true
        }
    }

    func settleRemote(_ verdict: Result<RemoteCaptcha.Verdict, RemoteCaptchaError>) {
        switch verdict {
        case .success(.passed(let passToken, let hole)):
            token = passToken
            view.deliverVerdict(.passed(snapTo: hole))
        case .success(.expired):
            lastVerdict = .expired
            view.deliverVerdict(.failed)
        case .success(.notPassed):
            lastVerdict = .notPassed
            view.deliverVerdict(.failed)
        case .success(.rateLimited(let wait)):
            lock(until: now() + wait)
            view.deliverVerdict(.locked)
        case .failure(let error):
            lastVerdict = .notPassed
            view.deliverVerdict(.failed)
            status.text = Localization.text("Cannot check the attempt: {1}", error)
        }
    }

    func verifyHere(_ result: PuzzleResult) -> PuzzleVerdict {
        switch local.check(result, now: now()) {
        case .passed(let passToken, let hole):
            lastVerdict = .passed
            token = passToken
            // The hole's place comes with the pass, so the piece can snap into it.
            return .passed(snapTo: hole)
        case .failed(let verdict, let rule):
            lastVerdict = verdict
            // The operator's side of the verdict (the rule and its figures) goes to the log.
            FileHandle.standardError.write(
                Data("tactile captcha: \(verdict.rawValue): \(rule)\n".utf8))
            return .failed
        case .lockedOut(let until):
            lastVerdict = .rateLimited
            lock(until: until)
            return .locked
        }
    }
    if let remote {
        view.verification = .pending { result in
            guard let challenge = remoteChallenge else { return view.deliverVerdict(.failed) }
            remoteChallenge = nil
            let asked = generation
            remote.submit(result, for: challenge) { verdict in
                guard asked == generation else { return }
                settleRemote(verdict)
            }
        }
    } else {
        view.verification = .deferred(verifyHere)
    }

    view.onEvent = { event in
        switch event {
        case .stateChanged(let state):
            if state == .dragging { replacedAfterFailure = false }
            refreshStatus()
        case .passed:
            // The verifier's whole picture: the decoys go, the piece is simply in place.
            if let picture = local.passedPicture, remote == nil { view.revealPicture(picture) }
            tokenLabel.text =
                Localization.text("Pass token (single use, valid 180 s):\n{1}", token ?? "")
            redeem.isSensitive = token != nil && remote == nil
            if remote != nil {
                tokenLabel.text +=
                    "\n\n"
                    + Localization.text("The site's server redeems it with POST /v1/siteverify.")
            }
            refreshStatus()
        case .failed:
            // Each puzzle is checked once: a miss means a fresh one, and the status says why.
            replacedAfterFailure = true
            if lockedUntil == nil { newPuzzle() }
            refreshStatus()
        case .pieceMoved, .attemptMade:
            break
        }
    }

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
                        Button(Localization.text("New puzzle")) {
                            if lockedUntil == nil { newPuzzle() }
                        },
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
    // A puzzle nobody touched is replaced a few seconds before it would expire, so the
    // first drag after a pause is not refused as expired.
    repeatEverySecond {
        if let expiry = puzzleExpiresAt, now() > expiry - 5, lockedUntil == nil,
            view.state == .idle || view.state == .failed
        {
            puzzleExpiresAt = nil
            newPuzzle()
        }
        return true
    }
    return page
}
