import CGtk

/// A numeric field with − and + buttons.
public final class SpinButton: Widget {
    private var changeHandler: gulong = 0

    /// Creates a numeric field.
    ///
    /// - Parameters:
    ///   - range: The values the user can enter.
    ///   - step: How much the buttons and arrow keys change the value.
    ///   - value: The initial value.
    ///   - digits: Decimal places shown; `nil` derives them from `step`.
    ///   - onChange: Called with the new value after each change by the user.
    public init(
        range: ClosedRange<Double>, step: Double = 1, value: Double, digits: Int? = nil,
        onChange: ((Double) -> Void)? = nil
    ) {
        super.init(
            wrapping: gtk_spin_button_new_with_range(range.lowerBound, range.upperBound, step))
        if let digits { gtk_spin_button_set_digits(spin, guint(digits)) }
        gtk_spin_button_set_value(spin, value)
        if let onChange {
            changeHandler = connect(widget, signal: "value-changed") { [unowned self] in
                onChange(self.value)
            }
        }
    }

    private var spin: OpaquePointer { tactile_spin_button(widget) }

    /// The current value. Setting it does not call `onChange`.
    public var value: Double {
        get { gtk_spin_button_get_value(spin) }
        set {
            guard changeHandler != 0 else { return gtk_spin_button_set_value(spin, newValue) }
            withHandlerBlocked(widget, changeHandler) { gtk_spin_button_set_value(spin, newValue) }
        }
    }
}
