import TactileCore
import TactilePuzzle
import TactilePuzzleImaging
import TactilePuzzleStores
@_spi(AnswerReveal) import TactilePuzzleVerifier

/// The captcha's whole round trip inside one process — make a puzzle, check one attempt at
/// it, wait out a lockout, redeem the pass token — for a host that shows it (the showcase)
/// without a service.
///
/// It runs a ``CaptchaDesk`` over a store in memory, as the service runs one over Redis or a
/// directory: the same limits, drag judgement and memory of accepted drags. The host gets
/// only what a client may see (the images, the start and the axis of ``Puzzle``) and, for
/// each attempt, a `CheckOutcome`. Each puzzle is checked once: whatever the verdict, the
/// next attempt needs ``newPuzzle(now:using:)``.
public struct LocalCaptcha: Sendable {
    /// What a host shows of a puzzle: never its answer.
    public struct Puzzle: Sendable {
        /// The background, with its hole and decoys.
        public var background: Bitmap
        /// The piece, with alpha.
        public var piece: Bitmap
        /// Where the piece starts, in background pixels.
        public var startPosition: Point
        /// How the piece may move.
        public var axis: PuzzleAxis
        /// The piece's outline.
        public var shape: PuzzleShape
    }

    /// How puzzles are cut.
    public var options: PuzzleOptions {
        get { desk.configuration.options }
        set { desk.configuration.options = newValue }
    }
    /// The picture puzzles are cut from, or `nil` for a drawn landscape each time.
    public var picture: PictureSource?
    /// The verifier's limits (tolerance, lockouts, lifetimes).
    public var policy: VerifierPolicy {
        get { desk.configuration.policy }
        set { desk.configuration.policy = newValue }
    }
    /// Who the puzzles are for, as the verifier counts limits.
    public let client: String
    /// The puzzle waiting for its one check, if any.
    public private(set) var puzzleID: String?
    /// The price of the waiting puzzle's answer, when the policy sets one
    /// (`VerifierPolicy.proofOfWorkDifficulty`): the host pays it (with more, up to the price
    /// of the proof of work alone, so that a drag the rules doubt may still pass in the hole)
    /// and hands the nonce to ``check(_:now:proofOfWorkNonce:)``.
    public private(set) var waitingPrice: ProofOfWorkChallenge?
    /// The whole picture of the puzzle last passed, without its hole and decoys, for the host
    /// to show once the piece is in; `nil` until a pass, and again with the next puzzle.
    public private(set) var passedPicture: Bitmap?

    private var waitingPicture: Bitmap?

    private var desk: CaptchaDesk

    /// Creates a round trip with a fresh random key.
    public init(
        options: PuzzleOptions = PuzzleOptions(), client: String = "local",
        policy: VerifierPolicy = VerifierPolicy()
    ) {
        self.client = client
        desk = CaptchaDesk(
            configuration: CaptchaDesk.Configuration(policy: policy, options: options),
            store: MemoryBackend(policy: policy))
    }

    /// A puzzle cut from a picture and not yet registered: its answer, and the picture before
    /// the hole and decoys were cut (which would give the answer away, so the host gets it
    /// only after a pass, ``passedPicture``), stay inside, for ``register(_:now:)`` alone.
    public struct CutPuzzle: Sendable {
        fileprivate let generated: GeneratedPuzzle
    }

    /// Cuts a puzzle: draws or reads the picture and cuts the hole, the decoys and the piece.
    ///
    /// The slow half of ``newPuzzle(now:using:)`` (tens to hundreds of milliseconds), and it
    /// touches no state, so a host may run it on another thread and register the result on
    /// its own.
    ///
    /// - Parameters:
    ///   - picture: The picture, or `nil` for a drawn landscape.
    ///   - options: How to cut it.
    ///   - random: Where the hole, decoys and landscape come from.
    /// - Throws: `PuzzleGenerationError` or `ImageFileError` when the picture cannot be
    ///   used.
    public static func cut(
        picture: PictureSource?, options: PuzzleOptions,
        using random: inout some RandomNumberGenerator
    ) throws -> CutPuzzle {
        let source = picture ?? .procedural(seed: random.next())
        let image = try source.picture(width: options.width, height: options.height)
        return CutPuzzle(
            generated: try PuzzleGenerator.generate(
                picture: image, options: options, using: &random))
    }

    /// Registers a cut puzzle as the one waiting for its check; the one before, if
    /// unchecked, can no longer pass.
    ///
    /// - Parameters:
    ///   - cut: The puzzle from ``cut(picture:options:using:)``.
    ///   - now: The time, seconds since 1970.
    /// - Returns: The puzzle to show, or the refusal (locked out, or too many puzzles asked
    ///   for) with the time the next may be asked for.
    public mutating func register(_ cut: CutPuzzle, now: Double) -> Result<Puzzle, IssueRefusal> {
        puzzleID = nil
        passedPicture = nil
        waitingPicture = nil
        waitingPrice = nil
        let puzzle = cut.generated
        // Only the pictures are shown here: the store keeps no files of them.
        let none = ChallengeImages(background: [], backgroundType: "", piece: [])
        switch Self.inMemory({ () throws(DeskFailure) in
            try desk.register(
                puzzle, client: client, site: nil, surcharge: 0, images: none, now: now)
        }) {
        case .success(let issued):
            puzzleID = issued.challenge.id
            waitingPrice = issued.challenge.proofOfWork
        case .failure(let limit): return .failure(IssueRefusal(until: limit.until))
        }
        waitingPicture = puzzle.picture
        return .success(
            Puzzle(
                background: puzzle.background, piece: puzzle.piece,
                startPosition: puzzle.startPosition, axis: puzzle.axis, shape: puzzle.shape))
    }

    /// Makes and registers a new puzzle: ``cut(picture:options:using:)`` with this
    /// captcha's picture and options, then ``register(_:now:)``.
    ///
    /// - Returns: The puzzle to show, or the refusal with the time the next may be asked for.
    /// - Throws: `PuzzleGenerationError` or `ImageFileError` when the picture cannot be
    ///   used.
    public mutating func newPuzzle(
        now: Double, using random: inout some RandomNumberGenerator
    ) throws -> Result<Puzzle, IssueRefusal> {
        puzzleID = nil
        let cut = try Self.cut(picture: picture, options: options, using: &random)
        return register(cut, now: now)
    }

    /// Checks an attempt at the waiting puzzle (once); the outcome's
    /// `CheckOutcome.verdict(now:)` is what the person may be told.
    ///
    /// - Parameters:
    ///   - result: The attempt, as the view reports it.
    ///   - now: The time, seconds since 1970.
    ///   - proofOfWorkNonce: The price paid, when the puzzle has one (``waitingPrice``).
    public mutating func check(
        _ result: PuzzleResult, now: Double, proofOfWorkNonce: String? = nil
    ) -> CheckOutcome {
        guard let id = puzzleID else { return .failed(.unknownPuzzle) }
        puzzleID = nil
        waitingPrice = nil
        let picture = waitingPicture
        waitingPicture = nil
        var answer = DeskAnswer(result)
        answer.proofOfWorkNonce = proofOfWorkNonce
        let outcome = Self.inMemory { () throws(DeskFailure) in
            try desk.answer(answer, to: id, client: client, now: now).outcome
        }
        if outcome.isPassed { passedPicture = picture }
        return outcome
    }

    /// The waiting puzzle's answer, for tests only.
    @_spi(AnswerReveal)
    public func testingAnswer() -> Point? {
        puzzleID.flatMap { id in
            Self.inMemory { () throws(DeskFailure) in try desk.testingAnswer(id: id, now: 0) }
        }
    }

    /// Redeems a pass token, once.
    public mutating func redeem(_ token: String, now: Double) -> Result<TokenClaims, TokenError> {
        Self.inMemory { () throws(DeskFailure) in try desk.redeem(token, now: now) }
    }

    /// What `body` gives: the desk's store is in this process's memory, which never fails.
    private static func inMemory<R>(_ body: () throws(DeskFailure) -> R) -> R {
        do {
            return try body()
        } catch {
            preconditionFailure("the store in memory failed: \(error)")
        }
    }
}
