import Foundation
import TactileCore
import TactileDynamics

/// An interactive Newton's cradle: drag any ball along its arc and let go, pull balls with
/// the digit keys, pause and reset.
///
/// Keys: 1…9 pull that many balls (up to one fewer than the balls; a digit beyond says so in
/// ``message``), Space pauses and resumes, R resets. A pull or a reset while paused resumes.
/// The view stops asking for frames once everything rests.
public final class CradleView: Component {
    /// The simulated cradle.
    public let cradle: NewtonsCradle
    /// The angle the digit keys and ``pull(_:)`` pull to, in degrees. Default 30.
    public var pullDegrees = 30.0
    /// Told what the view did of itself (a pull, a drag, pausing), after it did it.
    public var onEvent: ((CradleEvent) -> Void)?
    public var viewSize = Size(width: 480, height: 300)
    /// Kept for the protocol: the swing is the content, so it moves either way.
    public var reducesMotion = false
    /// Colours for a light and a dark desktop.
    public var themes = Themes(light: CradleTheme.light, dark: .dark)
    public var appearance = Appearance.light
    /// Whether the view draws its energy readout (and "paused") in its bottom corner. A host
    /// that shows ``energyText`` in its own label turns this off. Default true.
    public var showsStatus = true
    /// Whether the user paused the simulation (the clock stands still).
    public var isPaused: Bool { clock.isPaused }
    /// Why the last key did nothing, such as a digit beyond the balls that can be pulled; nil
    /// again after the next pull, drag, reset or change of balls.
    public private(set) var message: String?

    /// Simulated time: stands still while paused, resumes where it was after a stall.
    private var clock = FrameClock()

    /// Creates a view of a cradle at rest.
    public init(configuration: CradleConfiguration = .init()) throws(CradleError) {
        cradle = try NewtonsCradle(configuration: configuration)
    }

    /// Where the cradle sits in the view now.
    public var layout: CradleLayout {
        CradleLayout(extent: cradle.extent, viewSize: viewSize, footer: footer)
    }

    /// The view height at which the cradle fills a view `width` points wide.
    public func fittingHeight(forWidth width: Double) -> Double {
        CradleLayout.height(forWidth: width, extent: cradle.extent, footer: footer)
    }

    /// Room under the cradle for its status line, when it shows one.
    private var footer: Double { showsStatus ? 28 : 0 }

    public var isAnimating: Bool { !isPaused && (cradle.animator.isRunning || cradle.isDragging) }

    public func advance(to time: Double) {
        clock.advance(to: time)
        if !isPaused { cradle.advance(to: clock.now) }
    }

    /// Pulls `count` balls to ``pullDegrees`` and lets go; while paused, resumes (the pull
    /// is a request to see the swing).
    public func pull(_ count: Int) throws(CradleError) {
        try cradle.pull(count, angle: pullDegrees * .pi / 180)
        message = nil
        setPaused(false)
        onEvent?(.pulled(count: count))
    }

    /// Puts every ball at rest, and resumes if paused: nothing is left to pause.
    public func reset() {
        cradle.reset()
        message = nil
        setPaused(false)
        onEvent?(.reset)
    }

    /// Pauses or resumes the simulation.
    public func setPaused(_ paused: Bool) {
        guard paused != isPaused else { return }
        if paused { clock.pause() } else { clock.resume() }
        onEvent?(.pausedChanged(paused))
    }

    /// Changes the configuration (see ``NewtonsCradle/configure(_:)``). A change that
    /// rebuilds the cradle at rest (balls, size, string, gap) also resumes, as ``reset()`` does.
    public func configure(_ configuration: CradleConfiguration) throws(CradleError) {
        if try cradle.configure(configuration) {
            message = nil
            setPaused(false)
        }
        onEvent?(.configured)
    }

    public var accessibility: ComponentAccessibility {
        let count = cradle.configuration.ballCount
        let motion =
            isPaused
            ? Localization.text("paused")
            : cradle.isDragging
                ? Localization.text("a ball held")
                : cradle.isResting ? Localization.text("at rest") : Localization.text("swinging")
        return ComponentAccessibility(
            role: .image, label: Localization.text("Newton's cradle"),
            description: Localization.plural(
                "{1} ball, {2}", "{1} balls, {2}", count: count, count, motion))
    }

    /// The energy still in the swing, in whole percent of the energy given at the release;
    /// nil while a ball is held or nothing swings (see ``NewtonsCradle/hasSwing``).
    ///
    /// Whole percent, because that is what the simulation is true to. Between impacts the
    /// energy is kept to 0.02 %; at each impact between balls with a gap, the engine's fixed
    /// step moves it by up to about 0.1 % (less with a shorter step: an integration error),
    /// mostly upwards, and over many impacts that adds up (elastic, undamped, pulled to 30°,
    /// 20-point gap: 100.8 % at most in the first minute, 101.4 % to 103.0 % after five,
    /// depending on the balls pulled; 100.02 % without a gap).
    ///
    /// Nothing drives a cradle, so the energy it has is at most what it was given: a reading
    /// above 100 % is that error, and reads 100 %. Bringing a reading back to a bound the true
    /// value is known to keep can only bring it nearer the truth; a loss (elasticity,
    /// resistance, or the error the other way) reads as measured.
    public var energyPercent: Int? {
        guard !cradle.isDragging, cradle.hasSwing else { return nil }
        return Int((min(cradle.energyFraction, 1) * 100).rounded())
    }

    /// The energy readout: "Energy 98 %", or what stands in for a percentage when there is
    /// none ("Energy: at rest", "Energy: a ball is held").
    public var energyText: String {
        if cradle.isDragging { return Localization.text("Energy: a ball is held") }
        guard let percent = energyPercent else { return Localization.text("Energy: at rest") }
        return Localization.text("Energy {1} %", percent)
    }

    /// The keys that pull, for a hint beside the view: "keys 1–4 pull that many" with five
    /// balls.
    public var keyHint: String {
        let highest = cradle.configuration.ballCount - 1
        return highest == 1
            ? Localization.text(
                "Drag any ball and let go · key 1 pulls one · Space pauses · R resets")
            : Localization.text(
                "Drag any ball and let go · keys 1–{1} pull that many · Space pauses · R resets",
                highest)
    }

    public func handle(_ event: PointerEvent) -> Bool {
        let point = layout.cradlePoint(event.location)
        switch event.phase {
        case .began:
            guard let ball = cradle.ball(at: point) else { return false }
            setPaused(false)
            message = nil
            cradle.beginDrag(ball: ball, at: point)
            onEvent?(.dragBegan(ball: ball))
            return true
        case .moved:
            guard cradle.isDragging else { return false }
            cradle.moveDrag(to: point)
            return true
        case .ended, .cancelled:
            guard let ball = cradle.draggedBall else { return false }
            cradle.moveDrag(to: point)
            cradle.endDrag()
            onEvent?(.dragEnded(ball: ball))
            return true
        }
    }

    public func handle(_ event: KeyEvent) -> Bool {
        switch event.key {
        case .character(let c):
            if let digit = c.wholeNumberValue, (0...9).contains(digit) {
                guard (1..<cradle.configuration.ballCount).contains(digit) else {
                    refusePull(digit)
                    return true
                }
                try? pull(digit)
                return true
            }
            if c == "r" || c == "R" {
                reset()
                return true
            }
            if c == "p" || c == "P" {
                setPaused(!isPaused)
                return true
            }
            return false
        case .space:
            setPaused(!isPaused)
            return true
        default:
            return false
        }
    }

    /// Says why digit key `digit` pulls nothing.
    private func refusePull(_ digit: Int) {
        let highest = cradle.configuration.ballCount - 1
        message =
            highest == 1
            ? Localization.text("Key {1} pulls nothing: with 2 balls, only key 1 pulls.", digit)
            : Localization.text(
                "Key {1} pulls nothing: with {2} balls, keys 1–{3} pull that many.", digit,
                highest + 1, highest)
        onEvent?(.pullRefused(count: digit))
    }

    public func draw(in canvas: any Canvas) {
        let layout = self.layout
        let size = viewSize
        let theme = themes[appearance]
        // A flat background keeps animated previews small.
        canvas.fill(Path(rect: Rect(origin: .zero, size: size)), with: theme.background)
        let r = cradle.configuration.ballRadius * layout.scale
        let anchors = cradle.anchors.map(layout.viewPoint)
        // The frame: a bar above the anchors.
        if let first = anchors.first, let last = anchors.last {
            let bar = Rect(
                x: first.x - 3 * r, y: first.y - 10 * max(0.5, layout.scale),
                width: last.x - first.x + 6 * r,
                height: 10 * max(0.5, layout.scale))
            canvas.fill(
                Path(roundedRect: bar, cornerRadius: bar.height / 2),
                with: theme.frame)
        }
        let centers = cradle.balls.map { layout.viewPoint($0.center) }
        for (anchor, center) in zip(anchors, centers) {
            var string = Path()
            string.move(to: anchor)
            string.addLine(to: center)
            canvas.stroke(
                string, with: theme.string,
                style: StrokeStyle(width: max(1, 1.5 * layout.scale), cap: .round))
        }
        for (index, center) in centers.enumerated() {
            let disc = Path(
                ellipseIn: Rect(center: center, size: Size(width: 2 * r, height: 2 * r)))
            let highlighted = index == cradle.draggedBall
            canvas.fill(
                disc,
                with: LinearGradient(
                    start: Point(x: center.x - r, y: center.y - r),
                    end: Point(x: center.x + r, y: center.y + r),
                    stops: [
                        .init(location: 0, color: highlighted ? .white : theme.ballLight),
                        .init(
                            location: 0.55,
                            color: highlighted ? theme.draggedBall : theme.ballMiddle),
                        .init(location: 1, color: theme.ballShadow),
                    ]))
            canvas.stroke(disc, with: theme.rim, style: StrokeStyle(width: 1))
        }
        guard showsStatus else { return }
        let status = isPaused ? Localization.text("{1} · paused", energyText) : energyText
        canvas.draw(
            status, at: Point(x: 12, y: size.height - 24), font: Font(size: 13),
            color: theme.text)
    }
}
