import TactilePuzzle

/// Everything the verifying side remembers between calls, and persists in the CLI.
///
/// Answers live here and nowhere else. All collections are bounded by the
/// ``VerifierPolicy``.
public struct VerifierState: Codable, Hashable, Sendable {
    /// A puzzle waiting for its single check.
    public struct Pending: Codable, Hashable, Sendable {
        /// The puzzle's identifier.
        public var id: String
        /// The hole's top-left corner in background pixels: the answer.
        public var answerX: Double
        /// The hole's top edge in background pixels.
        public var answerY: Double
        /// The background's width in pixels.
        public var imageWidth: Int
        /// The background's height in pixels.
        public var imageHeight: Int
        /// How the piece may move.
        public var axis: PuzzleAxis
        /// Who asked for it.
        public var client: String
        /// When it was issued, seconds since 1970.
        public var issuedAt: Double
        /// When it stops being accepted, seconds since 1970.
        public var expiresAt: Double
    }

    /// What is known about one client.
    public struct Client: Codable, Hashable, Sendable {
        /// Times of recent checks, within the window.
        public var checks: [Double] = []
        /// Times of recent puzzle requests, within the window.
        public var requests: [Double] = []
        /// Failed checks in a row.
        public var failures = 0
        /// Until when the client is locked out, or 0.
        public var lockedUntil = 0.0
        /// The last time the client did anything.
        public var lastSeen = 0.0
    }

    /// Puzzles by id.
    public var pending: [String: Pending] = [:]
    /// Ids in the order they were issued (may hold ids already checked).
    public var issueOrder: [String] = []
    /// Clients by name.
    public var clients: [String: Client] = [:]
    /// Redeemed token nonces, with the time each token expires.
    public var redeemed: [String: Double] = [:]

    /// Creates an empty state.
    public init() {}
}
