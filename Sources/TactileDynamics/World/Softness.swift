/// A contact as a stiff, heavily damped spring, solved implicitly over one step: what the soft
/// step pushes overlap out with.
///
/// A spring of frequency f (ω = 2πf) and damping ratio ζ on the contact's effective mass,
/// integrated implicitly over a step h, turns the rigid impulse −m·(vₙ − target) into
/// −m·massScale·(vₙ − target) − impulseScale·(the impulse accumulated so far), with the
/// target pushing overlap C out at biasRate·C. With a = 2ζ + hω and b = hω·a:
/// biasRate = ω / a, massScale = b / (1 + b), impulseScale = 1 / (1 + b). As f grows the
/// contact becomes rigid (massScale → 1, impulseScale → 0); the damping keeps the push from
/// overshooting, so overlap leaves without a bounce.
struct Softness {
    /// The speed overlap is pushed out at, per point of overlap, 1/s.
    var biasRate: Double
    /// The share of the rigid impulse applied.
    var massScale: Double
    /// The share of the accumulated impulse taken back at each pass.
    var impulseScale: Double

    /// A rigid contact: no push, the whole impulse, nothing taken back.
    static let rigid = Softness(biasRate: 0, massScale: 1, impulseScale: 0)

    init(biasRate: Double, massScale: Double, impulseScale: Double) {
        self.biasRate = biasRate
        self.massScale = massScale
        self.impulseScale = impulseScale
    }

    /// The spring of `hertz` with `dampingRatio`, over a step of `h` seconds.
    init(hertz: Double, dampingRatio: Double, h: Double) {
        guard hertz > 0 else {
            self = .rigid
            return
        }
        let omega = 2 * Double.pi * hertz
        let a = 2 * dampingRatio + h * omega
        let b = h * omega * a
        biasRate = omega / a
        massScale = b / (1 + b)
        impulseScale = 1 / (1 + b)
    }
}
