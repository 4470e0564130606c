import TactileCore

/// Where a captcha's host gets its puzzles and sends its attempts: a service over HTTP
/// (``RemoteCaptcha``), or a desk in the host's own process (`LocalCaptchaClient` in
/// TactilePuzzleDesk). The host's ``PuzzleSession`` decides when to ask; each answer comes
/// back through the completion, on the host's loop. A client never gives the host an answer.
public protocol CaptchaClient: AnyObject {
    /// Gets a new puzzle to show; the one before, if unanswered, can no longer pass.
    func nextPuzzle(_ completion: @escaping (Result<ShownPuzzle, CaptchaClientError>) -> Void)
    /// Sends the attempt at the puzzle last given and calls back with the verdict.
    func submit(
        _ result: PuzzleResult,
        _ completion: @escaping (Result<PuzzleVerdict, CaptchaClientError>) -> Void)
    /// The whole picture of the puzzle last passed, without its hole and decoys, when the
    /// client may show it (one in the host's process); `nil` otherwise.
    var passedPicture: Bitmap? { get }
}

/// A puzzle as a client hands it to its host: what may be shown, never the answer.
public struct ShownPuzzle {
    /// The puzzle's id when the client names it by one (a service's, in every URL of it).
    public var id: String?
    /// The background, with its hole and decoys.
    public var background: Bitmap
    /// The piece, with alpha.
    public var piece: Bitmap
    /// Where the piece starts, in background pixels.
    public var startPosition: Point
    /// How the piece may move.
    public var axis: PuzzleAxis
    /// The piece's outline, when the client knows it (the service sends only its name).
    public var shape: PuzzleShape?
    /// For how many seconds an answer is accepted (`nil` when not said).
    public var lifetime: Double?

    /// Creates a puzzle to show.
    public init(
        id: String? = nil, background: Bitmap, piece: Bitmap, startPosition: Point,
        axis: PuzzleAxis, shape: PuzzleShape? = nil, lifetime: Double? = nil
    ) {
        self.id = id
        self.background = background
        self.piece = piece
        self.startPosition = startPosition
        self.axis = axis
        self.shape = shape
        self.lifetime = lifetime
    }
}

/// Why a captcha client has no puzzle or no verdict: the service is unreachable or answered
/// something unexpected, no puzzle could be made, or the client must wait.
public struct CaptchaClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, for a person.
    public var description: String
    /// When set, the service refused for now: ask again after this many seconds.
    public var retryAfter: Double?

    /// What a person who looks further may read (the file and the reason a picture could not
    /// be read), when there is more than ``description`` says.
    public var detail: String?

    /// Creates an error.
    public init(_ description: String, retryAfter: Double? = nil, detail: String? = nil) {
        self.description = description
        self.retryAfter = retryAfter
        self.detail = detail
    }

    /// The service asks the client to wait.
    public static func rateLimited(retryAfter: Double) -> CaptchaClientError {
        CaptchaClientError(
            Localization.text(
                "too many puzzles asked for: try again in {1} s", Int(retryAfter.rounded(.up))),
            retryAfter: retryAfter)
    }
}
