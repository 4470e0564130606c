import TactileCore
import TactileCrypto
import TactileHTTP
import TactilePuzzle
@_spi(AnswerReveal) import TactilePuzzleDesk
import TactilePuzzleVerifier

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
        let start = body.track?.first?.t ?? 0
        let answer = DeskAnswer(
            position: Point(x: body.x ?? .nan, y: body.y ?? 0),
            track: (body.track ?? []).map {
                PuzzleTrackPoint(x: $0.x, y: $0.y, time: ($0.t - start) / 1000)
            },
            inputMethod: body.input == "keyboard" ? .keyboard : .pointer, pointerDevice: device,
            proofOfWorkNonce: body.proofOfWork?.nonce, shownWidth: body.displayWidth)
        let answered: CaptchaDesk.Answered
        do {
            answered = try desk.answer(answer, to: id, client: client, now: now) { key in
                // The limits of the site the puzzle was issued for, whatever the request's
                // Origin claims.
                sites.byKey[key]?.policy(from: configuration.policy)
            }
        } catch {
            return storeUnavailable(error)
        }
        let (digest, siteLabel) = (answered.clientDigest, [("site", answered.siteKey ?? "")])
        // Which device made a drag, for the operator who reads refusals by device.
        let made = answer.isDrag ? " pointer=\(device.rawValue)" : ""
        switch answered.outcome {
        case .passed(let receipt):
            metrics.count("tactile_passes_total", labels: siteLabel)
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
        let answer = try? desk.testingAnswer(id: id, now: clock())
        guard let answer = answer ?? nil else { return Self.error(404, "no such puzzle") }
        return Self.json(200, ["x": JSONValue(answer.x), "y": JSONValue(answer.y)])
    }
}
