import CGtk
import TactileCairo
import TactileCore

/// Hosts a `Component` in a `GtkDrawingArea`.
///
/// The view forwards primary-button drags (and touch) as pointer events in widget
/// coordinates, key presses as key events, and size changes to `viewSize`. While the
/// component `isAnimating`, a frame-clock tick callback advances it and redraws; once it
/// rests the callback removes itself, so an idle view costs no CPU. Event and tick times
/// are frame-clock seconds.
///
/// After changing the model from outside (a button, a timer), call ``setNeedsUpdate()``.
public final class ComponentView: Widget {
    /// The hosted component.
    public let component: any Component

    /// Called after each pointer or key event the component used, so a page can refresh its
    /// labels. (What the component did is its own `onEvent`'s to tell.)
    public var onInput: (() -> Void)?

    /// Called after each animation tick, after the component advanced.
    public var onTick: (() -> Void)?

    /// Called when GTK gives the view a new size (points), after the component has it.
    public var onResize: ((Size) -> Void)?

    /// What ``fitsHeight(minimumWidth:minimumHeight:_:)`` keeps the view to.
    private var heightFit: (minimumWidth: Int, minimumHeight: Int, height: (Double) -> Double)?

    private var tickID: guint?
    /// The one-shot timer for the component's ``Component/nextChangeTime``.
    private var wakeID: guint?
    private var isDragging = false
    private var dragStart = Point.zero
    /// The device of the drag under way, from the event that began it.
    private var dragDevice = PointerDevice.mouse
    private var lastTime = 0.0
    /// What to add to a drag's GDK event times (milliseconds on the display server's clock) to
    /// put them on the frame clock: set at the drag's first event, so samples keep the
    /// spacing the person gave them however slowly frames are drawn.
    private var eventClockOffset: Double?
    /// The last pointer event time handed out, so times never go back.
    private var lastEventTime = 0.0
    private var toldAccessibility: ComponentAccessibility?

    /// Where Tab (without Shift) moves the keyboard focus from the component: into this
    /// widget's first focusable child. `nil` leaves Tab to GTK's order.
    public var tabForward: Widget?

    /// Moves the keyboard focus for Shift+Tab on the component and says whether it did; `nil`
    /// leaves Shift+Tab to GTK's order.
    public var tabBackward: (() -> Bool)?

    /// Creates a focusable, expanding drawing area hosting `component`, with the component's
    /// accessible role, name and description.
    public init(_ component: any Component) {
        self.component = component
        let role: GtkAccessibleRole =
            switch component.accessibility.role {
            case .group: GTK_ACCESSIBLE_ROLE_GROUP
            case .image: GTK_ACCESSIBLE_ROLE_IMG
            case .slider: GTK_ACCESSIBLE_ROLE_SLIDER
            }
        super.init(wrapping: tactile_drawing_area_new_with_role(role))
        expandsHorizontally = true
        expandsVertically = true
        gtk_widget_set_focusable(widget, 1)
        gtk_widget_set_focus_on_click(widget, 1)
        installDrawFunction()
        installGestures()
        tellAccessibility()
        // "Reduce motion": GTK's setting, followed while the app runs.
        component.reducesMotion = tactile_settings_enable_animations() == 0
        if let settings = gtk_settings_get_default() {
            connect(UnsafeMutableRawPointer(settings), notify: "gtk-enable-animations") {
                [weak self] in
                guard let self else { return }
                self.component.reducesMotion = tactile_settings_enable_animations() == 0
                self.setNeedsUpdate()
            }
        }
        // Light or dark: libadwaita's style manager, which follows the desktop (or the app's
        // choice), followed while the app runs.
        if let styles = adw_style_manager_get_default() {
            component.appearance = adw_style_manager_get_dark(styles) != 0 ? .dark : .light
            connect(UnsafeMutableRawPointer(styles), notify: "dark") { [weak self] in
                guard let self else { return }
                self.component.appearance = adw_style_manager_get_dark(styles) != 0 ? .dark : .light
                self.setNeedsUpdate()
            }
        }
        // A hidden page (another page shown, the window minimised) does not tick; shown
        // again, it goes on where it was (components clamp the stall).
        connect(widget, signal: "unmap") { [weak self] in self?.stopTicking() }
        // The focus ring comes and goes with the focus (and with GTK's "focus visible", which
        // a pointer click turns off and a key turns on).
        connect(UnsafeMutableRawPointer(widget), notify: "has-focus") { [weak self] in
            guard let self, self.isAlive else { return }
            gtk_widget_queue_draw(self.widget)
        }
        connect(widget, signal: "map") { [weak self] in self?.setNeedsUpdate() }
        connectSize(widget, signal: "resize") { [weak self] width, height in
            guard let self else { return }
            let size = Size(width: Double(width), height: Double(height))
            self.component.viewSize = size
            self.setNeedsUpdate()
            self.requestFittingHeight(forWidth: size.width, current: size.height)
            self.onResize?(size)
        }
    }

    /// Redraws the component and, if it is animating, starts ticking it.
    ///
    /// Call after changing the model outside the view's own event handling.
    public func setNeedsUpdate() {
        guard isAlive else { return }
        gtk_widget_queue_draw(widget)
        tellAccessibility()
        guard component.isAnimating, tickID == nil, gtk_widget_get_mapped(widget) != 0 else {
            return scheduleWake()
        }
        let tick: GtkTickCallback = { _, clock, data in
            ClosureBox<(OpaquePointer?) -> Bool>.value(at: data)(clock) ? 1 : 0
        }
        let handler: (OpaquePointer?) -> Bool = { [weak self] clock in
            self?.tick(clock: clock) ?? false
        }
        tickID = gtk_widget_add_tick_callback(
            widget, tick, ClosureBox(handler).retainedPointer(), releaseBox)
    }

    private func stopTicking() {
        if let id = wakeID {
            g_source_remove(id)
            wakeID = nil
        }
        guard let id = tickID else { return }
        gtk_widget_remove_tick_callback(widget, id)
        tickID = nil
    }

    /// Gives assistive technologies the component's name, description and state when they
    /// changed. (GTK 4.8 has no value interface for custom widgets: a slider's position is in
    /// its description.)
    private func tellAccessibility() {
        let now = component.accessibility
        guard now != toldAccessibility else { return }
        if now.label != toldAccessibility?.label { tactile_accessible_set_label(widget, now.label) }
        if now.description != toldAccessibility?.description {
            tactile_accessible_set_description(widget, now.description)
        }
        if now.isDisabled != toldAccessibility?.isDisabled {
            tactile_accessible_set_disabled(widget, now.isDisabled ? 1 : 0)
        }
        toldAccessibility = now
    }

    // MARK: - Time

    /// Seconds on the clock components are advanced by (GLib's monotonic clock, which the
    /// frame clock also counts on): for a component's own notion of "now" between frames.
    public static var currentTime: Double { Double(g_get_monotonic_time()) / 1e6 }

    /// Advances the component to the frame's time; returns whether to keep ticking.
    private func tick(clock: OpaquePointer?) -> Bool {
        component.advance(to: time(clock: clock))
        onTick?()
        gtk_widget_queue_draw(widget)
        tellAccessibility()
        if component.isAnimating { return true }
        tickID = nil
        scheduleWake()
        return false
    }

    /// Wakes a component that is not animating at its ``Component/nextChangeTime`` (once a
    /// second for a countdown), advances it, redraws it and tells the page, then waits for the
    /// next one; an idle component has no timer at all.
    private func scheduleWake() {
        if let id = wakeID {
            g_source_remove(id)
            wakeID = nil
        }
        guard !component.isAnimating, let next = component.nextChangeTime,
            gtk_widget_get_mapped(widget) != 0
        else { return }
        wakeID = addMainLoopSource(after: next - Self.currentTime) { [weak self] in
            guard let self else { return false }
            self.wakeID = nil
            self.component.advance(to: max(self.time(), next))
            self.onTick?()
            self.setNeedsUpdate()
            return false
        }
    }

    /// Keeps the view as tall as `height` says for the width GTK gives it (and at least
    /// `minimumWidth` × `minimumHeight`): for a component whose content keeps its aspect
    /// ratio, so that it fills its width with no empty band above or below. Call
    /// ``refitHeight()`` when what `height` reads changes.
    public func fitsHeight(
        minimumWidth: Int, minimumHeight: Int, _ height: @escaping (Double) -> Double
    ) {
        heightFit = (minimumWidth, minimumHeight, height)
        refitHeight()
    }

    /// Asks again for the height ``fitsHeight(minimumWidth:minimumHeight:_:)`` wants at the
    /// view's present width.
    public func refitHeight() {
        requestFittingHeight(forWidth: component.viewSize.width, current: nil)
    }

    /// Asks for the fitting height at `width` unless the view has it (`current`). When idle:
    /// a new size asks GTK for another layout, which it cannot start while allocating.
    private func requestFittingHeight(forWidth width: Double, current: Double?) {
        guard let fit = heightFit else { return }
        let wanted = max(fit.minimumHeight, Int(fit.height(width).rounded(.up)))
        guard current.map({ Int($0) }) != wanted else { return }
        runWhenIdle { [weak self] in
            guard let self, self.isAlive else { return }
            self.setMinimumSize(width: fit.minimumWidth, height: wanted)
        }
    }

    /// Frame-clock time in seconds, never earlier than a time handed out before.
    private func time(clock: OpaquePointer? = nil) -> Double {
        let microseconds =
            (clock ?? gtk_widget_get_frame_clock(widget)).map(gdk_frame_clock_get_frame_time)
            ?? g_get_monotonic_time()
        lastTime = max(lastTime, Double(microseconds) / 1e6)
        return lastTime
    }

    // MARK: - Drawing and input

    private func installDrawFunction() {
        let draw: GtkDrawingAreaDrawFunc = { _, cairo, width, height, data in
            guard let cairo else { return }
            ClosureBox<(OpaquePointer, Int32, Int32) -> Void>.value(at: data)(cairo, width, height)
        }
        let handler: (OpaquePointer, Int32, Int32) -> Void = { [weak self] cairo, width, height in
            guard let self else { return }
            let size = Size(width: Double(width), height: Double(height))
            let canvas = CairoCanvas(context: cairo, size: size)
            self.component.draw(in: canvas)
            if gtk_widget_has_visible_focus(self.widget) != 0 { self.drawFocusRing(in: canvas) }
        }
        gtk_drawing_area_set_draw_func(
            tactile_drawing_area(widget), draw, ClosureBox(handler).retainedPointer(),
            releaseBox)
    }

    /// The keyboard focus, as GTK shows it on its own controls: a rounded outline in the
    /// accent colour just inside the edge (the component draws edge to edge, so GTK's own
    /// outline, outside the widget, would be hidden by its neighbours or the scroller).
    private func drawFocusRing(in canvas: CairoCanvas) {
        let accent: Color =
            component.appearance == .dark
            ? Color(red: 0.47, green: 0.68, blue: 0.93, alpha: 0.8)
            : Color(red: 0.21, green: 0.52, blue: 0.89, alpha: 0.8)
        let bounds = Rect(origin: .zero, size: canvas.size).insetBy(dx: 1.5, dy: 1.5)
        canvas.stroke(
            Path(roundedRect: bounds, cornerRadius: 6), with: accent, style: StrokeStyle(width: 3))
    }

    private func installGestures() {
        let drag = UnsafeMutableRawPointer(gtk_gesture_drag_new()!)
        gtk_gesture_single_set_button(tactile_gesture_single(drag), tactile_button_primary())
        connectPoint(drag, signal: "drag-begin") { [weak self] x, y in
            guard let self else { return }
            self.grabFocus()
            self.isDragging = true
            self.dragStart = Point(x: x, y: y)
            self.dragDevice = Self.currentDevice(of: drag)
            self.eventClockOffset = nil
            self.send(.began, at: self.dragStart, eventTime: Self.currentEventTime(of: drag))
        }
        connectPoint(drag, signal: "drag-update") { [weak self] dx, dy in
            guard let self, self.isDragging else { return }
            let location = Point(x: self.dragStart.x + dx, y: self.dragStart.y + dy)
            // GTK merges the motions of one frame into the last; the ones it merged come first,
            // in order, so a fast swipe reaches the component sample by sample.
            for (point, time) in Self.mergedMotions(of: drag, endingAt: location) {
                self.send(.moved, at: point, eventTime: time)
            }
            self.send(.moved, at: location, eventTime: Self.currentEventTime(of: drag))
        }
        connectPoint(drag, signal: "drag-end") { [weak self] dx, dy in
            guard let self, self.isDragging else { return }
            self.isDragging = false
            self.send(
                .ended, at: Point(x: self.dragStart.x + dx, y: self.dragStart.y + dy),
                eventTime: Self.currentEventTime(of: drag))
        }
        // GTK emits `cancel` and then `drag-end`; the component sees only the cancellation.
        connect(drag, signal: "cancel") { [weak self] in
            guard let self, self.isDragging else { return }
            self.isDragging = false
            var offset = (x: 0.0, y: 0.0)
            gtk_gesture_drag_get_offset(tactile_gesture_drag(drag), &offset.x, &offset.y)
            self.send(
                .cancelled,
                at: Point(x: self.dragStart.x + offset.x, y: self.dragStart.y + offset.y))
        }
        gtk_widget_add_controller(widget, tactile_event_controller(drag))

        let keys = gtk_event_controller_key_new()!
        connectKeyPressed(UnsafeMutableRawPointer(keys)) { [weak self] keyval, state in
            guard let self else { return false }
            let tab = tabDirection(keyval: keyval, state: state)
            if tab == GTK_DIR_TAB_FORWARD, let next = self.tabForward {
                return gtk_widget_child_focus(next.widget, GTK_DIR_TAB_FORWARD) != 0
            }
            if tab == GTK_DIR_TAB_BACKWARD, let back = self.tabBackward { return back() }
            guard let event = KeyEvent(keyval: keyval, state: state) else { return false }
            // A key carries no time: the component is brought to the press's time first.
            let pressed = Self.currentEventTime(of: UnsafeMutableRawPointer(keys))
            self.component.advance(to: self.inputTime(pressed))
            let handled = self.component.handle(event)
            self.didHandleEvent(handled)
            return handled
        }
        gtk_widget_add_controller(widget, keys)
    }

    /// The time of the event `controller` is handling, in the display server's milliseconds,
    /// or `nil` when there is none.
    private static func currentEventTime(of controller: UnsafeMutableRawPointer) -> UInt32? {
        gtk_event_controller_get_current_event(tactile_event_controller(controller)).map(
            gdk_event_get_time)
    }

    /// The pointer positions GTK merged into the motion event `drag` is handling
    /// (`gdk_event_get_history`), oldest first, in widget coordinates, each with its own time
    /// (the display server's milliseconds); `location` is where that event puts the pointer.
    /// Empty for other events (touch, a press), which keep no history.
    private static func mergedMotions(of drag: UnsafeMutableRawPointer, endingAt location: Point)
        -> [(Point, UInt32)]
    {
        guard
            let event = gtk_event_controller_get_current_event(tactile_event_controller(drag)),
            gdk_event_get_event_type(event) == GDK_MOTION_NOTIFY
        else { return [] }
        // The history is in surface coordinates, like the event's own position; the gesture
        // gave that position in widget coordinates, which tells the offset between the two.
        var surface = (x: 0.0, y: 0.0)
        guard gdk_event_get_position(event, &surface.x, &surface.y) != 0 else { return [] }
        var count: guint = 0
        guard let history = gdk_event_get_history(event, &count) else { return [] }
        defer { g_free(history) }
        let needed = GDK_AXIS_FLAG_X.rawValue | GDK_AXIS_FLAG_Y.rawValue
        var points: [(Point, UInt32)] = []
        for coord in UnsafeBufferPointer(start: history, count: Int(count))
        where coord.flags.rawValue & needed == needed {
            let (x, y) = withUnsafeBytes(of: coord.axes) { axes in
                let axes = axes.bindMemory(to: Double.self)
                return (axes[Int(GDK_AXIS_X.rawValue)], axes[Int(GDK_AXIS_Y.rawValue)])
            }
            let point = Point(x: location.x + x - surface.x, y: location.y + y - surface.y)
            if point != location, point != points.last?.0 { points.append((point, coord.time)) }
        }
        return points
    }

    private func send(_ phase: PointerEvent.Phase, at location: Point, eventTime: UInt32? = nil) {
        didHandleEvent(
            component.handle(
                PointerEvent(phase, at: location, time: inputTime(eventTime), device: dragDevice)))
    }

    /// The kind of device behind the event `controller` is handling: the source of the
    /// physical device that sent it (a mouse when there is none).
    private static func currentDevice(of controller: UnsafeMutableRawPointer) -> PointerDevice {
        guard
            let device = gtk_event_controller_get_current_event_device(
                tactile_event_controller(controller))
        else { return .mouse }
        return pointerDevice(for: gdk_device_get_source(device))
    }

    /// What a GDK input source is, as `PointerDevice` names it: a touchscreen's finger, a
    /// pen (a stylus or its eraser), or a mouse (a mouse, a touchpad, a trackpoint, and
    /// anything else).
    public static func pointerDevice(for source: GdkInputSource) -> PointerDevice {
        switch source {
        case GDK_SOURCE_TOUCHSCREEN: .touch
        case GDK_SOURCE_PEN: .pen
        default: .mouse
        }
    }

    /// An input event's time on the frame clock: the display server's time of the event,
    /// moved by the drag's offset (so a frame clock that ticks ten times a second does not
    /// bunch a drag's samples), never earlier than the last one handed out; the frame clock's
    /// time when the event carries none.
    private func inputTime(_ milliseconds: UInt32?) -> Double {
        let now = time()
        guard let milliseconds, milliseconds != 0 else {
            lastEventTime = max(lastEventTime, now)
            return lastEventTime
        }
        let seconds = Double(milliseconds) / 1000
        let offset = eventClockOffset ?? (now - seconds)
        eventClockOffset = offset
        lastEventTime = max(lastEventTime, seconds + offset)
        return lastEventTime
    }

    private func didHandleEvent(_ handled: Bool) {
        if handled { onInput?() }
        setNeedsUpdate()
    }
}
