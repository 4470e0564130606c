import Foundation
import TactileCore
import TactileCrypto
import TactileGTK
import TactilePuzzle
import TactilePuzzleVerifier

/// The puzzle captcha page: a verifier in this process generates each puzzle and keeps its
/// answer; the view only shows the images and hands each drag to the verifier.
/// The picture formats the file chooser offers.
private let imageTypes = ["image/png", "image/jpeg", "image/gif", "image/bmp", "image/webp"]

func makePuzzlePage() -> Widget {
    let client = "showcase"
    var verifier = PuzzleVerifier(key: TokenSigner.makeKey())!
    var options = PuzzleOptions(width: 640, height: 360)
    var imagePath: String?
    var puzzleID: String?
    var token: String?
    var lockedUntil: Double?
    var lastVerdict = ClientVerdict.passed

    let view = PuzzleView(
        content: .prepared(
            background: Bitmap(width: 640, height: 360, fill: .white),
            piece: Bitmap(width: 96, height: 96)),
        axis: .horizontal, viewSize: Size(width: 560, height: 365))
    view.maximumFailures = .max  // The verifier decides about lockouts.
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
    let source = Label("Drawn landscape")
    source.wraps = true
    source.addStyleClass("dim-label")
    let redeem = Button("Redeem token") {}
    redeem.isSensitive = false

    func now() -> Double { Date().timeIntervalSince1970 }

    func refreshStatus() {
        if let until = lockedUntil {
            let seconds = max(0, Int((until - now()).rounded(.up)))
            status.text = "Locked — try again in \(seconds) s"
            return
        }
        switch view.state {
        case .idle, .dragging: status.text = "Drag the piece into the gap"
        case .verified: status.text = "Verified"
        case .failed:
            // What a client may know: expired, or not passed; never which rule failed.
            status.text =
                lastVerdict == .expired
                ? "That puzzle had expired — here is a fresh one"
                : "Not passed — try again with this new puzzle"
        case .locked: status.text = "Locked out"
        }
    }

    /// Generates, registers and shows a new puzzle; `false` if refused or unreadable.
    @discardableResult
    func newPuzzle() -> Bool {
        token = nil
        tokenLabel.text = ""
        redeem.isSensitive = false
        var random = SecureRandom()
        let picture: Bitmap
        do {
            let pictureSource: PictureSource =
                imagePath.map { .file($0) } ?? .procedural(seed: random.next())
            picture = try pictureSource.picture(width: options.width, height: options.height)
        } catch {
            showMessage("Cannot open the image", detail: "\(error)", over: canvas)
            imagePath = nil
            source.text = "Drawn landscape"
            return false
        }
        do {
            let puzzle = try PuzzleGenerator.generate(
                picture: picture, options: options, using: &random)
            let challenge = try verifier.register(puzzle, client: client, now: now())
            puzzleID = challenge.id
            view.shape = puzzle.shape
            view.load(
                .prepared(background: puzzle.background, piece: puzzle.piece),
                startPosition: puzzle.startPosition, axis: puzzle.axis)
            view.isEnabled = true
        } catch let refusal as IssueRefusal {
            lock(until: refusal.until)
            return false
        } catch {
            showMessage("Cannot make a puzzle", detail: "\(error)", over: canvas)
            return false
        }
        refreshStatus()
        canvas.setNeedsUpdate()
        return true
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

    view.verification = .deferred { result in
        guard let id = puzzleID else { return .failed }
        puzzleID = nil
        let outcome = verifier.check(
            id: id, attempt: PuzzleAttempt(result), client: client, now: now())
        lastVerdict = outcome.clientVerdict
        // The operator's side of the verdict (the rule and its figures) goes to the log.
        if case .failed(let failure) = outcome {
            FileHandle.standardError.write(
                Data("tactile captcha: \(failure.clientVerdict.rawValue): \(failure)\n".utf8))
        }
        switch outcome {
        case .passed(let receipt):
            token = receipt.token
            // The hole's place comes with the pass, so the piece can snap into it.
            return .passed(snapTo: receipt.holePosition)
        case .failed:
            return .failed
        case .limited(let until):
            lock(until: until)
            return .locked
        }
    }
    view.onStateChange = { _, _ in refreshStatus() }
    view.onCompletion = { _, _ in
        tokenLabel.text = "Pass token (single use, valid 180 s):\n" + (token ?? "")
        redeem.isSensitive = token != nil
        refreshStatus()
    }
    view.onFailure = { _, _ in
        // Each puzzle is checked once: a miss means a fresh one.
        if lockedUntil == nil { newPuzzle() }
        refreshStatus()
    }

    connect(redeem.widget, signal: "clicked") {
        guard let token else { return }
        do {
            let claims = try verifier.redeemToken(token, now: now())
            let left = Int((claims.expiresAt - now()).rounded())
            tokenLabel.text =
                "Token redeemed for puzzle \(claims.puzzleID.prefix(8))… (\(left) s were left). Redeem again to see it refused."
        } catch {
            tokenLabel.text = "Token refused: \(error)"
        }
    }

    let shapes: [(String, PuzzleShape)] = [
        ("Classic jigsaw", .classic()), ("Circle", .circle), ("Square", .square),
        (
            "Star (SVG path)",
            try! PuzzleShape.svg(
                "M50 0 L61 35 L98 35 L68 57 L79 91 L50 70 L21 91 L32 57 L2 35 L39 35 Z")
        ),
    ]
    let shape = DropDown(shapes.map(\.0)) { index in
        options.shape = shapes[index].1
        newPuzzle()
    }
    let axes = PuzzleAxis.allCases
    let axis = DropDown(axes.map { $0.rawValue.capitalized }) { index in
        options.axis = axes[index]
        newPuzzle()
    }
    let tolerance = SpinButton(range: 2...24, step: 1, value: 8) { pixels in
        verifier.policy.verificationTolerance = pixels
    }
    let decoys = SpinButton(range: 0...2, step: 1, value: 1) { count in
        options.decoyCount = Int(count)
        newPuzzle()
    }
    let treated = CheckButton("Treat holes against gap finders", isOn: true) { on in
        options.treatment = on ? .standard : .plain
        newPuzzle()
    }
    let openImage = Button("Open image…") {
        chooseFile(title: "Open image", mimeTypes: imageTypes, filterName: "Images", over: canvas) {
            path in
            imagePath = path
            source.text = URL(fileURLWithPath: path).lastPathComponent
            newPuzzle()
        }
    }
    let drawn = Button("Drawn picture") {
        imagePath = nil
        source.text = "Drawn landscape"
        newPuzzle()
    }

    func row(_ title: String, _ widget: Widget) -> Box {
        let label = Label(title)
        label.expandsHorizontally = true
        return Box(.horizontal, spacing: 6, [label, widget])
    }
    let controls = Box(
        .vertical, spacing: 10,
        [
            Section(
                "Puzzle",
                Box(
                    .vertical, spacing: 6,
                    [
                        Button("New puzzle") {
                            if lockedUntil == nil { newPuzzle() }
                        },
                        Box(.horizontal, spacing: 6, [openImage, drawn]), source,
                    ])),
            Section(
                "Options",
                Box(
                    .vertical, spacing: 6,
                    [
                        row("Shape", shape), row("Axis", axis),
                        row("Tolerance (px)", tolerance),
                        row("Decoy holes", decoys), treated,
                    ])),
            Section("Pass token", Box(.vertical, spacing: 6, [tokenLabel, redeem])),
        ])
    // A label, not a tooltip: always in view, no hovering needed.
    let keys = Label(
        "Drag the piece (or the slider) into the gap · ← →: move · Shift: fine · Enter: submit")
    keys.wraps = true
    let page = pageLayout(controls: controls, controlsWidth: 300, stage: [canvas, status, keys])
    newPuzzle()
    return page
}
