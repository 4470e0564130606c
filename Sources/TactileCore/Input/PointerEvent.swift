/// A pointer (mouse, touch or pen) event in view coordinates.
public struct PointerEvent: Hashable, Sendable {
    /// What happened.
    public enum Phase: Hashable, Sendable {
        /// The button went down or the finger touched.
        case began
        /// The pointer moved while pressed.
        case moved
        /// The button was released or the finger lifted.
        case ended
        /// The system took the gesture away (for example, the window lost focus).
        case cancelled
    }

    public var phase: Phase
    /// Where, in points, relative to the component's top-left corner.
    public var location: Point
    /// When, in seconds on the same clock as ``Component/advance(to:)``.
    public var time: Double

    /// Creates a pointer event.
    public init(_ phase: Phase, at location: Point, time: Double = 0) {
        self.phase = phase
        self.location = location
        self.time = time
    }
}
