import TactileCore
import TactilePuzzle

/// What a client is told about a puzzle, besides its two images: never the answer.
///
/// For a horizontal puzzle the piece's row (`pieceY`) is given, since the piece only slides
/// along it; for a vertical one its column (`pieceX`).
public struct PuzzleChallenge: Hashable, Sendable {
    /// The puzzle's identifier, 32 hexadecimal digits.
    public var id: String
    /// The background's width in pixels.
    public var imageWidth: Int
    /// The background's height in pixels.
    public var imageHeight: Int
    /// The piece image's width in pixels.
    public var pieceWidth: Int
    /// The piece image's height in pixels.
    public var pieceHeight: Int
    /// How the piece may move.
    public var axis: PuzzleAxis
    /// The piece's fixed column for a vertical puzzle.
    public var pieceX: Int?
    /// The piece's fixed row for a horizontal puzzle.
    public var pieceY: Int?
    /// The piece's outline: `classic`, `circle`, `square` or `custom`.
    public var shape: String
    /// When the puzzle stops being accepted, in seconds since 1970.
    public var expiresAt: Double
    /// The proof-of-work alternative, when the site allows it.
    public var proofOfWork: ProofOfWorkChallenge?

    /// Creates a challenge.
    public init(
        id: String, imageWidth: Int, imageHeight: Int, pieceWidth: Int, pieceHeight: Int,
        axis: PuzzleAxis, pieceX: Int?, pieceY: Int?, shape: String, expiresAt: Double,
        proofOfWork: ProofOfWorkChallenge? = nil
    ) {
        self.proofOfWork = proofOfWork
        self.id = id
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.pieceWidth = pieceWidth
        self.pieceHeight = pieceHeight
        self.axis = axis
        self.pieceX = pieceX
        self.pieceY = pieceY
        self.shape = shape
        self.expiresAt = expiresAt
    }
}

extension PuzzleChallenge {
    /// What a client is told, as the HTTP API's answer to `POST /v1/challenges` and the
    /// command line's `challenge.json` say it: the images at `background` and `piece`, the
    /// expiry in RFC 3339.
    public func clientFields(background: String, piece: String) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "id": JSONValue(id), "axis": JSONValue(axis.rawValue),
            "imageWidth": JSONValue(imageWidth), "imageHeight": JSONValue(imageHeight),
            "pieceWidth": JSONValue(pieceWidth), "pieceHeight": JSONValue(pieceHeight),
            "background": JSONValue(background), "piece": JSONValue(piece),
            "expiresAt": JSONValue(UTCTimestamp.string(expiresAt)), "shape": JSONValue(shape),
        ]
        if let y = pieceY { fields["pieceY"] = JSONValue(y) }
        if let x = pieceX { fields["pieceX"] = JSONValue(x) }
        if let proofOfWork {
            fields["proofOfWork"] = [
                "salt": JSONValue(proofOfWork.salt),
                "difficulty": JSONValue(proofOfWork.difficulty),
                "parts": JSONValue(proofOfWork.parts),
            ]
        }
        return fields
    }
}

/// One attempt as a client reports it.
public struct PuzzleAttempt: Hashable, Sendable {
    /// The piece's top-left corner where it was released, in display units.
    public var position: Point
    /// The width the background was displayed at, in the same units; positions are compared
    /// as fractions of it, so a scaled display works.
    public var displayWidth: Double
    /// The drag's samples in the same units, time in seconds from the first.
    public var track: [PuzzleTrackPoint]
    /// Pointer drag or keyboard.
    public var inputMethod: PuzzleInputMethod
    /// The device of a pointer drag, which decides how the drag is judged: a mouse's bursts or
    /// a touchscreen's or pen's steady stream.
    public var pointerDevice: PointerDevice = .mouse
    /// A proof-of-work nonce instead of a drag (position and track are then ignored).
    public var proofOfWorkNonce: String?
    /// The width the picture was shown at on the person's screen, in CSS pixels or points,
    /// when the positions are in other units (the service's are in background pixels): the
    /// tolerance is at least ``VerifierPolicy/shownTolerance`` of these units.
    public var shownWidth: Double? = nil
    /// Whether the drag matches one accepted before (its ``DragFingerprint``, looked up by
    /// the caller in its memory of accepted drags): such an attempt fails.
    public var repeatsAcceptedDrag = false

    /// Creates an attempt.
    public init(
        position: Point, displayWidth: Double, track: [PuzzleTrackPoint],
        inputMethod: PuzzleInputMethod = .pointer, proofOfWorkNonce: String? = nil
    ) {
        self.proofOfWorkNonce = proofOfWorkNonce
        self.position = position
        self.displayWidth = displayWidth
        self.track = track
        self.inputMethod = inputMethod
    }

    /// The furthest a square piece's top-left corner goes along the slider of a picture (a key
    /// press may land there, End, and a drag carried past it releases the piece there): the
    /// picture's width (its height on a vertical slider) less the piece's side, in the
    /// picture's units. A free puzzle counts across.
    public static func farEdge(axis: PuzzleAxis, pictureSize: Size, pieceSide: Double) -> Double {
        (axis == .vertical ? pictureSize.height : pictureSize.width) - pieceSide
    }
}
