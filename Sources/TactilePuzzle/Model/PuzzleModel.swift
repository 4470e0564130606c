import TactileCore

/// The captcha's state without any drawing: where the piece and the hole are, how the piece
/// may move, and what happened so far.
///
/// Positions are the top-left corners of the piece and the hole, in points inside the puzzle
/// area (the picture).
///
/// Two rules for values, as in UIKit: configuration a caller can get wrong (sizes, the
/// tolerance, the failure limit, where the hole and the start are) is checked and refused
/// with a ``PuzzleError`` naming the value; positions the piece is moved to, by a drag, a key
/// or a setter, are kept inside the area the way `UISlider` keeps its value inside its range
/// (out-of-range coordinates clamp, non-finite ones are ignored).
///
/// A pointer drag goes `beginDrag → moveDrag… → endDrag`; the keyboard goes
/// `nudge… → submit`. Both return a ``PuzzleResult`` that is then settled with
/// ``settle(_:)`` — by ``localVerdict`` (the piece is within ``verificationTolerance`` of the
/// hole on both axes, as TTGPuzzleVerify decides) or by a verifier that holds the answer.
public struct PuzzleModel: Hashable, Sendable {
    /// The default tolerance, in points.
    public static let defaultTolerance = 8.0

    /// The puzzle area's size in points.
    public let areaSize: Size
    /// The piece's size in points (its bounding box, knobs included).
    public let pieceSize: Size
    /// The directions the piece may move in.
    public let axis: PuzzleAxis
    /// How far from the hole, on each axis, the piece still verifies; at least 0. Change it
    /// with ``setVerificationTolerance(_:)``.
    public private(set) var verificationTolerance: Double
    /// Whether the piece reacts to pointer and keyboard.
    public var isEnabled = true
    /// Whether an outcome is a change of state at once, without the snap, fade or shake.
    public var reducesMotion = false
    /// Refused attempts before the puzzle locks; at least 1. Change it with
    /// ``setMaximumFailures(_:)``.
    public private(set) var maximumFailures: Int

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
    /// The device of the drag under way or last made.
    public private(set) var pointerDevice: PointerDevice = .mouse

    private var grabOffset = Vector.zero
    private var dragStartTime = 0.0
    private var lastPointer = Point.zero
    private var lastTime = 0.0
    private var travelled = 0.0

    /// Creates a puzzle.
    ///
    /// - Parameters:
    ///   - areaSize: The picture's size in points; finite and positive.
    ///   - pieceSize: The piece's size in points; finite, positive and no larger than the area.
    ///   - holePosition: The hole's top-left corner; the hole must lie inside the area.
    ///   - startPosition: Where the piece starts, inside the area; by default the left edge on
    ///     the hole's row for ``PuzzleAxis/horizontal``, the top edge in the hole's column for
    ///     ``PuzzleAxis/vertical``, the top-left corner for ``PuzzleAxis/free``.
    ///   - axis: The directions the piece may move in.
    ///   - verificationTolerance: Points of slack on each axis; finite and at least 0.
    ///   - maximumFailures: Refused attempts before locking; at least 1.
    /// - Throws: ``PuzzleError`` naming the first value out of range.
    public init(
        areaSize: Size, pieceSize: Size, holePosition: Point, startPosition: Point? = nil,
        axis: PuzzleAxis = .free, verificationTolerance: Double = defaultTolerance,
        maximumFailures: Int = 5
    ) throws(PuzzleError) {
        guard areaSize.isDrawable else {
            throw PuzzleError("area size must be finite and positive, got \(areaSize)")
        }
        guard pieceSize.isDrawable, pieceSize.width <= areaSize.width,
            pieceSize.height <= areaSize.height
        else {
            throw PuzzleError(
                "piece size must be positive and fit the \(areaSize) area, got \(pieceSize)")
        }
        self.areaSize = areaSize
        self.pieceSize = pieceSize
        self.axis = axis
        self.verificationTolerance = Self.defaultTolerance
        self.maximumFailures = 1
        self.holePosition = .zero
        self.startPosition = .zero
        self.piecePosition = .zero
        try setVerificationTolerance(verificationTolerance)
        try setMaximumFailures(maximumFailures)
        try setHolePosition(holePosition)
        let defaultStart: Point =
            switch axis {
            case .horizontal: Point(x: 0, y: holePosition.y)
            case .vertical: Point(x: holePosition.x, y: 0)
            case .free: .zero
            }
        let start = startPosition ?? defaultStart
        try Self.check(start, "start position", within: maximumPosition)
        self.startPosition = start
        piecePosition = start
    }

    /// Changes the slack for ``localVerdict``.
    ///
    /// - Parameter tolerance: Points on each axis; finite and at least 0.
    /// - Throws: ``PuzzleError`` when `tolerance` is negative or not finite.
    public mutating func setVerificationTolerance(_ tolerance: Double) throws(PuzzleError) {
        guard tolerance.isFinite, tolerance >= 0 else {
            throw PuzzleError(
                "verification tolerance must be a finite number of points ≥ 0, got \(tolerance)")
        }
        verificationTolerance = tolerance
    }

    /// Changes how many refused attempts lock the puzzle.
    ///
    /// - Parameter failures: At least 1.
    /// - Throws: ``PuzzleError`` when `failures` is below 1.
    public mutating func setMaximumFailures(_ failures: Int) throws(PuzzleError) {
        guard failures >= 1 else {
            throw PuzzleError("maximum failures must be at least 1, got \(failures)")
        }
        maximumFailures = failures
    }

    /// Moves the hole.
    ///
    /// - Parameter position: The hole's top-left corner; the hole must lie inside the area.
    /// - Throws: ``PuzzleError`` when the hole would leave the area.
    public mutating func setHolePosition(_ position: Point) throws(PuzzleError) {
        try Self.check(position, "hole position", within: maximumPosition)
        holePosition = position
    }

    private static func check(_ p: Point, _ name: String, within limit: Point)
        throws(PuzzleError)
    {
        guard p.isFinite, (0...limit.x).contains(p.x), (0...limit.y).contains(p.y) else {
            throw PuzzleError(
                "\(name) must be within x 0…\(limit.x), y 0…\(limit.y) (so the piece stays in the picture), got (\(p.x), \(p.y))"
            )
        }
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
        isWithinTolerance ? .passed(snapTo: holePosition) : .notPassed
    }

    /// Moves the piece; coordinates are clamped into the area, non-finite ones ignored.
    /// The axis does not restrict programmatic moves.
    public mutating func setPiecePosition(_ p: Point) {
        piecePosition = clamp(p, keeping: piecePosition)
    }

    /// The piece's position as fractions 0…1 of the range it can move over (0 is the left or
    /// top edge, 1 the right or bottom edge). Setting clamps to 0…1 and ignores NaN.
    public var pieceFraction: Point {
        get { fraction(of: piecePosition) }
        set { setPiecePosition(position(atFraction: newValue, keeping: pieceFraction)) }
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

    // MARK: - Pointer

    /// Whether a point (in area coordinates) is on the piece, with a few points of slack for
    /// fingers.
    public func isOnPiece(_ location: Point, slack: Double = 4) -> Bool {
        pieceFrame.insetBy(dx: -slack, dy: -slack).contains(location)
    }

    /// Picks the piece up if `location` is on it (or anywhere, when `anywhere` is set, as for
    /// a slider thumb); returns whether a drag began.
    @discardableResult
    public mutating func beginDrag(
        at location: Point, time: Double, anywhere: Bool = false, device: PointerDevice = .mouse
    ) -> Bool {
        // A keyboard attempt in progress gives way to the pointer.
        guard isEnabled, state.acceptsInput, state != .dragging || inputMethod == .keyboard,
            location.isFinite, time.isFinite, anywhere || isOnPiece(location)
        else { return false }
        state = .dragging
        inputMethod = .pointer
        pointerDevice = device
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
        case .expired, .notPassed, .locked:
            let returns = returnsAfterFailure && state != .locked
            animation = PuzzleAnimation(
                kind: .failure(returns: returns), startTime: time, from: from,
                to: returns ? startPosition : from)
            outcome = .failed(result)
        }
        guard reducesMotion, let finished = animation else { return [.stateChanged(state)] }
        // No motion: where the animation would end, at once, and the outcome with it.
        return [.stateChanged(state)] + advance(to: finished.startTime + finished.duration)
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
        case .passed(let snap, _, _):
            if let snap { piecePosition = clamp(snap, keeping: piecePosition) }
            state = .verified
        case .expired, .notPassed:
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
            inputMethod: inputMethod,
            pointerDevice: inputMethod == .pointer ? pointerDevice : .mouse)
    }
}
