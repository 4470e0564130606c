import CGtk

/// A pop-up list choosing one of a few strings.
public final class DropDown: Widget {
    /// The choices, in order.
    public let items: [String]
    private var selectionHandler: gulong = 0
    /// `GTK_INVALID_LIST_POSITION`, a cast macro Swift cannot import.
    private static let noSelection = guint.max

    /// Creates a drop-down.
    ///
    /// - Parameters:
    ///   - items: The choices shown.
    ///   - selectedIndex: The index chosen initially.
    ///   - onChange: Called with the new index after each choice by the user.
    public init(_ items: [String], selectedIndex: Int = 0, onChange: ((Int) -> Void)? = nil) {
        self.items = items
        let copies = items.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let dropDown = gtk_drop_down_new_from_strings(copies.map { UnsafePointer($0) } + [nil])!
        super.init(wrapping: dropDown)
        self.selectedIndex = selectedIndex
        if let onChange {
            selectionHandler = connect(widget, notify: "selected") { [unowned self] in
                if let index = self.selectedIndex { onChange(index) }
            }
        }
    }

    /// The index of the chosen item, or `nil` for none. Setting it does not call `onChange`.
    public var selectedIndex: Int? {
        get {
            let index = gtk_drop_down_get_selected(tactile_drop_down(widget))
            return index == DropDown.noSelection ? nil : Int(index)
        }
        set {
            let position = newValue.map { guint($0) } ?? DropDown.noSelection
            guard selectionHandler != 0 else {
                return gtk_drop_down_set_selected(tactile_drop_down(widget), position)
            }
            withHandlerBlocked(widget, selectionHandler) {
                gtk_drop_down_set_selected(tactile_drop_down(widget), position)
            }
        }
    }
}
