import TactileCore
import TactilePuzzle

/// What a pass gives the caller: the token, and where the hole is so the piece can snap.
public struct PassReceipt: Hashable, Sendable {
    /// The single-use pass token.
    public var token: String
    /// The hole's top-left corner in background pixels, known only after a pass.
    public var holePosition: Point
    /// How the attempt passed, as its token says: ``VerificationMode/proofOfWork`` also for a
    /// drag the rules doubted that paid the price of the proof of work alone.
    public var mode: VerificationMode
}

/// The result of checking an attempt, as the operator may know it.
///
/// The cases carry what the operator may know (which rule refused, and its figures); a
/// client may learn only ``verdict(now:)``.
public enum CheckOutcome: Hashable, Sendable {
    /// Passed; the receipt's token proves it, once, within the token lifetime.
    case passed(PassReceipt)
    /// Failed, and why (for the operator's logs and metrics).
    case failed(CheckFailure)
    /// Refused without looking: too many attempts, until the given time.
    case locked(until: Double)

    /// What the client may be told, at `now` (seconds since 1970).
    public func verdict(now: Double) -> PuzzleVerdict {
        switch self {
        case .passed(let receipt): .passed(snapTo: receipt.holePosition, token: receipt.token)
        case .failed(let failure): failure.verdict
        case .locked(let until): .locked(retryAfter: max(0, until - now))
        }
    }

    /// Whether the attempt passed.
    public var isPassed: Bool {
        if case .passed = self { true } else { false }
    }
}

/// Why a check failed.
public enum CheckFailure: Hashable, Sendable, CustomStringConvertible {
    /// No such puzzle (never issued, already checked, or evicted).
    case unknownPuzzle
    /// The puzzle's lifetime is over.
    case expired
    /// Another client asked for this puzzle.
    case wrongClient
    /// The piece is not in the hole: it is this many background pixels off.
    case wrongPosition(pixelsOff: Double)
    /// The drag looks machine-made.
    case machineLike(TrajectoryViolation)
    /// A proof of work was sent for a puzzle whose site does not allow it.
    case proofOfWorkRefused
    /// A keyboard attempt for a puzzle whose site does not allow them.
    case keyboardRefused
    /// The answer carries no proof of work for a priced puzzle, or one that does not solve
    /// its challenge.
    case proofOfWorkUnsolved
    /// The attempt's numbers make no sense.
    case invalidAttempt(String)

    /// What the client is told of this failure: expired or not passed, never which rule.
    public var verdict: PuzzleVerdict {
        switch self {
        case .unknownPuzzle, .expired: .expired
        case .wrongClient, .wrongPosition, .machineLike, .invalidAttempt, .proofOfWorkRefused,
            .proofOfWorkUnsolved, .keyboardRefused:
            .notPassed
        }
    }

    /// The rule that failed, for metrics: a short stable name.
    public var rule: String {
        switch self {
        case .unknownPuzzle: "unknown-puzzle"
        case .expired: "expired"
        case .wrongClient: "wrong-client"
        case .wrongPosition: "wrong-position"
        case .machineLike(let violation): violation.rule
        case .invalidAttempt: "invalid-attempt"
        case .proofOfWorkRefused: "proof-of-work-refused"
        case .keyboardRefused: "keyboard-refused"
        case .proofOfWorkUnsolved: "proof-of-work-unsolved"
        }
    }

    /// The rule with its figures, for the operator's log.
    public var description: String {
        switch self {
        case .unknownPuzzle: "unknown puzzle (never issued, already checked, or evicted)"
        case .expired: "the puzzle has expired"
        case .wrongClient: "the puzzle was issued to another client"
        case .wrongPosition(let off):
            "the piece is not in the hole (\(String(format: "%.1f", off)) px off)"
        case .machineLike(let v): "the drag looks automated: \(v)"
        case .invalidAttempt(let reason): "invalid attempt: \(reason)"
        case .proofOfWorkRefused: "a proof of work was sent but the site does not allow it"
        case .keyboardRefused: "a keyboard attempt, which the site does not allow"
        case .proofOfWorkUnsolved: "no proof of work, or one that does not solve the challenge"
        }
    }
}

/// Refused to issue a puzzle.
public struct IssueRefusal: Error, Hashable, Sendable {
    /// When the client may ask again, seconds since 1970.
    public var until: Double

    /// Creates a refusal.
    public init(until: Double) { self.until = until }
}

/// What a caller may know of a puzzle waiting for its check: never its answer.
public struct PendingPuzzle: Hashable, Sendable {
    /// How the piece may move.
    public var axis: PuzzleAxis
    /// The background's size in pixels.
    public var imageWidth: Int
    /// The background's height in pixels.
    public var imageHeight: Int
    /// When it stops being accepted, seconds since 1970.
    public var expiresAt: Double
    /// The key of the site it was issued for (`nil` outside a service).
    public var siteKey: String? = nil
}
