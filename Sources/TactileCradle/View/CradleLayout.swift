import TactileCore

/// Where the cradle goes in a view: a uniform scale and offset from cradle coordinates.
public struct CradleLayout: Hashable, Sendable {
    /// Points of view per point of cradle.
    public var scale: Double
    /// Where the cradle's origin (the middle of the anchor line) lands in the view.
    public var origin: Point

    /// Fits `extent` (cradle coordinates, including the frame above the anchors) into
    /// `viewSize`, leaving `margin` around and `footer` below for the readout.
    public init(extent: Rect, viewSize: Size, margin: Double = 16, footer: Double = 28) {
        let frameHeight = Self.frameHeight
        let width = max(1, viewSize.width - 2 * margin)
        let height = max(1, viewSize.height - 2 * margin - footer)
        let total = Rect(
            x: extent.minX, y: extent.minY - frameHeight, width: extent.width,
            height: extent.height + frameHeight)
        scale = max(0.01, min(width / total.width, height / total.height))
        let left = (viewSize.width - total.width * scale) / 2
        let top = margin + (height - total.height * scale) / 2
        origin = Point(x: left - total.minX * scale, y: top - total.minY * scale)
    }

    /// The view height at which `extent` fills a view `width` points wide: the height that
    /// wastes no room above or below the cradle.
    public static func height(
        forWidth width: Double, extent: Rect, margin: Double = 16, footer: Double = 28
    ) -> Double {
        let total = Size(width: extent.width, height: extent.height + frameHeight)
        let scale = max(0.01, (width - 2 * margin) / max(1, total.width))
        return (total.height * scale + 2 * margin + footer).rounded(.up)
    }

    /// The frame drawn above the anchors, in cradle points.
    static let frameHeight = 24.0

    /// A cradle point in view coordinates.
    public func viewPoint(_ p: Point) -> Point {
        Point(x: origin.x + p.x * scale, y: origin.y + p.y * scale)
    }

    /// A view point in cradle coordinates.
    public func cradlePoint(_ p: Point) -> Point {
        Point(x: (p.x - origin.x) / scale, y: (p.y - origin.y) / scale)
    }
}
