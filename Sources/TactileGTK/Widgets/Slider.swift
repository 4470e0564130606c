import CGtk

/// A horizontal slider (`GtkScale`) choosing a value in a range.
public final class Slider: Widget {
    private var changeHandler: gulong = 0

    /// Creates a slider.
    ///
    /// - Parameters:
    ///   - range: The values the slider spans.
    ///   - step: The granularity of keyboard changes; values snap to multiples of it.
    ///   - value: The initial value.
    ///   - showsValue: Whether the current value is printed next to the slider.
    ///   - digits: Decimal places of the printed value.
    ///   - onChange: Called with the new value after each change by the user.
    public init(
        range: ClosedRange<Double>, step: Double = 1, value: Double, showsValue: Bool = true,
        digits: Int = 0, onChange: ((Double) -> Void)? = nil
    ) {
        super.init(
            wrapping: gtk_scale_new_with_range(
                GTK_ORIENTATION_HORIZONTAL, range.lowerBound, range.upperBound, step))
        gtk_scale_set_draw_value(tactile_scale(widget), showsValue ? 1 : 0)
        gtk_scale_set_digits(tactile_scale(widget), Int32(digits))
        gtk_range_set_value(tactile_range(widget), value)
        if let onChange {
            changeHandler = connect(widget, signal: "value-changed") { [unowned self] in
                onChange(self.value)
            }
        }
    }

    /// The current value. Setting it does not call `onChange`.
    public var value: Double {
        get { gtk_range_get_value(tactile_range(widget)) }
        set {
            let range = tactile_range(widget)
            guard changeHandler != 0 else { return gtk_range_set_value(range, newValue) }
            withHandlerBlocked(widget, changeHandler) { gtk_range_set_value(range, newValue) }
        }
    }
}
