import TactileCore

/// The puzzle slider captcha as a `Component`: drag the piece (or its slider thumb, or use
/// the arrow keys) into the hole.
///
/// Two kinds of content:
/// - ``Content/picture(_:)``: the view cuts the piece from a whole picture and shows the hole
///   itself, and can verify on its own (``Verification/local``) as TTGPuzzleVerify does —
///   fine for a demo, no protection at all, since the answer is on the device.
/// - ``Content/prepared(background:piece:)``: a verifying side generated the puzzle and keeps
///   the answer; the view shows its images and hands each attempt to
///   ``Verification/deferred(_:)``.
///
/// Positions are in area units: the picture's pixels (or ``PuzzleModel/areaSize`` units when
/// there is no picture). The view fits the area into its size, so attempts are comparable
/// across displays through ``PuzzleResult/widthFractions``.
public final class PuzzleView: Component {
    /// What the view shows.
    public enum Content {
        /// A whole picture (or none: a plain gradient); the view cuts piece and hole.
        case picture(Bitmap?)
        /// A background with the hole already in it, and the piece cut out, both from the
        /// verifying side; area units are the background's pixels.
        case prepared(background: Bitmap, piece: Bitmap)
    }

    /// Who decides whether an attempt passes.
    public enum Verification {
        /// The view compares the piece with the hole it knows (TTGPuzzleVerify's behaviour).
        case local
        /// A verifier that holds the answer decides; it is called once per attempt.
        case deferred((PuzzleResult) -> PuzzleVerdict)
        /// A verifier that answers later (over the network) decides: it is called once per
        /// attempt, the view shows ``PuzzleState/verifying`` and takes no input until the
        /// verdict comes through ``deliverVerdict(_:)``.
        case pending((PuzzleResult) -> Void)
    }

    public var viewSize: Size
    /// The state and geometry; change it through the view's methods.
    public private(set) var model: PuzzleModel
    /// What the view shows.
    public private(set) var content: Content
    /// The piece's outline.
    public var shape: PuzzleShape
    /// Colours, translucency and shadows, for a light and a dark desktop.
    public var styles = Themes(light: PuzzleStyle.light, dark: .dark)
    public var appearance = Appearance.light

    public var reducesMotion: Bool {
        get { model.reducesMotion }
        set { model.reducesMotion = newValue }
    }
    /// Who decides whether an attempt passes.
    public var verification: Verification
    /// Whether a failed piece glides back to the start after shaking.
    public var returnsAfterFailure = true
    /// Whether the slider track is shown under the picture; by default only for
    /// ``PuzzleAxis/horizontal``. A choice set here outlasts new content.
    public var showsSliderTrack: Bool {
        get { sliderTrackChoice ?? (model.axis == .horizontal) }
        set { sliderTrackChoice = newValue }
    }
    /// The host's choice of ``showsSliderTrack``; `nil` follows the axis.
    private var sliderTrackChoice: Bool?
    /// The arrow pressed last, how many times in a row, and when.
    private var heldKey: (key: KeyEvent.Key, repeats: Int, time: Double)?
    /// How soon a press of the same arrow counts as the same key held, in seconds.
    static let keyRepeatWindow = 0.3
    /// The clock for key presses, which carry no time; by default the last time the view was
    /// advanced to. Hosts that stop ticking while idle should give their clock here.
    public var currentTime: (() -> Double)?

    /// Told what happened, in order: the piece moving, the state changing, an attempt
    /// made, and (once its animation has finished) whether it passed.
    public var onEvent: ((PuzzleEvent) -> Void)?

    /// The layout for the current size, area and track.
    public var layout: PuzzleLayout {
        PuzzleLayout(viewSize: viewSize, areaSize: model.areaSize, showsTrack: showsSliderTrack)
    }
    /// The outcome animation under way, if any.
    public var animation: PuzzleAnimation? { model.animation }
    /// The last attempt made.
    public var lastResult: PuzzleResult? { model.lastResult }

    /// Host time, never backwards (``FrameClock/now``): drags are timed with it.
    private var clock = FrameClock()
    private var now: Double { clock.now }

    /// Creates a captcha.
    ///
    /// - Parameters:
    ///   - content: The picture, or prepared images.
    ///   - pieceSize: The piece's size in area units; ignored for prepared content, whose
    ///     piece image gives it.
    ///   - holePosition: The hole's top-left (area units); unknown and ignored for prepared
    ///     content.
    ///   - startPosition: Where the piece starts (area units); by default as
    ///     ``PuzzleModel/init(areaSize:pieceSize:holePosition:startPosition:axis:verificationTolerance:maximumFailures:)``.
    ///   - shape: The piece's outline.
    ///   - axis: The directions the piece may move in.
    ///   - verificationTolerance: Slack in area units for ``Verification/local``.
    ///   - areaSize: The area's size when the content has no picture.
    ///   - verification: Who decides; `.local` by default.
    ///   - viewSize: The initial size in points.
    /// - Throws: ``PuzzleError`` when a size, the hole, the start or the tolerance is out of
    ///   range.
    public init(
        content: Content = .picture(nil), pieceSize: Size = Size(width: 80, height: 60),
        holePosition: Point = Point(x: 160, y: 90), startPosition: Point? = nil,
        shape: PuzzleShape = .classic(), axis: PuzzleAxis = .free,
        verificationTolerance: Double = PuzzleModel.defaultTolerance,
        areaSize: Size = Size(width: 320, height: 240), verification: Verification = .local,
        viewSize: Size = Size(width: 320, height: 240)
    ) throws(PuzzleError) {
        self.content = content
        self.shape = shape
        self.verification = verification
        self.viewSize = viewSize
        let area = Self.areaSize(of: content, default: areaSize)
        model = try PuzzleModel(
            areaSize: area, pieceSize: Self.pieceSize(of: content, default: pieceSize),
            holePosition: Self.holePosition(of: content, default: holePosition),
            startPosition: startPosition, axis: axis,
            verificationTolerance: verificationTolerance)
    }

    private static func areaSize(of content: Content, default size: Size) -> Size {
        switch content {
        case .picture(let bitmap?) where bitmap.width > 0 && bitmap.height > 0:
            Size(width: Double(bitmap.width), height: Double(bitmap.height))
        case .prepared(let background, _) where background.width > 0 && background.height > 0:
            Size(width: Double(background.width), height: Double(background.height))
        default:
            size
        }
    }

    /// Prepared content keeps its hole to itself: the model's stays at the corner.
    private static func holePosition(of content: Content, default position: Point) -> Point {
        if case .prepared = content { return .zero }
        return position
    }

    private static func pieceSize(of content: Content, default size: Size) -> Size {
        if case .prepared(_, let piece) = content {
            return Size(width: Double(piece.width), height: Double(piece.height))
        }
        return size
    }

    // MARK: - Configuration

    /// Shows new content and starts afresh: piece at the start, state idle, no failures.
    ///
    /// - Parameters:
    ///   - content: The new picture or prepared images.
    ///   - pieceSize: The piece size for a picture; prepared content brings its own.
    ///   - holePosition: The hole for a picture (ignored for prepared content).
    ///   - startPosition: Where the piece starts.
    ///   - axis: The directions the piece may move in.
    /// - Throws: ``PuzzleError`` when the piece, the hole or the start does not fit the new
    ///   content; the view keeps what it showed.
    public func load(
        _ content: Content, pieceSize: Size? = nil, holePosition: Point? = nil,
        startPosition: Point? = nil, axis: PuzzleAxis? = nil
    ) throws(PuzzleError) {
        let axis = axis ?? model.axis
        let area = Self.areaSize(of: content, default: model.areaSize)
        var fresh = try PuzzleModel(
            areaSize: area,
            pieceSize: Self.pieceSize(of: content, default: pieceSize ?? model.pieceSize),
            holePosition: Self.holePosition(
                of: content, default: holePosition ?? model.holePosition),
            startPosition: startPosition, axis: axis,
            verificationTolerance: model.verificationTolerance,
            maximumFailures: model.maximumFailures)
        self.content = content
        fresh.isEnabled = model.isEnabled
        isWaiting = false
        let oldState = model.state
        model = fresh
        positionChanged()
        if oldState != model.state { stateChanged() }
    }

    /// Whether the view waits for a puzzle (one is on its way, or none could be had): it shows
    /// an empty frame and an empty track — no piece to drag, no instruction — and takes no
    /// input. ``load(_:pieceSize:holePosition:startPosition:axis:)`` ends the wait.
    public var isWaiting = false {
        didSet {
            guard isWaiting, model.state == .dragging else { return }
            model.cancelDrag()
            stateChanged()
        }
    }

    /// Whether the piece reacts to input. A disabled view ignores drags and keys.
    public var isEnabled: Bool {
        get { model.isEnabled }
        set {
            model.isEnabled = newValue
            if !newValue, model.state == .dragging {
                model.cancelDrag()
                stateChanged()
            }
        }
    }

    /// Slack for ``Verification/local``, in area units; at least 0.
    public var verificationTolerance: Double { model.verificationTolerance }

    /// Changes the slack for ``Verification/local``.
    ///
    /// - Parameter tolerance: Area units on each axis; finite and at least 0.
    /// - Throws: ``PuzzleError`` when `tolerance` is negative or not finite.
    public func setVerificationTolerance(_ tolerance: Double) throws(PuzzleError) {
        try model.setVerificationTolerance(tolerance)
    }

    /// Refused attempts before the view locks.
    public var maximumFailures: Int { model.maximumFailures }

    /// Changes how many refused attempts lock the view.
    ///
    /// - Parameter failures: At least 1.
    /// - Throws: ``PuzzleError`` when `failures` is below 1.
    public func setMaximumFailures(_ failures: Int) throws(PuzzleError) {
        try model.setMaximumFailures(failures)
    }

    /// The piece's position (area units); setting clamps and ignores NaN.
    public var piecePosition: Point {
        get { model.piecePosition }
        set {
            model.setPiecePosition(newValue)
            positionChanged()
        }
    }

    /// The piece's position as fractions of its range of movement; setting clamps to 0…1.
    public var pieceFraction: Point {
        get { model.pieceFraction }
        set {
            model.pieceFraction = newValue
            positionChanged()
        }
    }

    /// The hole's position (area units, picture content only).
    public var holePosition: Point { model.holePosition }

    /// Moves the hole (picture content only).
    ///
    /// - Parameter position: The hole's top-left corner in area units, inside the area.
    /// - Throws: ``PuzzleError`` when the hole would leave the area.
    public func setHolePosition(_ position: Point) throws(PuzzleError) {
        try model.setHolePosition(position)
    }

    public var accessibility: ComponentAccessibility {
        let p = model.piecePosition
        let limit = model.maximumPosition
        let position =
            switch model.axis {
            case .horizontal:
                Localization.text(
                    "piece at {1} of {2} pixels", Int(p.x.rounded()), Int(limit.x.rounded()))
            case .vertical:
                Localization.text(
                    "piece at {1} of {2} pixels", Int(p.y.rounded()), Int(limit.y.rounded()))
            case .free:
                Localization.text(
                    "piece at {1}, {2} pixels", Int(p.x.rounded()), Int(p.y.rounded()))
            }
        let state =
            switch model.state {
            case .idle, .dragging: ""
            case .verifying: Localization.text("; checking")
            case .verified: Localization.text("; passed")
            case .failed: Localization.text("; not passed")
            case .locked: Localization.text("; locked")
            }
        return ComponentAccessibility(
            role: .slider, label: Localization.text("Puzzle captcha"),
            description: isWaiting ? Localization.text("no puzzle yet") : position + state,
            isDisabled: isWaiting || !model.isEnabled || model.state == .locked)
    }

    /// The state.
    public var state: PuzzleState { model.state }

    /// Puts the piece back at the start, clears failures and animations, and goes idle.
    public func reset() {
        let old = model.state
        model.reset()
        positionChanged()
        if old != model.state { stateChanged() }
    }

    /// Locks the control until ``reset()`` or new content, showing why: for a lockout the
    /// verifier announces outside an attempt.
    public func lock() {
        guard model.state != .locked else { return }
        model.lock()
        positionChanged()
        stateChanged()
    }

    /// Settles the attempt as passed and plays the snap (TTGPuzzleVerify's
    /// `completeVerificationWithAnimation:`), whatever the piece's position. With a prepared
    /// puzzle, give `snapTo`: the verifier's hole position.
    public func completeVerification(snapTo target: Point? = nil) {
        guard model.state != .verified, model.state != .locked else { return }
        let result = lastResult ?? makeResult()
        apply(.passed(snapTo: target ?? knownHole), result: result)
    }

    // MARK: - Component

    public var isAnimating: Bool { animation != nil || model.state == .verifying }

    public func advance(to time: Double) {
        guard time.isFinite else { return }
        clock.advance(to: time)
        report(model.advance(to: now))
    }

    @discardableResult
    public func handle(_ event: PointerEvent) -> Bool {
        clock.advance(to: event.time)
        guard !isWaiting, let events = model.handle(event, in: layout) else { return false }
        take(events)
        return true
    }

    @discardableResult
    public func handle(_ event: KeyEvent) -> Bool {
        clock.advance(to: currentTime?() ?? now)
        guard !isWaiting else { return false }
        // An arrow pressed again at once (or held) moves further each time (PuzzleKeySteps).
        if let held = heldKey, held.key == event.key, now - held.time < Self.keyRepeatWindow {
            heldKey = (event.key, held.repeats + 1, now)
        } else {
            heldKey = (event.key, 0, now)
        }
        let step =
            event.modifiers.contains(.shift)
            ? PuzzleKeySteps.fine : PuzzleKeySteps.step(repeats: heldKey?.repeats ?? 0)
        guard let events = model.handle(event, in: layout, time: now, step: step) else {
            return false
        }
        take(events)
        return true
    }

    /// Tells the model's events; an attempt goes to the verifier instead, which tells it.
    private func take(_ events: [PuzzleEvent]) {
        for event in events {
            if case .attemptMade(let result) = event {
                decide(result)
            } else {
                report([event])
            }
        }
    }

    // MARK: - Outcome

    private var knownHole: Point? {
        if case .picture = content { return model.holePosition }
        return nil
    }

    private func makeResult() -> PuzzleResult {
        PuzzleResult(
            position: model.piecePosition, areaSize: model.areaSize,
            offset: knownHole.map { model.piecePosition - $0 }, elapsedTime: 0, dragDistance: 0,
            track: model.track, inputMethod: model.inputMethod)
    }

    private func decide(_ result: PuzzleResult) {
        var result = result
        if knownHole == nil { result.offset = nil }
        let verdict: PuzzleVerdict
        switch verification {
        case .local: verdict = model.localVerdict
        case .deferred(let verify): verdict = verify(result)
        case .pending(let send):
            model.beginVerifying(result)
            report([.attemptMade(result), .stateChanged(model.state)])
            send(result)
            return
        }
        report([.attemptMade(result)])
        apply(verdict, result: result)
    }

    /// Shows the whole picture — no hole, no decoys — behind the piece once the puzzle is
    /// passed, for a verifier that hands it over then; ignored in any other state.
    ///
    /// - Parameter picture: The picture the puzzle was cut from, as large as the background.
    public func revealPicture(_ picture: Bitmap) {
        guard model.state == .verified, case .prepared(let background, let piece) = content,
            picture.width == background.width, picture.height == background.height
        else { return }
        content = .prepared(background: picture, piece: piece)
    }

    /// Settles the attempt that is ``PuzzleState/verifying`` with the verdict that came for
    /// it; ignored in any other state (a verdict that comes after ``reset()`` or new content
    /// belongs to nothing on screen).
    public func deliverVerdict(_ verdict: PuzzleVerdict) {
        guard model.state == .verifying else { return }
        apply(verdict, result: lastResult ?? makeResult())
    }

    private func apply(_ verdict: PuzzleVerdict, result: PuzzleResult) {
        report(
            model.settle(
                verdict, result: result, at: now, returnsAfterFailure: returnsAfterFailure))
    }

    private func report(_ events: [PuzzleEvent]) {
        for event in events { onEvent?(event) }
    }

    private func positionChanged() { report([.pieceMoved(model.piecePosition)]) }

    private func stateChanged() { report([.stateChanged(model.state)]) }

    // MARK: - Drawing

    public func draw(in canvas: any Canvas) {
        PuzzleRenderer(
            model: model, content: isWaiting ? nil : content, shape: shape, layout: layout,
            style: styles[appearance], time: now
        ).draw(in: canvas)
    }
}
