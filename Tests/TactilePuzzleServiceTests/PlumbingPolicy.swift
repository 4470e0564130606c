import TactilePuzzleVerifier

/// The verifier's default policy with the drag model off: the service tests are about routes,
/// tokens, stores and limits, and their drags come from a simulated hand, which says nothing
/// about people.
let plumbingPolicy: VerifierPolicy = {
    var policy = VerifierPolicy()
    policy.trajectory.maximumScriptScore = 1
    return policy
}()

extension ProofOfWorkChallenge {
    /// The first nonce that pays the price and not the deeper price of the proof of work
    /// alone (which would let a drag the rules doubt pass anyway): what the widget sends
    /// when it has found no more by the release.
    func priceOnlyNonce() -> String {
        var k = 0
        while !isSolved(by: String(k)) || isSolved(by: String(k), extraBits: Self.aloneSurcharge) {
            k += 1
        }
        return String(k)
    }
}
