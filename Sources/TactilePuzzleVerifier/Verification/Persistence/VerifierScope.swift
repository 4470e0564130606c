/// What one operation on a verifier reads and changes: the puzzle, the client or the token
/// it is about.
///
/// A store that keeps the whole state in one piece (memory, a directory) can ignore it. A
/// store that keeps each puzzle, client and redeemed token as a record of its own (Redis)
/// uses it to lock, load and save only those records (see ``VerifierRecords``), so
/// operations on different clients and tokens run side by side.
///
/// The operation run within a scope must stay inside it: a verifier opened for a scope
/// knows nothing else.
public struct VerifierScope: Hashable, Sendable {
    enum Subject: Hashable, Sendable {
        case issuing(client: String)
        case checking(puzzle: String, client: String)
        case redeeming(token: String, idempotencyKey: String?, site: String?)
        case peeking(puzzle: String)
        case inspecting(client: String)
    }

    let subject: Subject

    /// The puzzle a check is about, `nil` for every other operation: a check consumes its
    /// puzzle whatever the outcome, so a store can drop what it keeps for it (the images).
    public var checkedPuzzle: String? {
        if case .checking(let id, _) = subject { return id }
        return nil
    }

    /// Whether the operation's records are usually absent — a token is mostly verified once,
    /// and then nothing about it is known yet — so a store that keeps records apart may first
    /// run it as if they were, and keep that outcome only if they still are when it writes.
    public var usuallyFindsNoRecords: Bool {
        if case .redeeming = subject { return true }
        return false
    }

    /// Whether the operation spends something that may be spent once (a puzzle's one check,
    /// a token's one redemption): a store with replicas should see its write reach one
    /// before the outcome is told, so that a failover cannot forget the spending.
    public var spendsOnce: Bool {
        switch subject {
        case .checking, .redeeming: true
        default: false
        }
    }

    /// Issuing a puzzle to a client: ``PuzzleVerifier/register(_:client:site:now:surcharge:)``.
    public static func issuing(client: String) -> VerifierScope {
        VerifierScope(subject: .issuing(client: client))
    }

    /// Checking an attempt at a puzzle:
    /// ``PuzzleVerifier/check(id:attempt:client:now:)``, which may first read
    /// ``PuzzleVerifier/pendingPuzzle(id:)``. The puzzle is taken out of the store in the
    /// same step that reads it, so only one check of it can ever run.
    public static func checking(puzzle id: String, client: String) -> VerifierScope {
        VerifierScope(subject: .checking(puzzle: id, client: client))
    }

    /// Redeeming or validating a token:
    /// ``PuzzleVerifier/redeemToken(_:now:idempotencyKey:forSite:)`` with the same arguments.
    public static func redeeming(token: String, idempotencyKey: String? = nil, site: String? = nil)
        -> VerifierScope
    {
        VerifierScope(subject: .redeeming(token: token, idempotencyKey: idempotencyKey, site: site))
    }

    /// Reading a client's limits without changing anything:
    /// ``PuzzleVerifier/issueLimit(for:now:)`` and ``PuzzleVerifier/limit(for:now:)``.
    public static func inspecting(client: String) -> VerifierScope {
        VerifierScope(subject: .inspecting(client: client))
    }

    /// Reading a puzzle's public facts without changing anything.
    public static func peeking(puzzle id: String) -> VerifierScope {
        VerifierScope(subject: .peeking(puzzle: id))
    }
}
