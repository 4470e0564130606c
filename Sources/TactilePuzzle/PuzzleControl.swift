import TactileCore

/// The puzzle slider captcha as a value: drag the piece (or its slider thumb, or use the arrow
/// keys) into the hole. ``PuzzleView`` hosts one as a `Component`.
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
///
/// A `ComponentModel`: every change returns the ``PuzzleEvent``s it caused, in order — the
/// piece moving, the state changing, an attempt made, and (once its animation has finished)
/// whether it passed.
public struct PuzzleControl {
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
        /// A verifier that holds the answer decides; it is called once per attempt, in the
        /// middle of the change that made it, so it must not read or change the view.
        case deferred((PuzzleResult) -> PuzzleVerdict)
        /// A verifier that answers later (over the network) decides: the owner hears each
        /// attempt as ``PuzzleEvent/attemptMade(_:)`` and sends it; the view shows
        /// ``PuzzleState/verifying`` and takes no input until the verdict comes through
        /// ``deliverVerdict(_:)``.
        case pending
    }

    public var viewSize: Size
    /// The piece's state and geometry; change it through the control's methods.
    public private(set) var puzzle: PuzzleModel
    /// What the view shows.
    public private(set) var content: Content
    /// The piece's outline.
    public var shape: PuzzleShape
    public var reducesMotion: Bool {
        get { puzzle.reducesMotion }
        set { puzzle.reducesMotion = newValue }
    }
    /// Who decides whether an attempt passes.
    public var verification: Verification
    /// Whether a failed piece glides back to the start after shaking.
    public var returnsAfterFailure = true
    /// Whether the slider track is shown under the picture; by default only for
    /// ``PuzzleAxis/horizontal``. A choice set here outlasts new content.
    public var showsSliderTrack: Bool {
        get { sliderTrackChoice ?? (puzzle.axis == .horizontal) }
        set { sliderTrackChoice = newValue }
    }
    /// The host's choice of ``showsSliderTrack``; `nil` follows the axis.
    private var sliderTrackChoice: Bool?
    /// The arrow pressed last, how many times in a row, and when.
    private var heldKey: HeldKey?
    /// How soon a press of the same arrow counts as the same key held, in seconds.
    static let keyRepeatWindow = 0.3

    /// The layout for the current size, area and track.
    public var layout: PuzzleLayout {
        PuzzleLayout(viewSize: viewSize, areaSize: puzzle.areaSize, showsTrack: showsSliderTrack)
    }

    /// The view height at which the picture (and the slider under it, when shown) fills a
    /// view `width` points wide.
    public func fittingHeight(forWidth width: Double) -> Double {
        PuzzleLayout.height(
            forWidth: width, areaSize: puzzle.areaSize, showsTrack: showsSliderTrack)
    }
    /// The outcome animation under way, if any.
    public var animation: PuzzleAnimation? { puzzle.animation }
    /// The last attempt made.
    public var lastResult: PuzzleResult? { puzzle.lastResult }

    /// Host time, never backwards (`FrameClock.now`): drags are timed with it, and key
    /// presses, which carry no time, with the time the host last gave (hosts advance the
    /// component before handing it a key).
    private var clock = FrameClock()
    /// The control's time: the latest host time it was given.
    var now: Double { clock.now }

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
        puzzle = try PuzzleModel(
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

    /// Prepared content keeps its hole to itself: the model's hole stays at the corner.
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
    public mutating func load(
        _ content: Content, pieceSize: Size? = nil, holePosition: Point? = nil,
        startPosition: Point? = nil, axis: PuzzleAxis? = nil
    ) throws(PuzzleError) -> [PuzzleEvent] {
        let axis = axis ?? puzzle.axis
        let area = Self.areaSize(of: content, default: puzzle.areaSize)
        var fresh = try PuzzleModel(
            areaSize: area,
            pieceSize: Self.pieceSize(of: content, default: pieceSize ?? puzzle.pieceSize),
            holePosition: Self.holePosition(
                of: content, default: holePosition ?? puzzle.holePosition),
            startPosition: startPosition, axis: axis,
            verificationTolerance: puzzle.verificationTolerance,
            maximumFailures: puzzle.maximumFailures)
        self.content = content
        fresh.isEnabled = puzzle.isEnabled
        isWaiting = false
        let oldState = puzzle.state
        puzzle = fresh
        return [.pieceMoved(puzzle.piecePosition)]
            + (oldState != puzzle.state ? [.stateChanged(puzzle.state)] : [])
    }

    /// Whether the view waits for a puzzle (one is on its way, or none could be had): it shows
    /// an empty frame and an empty track — no piece to drag, no instruction — and takes no
    /// input. ``load(_:pieceSize:holePosition:startPosition:axis:)`` ends the wait.
    public private(set) var isWaiting = false

    /// Starts or ends waiting (see ``isWaiting``); a drag under way is cancelled.
    public mutating func setWaiting(_ waiting: Bool) -> [PuzzleEvent] {
        isWaiting = waiting
        return waiting ? cancelDrag() : []
    }

    /// Whether the piece reacts to input. A disabled view ignores drags and keys.
    public var isEnabled: Bool { puzzle.isEnabled }

    /// Enables or disables input (see ``isEnabled``); a drag under way is cancelled.
    public mutating func setEnabled(_ enabled: Bool) -> [PuzzleEvent] {
        puzzle.isEnabled = enabled
        return enabled ? [] : cancelDrag()
    }

    private mutating func cancelDrag() -> [PuzzleEvent] {
        guard puzzle.state == .dragging else { return [] }
        puzzle.cancelDrag()
        return [.stateChanged(puzzle.state)]
    }

    /// Slack for ``Verification/local``, in area units; at least 0.
    public var verificationTolerance: Double { puzzle.verificationTolerance }

    /// Changes the slack for ``Verification/local``.
    ///
    /// - Parameter tolerance: Area units on each axis; finite and at least 0.
    /// - Throws: ``PuzzleError`` when `tolerance` is negative or not finite.
    public mutating func setVerificationTolerance(_ tolerance: Double) throws(PuzzleError)
        -> [PuzzleEvent]
    {
        try puzzle.setVerificationTolerance(tolerance)
        return []
    }

    /// Refused attempts before the view locks.
    public var maximumFailures: Int { puzzle.maximumFailures }

    /// Changes how many refused attempts lock the view.
    ///
    /// - Parameter failures: At least 1.
    /// - Throws: ``PuzzleError`` when `failures` is below 1.
    public mutating func setMaximumFailures(_ failures: Int) throws(PuzzleError) -> [PuzzleEvent] {
        try puzzle.setMaximumFailures(failures)
        return []
    }

    /// The piece's position (area units).
    public var piecePosition: Point { puzzle.piecePosition }

    /// Moves the piece to `position` (area units), clamped; NaN is ignored.
    public mutating func movePiece(to position: Point) -> [PuzzleEvent] {
        puzzle.setPiecePosition(position)
        return [.pieceMoved(puzzle.piecePosition)]
    }

    /// The piece's position as fractions of its range of movement.
    public var pieceFraction: Point { puzzle.pieceFraction }

    /// Moves the piece to `fraction` of its range of movement, clamped to 0…1.
    public mutating func movePiece(toFraction fraction: Point) -> [PuzzleEvent] {
        puzzle.pieceFraction = fraction
        return [.pieceMoved(puzzle.piecePosition)]
    }

    /// The hole's position (area units, picture content only).
    public var holePosition: Point { puzzle.holePosition }

    /// Moves the hole (picture content only).
    ///
    /// - Parameter position: The hole's top-left corner in area units, inside the area.
    /// - Throws: ``PuzzleError`` when the hole would leave the area.
    public mutating func setHolePosition(_ position: Point) throws(PuzzleError) -> [PuzzleEvent] {
        try puzzle.setHolePosition(position)
        return []
    }

    public var accessibility: ComponentAccessibility {
        let p = puzzle.piecePosition
        let limit = puzzle.maximumPosition
        let position =
            switch puzzle.axis {
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
            switch puzzle.state {
            case .idle, .dragging: ""
            case .verifying: Localization.text("; checking")
            case .verified: Localization.text("; passed")
            case .failed: Localization.text("; not passed")
            case .locked: Localization.text("; locked")
            }
        return ComponentAccessibility(
            role: .slider, label: Localization.text("Puzzle captcha"),
            description: isWaiting ? Localization.text("no puzzle yet") : position + state,
            isDisabled: isWaiting || !puzzle.isEnabled || puzzle.state == .locked)
    }

    /// The state.
    public var state: PuzzleState { puzzle.state }

    /// Puts the piece back at the start, clears failures and animations, and goes idle.
    public mutating func reset() -> [PuzzleEvent] {
        let old = puzzle.state
        puzzle.reset()
        return [.pieceMoved(puzzle.piecePosition)]
            + (old != puzzle.state ? [.stateChanged(puzzle.state)] : [])
    }

    /// Locks the control until ``reset()`` or new content, showing why: for a lockout the
    /// verifier announces outside an attempt.
    public mutating func lock() -> [PuzzleEvent] {
        guard puzzle.state != .locked else { return [] }
        puzzle.lock()
        return [.pieceMoved(puzzle.piecePosition), .stateChanged(puzzle.state)]
    }

    /// Settles the attempt as passed and plays the snap (TTGPuzzleVerify's
    /// `completeVerificationWithAnimation:`), whatever the piece's position. With a prepared
    /// puzzle, give `snapTo`: the verifier's hole position.
    public mutating func completeVerification(snapTo target: Point? = nil) -> [PuzzleEvent] {
        guard puzzle.state != .verified, puzzle.state != .locked else { return [] }
        let result = lastResult ?? makeResult()
        return apply(.passed(snapTo: target ?? knownHole), result: result)
    }

    // MARK: - Component

    public var isAnimating: Bool { animation != nil || puzzle.state == .verifying }

    public mutating func advance(to time: Double) -> [PuzzleEvent] {
        guard time.isFinite else { return [] }
        clock.advance(to: time)
        return puzzle.advance(to: now)
    }

    public mutating func handle(_ event: PointerEvent) -> [PuzzleEvent]? {
        clock.advance(to: event.time)
        guard !isWaiting, let events = puzzle.handle(event, in: layout) else { return nil }
        return take(events)
    }

    public mutating func handle(_ event: KeyEvent) -> [PuzzleEvent]? {
        guard !isWaiting else { return nil }
        // An arrow pressed again at once (or held) moves further each time (PuzzleKeySteps).
        if let held = heldKey, held.key == event.key, now - held.time < Self.keyRepeatWindow {
            heldKey = HeldKey(key: event.key, repeats: held.repeats + 1, time: now)
        } else {
            heldKey = HeldKey(key: event.key, repeats: 0, time: now)
        }
        let step =
            event.modifiers.contains(.shift)
            ? PuzzleKeySteps.fine : PuzzleKeySteps.step(repeats: heldKey?.repeats ?? 0)
        guard let events = puzzle.handle(event, in: layout, time: now, step: step) else {
            return nil
        }
        return take(events)
    }

    /// An arrow key pressed, how many times in a row, and when last.
    private struct HeldKey {
        var key: KeyEvent.Key
        var repeats: Int
        var time: Double
    }

    /// The puzzle's events, with an attempt handed to the verifier, whose verdict follows it.
    private mutating func take(_ events: [PuzzleEvent]) -> [PuzzleEvent] {
        var told: [PuzzleEvent] = []
        for event in events {
            if case .attemptMade(let result) = event {
                told += decide(result)
            } else {
                told.append(event)
            }
        }
        return told
    }

    // MARK: - Outcome

    private var knownHole: Point? {
        if case .picture = content { return puzzle.holePosition }
        return nil
    }

    private func makeResult() -> PuzzleResult {
        PuzzleResult(
            position: puzzle.piecePosition, areaSize: puzzle.areaSize,
            offset: knownHole.map { puzzle.piecePosition - $0 }, elapsedTime: 0, dragDistance: 0,
            track: puzzle.track, inputMethod: puzzle.inputMethod,
            pointerDevice: puzzle.pointerDevice)
    }

    private mutating func decide(_ result: PuzzleResult) -> [PuzzleEvent] {
        var result = result
        if knownHole == nil { result.offset = nil }
        let verdict: PuzzleVerdict
        switch verification {
        case .local: verdict = puzzle.localVerdict
        case .deferred(let verify): verdict = verify(result)
        case .pending:
            // The attempt last: an owner that answers it at once settles a verifying control.
            puzzle.beginVerifying(result)
            return [.stateChanged(puzzle.state), .attemptMade(result)]
        }
        return [.attemptMade(result)] + apply(verdict, result: result)
    }

    /// Shows the whole picture — no hole, no decoys — behind the piece once the puzzle is
    /// passed, for a verifier that hands it over then; ignored in any other state.
    ///
    /// - Parameter picture: The picture the puzzle was cut from, as large as the background.
    public mutating func revealPicture(_ picture: Bitmap) -> [PuzzleEvent] {
        guard puzzle.state == .verified, case .prepared(let background, let piece) = content,
            picture.width == background.width, picture.height == background.height
        else { return [] }
        content = .prepared(background: picture, piece: piece)
        return []
    }

    /// Settles the attempt that is ``PuzzleState/verifying`` with the verdict that came for
    /// it; ignored in any other state (a verdict that comes after ``reset()`` or new content
    /// belongs to nothing on screen).
    public mutating func deliverVerdict(_ verdict: PuzzleVerdict) -> [PuzzleEvent] {
        guard puzzle.state == .verifying else { return [] }
        return apply(verdict, result: lastResult ?? makeResult())
    }

    private mutating func apply(_ verdict: PuzzleVerdict, result: PuzzleResult) -> [PuzzleEvent] {
        puzzle.settle(verdict, result: result, at: now, returnsAfterFailure: returnsAfterFailure)
    }
}
