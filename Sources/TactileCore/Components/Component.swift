/// The contract every interactive component implements: events in, time in, drawing out.
///
/// A host (the GTK adapter, a test, the command-line renderer) owns the component, tells it
/// its size, forwards pointer and key events, moves time forward from its frame clock while
/// ``isAnimating`` is true, and asks it to draw. Components never start threads or timers.
public protocol Component: AnyObject {
    /// The size of the area the component draws in, in points. Hosts set it on every resize.
    var viewSize: Size { get set }

    /// Whether time-driven changes are under way; hosts stop ticking when this is false.
    var isAnimating: Bool { get }

    /// Whether motion that is only decoration is left out (the desktop's "reduce motion",
    /// GTK's `gtk-enable-animations` off): moves land at once and outcome animations become
    /// a change of state; motion that is the content (a swinging cradle) stays. Hosts set it.
    var reducesMotion: Bool { get set }

    /// Light or dark: which of its themes the component draws with. Hosts set it from the
    /// desktop's style and change it when the style does.
    var appearance: Appearance { get set }

    /// When the component next changes by itself though it is not animating — a countdown's
    /// next second — on the clock ``advance(to:)`` reads; `nil` when nothing is due. Hosts
    /// wake the component then, instead of ticking every frame.
    var nextChangeTime: Double? { get }

    /// Moves the component's clock to `time` (seconds, monotonically increasing).
    func advance(to time: Double)

    /// Handles a pointer event; returns whether it was used.
    @discardableResult
    func handle(_ event: PointerEvent) -> Bool

    /// Handles a key press; returns whether it was used. A key carries no time: hosts first
    /// advance the component to the time of the press.
    @discardableResult
    func handle(_ event: KeyEvent) -> Bool

    /// Draws the current state. Drawing never changes state.
    func draw(in canvas: any Canvas)

    /// What assistive technologies are told now; hosts read it after every change.
    var accessibility: ComponentAccessibility { get }
}

extension Component {
    public var nextChangeTime: Double? { nil }

    public func handle(_ event: KeyEvent) -> Bool { false }
}
