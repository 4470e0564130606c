import TactileCore

/// The captcha's state without any drawing: where the piece and the hole are, how the piece
/// may move, and what happened so far.
///
/// Positions are the top-left corners of the piece and the hole, in points inside the puzzle
/// area (the picture), clamped so the piece stays wholly inside it. Setters never trap:
/// non-finite coordinates are ignored, out-of-range ones are clamped.
///
/// A pointer drag goes `beginDrag → moveDrag… → endDrag`; the keyboard goes
/// `nudge… → submit`. Both return a ``PuzzleResult`` that is then settled with
/// ``settle(_:)`` — by ``localVerdict`` (the piece is within ``verificationTolerance`` of the
/// hole on both axes, as TTGPuzzleVerify decides) or by a verifier that holds the answer.
public struct PuzzleModel: Hashable, Sendable {
    /// The default tolerance, in points.
    public static let defaultTolerance = 8.0

    /// The puzzle area's size in points. Changing it from a drawable size scales every
    /// position and the piece size with it.
    public var areaSize: Size {
        didSet { rescale(from: oldValue) }
    }
    /// The piece's size in points (its bounding box, knobs included).
    public var pieceSize: Size {
        didSet {
            if !pieceSize.width.isFinite || pieceSize.width < 0 { pieceSize.width = oldValue.width }
            if !pieceSize.height.isFinite || pieceSize.height < 0 {
                pieceSize.height = oldValue.height
            }
            clampAll()
        }
    }
    /// The directions the piece may move in.
    public var axis: PuzzleAxis
    /// How far from the hole, on each axis, the piece still verifies; at least 0. Negative
    /// values become 0 and NaN leaves the tolerance unchanged.
    public var verificationTolerance: Double {
        didSet {
            if verificationTolerance.isNaN { verificationTolerance = oldValue }
            verificationTolerance = max(0, verificationTolerance)
        }
    }
    /// Whether the piece reacts to pointer and keyboard.
    public var isEnabled = true
    /// Refused attempts before the puzzle locks; at least 1.
    public var maximumFailures: Int {
        didSet { maximumFailures = max(1, maximumFailures) }
    }

    /// The hole's top-left corner.
    public private(set) var holePosition: Point
    /// Where the piece starts and returns to on reset.
    public private(set) var startPosition: Point
    /// The piece's top-left corner now.
    public private(set) var piecePosition: Point
    /// Where the captcha stands.
    public private(set) var state: PuzzleState = .idle
    /// Refused attempts since the last reset.
    public private(set) var failureCount = 0
    /// The outcome animation under way (the snap, or the shake), if any.
    public private(set) var animation: PuzzleAnimation?
    /// The last attempt settled or sent to a verifier.
    public private(set) var lastResult: PuzzleResult?
    /// The event to tell when ``animation`` ends.
    private var outcome: PuzzleEvent?
    /// The samples of the drag in progress or the last one.
    public private(set) var track: [PuzzleTrackPoint] = []
    /// How the current or last attempt is made.
    public private(set) var inputMethod: PuzzleInputMethod = .pointer

    private var grabOffset = Vector.zero
    private var dragStartTime = 0.0
    private var lastPointer = Point.zero
    private var lastTime = 0.0
    private var travelled = 0.0

    /// Creates a puzzle.
    ///
    /// - Parameters:
    ///   - areaSize: The picture's size in points.
    ///   - pieceSize: The piece's size in points.
    ///   - holePosition: The hole's top-left corner (clamped into the area).
    ///   - startPosition: Where the piece starts; by default the left edge on the hole's row
    ///     for ``PuzzleAxis/horizontal``, the top edge in the hole's column for
    ///     ``PuzzleAxis/vertical``, the top-left corner for ``PuzzleAxis/free``.
    ///   - axis: The directions the piece may move in.
    ///   - verificationTolerance: Points of slack on each axis, at least 0.
    ///   - maximumFailures: Refused attempts before locking.
    public init(
        areaSize: Size, pieceSize: Size, holePosition: Point, startPosition: Point? = nil,
        axis: PuzzleAxis = .free, verificationTolerance: Double = defaultTolerance,
        maximumFailures: Int = 5
    ) {
        self.areaSize = areaSize
        self.pieceSize = pieceSize
        self.axis = axis
        self.verificationTolerance =
            verificationTolerance.isNaN ? Self.defaultTolerance : max(0, verificationTolerance)
        self.maximumFailures = max(1, maximumFailures)
        self.holePosition = .zero
        self.startPosition = .zero
        self.piecePosition = .zero
        self.holePosition = clamp(holePosition, keeping: .zero)
        let defaultStart: Point =
            switch axis {
            case .horizontal: Point(x: 0, y: self.holePosition.y)
            case .vertical: Point(x: self.holePosition.x, y: 0)
            case .free: .zero
            }
        self.startPosition = clamp(startPosition ?? defaultStart, keeping: defaultStart)
        piecePosition = self.startPosition
    }

    // MARK: - Geometry

    /// The largest top-left corner that keeps the piece inside the area.
    public var maximumPosition: Point {
        Point(
            x: max(0, areaSize.width - pieceSize.width),
            y: max(0, areaSize.height - pieceSize.height))
    }

    /// The piece's rectangle in the area.
    public var pieceFrame: Rect { Rect(origin: piecePosition, size: pieceSize) }
    /// The hole's rectangle in the area.
    public var holeFrame: Rect { Rect(origin: holePosition, size: pieceSize) }

    /// The piece's position minus the hole's.
    public var offset: Vector { piecePosition - holePosition }

    /// Whether the piece is within the tolerance of the hole on both axes (TTGPuzzleVerify's
    /// `isVerification`).
    public var isWithinTolerance: Bool {
        abs(offset.dx) <= verificationTolerance && abs(offset.dy) <= verificationTolerance
    }

    /// The verdict the control reaches on its own, knowing the hole.
    public var localVerdict: PuzzleVerdict {
        isWithinTolerance ? .passed(snapTo: holePosition) : .failed
    }

    /// Moves the piece; coordinates are clamped into the area, non-finite ones ignored.
    /// The axis does not restrict programmatic moves.
    public mutating func setPiecePosition(_ p: Point) {
        piecePosition = clamp(p, keeping: piecePosition)
    }

    /// Moves the hole; coordinates are clamped into the area, non-finite ones ignored.
    public mutating func setHolePosition(_ p: Point) {
        holePosition = clamp(p, keeping: holePosition)
    }

    /// The piece's position as fractions 0…1 of the range it can move over (0 is the left or
    /// top edge, 1 the right or bottom edge). Setting clamps to 0…1 and ignores NaN.
    public var pieceFraction: Point {
        get { fraction(of: piecePosition) }
        set { setPiecePosition(position(atFraction: newValue, keeping: pieceFraction)) }
    }

    /// The hole's position as fractions 0…1 of the movable range; setting clamps.
    public var holeFraction: Point {
        get { fraction(of: holePosition) }
        set { setHolePosition(position(atFraction: newValue, keeping: holeFraction)) }
    }

    private func fraction(of p: Point) -> Point {
        let limit = maximumPosition
        return Point(
            x: limit.x > 0 ? p.x / limit.x : 0, y: limit.y > 0 ? p.y / limit.y : 0)
    }

    private func position(atFraction f: Point, keeping old: Point) -> Point {
        let limit = maximumPosition
        let fx = f.x.isNaN ? old.x : f.x.clamped(to: 0...1)
        let fy = f.y.isNaN ? old.y : f.y.clamped(to: 0...1)
        return Point(x: fx * limit.x, y: fy * limit.y)
    }

    private func clamp(_ p: Point, keeping old: Point) -> Point {
        let limit = maximumPosition
        let x = p.x.isNaN ? old.x : p.x
        let y = p.y.isNaN ? old.y : p.y
        return Point(x: x.clamped(to: 0...limit.x), y: y.clamped(to: 0...limit.y))
    }

    private mutating func clampAll() {
        holePosition = clamp(holePosition, keeping: holePosition)
        startPosition = clamp(startPosition, keeping: startPosition)
        piecePosition = clamp(piecePosition, keeping: piecePosition)
    }

    private mutating func rescale(from old: Size) {
        guard areaSize.isDrawable else {
            areaSize = old
            return
        }
        guard old.isDrawable, old != areaSize else { return clampAll() }
        let sx = areaSize.width / old.width
        let sy = areaSize.height / old.height
        func scaled(_ p: Point) -> Point { Point(x: p.x * sx, y: p.y * sy) }
        pieceSize = Size(width: pieceSize.width * sx, height: pieceSize.height * sy)
        holePosition = scaled(holePosition)
        startPosition = scaled(startPosition)
        piecePosition = scaled(piecePosition)
        track = track.map { PuzzleTrackPoint(x: $0.x * sx, y: $0.y * sy, time: $0.time) }
        clampAll()
    }

    // MARK: - Pointer

    /// Whether a point (in area coordinates) is on the piece, with a few points of slack for
    /// fingers.
    public func isOnPiece(_ location: Point, slack: Double = 4) -> Bool {
        pieceFrame.insetBy(dx: -slack, dy: -slack).contains(location)
    }

    /// Picks the piece up if `location` is on it (or anywhere, when `anywhere` is set, as for
    /// a slider thumb); returns whether a drag began.
    @discardableResult
    public mutating func beginDrag(at location: Point, time: Double, anywhere: Bool = false)
        -> Bool
    {
        // A keyboard attempt in progress gives way to the pointer.
        guard isEnabled, state.acceptsInput, state != .dragging || inputMethod == .keyboard,
            location.isFinite, time.isFinite, anywhere || isOnPiece(location)
        else { return false }
        state = .dragging
        inputMethod = .pointer
        grabOffset = piecePosition - location
        startTrack(at: location, time: time)
        return true
    }

    /// Follows the pointer during a drag, along the allowed axes; returns whether the piece
    /// moved.
    @discardableResult
    public mutating func moveDrag(to location: Point, time: Double) -> Bool {
        guard state == .dragging, inputMethod == .pointer, location.isFinite, time.isFinite
        else { return false }
        record(location, time: time)
        let before = piecePosition
        var target = location + grabOffset
        if !axis.allowsHorizontalMovement { target.x = piecePosition.x }
        if !axis.allowsVerticalMovement { target.y = piecePosition.y }
        piecePosition = clamp(target, keeping: piecePosition)
        return piecePosition != before
    }

    /// Releases the piece and returns the attempt, to be settled with ``settle(_:)``; `nil`
    /// when no drag was under way.
    public mutating func endDrag(at location: Point, time: Double) -> PuzzleResult? {
        guard state == .dragging, inputMethod == .pointer else { return nil }
        if location.isFinite, time.isFinite { moveDrag(to: location, time: time) }
        return result()
    }

    /// Abandons a drag: the piece goes back to the start and the state to idle (or failed).
    public mutating func cancelDrag() {
        guard state == .dragging else { return }
        piecePosition = startPosition
        state = failureCount > 0 ? .failed : .idle
    }

    // MARK: - Keyboard

    /// Moves the piece by a step (points) along the allowed axes; starts a keyboard attempt
    /// if none is under way. Returns whether the piece moved.
    @discardableResult
    public mutating func nudge(by step: Vector, time: Double) -> Bool {
        guard isEnabled, state.acceptsInput, step.isFinite, time.isFinite else { return false }
        if state != .dragging || inputMethod != .keyboard {
            guard state != .dragging else { return false }
            state = .dragging
            inputMethod = .keyboard
            grabOffset = .zero
            startTrack(at: piecePosition, time: time)
        }
        var target = piecePosition + step
        if !axis.allowsHorizontalMovement { target.x = piecePosition.x }
        if !axis.allowsVerticalMovement { target.y = piecePosition.y }
        let before = piecePosition
        piecePosition = clamp(target, keeping: piecePosition)
        record(piecePosition, time: time)
        return piecePosition != before
    }

    /// Ends a keyboard attempt and returns it; `nil` when the keyboard has not moved the piece.
    public mutating func submit(time: Double) -> PuzzleResult? {
        guard state == .dragging, inputMethod == .keyboard else { return nil }
        if time.isFinite, time > lastTime { lastTime = time }
        return result()
    }

    // MARK: - Outcome

    /// Holds the attempt just made while a verifier elsewhere decides: the piece stays where
    /// it was released and input waits until ``settle(_:result:at:returnsAfterFailure:)``.
    public mutating func beginVerifying(_ result: PuzzleResult) {
        guard state == .dragging else { return }
        lastResult = result
        state = .verifying
    }

    /// Settles an attempt and starts its outcome animation at `time`: the snap into the hole
    /// (to the verdict's position, if it gives one) or the shake, with a glide back to the
    /// start if `returnsAfterFailure` and not locked. ``advance(to:)`` plays it and tells
    /// ``PuzzleEvent/passed(_:)`` or ``PuzzleEvent/failed(_:)`` when it ends.
    public mutating func settle(
        _ verdict: PuzzleVerdict, result: PuzzleResult, at time: Double,
        returnsAfterFailure: Bool = true
    ) -> [PuzzleEvent] {
        lastResult = result
        let from = piecePosition
        settle(verdict)
        switch verdict {
        case .passed:
            animation = PuzzleAnimation(
                kind: .success, startTime: time, from: from, to: piecePosition)
            piecePosition = from
            outcome = .passed(result)
        case .failed, .locked:
            let returns = returnsAfterFailure && state != .locked
            animation = PuzzleAnimation(
                kind: .failure(returns: returns), startTime: time, from: from,
                to: returns ? startPosition : from)
            outcome = .failed(result)
        }
        return [.stateChanged(state)]
    }

    /// Plays the outcome animation to `time`; when it ends, the piece rests where it ends
    /// and the outcome is told.
    public mutating func advance(to time: Double) -> [PuzzleEvent] {
        guard let running = animation else { return [] }
        guard running.isFinished(at: time) else {
            piecePosition = running.position(at: time)
            return []
        }
        animation = nil
        piecePosition = clamp(running.to, keeping: piecePosition)
        let told = outcome
        outcome = nil
        return [.pieceMoved(piecePosition)] + (told.map { [$0] } ?? [])
    }

    /// Stops any outcome animation without telling its outcome.
    mutating func cancelOutcome() {
        animation = nil
        outcome = nil
    }

    /// Applies a verdict to the attempt just made: verified (snapping to the hole when the
    /// verdict says where), failed, or locked once failures reach ``maximumFailures``.
    public mutating func settle(_ verdict: PuzzleVerdict) {
        switch verdict {
        case .passed(let snap):
            if let snap { piecePosition = clamp(snap, keeping: piecePosition) }
            state = .verified
        case .failed:
            failureCount += 1
            state = failureCount >= maximumFailures ? .locked : .failed
        case .locked:
            failureCount = max(failureCount + 1, maximumFailures)
            state = .locked
        }
    }

    /// Locks the puzzle until ``reset()``, as too many failures do; for a verifier's lockout.
    public mutating func lock() {
        cancelOutcome()
        if state == .dragging { piecePosition = startPosition }
        state = .locked
    }

    /// Puts the piece back at the start, clears the failures, the track and any outcome
    /// animation, and goes idle.
    public mutating func reset() {
        cancelOutcome()
        piecePosition = startPosition
        state = .idle
        failureCount = 0
        track = []
        travelled = 0
    }

    // MARK: - Track

    private mutating func startTrack(at location: Point, time: Double) {
        dragStartTime = time
        lastTime = time
        lastPointer = location
        travelled = 0
        track = [PuzzleTrackPoint(x: piecePosition.x, y: piecePosition.y, time: 0)]
    }

    /// Adds a sample. Events that share a time stamp (GTK reports whole milliseconds; a
    /// fast mouse reports more often) become one sample at the latest position, so a track's
    /// times always strictly increase after the first.
    private mutating func record(_ location: Point, time: Double) {
        travelled += location.distance(to: lastPointer)
        lastPointer = location
        lastTime = max(lastTime, time)
        let p = location + grabOffset
        let sample = PuzzleTrackPoint(x: p.x, y: p.y, time: lastTime - dragStartTime)
        if track.count > 1, let last = track.last, last.time >= sample.time {
            track[track.count - 1] = sample
        } else if track.count == 1, inputMethod == .pointer, sample.time <= 0 {
            // A move in the same instant as the press: the piece starts from there.
            track[0] = PuzzleTrackPoint(x: p.x, y: p.y, time: 0)
        } else {
            track.append(sample)
        }
    }

    private func result() -> PuzzleResult {
        PuzzleResult(
            position: piecePosition, areaSize: areaSize, offset: offset,
            elapsedTime: lastTime - dragStartTime, dragDistance: travelled, track: track,
            inputMethod: inputMethod)
    }
}
