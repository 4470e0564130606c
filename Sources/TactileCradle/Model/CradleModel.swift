import TactileCore

/// An interactive Newton's cradle: drag any ball along its arc and let go, pull balls with
/// the digit keys, pause and reset.
///
/// Keys: 1…9 pull that many balls (up to one fewer than the balls; a digit beyond says so in
/// ``message``), Space pauses and resumes, R resets. A pull or a reset while paused resumes.
/// The view stops asking for frames once everything rests.
///
/// A `ComponentModel`: every input returns the ``CradleEvent``s it caused. It is a value,
/// swing and all: the swing lives in a ``NewtonsCradle`` (an object, as a dynamic animator
/// is), which copies of a model share until one of them changes; that one first takes a
/// cradle of its own (``NewtonsCradle/copy()``), so a change to a copy never reaches the
/// original, and two copies given the same input swing alike.
public struct CradleModel {
    /// The simulated cradle, to read. Change it through the model's methods, which give a
    /// copy of the model a cradle of its own first.
    public var cradle: NewtonsCradle { shared }

    /// The cradle, perhaps shared with copies of this model.
    private var shared: NewtonsCradle

    /// The cradle, this model's own: copied first when a copy of the model shares it.
    private var own: NewtonsCradle {
        mutating get {
            if !isKnownUniquelyReferenced(&shared) { shared = shared.copy() }
            return shared
        }
    }
    /// The angle the digit keys and ``pull(_:)`` pull to, in degrees. Default 30.
    public var pullDegrees = 30.0
    public var viewSize = Size(width: 480, height: 300)
    /// Kept for the protocol: the swing is the content, so it moves either way.
    public var reducesMotion = false
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
        shared = try NewtonsCradle(configuration: configuration)
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

    public mutating func advance(to time: Double) -> [CradleEvent] {
        clock.advance(to: time)
        if !isPaused { own.advance(to: clock.motionTime) }
        return []
    }

    /// Pulls `count` balls to ``pullDegrees`` and lets go; while paused, resumes (the pull
    /// is a request to see the swing).
    public mutating func pull(_ count: Int) throws(CradleError) -> [CradleEvent] {
        try own.pull(count, angle: pullDegrees * .pi / 180)
        message = nil
        return setPaused(false) + [.pulled(count: count)]
    }

    /// Puts every ball at rest, and resumes if paused: nothing is left to pause.
    public mutating func reset() -> [CradleEvent] {
        own.reset()
        message = nil
        return setPaused(false) + [.reset]
    }

    /// Pauses or resumes the simulation.
    public mutating func setPaused(_ paused: Bool) -> [CradleEvent] {
        guard paused != isPaused else { return [] }
        if paused { clock.pause() } else { clock.resume() }
        return [.pausedChanged(paused)]
    }

    /// Changes the configuration (see ``NewtonsCradle/configure(_:)``). A change that
    /// rebuilds the cradle at rest (balls, size, string, gap) also resumes, as ``reset()`` does.
    public mutating func configure(_ configuration: CradleConfiguration) throws(CradleError)
        -> [CradleEvent]
    {
        guard try own.configure(configuration) else { return [.configured] }
        message = nil
        return setPaused(false) + [.configured]
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

    /// Handles a pointer event: a press on a ball picks it up (and resumes), moves drag it,
    /// release lets go; `nil` when the event is not used.
    public mutating func handle(_ event: PointerEvent) -> [CradleEvent]? {
        let point = layout.cradlePoint(event.location)
        switch event.phase {
        case .began:
            guard let ball = cradle.ball(at: point) else { return nil }
            let events = setPaused(false)
            message = nil
            own.beginDrag(ball: ball, at: point)
            return events + [.dragBegan(ball: ball)]
        case .moved:
            guard cradle.isDragging else { return nil }
            own.moveDrag(to: point)
            return []
        case .ended, .cancelled:
            guard let ball = cradle.draggedBall else { return nil }
            own.moveDrag(to: point)
            own.endDrag()
            return [.dragEnded(ball: ball)]
        }
    }

    /// Handles a key: a digit pulls that many balls (or says why it cannot), Space or P pauses
    /// and resumes, R resets; `nil` when the key is not used.
    public mutating func handle(_ event: KeyEvent) -> [CradleEvent]? {
        switch event.key {
        case .character(let c):
            if let digit = c.wholeNumberValue, (0...9).contains(digit) {
                guard (1..<cradle.configuration.ballCount).contains(digit) else {
                    return refusePull(digit)
                }
                return (try? pull(digit)) ?? []
            }
            if c == "r" || c == "R" { return reset() }
            if c == "p" || c == "P" { return setPaused(!isPaused) }
            return nil
        case .space:
            return setPaused(!isPaused)
        default:
            return nil
        }
    }

    /// Says why digit key `digit` pulls nothing.
    private mutating func refusePull(_ digit: Int) -> [CradleEvent] {
        let highest = cradle.configuration.ballCount - 1
        message =
            highest == 1
            ? Localization.text("Key {1} pulls nothing: with 2 balls, only key 1 pulls.", digit)
            : Localization.text(
                "Key {1} pulls nothing: with {2} balls, keys 1–{3} pull that many.", digit,
                highest + 1, highest)
        return [.pullRefused(count: digit)]
    }
}
