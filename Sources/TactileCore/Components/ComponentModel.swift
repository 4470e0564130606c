/// A component's state as a value: every input returns the events it caused, and drawing reads
/// the state with a theme.
///
/// A model knows nothing of its host. ``ComponentHost`` puts one behind the ``Component``
/// protocol: it forwards input and time, tells its listener the events each change returns,
/// and draws with the theme of the desktop's style. Tests drive a model directly and compare
/// the events it returns.
///
/// An input the model does not use returns `nil`; one it uses returns the events it caused,
/// possibly none.
public protocol ComponentModel {
    /// What the model tells its host happened.
    associatedtype Event
    /// Colours and proportions.
    associatedtype Theme: Hashable & Sendable

    /// The themes a host draws with until it is given others.
    static var standardThemes: Themes<Theme> { get }

    /// The size of the area the model is drawn in, in points; layout follows it.
    var viewSize: Size { get set }

    /// See ``Component/reducesMotion``.
    var reducesMotion: Bool { get set }

    /// Whether time-driven changes are under way.
    var isAnimating: Bool { get }

    /// See ``Component/nextChangeTime``.
    var nextChangeTime: Double? { get }

    /// What assistive technologies are told now.
    var accessibility: ComponentAccessibility { get }

    /// Moves the model's clock to `time`, in seconds.
    mutating func advance(to time: Double) -> [Event]

    /// Handles a pointer event; `nil` when it was not used.
    mutating func handle(_ event: PointerEvent) -> [Event]?

    /// Handles a key press at the time last given to ``advance(to:)``; `nil` when it was not
    /// used.
    mutating func handle(_ event: KeyEvent) -> [Event]?

    /// Draws the state with `theme`.
    func draw(in canvas: any Canvas, theme: Theme)
}

extension ComponentModel {
    public var nextChangeTime: Double? { nil }

    public mutating func handle(_ event: KeyEvent) -> [Event]? { nil }
}

/// A ``ComponentModel`` behind the ``Component`` protocol: the one object a GTK, UIKit or
/// offscreen host keeps for any component.
///
/// Reading goes straight to the model (`host.status` reads `host.model.status`); every change
/// goes through ``update(_:)``, which tells ``onEvent`` the events it returned, in order:
///
/// ```swift
/// let tower = try ComponentHost(HanoiModel(disks: 5))
/// tower.onEvent = { print($0) }
/// tower.update { $0.play() }
/// ```
@dynamicMemberLookup
public final class ComponentHost<Model: ComponentModel>: Component {
    /// The state; change it through ``update(_:)``.
    public private(set) var model: Model
    /// Told each event a change returned, in order, after the change.
    public var onEvent: ((Model.Event) -> Void)?
    /// The themes for a light and a dark desktop.
    public var themes: Themes<Model.Theme>
    public var appearance = Appearance.light

    /// Hosts `model`, drawn with its standard themes.
    public init(_ model: Model) {
        self.model = model
        themes = Model.standardThemes
    }

    /// Reads a property of the model.
    public subscript<Value>(dynamicMember keyPath: KeyPath<Model, Value>) -> Value {
        model[keyPath: keyPath]
    }

    /// Reads or sets a setting of the model (one it lets anyone set, such as a pattern lock's
    /// stealth); setting one reports no events.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Model, Value>) -> Value {
        get { model[keyPath: keyPath] }
        set { model[keyPath: keyPath] = newValue }
    }

    /// Changes the model and tells ``onEvent`` the events the change returned; returns whether
    /// the change was used (`nil` is an input the model did not use).
    @discardableResult
    public func update<Failure: Error>(
        _ change: (inout Model) throws(Failure) -> [Model.Event]?
    ) throws(Failure) -> Bool {
        guard let events = try change(&model) else { return false }
        for event in events { onEvent?(event) }
        return true
    }

    // MARK: - Component

    public var viewSize: Size {
        get { model.viewSize }
        set { model.viewSize = newValue }
    }

    public var reducesMotion: Bool {
        get { model.reducesMotion }
        set { model.reducesMotion = newValue }
    }

    public var isAnimating: Bool { model.isAnimating }

    public var nextChangeTime: Double? { model.nextChangeTime }

    public var accessibility: ComponentAccessibility { model.accessibility }

    public func advance(to time: Double) { update { $0.advance(to: time) } }

    @discardableResult
    public func handle(_ event: PointerEvent) -> Bool { update { $0.handle(event) } }

    @discardableResult
    public func handle(_ event: KeyEvent) -> Bool { update { $0.handle(event) } }

    public func draw(in canvas: any Canvas) { model.draw(in: canvas, theme: themes[appearance]) }
}
