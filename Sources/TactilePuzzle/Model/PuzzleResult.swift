import TactileCore

/// One recorded sample of a drag: where the piece would be, and when.
///
/// Positions are the piece's top-left corner, in the same units as the puzzle area, following
/// the pointer without clamping (so a hand's wobble across the slider shows in `y`). Time is
/// in seconds since the drag began.
public struct PuzzleTrackPoint: Hashable, Sendable, Codable {
    /// The piece's left edge, in area units.
    public var x: Double
    /// The piece's top edge, in area units.
    public var y: Double
    /// Seconds since the first sample.
    public var time: Double

    /// Creates a sample.
    public init(x: Double, y: Double, time: Double) {
        self.x = x
        self.y = y
        self.time = time
    }

    /// The sample's position.
    public var position: Point { Point(x: x, y: y) }
}

/// How an attempt was made.
public enum PuzzleInputMethod: String, Hashable, Sendable, Codable {
    /// Dragging with a mouse, a finger or a pen.
    case pointer
    /// Arrow keys, submitted with Enter.
    case keyboard
}

/// Everything known about one attempt, handed to verifiers and callbacks.
public struct PuzzleResult: Hashable, Sendable {
    /// Where the piece's top-left corner was released, in area points.
    public var position: Point
    /// The release position as fractions of the area's width (both coordinates), which is
    /// what a verifier on another display compares.
    public var widthFractions: Point
    /// The size of the puzzle area the attempt was made in, in points.
    public var areaSize: Size
    /// The release position minus the hole's, when the control knows the hole.
    public var offset: Vector?
    /// Seconds from picking the piece up to releasing it.
    public var elapsedTime: Double
    /// How far the pointer travelled, in points.
    public var dragDistance: Double
    /// The samples of the drag, first to last.
    public var track: [PuzzleTrackPoint]
    /// Pointer or keyboard.
    public var inputMethod: PuzzleInputMethod
    /// The device that made a pointer drag (a keyboard attempt keeps the default, a mouse).
    public var pointerDevice: PointerDevice

    /// Creates a result.
    public init(
        position: Point, areaSize: Size, offset: Vector?, elapsedTime: Double,
        dragDistance: Double, track: [PuzzleTrackPoint], inputMethod: PuzzleInputMethod,
        pointerDevice: PointerDevice = .mouse
    ) {
        self.position = position
        self.areaSize = areaSize
        let width = areaSize.width > 0 ? areaSize.width : 1
        self.widthFractions = Point(x: position.x / width, y: position.y / width)
        self.offset = offset
        self.elapsedTime = elapsedTime
        self.dragDistance = dragDistance
        self.track = track
        self.inputMethod = inputMethod
        self.pointerDevice = pointerDevice
    }
}

/// What a verifier says of an attempt: the one verdict type of the captcha, for the control
/// (which animates it), the page or widget that shows it, and a client of a remote service.
///
/// It holds only what a client may know. Which rule refused an attempt is the verifier's
/// business (its log and metrics), never part of a verdict.
public enum PuzzleVerdict: Hashable, Sendable {
    /// Passed. The piece snaps to `snapTo` (the hole's top-left, in area points) when the
    /// verifier says where; a verifier elsewhere also sends the single-use `token` for the
    /// site's server, valid for `tokenLifetime` seconds when it says.
    case passed(snapTo: Point?, token: String? = nil, tokenLifetime: Double? = nil)
    /// The puzzle is gone (expired, already answered, or never issued): ask for a fresh one.
    case expired
    /// Not passed: try again with a fresh puzzle.
    case notPassed
    /// Too many attempts: none is taken for `retryAfter` seconds (`nil`: until a reset).
    case locked(retryAfter: Double?)

    /// The verdict's name on the wire (`error-codes` of an answer; `passed` for a pass).
    public var code: String {
        switch self {
        case .passed: "passed"
        case .expired: "expired"
        case .notPassed: "not-passed"
        case .locked: "rate-limited"
        }
    }

    /// Whether the attempt passed.
    public var isPassed: Bool {
        if case .passed = self { true } else { false }
    }
}
