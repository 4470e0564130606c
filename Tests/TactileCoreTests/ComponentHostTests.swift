import TactileCore
import TestSupport
import Testing

/// The generic host puts any model behind `Component`: every change's events reach the one
/// listener in order, input the model does not use is reported unused, reads go to the
/// model, and drawing uses the theme of the host's appearance.
@Suite struct ComponentHostTests {
    /// A counter: taps on its left half count up, Space resets, time past a deadline rings.
    struct Counter: ComponentModel {
        enum Event: Equatable {
            case counted(Int)
            case reset
            case rang
        }
        struct Failure: Error, Equatable { var value: Int }

        static var standardThemes: Themes<Color> { Themes(light: .black, dark: .white) }
        var viewSize = Size(width: 100, height: 50)
        var reducesMotion = false
        private(set) var count = 0
        var deadline: Double?
        var isAnimating: Bool { deadline != nil }
        var nextChangeTime: Double? { deadline }
        var accessibility: ComponentAccessibility {
            ComponentAccessibility(role: .group, label: "Counter", description: "\(count)")
        }

        mutating func add(_ amount: Int) throws(Failure) -> [Event] {
            guard amount > 0 else { throw Failure(value: amount) }
            count += amount
            return (0..<amount).map { .counted(count - amount + 1 + $0) }
        }

        mutating func advance(to time: Double) -> [Event] {
            guard let deadline, time >= deadline else { return [] }
            self.deadline = nil
            return [.rang]
        }

        mutating func handle(_ event: PointerEvent) -> [Event]? {
            guard event.phase == .began, event.location.x < viewSize.width / 2 else { return nil }
            return (try? add(1)) ?? []
        }

        mutating func handle(_ event: KeyEvent) -> [Event]? {
            guard event.key == .space else { return nil }
            count = 0
            return [.reset]
        }

        func draw(in canvas: any Canvas, theme ink: Color) {
            canvas.fill(Path(rect: Rect(origin: .zero, size: viewSize)), with: ink)
        }
    }

    final class Heard {
        var events: [Counter.Event] = []
    }

    func counter() -> (ComponentHost<Counter>, Heard) {
        let host = ComponentHost(Counter())
        let heard = Heard()
        host.onEvent = { heard.events.append($0) }
        return (host, heard)
    }

    func tap(at x: Double) -> PointerEvent {
        PointerEvent(.began, at: Point(x: x, y: 10))
    }

    @Test func aChangesEventsReachTheListenerInOrder() throws {
        let (host, heard) = counter()
        #expect(try host.update { counter throws(Counter.Failure) in try counter.add(3) })
        #expect(heard.events == [.counted(1), .counted(2), .counted(3)])
        #expect(host.count == 3)
    }

    @Test func aFailedChangeThrowsTheModelsErrorAndTellsNothing() {
        let (host, heard) = counter()
        #expect(throws: Counter.Failure(value: -1)) {
            try host.update { counter throws(Counter.Failure) in try counter.add(-1) }
        }
        #expect(heard.events.isEmpty)
        #expect(host.count == 0)
    }

    @Test func inputTheModelDoesNotUseIsReportedUnusedAndTellsNothing() {
        let (host, heard) = counter()
        #expect(!host.handle(tap(at: 80)))
        #expect(!host.handle(KeyEvent(.character("x"))))
        #expect(heard.events.isEmpty)
        #expect(host.handle(tap(at: 10)))
        #expect(host.handle(KeyEvent(.space)))
        #expect(heard.events == [.counted(1), .reset])
    }

    @Test func timeReachesTheModelAndWhatItCausesIsTold() {
        let (host, heard) = counter()
        host.deadline = 2
        #expect(host.isAnimating)
        #expect(host.nextChangeTime == 2)
        host.advance(to: 1)
        #expect(heard.events.isEmpty)
        host.advance(to: 2.5)
        #expect(heard.events == [.rang])
        #expect(!host.isAnimating)
    }

    /// A listener that changes the host again (a page answering a finished pattern) runs
    /// after the change that told it, not inside it.
    @Test func aListenerMayChangeTheHostItHears() {
        let host = ComponentHost(Counter())
        var heard: [Counter.Event] = []
        host.onEvent = { event in
            heard.append(event)
            if event == .counted(1) { _ = host.handle(KeyEvent(.space)) }
        }
        host.handle(tap(at: 10))
        #expect(heard == [.counted(1), .reset])
        #expect(host.count == 0)
    }

    @Test func drawingUsesTheThemeOfTheAppearance() {
        let host = ComponentHost(Counter())
        host.viewSize = Size(width: 40, height: 20)
        let light = RecordingCanvas(size: host.viewSize)
        host.draw(in: light)
        host.appearance = .dark
        let dark = RecordingCanvas(size: host.viewSize)
        host.draw(in: dark)
        host.themes.dark = Color(red: 1, green: 0, blue: 0)
        let red = RecordingCanvas(size: host.viewSize)
        host.draw(in: red)
        let whole = Rect(x: 0, y: 0, width: 40, height: 20)
        #expect(light.calls == [.fill(whole, .black)])
        #expect(dark.calls == [.fill(whole, .white)])
        #expect(red.calls == [.fill(whole, Color(red: 1, green: 0, blue: 0))])
    }

    @Test func sizeMotionAndAccessibilityAreTheModels() {
        let host = ComponentHost(Counter())
        host.viewSize = Size(width: 7, height: 9)
        host.reducesMotion = true
        host.handle(tap(at: 1))
        #expect(host.model.viewSize == Size(width: 7, height: 9))
        #expect(host.model.reducesMotion)
        #expect(host.accessibility.description == "1")
    }
}
