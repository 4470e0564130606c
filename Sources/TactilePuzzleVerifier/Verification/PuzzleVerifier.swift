import Foundation
import TactileCore
import TactileCrypto
import TactilePuzzle

/// The result of checking an attempt.
public enum CheckOutcome: Hashable, Sendable {
    /// Passed; the token proves it, once, within the token lifetime.
    case passed(token: String)
    /// Failed, and why (for the operator's logs; tell the user only that it failed).
    case failed(CheckFailure)
    /// Refused without looking: rate-limited or locked out until the given time.
    case limited(until: Double)
}

/// Why a check failed.
public enum CheckFailure: Hashable, Sendable, CustomStringConvertible {
    /// No such puzzle (never issued, already checked, or evicted).
    case unknownPuzzle
    /// The puzzle's lifetime is over.
    case expired
    /// Another client asked for this puzzle.
    case wrongClient
    /// The piece is not in the hole.
    case wrongPosition
    /// The drag looks machine-made.
    case machineLike(TrajectoryViolation)
    /// The attempt's numbers make no sense.
    case invalidAttempt(String)

    public var description: String {
        switch self {
        case .unknownPuzzle: "unknown puzzle (never issued, already checked, or evicted)"
        case .expired: "the puzzle has expired"
        case .wrongClient: "the puzzle was issued to another client"
        case .wrongPosition: "the piece is not in the hole"
        case .machineLike(let v): "the drag looks automated: \(v)"
        case .invalidAttempt(let reason): "invalid attempt: \(reason)"
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

/// The verifying side of the captcha: issues puzzles, keeps their answers, checks each once,
/// and signs single-use pass tokens.
///
/// A value: every operation takes the time (`now`, seconds since 1970) and returns or
/// mutates, so tests replay exactly and the CLI can load, act and save. Memory stays
/// bounded by the ``VerifierPolicy``.
public struct PuzzleVerifier: Sendable {
    /// The limits in force.
    public var policy: VerifierPolicy
    /// What is remembered.
    public private(set) var state: VerifierState
    private let signer: TokenSigner

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - key: 32 secret random bytes for signing tokens.
    ///   - policy: Limits.
    ///   - state: A state saved earlier, or a fresh one.
    public init?(
        key: [UInt8], policy: VerifierPolicy = VerifierPolicy(),
        state: VerifierState = VerifierState()
    ) {
        guard let signer = TokenSigner(key: key) else { return nil }
        self.signer = signer
        self.policy = policy
        self.state = state
    }

    /// The number of puzzles waiting for a check.
    public var pendingCount: Int { state.pending.count }

    // MARK: - Issuing

    /// Remembers a generated puzzle's answer and returns what the client may see.
    ///
    /// - Throws: ``IssueRefusal`` when the client asked for too many puzzles in the window or
    ///   is locked out.
    public mutating func register(
        _ puzzle: GeneratedPuzzle, client: String, now: Double
    ) throws(IssueRefusal) -> PuzzleChallenge {
        var record = state.clients[client] ?? VerifierState.Client()
        prune(&record, now: now)
        if record.lockedUntil > now { throw IssueRefusal(until: record.lockedUntil) }
        if record.requests.count >= policy.puzzlesPerWindow {
            throw IssueRefusal(until: record.requests[0] + policy.window)
        }
        record.requests.append(now)
        record.lastSeen = now
        store(record, for: client, now: now)

        removeExpired(now: now)
        while state.pending.count >= max(1, policy.maximumPending) { evictOldest() }
        let id = Hex.encode(Sodium.randomBytes(16))
        let pending = VerifierState.Pending(
            id: id, answerX: puzzle.holePosition.x, answerY: puzzle.holePosition.y,
            imageWidth: puzzle.background.width, imageHeight: puzzle.background.height,
            axis: puzzle.axis, client: client, issuedAt: now,
            expiresAt: now + policy.puzzleLifetime)
        state.pending[id] = pending
        state.issueOrder.append(id)
        return PuzzleChallenge(
            id: id, imageWidth: puzzle.background.width, imageHeight: puzzle.background.height,
            pieceWidth: puzzle.piece.width, pieceHeight: puzzle.piece.height, axis: puzzle.axis,
            pieceX: puzzle.axis == .vertical ? Int(puzzle.startPosition.x) : nil,
            pieceY: puzzle.axis == .horizontal ? Int(puzzle.startPosition.y) : nil,
            shape: puzzle.shape.name, expiresAt: pending.expiresAt)
    }

    // MARK: - Checking

    /// Checks an attempt at a puzzle. Whatever the outcome, the puzzle cannot be checked again.
    public mutating func check(
        id: String, attempt: PuzzleAttempt, client: String, now: Double
    ) -> CheckOutcome {
        let puzzle = state.pending.removeValue(forKey: id)
        var record = state.clients[client] ?? VerifierState.Client()
        prune(&record, now: now)
        record.lastSeen = now
        defer { store(record, for: client, now: now) }
        if record.lockedUntil > now { return .limited(until: record.lockedUntil) }
        if record.checks.count >= policy.checksPerWindow {
            return .limited(until: record.checks[0] + policy.window)
        }
        record.checks.append(now)

        let failure = judge(puzzle, attempt: attempt, client: client, now: now)
        guard let failure else {
            record.failures = 0
            return .passed(token: makeToken(puzzleID: id, client: client, now: now))
        }
        record.failures += 1
        if record.failures >= policy.failuresBeforeLockout {
            record.lockedUntil = now + policy.lockoutDuration
            record.failures = 0
        }
        return .failed(failure)
    }

    private func judge(
        _ puzzle: VerifierState.Pending?, attempt: PuzzleAttempt, client: String, now: Double
    ) -> CheckFailure? {
        guard let puzzle else { return .unknownPuzzle }
        guard now < puzzle.expiresAt else { return .expired }
        guard puzzle.client == client else { return .wrongClient }
        let width = attempt.displayWidth
        guard width.isFinite, width > 0, attempt.position.isFinite else {
            return .invalidAttempt("position and display width must be finite, width positive")
        }
        // Both coordinates as fractions of the displayed width, compared with the answer's.
        let scale = Double(puzzle.imageWidth) / width
        let dx = abs(attempt.position.x * scale - puzzle.answerX) / Double(puzzle.imageWidth)
        let dy = abs(attempt.position.y * scale - puzzle.answerY) / Double(puzzle.imageWidth)
        let inPlace =
            switch puzzle.axis {
            case .horizontal: dx <= policy.tolerance
            case .vertical: dy <= policy.tolerance
            case .free: dx <= policy.tolerance && dy <= policy.tolerance
            }
        if attempt.track.isEmpty, !policy.requiresTrack {
            return inPlace ? nil : .wrongPosition
        }
        if let violation = policy.trajectory.violation(
            in: attempt.track, release: attempt.position, displayWidth: width, axis: puzzle.axis,
            inputMethod: attempt.inputMethod)
        {
            return .machineLike(violation)
        }
        return inPlace ? nil : .wrongPosition
    }

    /// Whether a client is locked out or rate-limited now, and until when.
    public func limit(for client: String, now: Double) -> Double? {
        guard var record = state.clients[client] else { return nil }
        prune(&record, now: now)
        if record.lockedUntil > now { return record.lockedUntil }
        if record.checks.count >= policy.checksPerWindow { return record.checks[0] + policy.window }
        return nil
    }

    // MARK: - Tokens

    private func makeToken(puzzleID: String, client: String, now: Double) -> String {
        signer.sign(
            TokenClaims(
                puzzleID: puzzleID, clientDigest: Self.digest(client), issuedAt: now,
                expiresAt: now + policy.tokenLifetime, nonce: Hex.encode(Sodium.randomBytes(16))))
    }

    /// The claims of a genuine, unexpired, unredeemed token; does not consume it.
    public func validateToken(_ token: String, now: Double) throws(TokenError) -> TokenClaims {
        let claims = try signer.verify(token, now: now)
        if let until = state.redeemed[claims.nonce], until > now { throw .alreadyUsed }
        return claims
    }

    /// Validates a token and consumes it: a second redemption fails with
    /// ``TokenError/alreadyUsed``.
    public mutating func redeemToken(_ token: String, now: Double) throws(TokenError)
        -> TokenClaims
    {
        let claims = try validateToken(token, now: now)
        state.redeemed = state.redeemed.filter { $0.value > now }
        if state.redeemed.count >= policy.maximumRedeemed,
            let oldest = state.redeemed.min(by: { $0.value < $1.value })
        {
            // Full of live tokens: forget the one closest to expiry.
            state.redeemed[oldest.key] = nil
        }
        state.redeemed[claims.nonce] = claims.expiresAt
        return claims
    }

    /// The digest tokens carry instead of the client's name.
    public static func digest(_ client: String) -> String {
        Hex.encode(Array(Sodium.sha256(Array(client.utf8)).prefix(8)))
    }

    // MARK: - Bounds

    private func prune(_ record: inout VerifierState.Client, now: Double) {
        let since = now - policy.window
        record.checks.removeAll { $0 <= since }
        record.requests.removeAll { $0 <= since }
    }

    private mutating func store(_ record: VerifierState.Client, for client: String, now: Double) {
        state.clients[client] = record
        guard state.clients.count > max(1, policy.maximumClients) else { return }
        // Forget the longest-idle client that is not locked out (or, failing that, any).
        let candidates = state.clients.filter { $0.key != client }
        let victim =
            candidates.filter { $0.value.lockedUntil <= now }.min {
                $0.value.lastSeen < $1.value.lastSeen
            }
            ?? candidates.min { $0.value.lastSeen < $1.value.lastSeen }
        if let victim { state.clients[victim.key] = nil }
    }

    private mutating func removeExpired(now: Double) {
        // Puzzles share one lifetime, so the expired ones lead the issue order.
        var dropped = 0
        for id in state.issueOrder {
            if let puzzle = state.pending[id] {
                guard puzzle.expiresAt <= now else { break }
                state.pending[id] = nil
            }
            dropped += 1
        }
        state.issueOrder.removeFirst(dropped)
        // Checked ids linger in the order; compact once they outnumber the live ones.
        if state.issueOrder.count > 2 * state.pending.count + 64 {
            state.issueOrder = state.issueOrder.filter { state.pending[$0] != nil }
        }
    }

    private mutating func evictOldest() {
        while let id = state.issueOrder.first {
            state.issueOrder.removeFirst()
            if state.pending.removeValue(forKey: id) != nil { return }
        }
    }
}
