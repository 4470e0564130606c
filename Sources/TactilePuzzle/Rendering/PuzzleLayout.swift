import TactileCore

/// Where the picture and the slider track sit in the view, and how area units map to points.
///
/// The picture keeps its aspect ratio, fits the view's width (and the height left above the
/// track), and is centred horizontally at the top. The track, when shown, lies under it,
/// exactly as wide, so the thumb's travel equals the piece's.
public struct PuzzleLayout: Hashable, Sendable {
    /// The gap between picture and track, in points.
    public static let trackGap = 10.0
    /// The track's height, in points.
    public static let trackHeight = 40.0

    /// The whole view's size, in points.
    public let viewSize: Size
    /// The picture's rectangle in view points.
    public let imageRect: Rect
    /// The slider track's rectangle in view points, if shown.
    public let trackRect: Rect?
    /// View points per area unit.
    public let scale: Double

    /// Lays out an area of `areaSize` units in a view of `viewSize` points.
    public init(viewSize: Size, areaSize: Size, showsTrack: Bool) {
        self.viewSize = viewSize
        let reserved = showsTrack ? Self.trackGap + Self.trackHeight : 0
        let available = Size(
            width: max(0, viewSize.width), height: max(0, viewSize.height - reserved))
        var scale = 0.0
        if areaSize.isDrawable, available.isDrawable {
            scale = min(available.width / areaSize.width, available.height / areaSize.height)
        }
        let size = Size(width: areaSize.width * scale, height: areaSize.height * scale)
        imageRect = Rect(
            x: (viewSize.width - size.width) / 2, y: 0, width: size.width, height: size.height)
        trackRect =
            showsTrack
            ? Rect(
                x: imageRect.minX, y: imageRect.maxY + Self.trackGap, width: imageRect.width,
                height: Self.trackHeight) : nil
        self.scale = scale
    }

    /// The view height at which a picture of `areaSize` fills a view `width` points wide,
    /// with the track under it when shown: the height that leaves no empty band. 0 for an
    /// area or width with nothing to draw.
    public static func height(forWidth width: Double, areaSize: Size, showsTrack: Bool) -> Double {
        guard areaSize.isDrawable, width.isFinite, width > 0 else { return 0 }
        let track = showsTrack ? trackGap + trackHeight : 0
        return width * areaSize.height / areaSize.width + track
    }

    /// A view point in area units.
    public func areaPoint(_ p: Point) -> Point {
        guard scale > 0 else { return .zero }
        return Point(x: (p.x - imageRect.minX) / scale, y: (p.y - imageRect.minY) / scale)
    }

    /// An area point in view points.
    public func viewPoint(_ p: Point) -> Point {
        Point(x: imageRect.minX + p.x * scale, y: imageRect.minY + p.y * scale)
    }

    /// The transform from area units to view points.
    public var areaToView: Transform2D {
        Transform2D(scaleX: scale, y: scale).concatenating(
            Transform2D(translationX: imageRect.minX, y: imageRect.minY))
    }

    /// The slider thumb for a piece at `pieceFrame` (area units): as wide as the piece (at
    /// least 36 points) and directly under it.
    public func thumbRect(pieceFrame: Rect) -> Rect? {
        guard let trackRect else { return nil }
        let width = max(36, pieceFrame.width * scale)
        let x = imageRect.minX + pieceFrame.minX * scale + (pieceFrame.width * scale - width) / 2
        return Rect(x: x, y: trackRect.minY, width: width, height: trackRect.height)
    }
}
