import CGtk

/// A thin Swift handle on a `GtkWidget`.
///
/// The widget owns its handle: creating a handle ties it to the widget with a GObject weak
/// reference, so a page may drop its handles once the widgets are packed, and closures
/// connected to a widget may capture that widget's handle without a reference cycle. The
/// handle itself does not keep the widget alive; do not use it after the widget is
/// destroyed (``isAlive`` tells).
public class Widget {
    /// The wrapped `GtkWidget *`, for packing into containers or calling GTK directly.
    public let widget: UnsafeMutablePointer<GtkWidget>

    /// Whether the wrapped widget still exists.
    public private(set) var isAlive = true

    /// The widget inside this one that should have the keyboard focus when it is first shown
    /// (a page's component, so its keys work without a click first).
    public var preferredFocus: Widget?

    /// Called with the width, in points, a scrolling container shows of the widget, whenever
    /// it changes; a page uses it to rearrange itself for a narrow window.
    public var widthChanged: ((Double) -> Void)?

    /// Wraps `widget`, which is usually newly created and floating.
    public init(wrapping widget: UnsafeMutablePointer<GtkWidget>) {
        self.widget = widget
        let widgetDidFinalize: GWeakNotify = { data, _ in
            guard let data else { return }
            Unmanaged<Widget>.fromOpaque(data).takeRetainedValue().isAlive = false
        }
        g_object_weak_ref(
            tactile_object(widget), widgetDidFinalize, Unmanaged.passRetained(self).toOpaque())
    }

    /// Whether the widget reacts to input; insensitive widgets are drawn greyed out.
    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widget) != 0 }
        set { gtk_widget_set_sensitive(widget, newValue ? 1 : 0) }
    }

    /// Whether the widget is shown.
    public var isVisible: Bool {
        get { gtk_widget_get_visible(widget) != 0 }
        set { gtk_widget_set_visible(widget, newValue ? 1 : 0) }
    }

    /// Whether the widget takes extra horizontal space its container has to give.
    public var expandsHorizontally: Bool {
        get { gtk_widget_get_hexpand(widget) != 0 }
        set { gtk_widget_set_hexpand(widget, newValue ? 1 : 0) }
    }

    /// Whether the widget takes extra vertical space its container has to give.
    public var expandsVertically: Bool {
        get { gtk_widget_get_vexpand(widget) != 0 }
        set { gtk_widget_set_vexpand(widget, newValue ? 1 : 0) }
    }

    /// The tooltip text, or `nil` for none.
    public var tooltip: String? {
        get { gtk_widget_get_tooltip_text(widget).map { String(cString: $0) } }
        set { gtk_widget_set_tooltip_text(widget, newValue) }
    }

    /// The name assistive technologies read for the widget (set it on a field, slider or
    /// drop-down whose visible label is a separate widget).
    public func setAccessibleLabel(_ label: String) {
        tactile_accessible_set_label(widget, label)
    }

    /// Sets the empty space around the widget on all four sides, in points.
    public func setMargins(_ points: Int) {
        let margin = Int32(points)
        gtk_widget_set_margin_top(widget, margin)
        gtk_widget_set_margin_bottom(widget, margin)
        gtk_widget_set_margin_start(widget, margin)
        gtk_widget_set_margin_end(widget, margin)
    }

    /// Sets the smallest size the widget accepts, in points; -1 leaves a dimension natural.
    public func setMinimumSize(width: Int = -1, height: Int = -1) {
        gtk_widget_set_size_request(widget, Int32(width), Int32(height))
    }

    /// The smallest and the natural width (`.horizontal`) or height (`.vertical`) the widget
    /// asks for, in points; a height for the given width, or for any width with -1.
    public func measure(_ orientation: Box.Orientation, forSize other: Int32 = -1)
        -> (minimum: Int32, natural: Int32)
    {
        var minimum: Int32 = 0
        var natural: Int32 = 0
        gtk_widget_measure(
            widget,
            orientation == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL,
            other, &minimum, &natural, nil, nil)
        return (minimum, natural)
    }

    /// Adds a CSS style class, such as `"error"`, `"dim-label"` or `"suggested-action"`.
    public func addStyleClass(_ name: String) { gtk_widget_add_css_class(widget, name) }

    /// Gives the widget keyboard focus.
    public func grabFocus() { gtk_widget_grab_focus(widget) }

    /// Whether the widget has the keyboard focus.
    public var hasFocus: Bool { gtk_widget_has_focus(widget) != 0 }
}
