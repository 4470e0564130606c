import Foundation
import TactileCore
import TactileCrypto
import TactilePuzzle

/// The verifying side of the captcha: issues puzzles, keeps their answers, checks each once,
/// and signs single-use pass tokens.
///
/// A value: every operation takes the time (`now`, seconds since 1970) and returns or
/// mutates, so tests replay exactly and the CLI can load, act and save. Memory stays
/// bounded by the ``VerifierPolicy``. What it remembers (answers, rate limits, redeemed
/// tokens) stays inside: callers learn a puzzle's public facts through ``pendingPuzzle(id:)``
/// and a check's outcome through ``CheckOutcome``.
///
/// Puzzle ids and token nonces come from the random number generator given at creation
/// (the system's secure source by default; a seeded one in tests). The secret key is split
/// by purpose: one derived key signs tokens, another keys the client digests tokens carry.
public struct PuzzleVerifier: Sendable {
    /// The limits in force.
    public var policy: VerifierPolicy
    /// What is remembered.
    var state: VerifierState
    private let signer: TokenSigner
    private let clientKey: HMACKey
    private var random: any RandomNumberGenerator & Sendable
    /// When expired redemptions and remembered verifications were last dropped: at most once
    /// a second (each is a pass over up to ``VerifierPolicy/maximumRedeemed`` entries), and
    /// whenever they are full. An expired entry left until then counts for nothing.
    private var sweptRedeemedAt = -Double.infinity
    private var sweptVerificationsAt = -Double.infinity

    /// Whether this verifier remembers exactly what `other` does: a store writes the state
    /// back only when it changed.
    ///
    /// - Parameter other: The verifier to compare with, typically this one as it was loaded.
    public func hasSameState(as other: PuzzleVerifier) -> Bool { state == other.state }

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - key: 32 secret random bytes.
    ///   - policy: Limits.
    ///   - random: Where puzzle ids and token nonces come from.
    /// - Returns: `nil` when the key is not 32 bytes.
    public init?(
        key: [UInt8], policy: VerifierPolicy = VerifierPolicy(),
        random: some RandomNumberGenerator & Sendable = SecureRandom()
    ) {
        self.init(key: key, policy: policy, state: VerifierState(), random: random)
    }

    init?(
        key: [UInt8], policy: VerifierPolicy, state: VerifierState,
        random: some RandomNumberGenerator & Sendable = SecureRandom()
    ) {
        guard let keys = DerivedKeys(secret: key) else { return nil }
        self.init(keys: keys, policy: policy, state: state, random: random)
    }

    init(
        keys: DerivedKeys, policy: VerifierPolicy, state: VerifierState,
        random: some RandomNumberGenerator & Sendable = SecureRandom()
    ) {
        signer = keys.signer
        clientKey = keys.client
        self.policy = policy
        self.state = state
        self.random = random
    }

    /// The keys a verifier derives from its secret, derived once for a store that opens a
    /// verifier for every operation.
    struct DerivedKeys: Sendable {
        let signer: TokenSigner
        let client: HMACKey

        /// `nil` when the secret is not 32 bytes.
        init?(secret: [UInt8]) {
            guard secret.count == TokenSigner.keyLength,
                let signer = TokenSigner(key: PuzzleVerifier.derive(secret, purpose: "token"))
            else { return nil }
            self.signer = signer
            client = HMACKey(PuzzleVerifier.derive(secret, purpose: "client"))
        }
    }

    /// A key for one purpose, derived from the secret with HMAC-SHA-256 so that no two
    /// uses share a key.
    static func derive(_ key: [UInt8], purpose: String) -> [UInt8] {
        Sodium.hmacSHA256(Array("tactile.verifier.\(purpose).v1".utf8), key: key)
    }

    /// The number of puzzles waiting for a check.
    public var pendingCount: Int { state.pending.count }

    /// The public facts of a puzzle waiting for its check, or `nil` when there is none.
    public func pendingPuzzle(id: String) -> PendingPuzzle? {
        state.pending[id].map {
            PendingPuzzle(
                axis: $0.axis, imageWidth: $0.imageWidth, imageHeight: $0.imageHeight,
                expiresAt: $0.expiresAt, siteKey: $0.site?.siteKey)
        }
    }

    /// A waiting puzzle's answer, for a service started in its loud browser-test mode only.
    @_spi(AnswerReveal)
    public func testingAnswer(id: String) -> Point? {
        state.pending[id].map { Point(x: $0.answerX, y: $0.answerY) }
    }

    private mutating func randomHex(bytes count: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: count)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: random.next()) }
        return Hex.encode(bytes)
    }

    // MARK: - Issuing

    /// Remembers a generated puzzle's answer and returns what the client may see.
    ///
    /// - Parameters:
    ///   - puzzle: The generated puzzle.
    ///   - client: Who asked (an address, a user); rate limits and lockouts are per client.
    ///   - site: The site, host name and action it is for, bound into its pass token.
    ///   - now: The time, seconds since 1970.
    ///   - surcharge: Bits added to the price of its answer (for the recent volume of the
    ///     client's network); 0 by default.
    /// - Throws: ``IssueRefusal`` when the client asked for too many puzzles in the window or
    ///   is locked out.
    public mutating func register(
        _ puzzle: PuzzleFacts, client: String, site: SiteBinding? = nil, now: Double,
        surcharge: Int = 0
    ) throws(IssueRefusal) -> PuzzleChallenge {
        var record = state.clients[client] ?? VerifierState.Client()
        prune(&record, now: now)
        if record.lockedUntil > now { throw IssueRefusal(until: record.lockedUntil) }
        if let until = record.requests.blockedUntil(
            limit: policy.puzzlesPerWindow, window: policy.window)
        {
            throw IssueRefusal(until: until)
        }
        record.requests.record(now)
        record.lastSeen = now
        // Failures in a row, counting those that ended in a lockout.
        let failures =
            record.failures + (record.lockouts ?? 0) * max(1, policy.failuresBeforeLockout)
        store(record, for: client, now: now)

        removeExpired(now: now)
        while state.pending.count >= max(1, policy.maximumPending) { evictOldest() }
        let id = randomHex(bytes: 16)
        // The price of its answer: a client that keeps failing, or whose network asks for
        // many puzzles, pays more, rather than meet a lock a person cannot leave.
        let work = policy.proofOfWorkDifficulty.map { base in
            ProofOfWorkChallenge.priced(
                salt: randomHex(bytes: 16),
                difficulty: min(
                    ProofOfWorkChallenge.difficulties.upperBound
                        - ProofOfWorkChallenge.aloneSurcharge,
                    base + min(failures, 8) + max(0, surcharge)))
        }
        let pending = VerifierState.Pending(
            id: id, answerX: puzzle.holePosition.x, answerY: puzzle.holePosition.y,
            startX: puzzle.startPosition.x, startY: puzzle.startPosition.y,
            imageWidth: puzzle.imageWidth, imageHeight: puzzle.imageHeight,
            axis: puzzle.axis, client: owner(client), issuedAt: now,
            expiresAt: now + policy.puzzleLifetime, site: site, proofOfWork: work,
            pieceSide: puzzle.axis == .vertical ? puzzle.pieceHeight : puzzle.pieceWidth)
        state.pending[id] = pending
        state.issueOrder.append(id)
        return PuzzleChallenge(
            id: id, imageWidth: puzzle.imageWidth, imageHeight: puzzle.imageHeight,
            pieceWidth: puzzle.pieceWidth, pieceHeight: puzzle.pieceHeight, axis: puzzle.axis,
            pieceX: puzzle.axis == .vertical ? Int(puzzle.startPosition.x) : nil,
            pieceY: puzzle.axis == .horizontal ? Int(puzzle.startPosition.y) : nil,
            shape: puzzle.shapeName, expiresAt: pending.expiresAt, proofOfWork: work)
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
        if record.lockedUntil > now { return .locked(until: record.lockedUntil) }
        if let until = record.checks.blockedUntil(
            limit: policy.checksPerWindow, window: policy.window)
        {
            return .locked(until: until)
        }
        record.checks.record(now)

        let judged = judge(puzzle, attempt: attempt, client: client, now: now)
        if let puzzle, case .success(let mode) = judged {
            record.failures = 0
            record.lockouts = nil
            return .passed(
                PassReceipt(
                    token: makeToken(puzzle: puzzle, client: client, mode: mode, now: now),
                    holePosition: Point(x: puzzle.answerX, y: puzzle.answerY), mode: mode))
        }
        record.failures = min(record.failures, VerifierState.failureLimit - 1) + 1
        if record.failures >= policy.failuresBeforeLockout {
            // Each lockout in a row lasts twice the one before, up to the maximum.
            let earlier = min(record.lockouts ?? 0, 30)
            record.lockouts = min(earlier, VerifierState.failureLimit - 1) + 1
            record.lockedUntil = now + lockout(after: earlier)
            record.failures = 0
        }
        let failure: CheckFailure =
            switch judged {
            case .failure(let failure): failure
            case .success: .unknownPuzzle
            }
        return .failed(failure)
    }

    /// An attempt's judgement: passed in a mode, or failed.
    private enum Judgement {
        case success(VerificationMode)
        case failure(CheckFailure)
    }

    /// How an attempt passes (the mode its token carries), or why it fails.
    private func judge(
        _ puzzle: VerifierState.Pending?, attempt: PuzzleAttempt, client: String, now: Double
    ) -> Judgement {
        guard let puzzle else { return .failure(.unknownPuzzle) }
        guard now < puzzle.expiresAt else { return .failure(.expired) }
        guard puzzle.client == owner(client) else { return .failure(.wrongClient) }
        // The proof of work alone, for people who cannot drag: the price, 4 times over.
        if let nonce = attempt.proofOfWorkNonce, attempt.track.isEmpty {
            guard let work = puzzle.proofOfWork, policy.allowsProofOfWorkAlone else {
                return .failure(.proofOfWorkRefused)
            }
            return work.isSolved(by: nonce, extraBits: ProofOfWorkChallenge.aloneSurcharge)
                ? .success(.proofOfWork) : .failure(.proofOfWorkUnsolved)
        }
        // A priced puzzle's answer carries its price, whatever the drag.
        if let work = puzzle.proofOfWork {
            guard let nonce = attempt.proofOfWorkNonce, work.isSolved(by: nonce) else {
                return .failure(.proofOfWorkUnsolved)
            }
        }
        let mode: VerificationMode = attempt.inputMethod == .keyboard ? .keyboard : .slider
        switch judgeDrag(puzzle, attempt: attempt) {
        case nil: return .success(mode)
        case .machineLike(let violation)?:
            // Priced rather than refused: a drag the rules doubt, dropped in the hole, passes
            // when its answer also pays what the proof of work alone costs — no more than a
            // script could get for that price without any drag — and counts as that mode.
            if let work = puzzle.proofOfWork, policy.allowsProofOfWorkAlone,
                let nonce = attempt.proofOfWorkNonce,
                work.isSolved(by: nonce, extraBits: ProofOfWorkChallenge.aloneSurcharge),
                placement(of: puzzle, attempt: attempt) == nil
            {
                return .success(.proofOfWork)
            }
            return .failure(.machineLike(violation))
        case let failure?: return .failure(failure)
        }
    }

    /// Whether a drag (or key presses) dropped the piece in the hole as a person would.
    private func judgeDrag(_ puzzle: VerifierState.Pending, attempt: PuzzleAttempt)
        -> CheckFailure?
    {
        let width = attempt.displayWidth
        guard width.isFinite, width > 0, attempt.position.isFinite else {
            return .invalidAttempt("position and display width must be finite, width positive")
        }
        let placement = placement(of: puzzle, attempt: attempt)
        if attempt.track.isEmpty, !policy.requiresTrack { return placement }
        let scale = Double(puzzle.imageWidth) / width
        let start = Point(x: puzzle.startX / scale, y: puzzle.startY / scale)
        if attempt.inputMethod == .keyboard, !policy.allowsKeyboard { return .keyboardRefused }
        if let violation = policy.trajectory.violation(
            in: attempt.track, release: attempt.position, start: start, displayWidth: width,
            axis: puzzle.axis, inputMethod: attempt.inputMethod, device: attempt.pointerDevice,
            farEdge: puzzle.farEdge.map { $0 / scale })
        {
            return .machineLike(violation)
        }
        if attempt.repeatsAcceptedDrag, attempt.inputMethod == .pointer {
            return .machineLike(.replayed)
        }
        return placement
    }

    /// How far from the hole the piece was dropped, as a failure, or `nil` within tolerance.
    private func placement(of puzzle: VerifierState.Pending, attempt: PuzzleAttempt)
        -> CheckFailure?
    {
        let width = attempt.displayWidth
        // Both coordinates in background pixels, compared with the answer's.
        let scale = Double(puzzle.imageWidth) / width
        let dx = abs(attempt.position.x * scale - puzzle.answerX)
        let dy = abs(attempt.position.y * scale - puzzle.answerY)
        let off =
            switch puzzle.axis {
            case .horizontal: dx
            case .vertical: dy
            case .free: max(dx, dy)
            }
        // At least the policy's picture pixels, and at least its tolerance on the screen.
        let shown = attempt.shownWidth.flatMap {
            $0.isFinite ? max($0, policy.narrowestShownWidth) : nil
        }
        let tolerance = max(
            policy.verificationTolerance,
            shown.map { policy.shownTolerance * Double(puzzle.imageWidth) / $0 } ?? 0)
        return off <= tolerance ? nil : .wrongPosition(pixelsOff: off)
    }

    /// How long a lockout lasts after `earlier` lockouts in a row.
    func lockout(after earlier: Int) -> Double {
        let longest = max(policy.lockoutDuration, policy.maximumLockoutDuration)
        return min(longest, policy.lockoutDuration * Double(1 << min(earlier, 30)))
    }

    /// Whether a client would be refused a puzzle now (locked out, or at its limit of
    /// requests), and until when: a cheap test before making one.
    public func issueLimit(for client: String, now: Double) -> Double? {
        guard var record = state.clients[client] else { return nil }
        prune(&record, now: now)
        if record.lockedUntil > now { return record.lockedUntil }
        return record.requests.blockedUntil(limit: policy.puzzlesPerWindow, window: policy.window)
    }

    /// Whether a client is locked out or rate-limited now, and until when.
    public func limit(for client: String, now: Double) -> Double? {
        guard var record = state.clients[client] else { return nil }
        prune(&record, now: now)
        if record.lockedUntil > now { return record.lockedUntil }
        return record.checks.blockedUntil(limit: policy.checksPerWindow, window: policy.window)
    }

    // MARK: - Tokens

    private mutating func makeToken(
        puzzle: VerifierState.Pending, client: String, mode: VerificationMode, now: Double
    ) -> String {
        let nonce = randomHex(bytes: 16)
        return signer.sign(
            TokenClaims(
                puzzleID: puzzle.id, clientDigest: digest(client), issuedAt: now,
                expiresAt: now + policy.tokenLifetime, nonce: nonce,
                siteKey: puzzle.site?.siteKey ?? "", hostname: puzzle.site?.hostname ?? "",
                action: puzzle.site?.action ?? "", mode: mode))
    }

    /// The claims of a genuine, unexpired, unredeemed token; does not consume it.
    public func validateToken(_ token: String, now: Double) throws(TokenError) -> TokenClaims {
        let claims = try signer.verify(token, now: now)
        if let until = state.redeemed[claims.nonce], until > now { throw .alreadyUsed }
        return claims
    }

    /// Validates a token and consumes it: a second redemption fails with
    /// ``TokenError/alreadyUsed``.
    ///
    /// - Parameters:
    ///   - token: The token.
    ///   - now: The time.
    ///   - idempotencyKey: When given, a retry with the same key gets the first answer (the
    ///     claims, or the same error) instead of ``TokenError/alreadyUsed``, for as long as
    ///     the token would live.
    ///   - siteKey: When given, a token issued for another site is refused (as a bad
    ///     signature) without being spent.
    public mutating func redeemToken(
        _ token: String, now: Double, idempotencyKey: String? = nil, forSite siteKey: String? = nil
    ) throws(TokenError) -> TokenClaims {
        guard let key = idempotencyKey else {
            return try redeem(token, now: now, siteKey: siteKey)
        }
        // Nothing is remembered for what no token or key can be: a megabyte of fake token
        // must not become a megabyte of state.
        guard token.utf8.count <= TokenSigner.maximumLength,
            key.utf8.count <= Self.maximumIdempotencyKeyLength
        else { throw .malformed }
        if state.verifications.count >= policy.maximumRedeemed || now >= sweptVerificationsAt + 1 {
            state.verifications = state.verifications.filter { $0.value.until > now }
            sweptVerificationsAt = now
        }
        let remembered = Self.remembered(key, site: siteKey, token: token)
        if let earlier = state.verifications[remembered], earlier.until > now {
            if let claims = earlier.claims { return claims }
            throw earlier.error ?? .malformed
        }
        let until = now + policy.tokenLifetime
        if state.verifications.count >= policy.maximumRedeemed,
            let oldest = state.verifications.min(by: { $0.value.until < $1.value.until })
        {
            state.verifications[oldest.key] = nil
        }
        do {
            let claims = try redeem(token, now: now, siteKey: siteKey)
            state.verifications[remembered] = .init(claims: claims, error: nil, until: until)
            return claims
        } catch {
            state.verifications[remembered] = .init(claims: nil, error: error, until: until)
            throw error
        }
    }

    /// The longest idempotency key accepted, in bytes.
    public static let maximumIdempotencyKeyLength = 64

    /// The name a verification with an idempotency key is remembered under: a digest of the
    /// key, the site and the token, the same size whatever they are.
    static func remembered(_ key: String, site: String?, token: String) -> String {
        Hex.encode(Sodium.sha256(Array("\(key.utf8.count):\(key)|\(site ?? "")|\(token)".utf8)))
    }

    private mutating func redeem(_ token: String, now: Double, siteKey: String?)
        throws(TokenError) -> TokenClaims
    {
        let claims = try validateToken(token, now: now)
        if let siteKey, claims.siteKey != siteKey { throw .badSignature }
        if state.redeemed.count >= policy.maximumRedeemed || now >= sweptRedeemedAt + 1 {
            state.redeemed = state.redeemed.filter { $0.value > now }
            sweptRedeemedAt = now
        }
        if state.redeemed.count >= policy.maximumRedeemed,
            let oldest = state.redeemed.min(by: { $0.value < $1.value })
        {
            // Full of live tokens: forget the one closest to expiry.
            state.redeemed[oldest.key] = nil
        }
        state.redeemed[claims.nonce] = claims.expiresAt
        return claims
    }

    /// Who a waiting puzzle was issued to, as it is kept: the client's name under the client
    /// key (HMAC-SHA-256, in full), so stores never hold addresses.
    func owner(_ client: String) -> String {
        Hex.encode(clientKey.authenticate(Array(client.utf8)))
    }

    /// The digest tokens carry instead of the client's name: keyed (HMAC-SHA-256 under a
    /// key derived from the secret), so it cannot be reversed by trying names.
    public func digest(_ client: String) -> String {
        Hex.encode(Array(clientKey.authenticate(Array(client.utf8)).prefix(8)))
    }
}
