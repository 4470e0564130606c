/// What a ``CradleModel`` did, returned by each of its changes: named after what happened.
public enum CradleEvent: Hashable, Sendable {
    /// Balls were pulled back and let go (``CradleModel/pull(_:)`` or a digit key).
    case pulled(count: Int)
    /// A digit key asked for a pull of `count` balls that this cradle cannot make (0, or
    /// as many as the balls or more); ``CradleModel/message`` says why.
    case pullRefused(count: Int)
    /// A ball was picked up.
    case dragBegan(ball: Int)
    /// The ball held was let go.
    case dragEnded(ball: Int)
    /// The simulation was paused (`true`) or resumed (`false`).
    case pausedChanged(Bool)
    /// Every ball was put at rest.
    case reset
    /// The configuration changed (``CradleModel/configure(_:)``).
    case configured
}
