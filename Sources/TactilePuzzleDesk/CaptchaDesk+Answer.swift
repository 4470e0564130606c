import TactileCore
import TactilePuzzle
import TactilePuzzleStores
import TactilePuzzleVerifier

/// What a client reports of an attempt, in the units it showed the picture in.
public struct DeskAnswer: Sendable {
    /// The piece's top-left corner where it was released.
    public var position: Point
    /// The width the picture was shown at in the answer's units, or `nil` when they are the
    /// picture's own pixels (as the HTTP API's and the command line's are).
    public var displayWidth: Double?
    /// The drag's samples, time in seconds from the first.
    public var track: [PuzzleTrackPoint]
    /// Pointer drag or keyboard.
    public var inputMethod: PuzzleInputMethod
    /// The device that made a pointer drag.
    public var pointerDevice: PointerDevice
    /// A proof-of-work nonce.
    public var proofOfWorkNonce: String?
    /// The width the picture was shown at on the person's screen, when the answer's units
    /// are not those (CSS pixels or points).
    public var shownWidth: Double?

    /// Creates an answer.
    public init(
        position: Point, displayWidth: Double? = nil, track: [PuzzleTrackPoint],
        inputMethod: PuzzleInputMethod = .pointer, pointerDevice: PointerDevice = .mouse,
        proofOfWorkNonce: String? = nil, shownWidth: Double? = nil
    ) {
        self.position = position
        self.displayWidth = displayWidth
        self.track = track
        self.inputMethod = inputMethod
        self.pointerDevice = pointerDevice
        self.proofOfWorkNonce = proofOfWorkNonce
        self.shownWidth = shownWidth
    }

    /// The answer a `PuzzleView` reports, in its area's units.
    public init(_ result: PuzzleResult) {
        self.init(
            position: result.position, displayWidth: result.areaSize.width, track: result.track,
            inputMethod: result.inputMethod, pointerDevice: result.pointerDevice)
    }

    /// Whether it is a pointer's drag, which the memory of accepted drags compares.
    public var isDrag: Bool { inputMethod == .pointer && !track.isEmpty }
}

extension CaptchaDesk {
    /// A judged answer: the outcome, and what the caller's log and metrics may say of it.
    public struct Answered: Sendable {
        /// Passed with a token, failed with the rule, or locked out.
        public var outcome: CheckOutcome
        /// The client under the client key (for the log: never the client's name).
        public var clientDigest: String
        /// The site the puzzle was issued for, or `nil`.
        public var siteKey: String?
    }

    /// Judges an answer to puzzle `id`, once: whatever the verdict, the puzzle cannot be
    /// answered again.
    ///
    /// A pointer drag that matches one accepted before (in the store's memory, across every
    /// instance that shares it) fails as a replay; a drag that passes is remembered for
    /// ``Configuration/acceptedDragLifetime``. The answer is one step of the store
    /// (`VerifierBackend.answer(_:now:dragBuckets:_:)`): the memory read, the check, the
    /// site's count and the drag remembered. The answer is judged under the policy of the
    /// site the puzzle was issued for (`sitePolicy`, given its key; the configuration's where
    /// it gives none), whatever the request claims, and counted towards that site's surge.
    public func answer(
        _ answer: DeskAnswer, to id: String, client: String, now: Double,
        sitePolicy: (String) -> VerifierPolicy? = { _ in nil }
    ) throws(DeskFailure) -> Answered {
        let fingerprint =
            answer.isDrag ? DragFingerprint(answer.track, axis: configuration.options.axis) : nil
        let base = configuration.policy
        let answered: Answered
        do {
            answered = try store.answer(
                .checking(puzzle: id, client: client), now: now,
                dragBuckets: fingerprint?.nearbyBuckets ?? []
            ) { verifier, acceptedDrags in
                let pending = verifier.pendingPuzzle(id: id)
                verifier.policy = pending?.siteKey.flatMap(sitePolicy) ?? base
                var attempt = PuzzleAttempt(
                    position: answer.position,
                    displayWidth: answer.displayWidth ?? Double(pending?.imageWidth ?? 1),
                    track: answer.track, inputMethod: answer.inputMethod,
                    proofOfWorkNonce: answer.proofOfWorkNonce)
                // A pointer drag that matches one accepted before is a replay.
                attempt.repeatsAcceptedDrag =
                    fingerprint.map { mine in
                        acceptedDrags.contains {
                            DragFingerprint(bytes: $0)?.matches(mine) ?? false
                        }
                    } ?? false
                attempt.pointerDevice = answer.pointerDevice
                attempt.shownWidth = answer.shownWidth
                let answered = Answered(
                    outcome: verifier.check(id: id, attempt: attempt, client: client, now: now),
                    clientDigest: verifier.digest(client), siteKey: pending?.siteKey)
                var writes = AnswerWrites()
                // Counted towards the site's surge, across every instance.
                if let site = answered.siteKey { writes.counters = Self.answerCounters(site, now) }
                // Remembered, so that it cannot pass again.
                if answered.outcome.isPassed, let fingerprint {
                    writes.acceptedDrag = (
                        fingerprint.bytes, fingerprint.bucket, configuration.acceptedDragLifetime
                    )
                }
                return (answered, writes)
            }
        } catch {
            throw .storeUnavailable(error)
        }
        return answered
    }

    /// Redeems a pass token, once: the claims it carries, or why it is refused.
    ///
    /// - Parameters:
    ///   - token: The token a pass gave.
    ///   - site: The site redeeming it: another site's token is refused, and not spent by
    ///     asking; `nil` for any.
    ///   - idempotencyKey: A key that gives a retried redemption the first one's answer.
    ///   - now: The time, seconds since 1970.
    public func redeem(
        _ token: String, site: String? = nil, idempotencyKey: String? = nil, now: Double
    ) throws(DeskFailure) -> Result<TokenClaims, TokenError> {
        let scope = VerifierScope.redeeming(
            token: token, idempotencyKey: idempotencyKey, site: site)
        return try withVerifier(scope, policy: configuration.policy, now: now) { verifier in
            do throws(TokenError) {
                return .success(
                    try verifier.redeemToken(
                        token, now: now, idempotencyKey: idempotencyKey, forSite: site))
            } catch {
                return .failure(error)
            }
        }
    }
}
