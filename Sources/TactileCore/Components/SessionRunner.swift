/// Carries out what a host's session asks, in order: the one way a page drives a flow's
/// state machine (the captcha's `PuzzleSession`, the pattern lock's `PatternSession`).
///
/// A session decides and the host acts: each step changes the session and returns its
/// effects, which the runner hands to the host one by one. Acting may report something back
/// at once (a verdict that is already known, a store that answers without waiting); such a
/// step waits until every effect of the step before has been carried out, so effects are
/// never interleaved and a step always sees the session its predecessor left.
public final class SessionRunner<Effect> {
    private let perform: (Effect) -> Void
    private let settled: () -> Void
    private var waiting: [() -> [Effect]] = []
    private var isRunning = false

    /// Creates a runner.
    ///
    /// - Parameters:
    ///   - perform: Carries out one effect.
    ///   - settled: Runs after each step's effects, for what the host shows of the whole
    ///     session (which buttons apply, what the status says).
    public init(perform: @escaping (Effect) -> Void, settled: @escaping () -> Void = {}) {
        self.perform = perform
        self.settled = settled
    }

    /// Runs `step` (which changes the session and says what to do) and carries out its
    /// effects; from inside an effect, after the steps already waiting.
    public func run(_ step: @escaping () -> [Effect]) {
        waiting.append(step)
        guard !isRunning else { return }
        isRunning = true
        defer { isRunning = false }
        while !waiting.isEmpty {
            for effect in waiting.removeFirst()() { perform(effect) }
            settled()
        }
    }
}
