import CGtk
import TactileCore
import TactileGTK
import Testing

/// A hosted component is ticked from the frame clock while, and only while, it is shown
/// and animating; a resting component with a change due is woken once for it.
@Suite(.enabled(if: Display.isExpected, "needs a display (DISPLAY or WAYLAND_DISPLAY)"))
struct TickingTests {
    /// What a run saw of the component under test.
    struct Observation: Sendable {
        var advances: [Double] = []
        var onTickCalls = 0
        var viewSize = Size.zero
        var widgetSize = Size.zero
    }

    @Test func ticksArriveWhileAnimatingAndStopWhenTheComponentRests() async throws {
        let ticks = 5
        let (seen, ticked, framesPassed) = try await GTKThread.shared.run {
            let stage = Stage(CountingComponent(ticks: ticks))
            defer { stage.close() }
            let ticked = runMainLoop { stage.component.advances.count >= ticks }
            let framesPassed = stage.waitForFrames(20)
            return (stage.observation, ticked, framesPassed)
        }
        try #require(ticked, "ticks arrive while the component is shown and animating")
        try #require(framesPassed, "the window kept drawing frames")
        #expect(seen.advances.count == ticks, "the tick callback went away as the animation ended")
        #expect(seen.onTickCalls == ticks, "onTick follows each tick")
        #expect(seen.advances == seen.advances.sorted(), "frame times never go back")
        #expect(seen.viewSize == seen.widgetSize, "the component was told the view's size")
    }

    @Test func aRestingComponentIsWokenOnceWhenItsChangeIsDue() async throws {
        let (seen, due, woke, framesPassed) = try await GTKThread.shared.run {
            let stage = Stage(CountingComponent())
            defer { stage.close() }
            _ = stage.waitForFrames(3)
            let due = ComponentView.currentTime + 0.05
            stage.component.wakeTime = due
            stage.view.setNeedsUpdate()
            let woke = runMainLoop { !stage.component.advances.isEmpty }
            let framesPassed = stage.waitForFrames(20)
            return (stage.observation, due, woke, framesPassed)
        }
        try #require(woke, "the component was woken")
        try #require(framesPassed, "the window kept drawing frames")
        #expect(seen.advances.count == 1, "one wake, and no ticks, for one change")
        #expect(seen.advances.allSatisfy { $0 >= due }, "not before the change is due")
        #expect(seen.onTickCalls == 1, "onTick follows the wake")
    }

    @Test func hidingTheViewStopsTickingAndShowingItResumes() async throws {
        let (seen, ticked, advancesWhenHidden, framesPassed, resumed) =
            try await GTKThread.shared.run {
                let stage = Stage(CountingComponent(ticks: .max))
                defer { stage.close() }
                let ticked = runMainLoop { stage.component.advances.count >= 3 }
                gtk_widget_set_visible(stage.view.widget, 0)
                let advancesWhenHidden = stage.component.advances.count
                let framesPassed = stage.waitForFrames(20)
                let seen = stage.observation
                gtk_widget_set_visible(stage.view.widget, 1)
                let resumed = runMainLoop {
                    stage.component.advances.count >= seen.advances.count + 3
                }
                return (seen, ticked, advancesWhenHidden, framesPassed, resumed)
            }
        try #require(ticked, "ticks arrive while the component is shown and animating")
        try #require(framesPassed, "the window kept drawing frames")
        #expect(seen.advances.count == advancesWhenHidden, "no ticks while hidden")
        #expect(resumed, "ticking resumes when shown again")
    }
}

/// A window holding a view of the component under test and a metronome: a second view
/// whose component never stops animating, so that its ticks count the frames that pass.
private final class Stage {
    let component: CountingComponent
    let view: ComponentView
    private let metronome = CountingComponent(ticks: .max)
    private let window: UnsafeMutablePointer<GtkWindow>
    private var onTickCalls = 0

    /// Shows `component` in a new window. On the GTK thread.
    init(_ component: CountingComponent) {
        self.component = component
        view = ComponentView(component)
        window = tactile_window(gtk_window_new())!
        view.onTick = { [unowned self] in self.onTickCalls += 1 }
        let content = Box(.vertical, spacing: 0, [view, ComponentView(metronome)])
        gtk_window_set_default_size(window, 240, 240)
        gtk_window_set_child(window, content.widget)
        gtk_window_present(window)
    }

    /// Runs the main loop until `count` more frames have passed; returns whether they did.
    func waitForFrames(_ count: Int) -> Bool {
        let target = metronome.advances.count + count
        return runMainLoop { metronome.advances.count >= target }
    }

    var observation: TickingTests.Observation {
        TickingTests.Observation(
            advances: component.advances, onTickCalls: onTickCalls, viewSize: component.viewSize,
            widgetSize: Size(
                width: Double(gtk_widget_get_width(view.widget)),
                height: Double(gtk_widget_get_height(view.widget))))
    }

    func close() { gtk_window_destroy(window) }
}
