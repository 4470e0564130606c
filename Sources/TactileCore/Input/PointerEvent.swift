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
    /// What made the event: a mouse (or touchpad), a finger or a pen.
    public var device: PointerDevice

    /// Creates a pointer event.
    public init(
        _ phase: Phase, at location: Point, time: Double = 0, device: PointerDevice = .mouse
    ) {
        self.phase = phase
        self.location = location
        self.time = time
        self.device = device
    }
}

/// The kind of device behind a pointer, as the web's `PointerEvent.pointerType` names it.
///
/// Each kind moves and reports differently: a mouse in bursts with gaps, a touchscreen or a pen
/// in a steady stream of one sample a frame. A verifier of drags judges each by what its kind
/// produces.
public enum PointerDevice: String, Hashable, Sendable, Codable, CaseIterable {
    /// A mouse, a touchpad or a trackball (and anything that does not say what it is).
    case mouse
    /// A finger on a touchscreen.
    case touch
    /// A pen or stylus.
    case pen
}
