import TactilePuzzleVerifier

/// The verifier's default policy with the drag model off: the service tests are about routes,
/// tokens, stores and limits, and their drags come from a simulated hand, which says nothing
/// about people.
let plumbingPolicy: VerifierPolicy = {
    var policy = VerifierPolicy()
    policy.trajectory.maximumScriptScore = 1
    return policy
}()
