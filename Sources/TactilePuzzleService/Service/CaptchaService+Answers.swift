import TactileCore
import TactileCrypto
import TactileHTTP
import TactilePuzzle
@_spi(AnswerReveal) import TactilePuzzleVerifier

/// Answers: a drag (or a proof of work) judged once by the verifier, a replayed drag refused,
/// and a pass's token.
extension CaptchaService {
    func answer(_ request: HTTPRequest, id: String) -> HTTPResponse {
        guard Hex.isHex(id, count: 32) else { return Self.error(404, "no such puzzle") }
        // Count samples in the raw text before decoding builds anything.
        let objects = request.body.reduce(0) { $0 + ($1 == UInt8(ascii: "{") ? 1 : 0) }
        // The body is one object, each sample another (a proof of work one more).
        guard objects <= DragTrack.maximumSamples + 2,
            let body = AnswerBody(request.body),
            (body.track?.count ?? 0) <= DragTrack.maximumSamples
        else {
            return Self.error(
                400, "expected JSON {\"x\", \"y\"?, \"track\": [{\"x\",\"y\",\"t\"}, …]}")
        }
        guard let device = body.pointer.map(PointerDevice.init(rawValue:)) ?? .mouse else {
            let shown = body.pointer.map { $0.count > 16 ? $0.prefix(16) + "…" : $0 } ?? ""
            return Self.error(400, "\"pointer\" must be mouse, touch or pen, got \"\(shown)\"")
        }
        let client = client(of: request)
        let now = clock()
        // A pointer drag that matches one accepted before is a replay; the memory is read
        // before the check and written after a pass, across every instance of the store.
        let isDrag = body.input != "keyboard" && !(body.track ?? []).isEmpty
        let start = body.track?.first?.t ?? 0
        let track = (body.track ?? []).map {
            PuzzleTrackPoint(x: $0.x, y: $0.y, time: ($0.t - start) / 1000)
        }
        let fingerprint = isDrag ? DragFingerprint(track, axis: configuration.options.axis) : nil
        let repeats: Bool
        do {
            repeats =
                try fingerprint.map { mine in
                    try backend.acceptedDrags(in: mine.nearbyBuckets, now: now).contains {
                        DragFingerprint(bytes: $0)?.matches(mine) ?? false
                    }
                } ?? false
        } catch {
            return storeUnavailable(error)
        }
        let outcome: (CheckOutcome, String, String?)
        do {
            outcome = try backend.withVerifier(.checking(puzzle: id, client: client), now: now) {
                verifier in
                let pending = verifier.pendingPuzzle(id: id)
                // The limits of the site the puzzle was issued for, whatever the request's
                // Origin claims.
                verifier.policy =
                    pending?.siteKey.flatMap { sites.byKey[$0] }?.policy(
                        from: configuration.policy) ?? configuration.policy
                var attempt = PuzzleAttempt(
                    position: Point(x: body.x ?? .nan, y: body.y ?? 0),
                    displayWidth: Double(pending?.imageWidth ?? 1), track: track,
                    inputMethod: body.input == "keyboard" ? .keyboard : .pointer,
                    proofOfWorkNonce: body.proofOfWork?.nonce)
                attempt.repeatsAcceptedDrag = repeats
                attempt.pointerDevice = device
                attempt.shownWidth = body.displayWidth
                let outcome = verifier.check(id: id, attempt: attempt, client: client, now: now)
                return (outcome, verifier.digest(client), pending?.siteKey)
            }
        } catch {
            return storeUnavailable(error)
        }
        let (result, digest, siteKey) = outcome
        if let siteKey {
            // A store that cannot count now only leaves the site's price where it is.
            try? countAnswer(site: siteKey, now: now)
        }
        let siteLabel = [("site", siteKey ?? "")]
        // Which device made a drag, for the operator who reads refusals by device.
        let made = isDrag ? " pointer=\(device.rawValue)" : ""
        switch result {
        case .passed(let receipt):
            metrics.count("tactile_passes_total", labels: siteLabel)
            if let fingerprint {
                // A memory that cannot be written now only lets this drag be replayed.
                try? backend.rememberAcceptedDrag(
                    fingerprint.bytes, in: fingerprint.bucket,
                    lifetime: configuration.acceptedDragLifetime, now: now)
            }
            log(
                "\(UTCTimestamp.string(now)) check puzzle=\(id.prefix(8)) client=\(digest)\(made) passed (\(receipt.mode.rawValue))"
            )
            return Self.json(
                200,
                [
                    "success": true, "token": JSONValue(receipt.token),
                    // When the token lapses (to the second, rounded down), so that a page can
                    // ask for a new puzzle rather than submit a dead token.
                    "expiresAt": JSONValue(
                        UTCTimestamp.string(now + configuration.policy.tokenLifetime)),
                    "x": JSONValue(receipt.holePosition.x),
                    "y": JSONValue(receipt.holePosition.y),
                ])
        case .failed(let failure):
            metrics.count("tactile_failures_total", labels: siteLabel + [("rule", failure.rule)])
            log(
                "\(UTCTimestamp.string(now)) check puzzle=\(id.prefix(8)) client=\(digest)\(made) \(failure.verdict.code): \(failure)"
            )
            return Self.json(
                200, ["success": false, "error-codes": [JSONValue(failure.verdict.code)]])
        case .locked(let until):
            metrics.count("tactile_rate_limited_total", label: ("scope", "client"))
            return rateLimited(until: until, now: now)
        }
    }

    func revealAnswer(id: String) -> HTTPResponse {
        let answer = try? backend.withVerifier(.peeking(puzzle: id), now: clock()) {
            $0.testingAnswer(id: id)
        }
        guard let answer = answer ?? nil else { return Self.error(404, "no such puzzle") }
        return Self.json(200, ["x": JSONValue(answer.x), "y": JSONValue(answer.y)])
    }
}
