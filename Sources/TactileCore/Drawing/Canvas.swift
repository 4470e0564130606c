/// How the inside of a path is decided where subpaths overlap.
public enum FillRule: Sendable, Hashable {
    /// A point is inside when the outline winds around it a non-zero number of times.
    case nonZero
    /// A point is inside when a ray from it crosses the outline an odd number of times.
    case evenOdd
}

/// The shape at the ends of open stroked lines.
public enum LineCap: Sendable, Hashable {
    case butt, round, square
}

/// The shape where stroked segments meet.
public enum LineJoin: Sendable, Hashable {
    case miter, round, bevel
}

/// How a path's outline is stroked.
public struct StrokeStyle: Hashable, Sendable {
    /// The line width in points.
    public var width: Double
    public var cap: LineCap
    public var join: LineJoin
    /// Alternating dash and gap lengths in points; empty for a solid line.
    public var dash: [Double]
    /// How far into the dash pattern the stroke starts.
    public var dashPhase: Double

    /// Creates a stroke style.
    public init(
        width: Double = 1, cap: LineCap = .butt, join: LineJoin = .miter, dash: [Double] = [],
        dashPhase: Double = 0
    ) {
        self.width = width
        self.cap = cap
        self.join = join
        self.dash = dash
        self.dashPhase = dashPhase
    }
}

/// A font request: the family is a hint, the size is in points.
public struct Font: Hashable, Sendable {
    public enum Weight: Sendable, Hashable { case regular, bold }
    public var family: String
    public var size: Double
    public var weight: Weight

    /// Creates a font request.
    public init(family: String = "Sans", size: Double, weight: Weight = .regular) {
        self.family = family
        self.size = size
        self.weight = weight
    }
}

/// Where text sits relative to the point it is drawn at.
public enum TextAlignment: Sendable, Hashable {
    /// The point is the top-left corner of the text.
    case leading
    /// The point is the top-centre of the text.
    case center
    /// The point is the top-right corner of the text.
    case trailing
}

/// A linear colour gradient between two points.
public struct LinearGradient: Hashable, Sendable {
    /// A colour at a position 0…1 along the gradient.
    public struct Stop: Hashable, Sendable {
        public var location: Double
        public var color: Color
        public init(location: Double, color: Color) {
            self.location = location
            self.color = color
        }
    }
    public var start: Point
    public var end: Point
    public var stops: [Stop]

    /// Creates a gradient.
    public init(start: Point, end: Point, stops: [Stop]) {
        self.start = start
        self.end = end
        self.stops = stops
    }
}

/// A drawing surface: the one output every component draws into.
///
/// Cairo implements it on Linux; Core Graphics could on Apple platforms. Coordinates are in
/// points with the origin at the top left and y growing downwards.
public protocol Canvas: AnyObject {
    /// The drawable area in points.
    var size: Size { get }

    /// Saves the transform and clip, to be put back by ``restore()``.
    func save()
    /// Puts back the transform and clip saved by the matching ``save()``.
    func restore()
    /// Applies a transform to everything drawn afterwards.
    func concatenate(_ transform: Transform2D)
    /// Limits drawing to the inside of a path.
    func clip(to path: Path, rule: FillRule)
    /// Fills the inside of a path with a colour.
    func fill(_ path: Path, with color: Color, rule: FillRule)
    /// Fills the inside of a path with a linear gradient.
    func fill(_ path: Path, with gradient: LinearGradient, rule: FillRule)
    /// Strokes the outline of a path.
    func stroke(_ path: Path, with color: Color, style: StrokeStyle)
    /// Draws a bitmap scaled into a rectangle.
    func draw(_ bitmap: Bitmap, in rect: Rect, alpha: Double)
    /// Draws a single line of text; `point` is given by `alignment`.
    func draw(_ text: String, at point: Point, font: Font, color: Color, alignment: TextAlignment)
    /// The size a single line of text would take.
    func measure(_ text: String, font: Font) -> Size
}

extension Canvas {
    /// Fills using the non-zero rule.
    public func fill(_ path: Path, with color: Color) { fill(path, with: color, rule: .nonZero) }
    /// Fills using the non-zero rule.
    public func fill(_ path: Path, with gradient: LinearGradient) {
        fill(path, with: gradient, rule: .nonZero)
    }
    /// Limits drawing using the non-zero rule.
    public func clip(to path: Path) { clip(to: path, rule: .nonZero) }
    /// Draws a bitmap fully opaque.
    public func draw(_ bitmap: Bitmap, in rect: Rect) { draw(bitmap, in: rect, alpha: 1) }
    /// Draws left-aligned text.
    public func draw(_ text: String, at point: Point, font: Font, color: Color) {
        draw(text, at: point, font: font, color: color, alignment: .leading)
    }
    /// Runs `body` between ``save()`` and ``restore()``.
    public func withSavedState<R>(_ body: () throws -> R) rethrows -> R {
        save()
        defer { restore() }
        return try body()
    }
}
