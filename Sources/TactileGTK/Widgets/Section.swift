import CGtk

/// A titled frame grouping related controls (`GtkFrame`).
public final class Section: Widget {
    /// Creates a frame titled `title` around `child`.
    public init(_ title: String, _ child: Widget) {
        super.init(wrapping: gtk_frame_new(title))
        child.setMargins(8)
        gtk_frame_set_child(tactile_frame(widget), child.widget)
    }

    /// Creates a frame titled `title` around `children`, stacked top to bottom `spacing`
    /// pixels apart.
    public convenience init(_ title: String, stacking children: [Widget], spacing: Int = 6) {
        self.init(title, Box(.vertical, spacing: spacing, children))
    }
}
