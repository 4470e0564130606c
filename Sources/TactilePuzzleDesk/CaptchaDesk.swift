import TactileCore
import TactilePuzzle
import TactilePuzzleImaging
import TactilePuzzleStores
@_spi(AnswerReveal) import TactilePuzzleVerifier

/// The captcha's flow below any transport, written once: a puzzle issued (the client's and
/// the site's limits first, then priced, cut and registered), an answer judged once (its drag
/// against the memory of accepted drags, under the policy of the site the puzzle was issued
/// for), and a pass token redeemed once.
///
/// Everything it knows lives in its store (`VerifierBackend`): Redis or a directory for the
/// HTTP service, a directory for the command line, memory for an app (``LocalCaptcha``). The
/// service maps requests to it and its outcomes to responses; the caller logs and counts.
public struct CaptchaDesk: Sendable {
    /// What the desk is set up with.
    public struct Configuration: Sendable {
        /// The verifier's limits where no site sets its own.
        public var policy: VerifierPolicy
        /// How puzzles are cut.
        public var options: PuzzleOptions
        /// Photos to cut puzzles from (``cut(using:)``); empty for drawn pictures.
        public var pictures: [Bitmap]
        /// How long an accepted drag is remembered, in seconds: a drag that matches it is
        /// refused as a replay until then.
        public var acceptedDragLifetime = 86_400.0
        /// How a site's price follows a surge of its answers.
        public var surge = SurgePricing()

        /// Creates a configuration.
        public init(
            policy: VerifierPolicy = VerifierPolicy(), options: PuzzleOptions = PuzzleOptions(),
            pictures: [Bitmap] = []
        ) {
            self.policy = policy
            self.options = options
            self.pictures = pictures
        }
    }

    /// What it is set up with.
    public var configuration: Configuration
    /// Where everything it knows lives.
    public let store: any VerifierBackend

    /// Creates a desk over a store.
    public init(configuration: Configuration, store: any VerifierBackend) {
        self.configuration = configuration
        self.store = store
    }

    /// Runs `body` on the store's verifier within `scope`, under `policy`.
    func withVerifier<R>(
        _ scope: VerifierScope, policy: VerifierPolicy, now: Double,
        _ body: (inout PuzzleVerifier) throws -> R
    ) throws(DeskFailure) -> R {
        do {
            return try store.withVerifier(scope, now: now) { verifier in
                verifier.policy = policy
                return try body(&verifier)
            }
        } catch {
            throw .storeUnavailable(error)
        }
    }

    /// The facts of a puzzle waiting for its check (never its answer), or `nil`.
    public func pendingPuzzle(id: String, now: Double) throws(DeskFailure) -> PendingPuzzle? {
        try withVerifier(.peeking(puzzle: id), policy: configuration.policy, now: now) {
            $0.pendingPuzzle(id: id)
        }
    }

    /// A waiting puzzle's answer, for tests and a service in its loud browser-test mode only.
    @_spi(AnswerReveal)
    public func testingAnswer(id: String, now: Double) throws(DeskFailure) -> Point? {
        try withVerifier(.peeking(puzzle: id), policy: configuration.policy, now: now) {
            $0.testingAnswer(id: id)
        }
    }
}

/// A site as the desk serves it: the binding its puzzles and tokens carry, its policy, and
/// its budget of puzzles for all its clients together.
public struct DeskSite: Sendable {
    /// The site's key, the page's host name and the site's action.
    public var binding: SiteBinding
    /// The verifier's limits for the site.
    public var policy: VerifierPolicy
    /// Puzzles the whole site may be given per minute.
    public var puzzlesPerMinute: Int

    /// Creates a site.
    public init(binding: SiteBinding, policy: VerifierPolicy, puzzlesPerMinute: Int) {
        self.binding = binding
        self.policy = policy
        self.puzzlesPerMinute = puzzlesPerMinute
    }
}

/// Why the desk could not act.
public enum DeskFailure: Error, CustomStringConvertible {
    /// The store did not answer, or cannot be trusted.
    case storeUnavailable(any Error)
    /// No puzzle could be cut (an unusable picture or options).
    case cannotMakePuzzle(any Error)

    public var description: String {
        switch self {
        case .storeUnavailable(let error): "\(error)"
        case .cannotMakePuzzle(let error): "cannot make a puzzle: \(error)"
        }
    }
}

/// A puzzle refused: the client or the site asked for too many, or the client is locked out.
public struct IssueLimit: Error, Hashable, Sendable {
    /// Whose limit.
    public enum Scope: String, Hashable, Sendable {
        /// The client's own (its puzzles per window, or a lockout).
        case client
        /// The site's, for all its clients together.
        case site
    }

    /// Whose limit was reached.
    public var scope: Scope
    /// When the next puzzle may be asked for, seconds since 1970.
    public var until: Double

    /// Creates a refusal.
    public init(scope: Scope, until: Double) {
        self.scope = scope
        self.until = until
    }
}
