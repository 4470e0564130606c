import TactileCore
import TactileCrypto
import TactilePuzzle

/// Everything the verifying side remembers between calls, and persists in a store.
///
/// Answers live here and nowhere else, so the type is internal: callers see a puzzle
/// through ``PendingPuzzle`` and an attempt through ``CheckOutcome``. All collections are
/// bounded by the ``VerifierPolicy``.
struct VerifierState: Hashable, Sendable {
    /// A puzzle waiting for its single check.
    struct Pending: Hashable, Sendable {
        /// The puzzle's identifier.
        var id: String
        /// The hole's top-left corner in background pixels: the answer.
        var answerX: Double
        /// The hole's top edge in background pixels.
        var answerY: Double
        /// Where the piece starts, in background pixels.
        var startX: Double
        /// The piece's starting top edge, in background pixels.
        var startY: Double
        /// The background's width in pixels.
        var imageWidth: Int
        /// The background's height in pixels.
        var imageHeight: Int
        /// How the piece may move.
        var axis: PuzzleAxis
        /// Who asked for it: the client's name under the client key, never the name itself.
        var client: String
        /// When it was issued, seconds since 1970.
        var issuedAt: Double
        /// When it stops being accepted, seconds since 1970.
        var expiresAt: Double
        /// The site it was issued for, the page's host name and the site's action
        /// (`nil` outside a service).
        var site: SiteBinding? = nil
        /// The salt and difficulty of its proof-of-work alternative, when the site allows it.
        var proofOfWork: ProofOfWorkChallenge? = nil
        /// The piece's side along the slider in pixels, which decides where the slider ends
        /// (absent in records written before it was kept: the end is then not known).
        var pieceSide: Int? = nil

        /// The furthest the piece's top-left corner goes along the slider, in background
        /// pixels, when the piece's side is known.
        var farEdge: Double? {
            pieceSide.map {
                PuzzleAttempt.farEdge(
                    axis: axis,
                    pictureSize: Size(width: Double(imageWidth), height: Double(imageHeight)),
                    pieceSide: Double($0))
            }
        }
    }

    /// What is known about one client.
    struct Client: Hashable, Sendable {
        /// Recent checks, within the window.
        var checks = RecentEvents()
        /// Recent puzzle requests, within the window.
        var requests = RecentEvents()
        /// Failed checks in a row.
        var failures = 0
        /// Until when the client is locked out, or 0.
        var lockedUntil = 0.0
        /// Lockouts in a row without a pass (absent in states written before lockouts
        /// escalated).
        var lockouts: Int? = nil
        /// The last time the client did anything.
        var lastSeen = 0.0
    }

    /// Puzzles by id.
    var pending: [String: Pending] = [:]
    /// Ids in the order they were issued (may hold ids already checked).
    var issueOrder: [String] = []
    /// Clients by name.
    var clients: [String: Client] = [:]
    /// Redeemed token nonces, with the time each token expires.
    var redeemed: [String: Double] = [:]
    /// Answers to verifications made with an idempotency key, kept until the token expires,
    /// so a retried verification gets the same answer.
    var verifications: [String: RememberedVerification] = [:]

    /// The answer a verification gave.
    struct RememberedVerification: Hashable, Sendable {
        var claims: TokenClaims?
        var error: TokenError?
        var until: Double
    }

    /// Creates an empty state.
    init() {}

    /// The most entries any collection may hold: more than any policy keeps.
    static let collectionLimit = 1_000_000
    /// The highest failure count kept; counting saturates there.
    static let failureLimit = 1_000_000

    /// The first value no verifier could have written, or `nil` when all are plausible.
    ///
    /// The store authenticates the state, so this only matters for a state that was
    /// forged with the key; it keeps even that from lifting a limit with a negative count
    /// or a time that is not a number.
    func implausibility() -> String? {
        func time(_ t: Double) -> Bool { t.isFinite && t >= 0 }
        let limit = Self.collectionLimit
        guard pending.count <= limit, issueOrder.count <= 3 * limit, clients.count <= limit,
            redeemed.count <= limit
        else { return "a collection is larger than any policy allows" }
        let ordered = Set(issueOrder)
        guard pending.keys.allSatisfy(ordered.contains) else {
            return "a pending puzzle is missing from the issue order"
        }
        for (id, puzzle) in pending {
            guard id == puzzle.id, Hex.isHex(id, count: 32) else {
                return "a puzzle id is malformed"
            }
            guard
                [puzzle.answerX, puzzle.answerY, puzzle.startX, puzzle.startY]
                    .allSatisfy({ $0.isFinite && abs($0) <= 1e6 })
            else { return "a puzzle position is not a pixel position" }
            guard (1...1 << 16).contains(puzzle.imageWidth),
                (1...1 << 16).contains(puzzle.imageHeight)
            else { return "a puzzle's image size is out of range" }
            guard
                puzzle.pieceSide.map({
                    (1...max(puzzle.imageWidth, puzzle.imageHeight)).contains($0)
                }) ?? true
            else { return "a puzzle's piece is larger than its picture" }
            guard time(puzzle.issuedAt), time(puzzle.expiresAt), puzzle.issuedAt <= puzzle.expiresAt
            else { return "a puzzle's times are not times" }
        }
        for client in clients.values {
            guard (0...Self.failureLimit).contains(client.failures) else {
                return "a failure count is out of range"
            }
            guard (0...Self.failureLimit).contains(client.lockouts ?? 0) else {
                return "a lockout count is out of range"
            }
            guard client.checks.times.count <= limit, client.requests.times.count <= limit else {
                return "a client's history is larger than any policy allows"
            }
            guard
                (client.checks.times + client.requests.times + [
                    client.lockedUntil, client.lastSeen,
                ])
                .allSatisfy(time)
            else { return "a client's times are not times" }
        }
        guard redeemed.values.allSatisfy(time),
            redeemed.keys.allSatisfy({ Hex.isHex($0, count: 32) })
        else { return "a redeemed token is malformed" }
        return nil
    }
}
