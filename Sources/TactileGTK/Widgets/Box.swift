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

    /// Adds `child` after the existing children.
    public func append(_ child: Widget) {
        gtk_box_append(tactile_box(widget), child.widget)
    }

    /// Removes `child`, which must be a child of this box.
    public func remove(_ child: Widget) {
        gtk_box_remove(tactile_box(widget), child.widget)
    }
}
