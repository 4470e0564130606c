import Foundation
import TactileCore
import TactileCradle
import TactileGTK

/// The Newton's cradle page: the cradle, and its parameters around it.
func makeCradlePage() -> Widget {
    let view = try! CradleView()
    view.showsStatus = false  // the energy label below shows it
    let canvas = ComponentView(view)
    canvas.setMinimumSize(width: 420, height: 300)

    let energy = Label()
    energy.addStyleClass("title-4")
    let hint = Label(
        Localization.text(
            "Drag any ball and let go · keys 1–8 pull that many · Space pauses · R resets"))
    hint.wraps = true
    let message = Label()
    message.wraps = true
    var configuration = view.cradle.configuration

    /// Applies a configuration change; an out-of-range value is shown and not applied.
    func apply(_ change: (inout CradleConfiguration) -> Void) {
        var next = configuration
        change(&next)
        do throws(CradleError) {
            try view.configure(next)
            configuration = next
            message.text = ""
        } catch {
            message.text = error.message
        }
        refresh()
        canvas.setNeedsUpdate()
    }

    let pause = Button(Localization.text("Pause")) { view.setPaused(!view.isPaused) }
    let pullButtons = (1...8).map { count in
        Button(Localization.text("Pull {1}", count)) {
            try? view.pull(count)
            canvas.grabFocus()
        }
    }

    func refresh() {
        energy.text = view.energyText
        pause.title = view.isPaused ? Localization.text("Resume") : Localization.text("Pause")
        // Nothing to pause while everything rests.
        pause.isSensitive = view.isPaused || view.isAnimating
        for (index, button) in pullButtons.enumerated() {
            button.isVisible = index + 1 < configuration.ballCount
        }
    }
    view.onEvent = { [weak canvas] _ in
        refresh()
        canvas?.setNeedsUpdate()
    }
    // The last tick, as everything comes to rest, also rests the Pause button.
    canvas.onTick = refresh
    canvas.onInput = refresh

    let balls = SpinButton(range: 2...9, step: 1, value: 5, digits: 0) { value in
        apply { $0.ballCount = Int(value) }
    }
    func slider(
        _ range: ClosedRange<Double>, step: Double, value: Double, digits: Int,
        _ set: @escaping (inout CradleConfiguration, Double) -> Void
    ) -> Slider {
        let slider = Slider(
            range: range, step: step, value: value, showsValue: true, digits: digits
        ) {
            v in apply { set(&$0, v) }
        }
        slider.expandsHorizontally = true
        return slider
    }
    let gravity = slider(CradleConfiguration.gravities, step: 0.1, value: 1, digits: 1) {
        $0.gravity = $1
    }
    let elasticity = slider(CradleConfiguration.elasticities, step: 0.01, value: 1, digits: 2) {
        $0.elasticity = $1
    }
    let resistance = slider(CradleConfiguration.resistances, step: 0.05, value: 0, digits: 2) {
        $0.resistance = $1
    }
    let gap = slider(CradleConfiguration.gaps, step: 0.5, value: 0, digits: 1) { $0.gap = $1 }

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
                Box(
                    .vertical, spacing: 6,
                    [
                        row(Localization.text("Balls"), balls),
                        row(Localization.text("Gap (pt)"), gap),
                    ])),
            Section(Localization.text("Pull and let go"), pulls),
            Section(
                Localization.text("Physics"),
                Box(
                    .vertical, spacing: 6,
                    [
                        row(Localization.text("Gravity"), gravity),
                        row(Localization.text("Elasticity"), elasticity),
                        row(Localization.text("Resistance"), resistance),
                    ])),
            Section(
                Localization.text("Run"),
                Box(
                    .horizontal, spacing: 6,
                    [pause, Button(Localization.text("Reset")) { view.reset() }])),
        ])
    let page = pageLayout(
        controls: controls, controlsWidth: 330, stage: [canvas, energy, hint, message])
    refresh()
    return page
}
