import TactileCore
import TactileCrypto
import TactilePuzzle
import TactilePuzzleImaging
import TactilePuzzleVerifier

/// A ``LocalCaptcha`` as a host's `CaptchaClient`: puzzles cut off the host's loop and
/// registered on it, each attempt checked at once, the verdict as a remote service would
/// give it.
///
/// The host changes how puzzles are cut through ``captcha`` (options, picture, policy); the
/// next puzzle asked for is cut with them.
public final class LocalCaptchaClient: CaptchaClient {
    /// Runs slow work off the host's loop and calls back on it with the result.
    public typealias Background = (
        _ work: @escaping @Sendable () -> Result<LocalCaptcha.CutPuzzle, any Error>,
        _ then: @escaping (Result<LocalCaptcha.CutPuzzle, any Error>) -> Void
    ) -> Void

    /// The round trip in this process: its options, picture and policy are the host's to set.
    public var captcha: LocalCaptcha
    private let background: Background
    private let solveWork: RemoteCaptcha.WorkSolver?
    private let clock: () -> Double
    private let log: (String) -> Void
    /// Whether a puzzle is being cut, and the completion of the latest request for one.
    private var isCutting = false
    private var waiting: ((Result<ShownPuzzle, CaptchaClientError>) -> Void)?
    /// Whether a request came while a puzzle was being cut: that one is cut again, with the
    /// options of now (clicks never queue up cuts).
    private var isStale = false

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - captcha: The round trip, with the options to cut puzzles with.
    ///   - background: Runs the cutting off the host's loop.
    ///   - solveWork: Pays a priced puzzle's price, as for a service (see
    ///     `RemoteCaptcha.WorkSolver`), before the attempt is checked. A policy that sets a
    ///     price needs it: an answer without the price fails.
    ///   - clock: Seconds since 1970.
    ///   - log: Where the operator's side of a verdict (the rule that failed) goes.
    public init(
        _ captcha: LocalCaptcha, background: @escaping Background,
        solveWork: RemoteCaptcha.WorkSolver? = nil,
        clock: @escaping () -> Double, log: @escaping (String) -> Void
    ) {
        self.captcha = captcha
        self.background = background
        self.solveWork = solveWork
        self.clock = clock
        self.log = log
    }

    public var passedPicture: Bitmap? { captcha.passedPicture }

    public func nextPuzzle(
        _ completion: @escaping (Result<ShownPuzzle, CaptchaClientError>) -> Void
    ) {
        waiting = completion
        guard !isCutting else {
            isStale = true
            return
        }
        isCutting = true
        isStale = false
        let (picture, options) = (captcha.picture, captcha.options)
        background(
            {
                var random = SecureRandom()
                return Result {
                    try LocalCaptcha.cut(picture: picture, options: options, using: &random)
                }
            },
            { [self] result in
                isCutting = false
                guard !isStale, let completion = waiting else {
                    if let completion = waiting { nextPuzzle(completion) }
                    return
                }
                waiting = nil
                completion(register(result))
            })
    }

    /// Registers a cut puzzle, or says why there is none; a picture that cannot be read is
    /// let go, so the next puzzle is drawn.
    private func register(_ cut: Result<LocalCaptcha.CutPuzzle, any Error>)
        -> Result<ShownPuzzle, CaptchaClientError>
    {
        let now = clock()
        do {
            switch captcha.register(try cut.get(), now: now) {
            case .success(let puzzle):
                return .success(
                    ShownPuzzle(
                        background: puzzle.background, piece: puzzle.piece,
                        startPosition: puzzle.startPosition, axis: puzzle.axis,
                        shape: puzzle.shape, lifetime: captcha.policy.puzzleLifetime))
            case .failure(let refusal):
                return .failure(.rateLimited(retryAfter: refusal.until - now))
            }
        } catch let error as PuzzleGenerationError {
            return .failure(
                CaptchaClientError(Localization.text("Cannot make a puzzle"), detail: "\(error)"))
        } catch {
            // The picture could not be read: the next puzzle is drawn.
            captcha.picture = nil
            return .failure(
                CaptchaClientError(Localization.text("Cannot open the image"), detail: "\(error)"))
        }
    }

    public func submit(
        _ result: PuzzleResult,
        _ completion: @escaping (Result<PuzzleVerdict, CaptchaClientError>) -> Void
    ) {
        guard let price = captcha.waitingPrice, let solveWork, let id = captcha.puzzleID else {
            return check(result, nonce: nil, completion)
        }
        solveWork(price.salt, price.difficulty, price.parts) { [self] nonce in
            // A new puzzle was asked for while the price was paid: this one is gone.
            guard captcha.puzzleID == id else { return completion(.success(.expired)) }
            check(result, nonce: nonce, completion)
        }
    }

    /// Checks an attempt at the waiting puzzle with the price paid, if any.
    private func check(
        _ result: PuzzleResult, nonce: String?,
        _ completion: @escaping (Result<PuzzleVerdict, CaptchaClientError>) -> Void
    ) {
        let now = clock()
        let outcome = captcha.check(result, now: now, proofOfWorkNonce: nonce)
        if case .failed(let failure) = outcome {
            // The operator's side of the verdict (the rule and its figures) goes to the log.
            log("\(failure.verdict.code): \(failure)")
        }
        completion(.success(outcome.verdict(now: now)))
    }
}
