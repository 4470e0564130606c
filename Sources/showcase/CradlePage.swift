import CGtk
import Foundation
import TactileCore
import TactileCradle
import TactileGTK

/// The Newton's cradle page: the cradle, and its parameters around it.
func makeCradlePage() -> Widget {
    CradlePage().root
}

/// The page's widgets around a ``CradleView``: a configuration change is applied whole or
/// refused with its reason, and the labels and buttons follow the cradle.
private final class CradlePage {
    let view = try! CradleView()
    let canvas: ComponentView
    let energy = Label()
    let hint = Label()
    /// What was refused last (a value, a key), until something else happens.
    let message = Label()
    var configuration: CradleConfiguration
    var pause: Button!
    var pullButtons: [Button] = []
    var defaults: Button!
    var root: Widget!

    init() {
        view.showsStatus = false  // the energy label below shows it
        canvas = ComponentView(view)
        configuration = view.cradle.configuration
        // As tall as the cradle needs at the width it gets, so it fills the view instead of
        // sitting small in a tall one.
        canvas.expandsVertically = false
        canvas.fitsHeight(minimumWidth: 420, minimumHeight: 300) { [view] in
            view.model.fittingHeight(forWidth: $0)
        }
        energy.addStyleClass("title-4")
        hint.wraps = true
        message.wraps = true
        // The view holds the page: it lives as long as the view is shown.
        view.onEvent = { [self] event in
            switch event {
            case .pullRefused: message.text = view.message ?? ""
            case .pausedChanged: break
            default: message.text = ""
            }
            refresh()
            canvas.setNeedsUpdate()
        }
        // The last tick, as everything comes to rest, also rests the Pause button.
        canvas.onTick = { [unowned self] in refresh() }
        canvas.onInput = { [unowned self] in refresh() }
        root = pageLayout(
            controls: makeControls(), controlsWidth: 330, stage: [canvas, energy, hint, message])
        refresh()
    }

    /// Applies a configuration change; an out-of-range value is shown and not applied.
    func apply(_ change: (inout CradleConfiguration) -> Void) {
        var next = configuration
        change(&next)
        do throws(CradleError) {
            try view.update { cradle throws(CradleError) in try cradle.configure(next) }
            configuration = next
            // More balls, or wider gaps, make a wider cradle.
            canvas.refitHeight()
            message.text = ""
        } catch {
            message.text = error.message
        }
        refresh()
        canvas.setNeedsUpdate()
    }

    func refresh() {
        energy.text = view.energyText
        hint.text = view.keyHint
        pause.title = view.isPaused ? Localization.text("Resume") : Localization.text("Pause")
        // Nothing to pause while everything rests.
        pause.isSensitive = view.isPaused || view.isAnimating
        for (index, button) in pullButtons.enumerated() {
            button.isVisible = index + 1 < configuration.ballCount
        }
        defaults?.isSensitive = configuration != CradleConfiguration()
    }

    /// A slider that applies `set` to the configuration as it moves.
    func slider(
        _ range: ClosedRange<Double>, step: Double, value: Double, digits: Int,
        _ set: @escaping (inout CradleConfiguration, Double) -> Void
    ) -> Slider {
        let slider = Slider(
            range: range, step: step, value: value, showsValue: true, digits: digits
        ) { [unowned self] v in
            apply { set(&$0, v) }
        }
        slider.expandsHorizontally = true
        return slider
    }

    /// The spin button for the number of balls, which refuses a typed value out of range.
    func makeBallCount() -> SpinButton {
        let counts = CradleConfiguration.ballCounts
        let balls = SpinButton(
            range: Double(counts.lowerBound)...Double(counts.upperBound), step: 1,
            value: Double(configuration.ballCount), digits: 0
        ) { [unowned self] value in
            apply { $0.ballCount = Int(value) }
        }
        // GTK would clamp a typed value into the range without a word (0 became 2, 100
        // became 9): read the text here instead, and refuse what is out of range, keeping
        // the cradle.
        whenTyped(into: balls) { [unowned self] text in
            do throws(CradleError) {
                return Double(try CradleInput.ballCount(from: text))
            } catch {
                message.text = error.message
                return Double(configuration.ballCount)
            }
        }
        return balls
    }

    /// The controls: the cradle's size, the pulls, the physics, and running it.
    func makeControls() -> Widget {
        let view = view
        pause = Button(Localization.text("Pause")) { view.update { $0.setPaused(!$0.isPaused) } }
        // As wide as "Resume", so the buttons beside it stay put as its title changes.
        pause.setMinimumSize(width: 96)
        pullButtons = (1...8).map { count in
            Button(Localization.text("Pull {1}", count)) { [unowned self] in
                _ = try? view.update { try $0.pull(count) }
                canvas.grabFocus()
            }
        }
        let balls = makeBallCount()
        let gravity = slider(
            CradleConfiguration.gravities, step: 0.1, value: configuration.gravity, digits: 1
        ) {
            $0.gravity = $1
        }
        let elasticity = slider(
            CradleConfiguration.elasticities, step: 0.01, value: configuration.elasticity, digits: 2
        ) {
            $0.elasticity = $1
        }
        let resistance = slider(
            CradleConfiguration.resistances, step: 0.05, value: configuration.resistance, digits: 2
        ) {
            $0.resistance = $1
        }
        let gap = slider(CradleConfiguration.gaps, step: 0.5, value: configuration.gap, digits: 1) {
            $0.gap = $1
        }
        defaults = Button(Localization.text("Defaults")) { [unowned self] in
            apply { $0 = CradleConfiguration() }
            // Setting a control does not call its action.
            balls.value = Double(configuration.ballCount)
            gap.value = configuration.gap
            gravity.value = configuration.gravity
            elasticity.value = configuration.elasticity
            resistance.value = configuration.resistance
        }
        defaults.tooltip = Localization.text(
            "Balls, gap, gravity, elasticity and resistance as they were at the start")

        func row(_ title: String, _ control: Widget) -> Box {
            let label = Label(title)
            label.setMinimumSize(width: 90)
            control.setAccessibleLabel(title)
            return Box(.horizontal, spacing: 6, [label, control])
        }
        let pulls = Box(
            .vertical, spacing: 4,
            [
                Box(.horizontal, spacing: 4, Array(pullButtons[0..<4])),
                Box(.horizontal, spacing: 4, Array(pullButtons[4..<8])),
            ])
        let controls = Box(
            .vertical, spacing: 10,
            [
                Section(
                    Localization.text("Cradle"),
                    stacking: [
                        row(Localization.text("Balls"), balls),
                        row(Localization.text("Gap (pt)"), gap),
                    ]),
                Section(Localization.text("Pull and let go"), pulls),
                Section(
                    Localization.text("Physics"),
                    stacking: [
                        row(Localization.text("Gravity"), gravity),
                        row(Localization.text("Elasticity"), elasticity),
                        row(Localization.text("Resistance"), resistance),
                    ]),
                Section(
                    Localization.text("Run"),
                    Box(
                        .horizontal, spacing: 6,
                        [
                            pause,
                            Button(Localization.text("Reset")) { view.update { $0.reset() } },
                            defaults,
                        ])),
            ])
        return controls
    }
}

/// Calls `read` with the text typed into `spin` when the spin button takes it (Enter, leaving
/// the field, its buttons), and takes the value `read` returns, in place of GTK's own reading.
private func whenTyped(into spin: SpinButton, _ read: @escaping (String) -> Double) {
    // GtkSpinButton::input gives a `gdouble *` for the value and takes TRUE for "read".
    let field = spin.widget
    connect(field, signal: "input") { emission in
        guard let value = emission.pointer(at: 1) else { return emission.answer(Int32(0)) }
        let text = String(cString: gtk_editable_get_text(tactile_editable(field)))
        value.assumingMemoryBound(to: Double.self).pointee = read(text)
        emission.answer(Int32(1))
    }
}
