import TactileCore

/// A component that animates for as many ticks as it is given and may ask to be woken at a
/// time; it records each time its host advances it.
final class CountingComponent: Component {
    var viewSize = Size.zero
    var reducesMotion = false
    var appearance = Appearance.light

    /// How many more advances it animates for.
    var ticksLeft: Int
    /// When it wants a wake while resting; cleared by the advance that reaches it.
    var wakeTime: Double?
    /// The times it was advanced to, in order.
    private(set) var advances: [Double] = []

    init(ticks: Int = 0) { ticksLeft = ticks }

    var isAnimating: Bool { ticksLeft > 0 }
    var nextChangeTime: Double? { wakeTime }

    func advance(to time: Double) {
        advances.append(time)
        ticksLeft = max(0, ticksLeft - 1)
        if let due = wakeTime, time >= due { wakeTime = nil }
    }

    func handle(_ event: PointerEvent) -> Bool { false }

    func draw(in canvas: any Canvas) {}

    var accessibility: ComponentAccessibility {
        ComponentAccessibility(role: .image, label: "Counting", description: "")
    }
}
