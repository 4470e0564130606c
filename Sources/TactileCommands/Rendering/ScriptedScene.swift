import TactileCore

/// A component a render scene drives by a script: it passes the host's settings and drawing
/// through to the component it drives, and sends that component the script's input as time
/// goes by. Conformers provide ``driven``, `isAnimating` and `advance(to:)`.
protocol ScriptedScene: Component {
    associatedtype Driven: Component
    /// The component shown, which the script drives.
    var driven: Driven { get }
}

extension ScriptedScene {
    var viewSize: Size {
        get { driven.viewSize }
        set { driven.viewSize = newValue }
    }

    var reducesMotion: Bool {
        get { driven.reducesMotion }
        set { driven.reducesMotion = newValue }
    }

    var appearance: Appearance {
        get { driven.appearance }
        set { driven.appearance = newValue }
    }

    var accessibility: ComponentAccessibility { driven.accessibility }

    func handle(_ event: PointerEvent) -> Bool { driven.handle(event) }

    func draw(in canvas: any Canvas) { driven.draw(in: canvas) }
}
