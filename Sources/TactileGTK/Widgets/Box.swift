import CGtk

/// A row or column of widgets.
public final class Box: Widget {
    /// The direction children are laid out in.
    public enum Orientation: Sendable {
        case horizontal, vertical
    }

    /// Creates a box holding `children`, `spacing` points apart.
    public init(_ orientation: Orientation, spacing: Int = 8, _ children: [Widget] = []) {
        let gtkOrientation =
            orientation == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL
        super.init(wrapping: gtk_box_new(gtkOrientation, Int32(spacing)))
        children.forEach(append)
    }

    /// The direction children are laid out in now.
    public var orientation: Orientation {
        get {
            gtk_orientable_get_orientation(tactile_orientable(widget)) == GTK_ORIENTATION_HORIZONTAL
                ? .horizontal : .vertical
        }
        set {
            gtk_orientable_set_orientation(
                tactile_orientable(widget),
                newValue == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL)
        }
    }

    /// Adds `child` after the existing children.
    public func append(_ child: Widget) {
        gtk_box_append(tactile_box(widget), child.widget)
    }

    /// Removes `child`, which must be a child of this box.
    public func remove(_ child: Widget) {
        gtk_box_remove(tactile_box(widget), child.widget)
    }
}
