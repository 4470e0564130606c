import TactileCore

/// The outline of a puzzle piece, and of the hole it fits.
///
/// Every shape is drawn to fill a given rectangle, so the same shape serves any piece size:
/// ``path(in:)`` returns the outline in that rectangle's coordinates.
public enum PuzzleShape: Hashable, Sendable {
    /// A jigsaw piece: a rectangular body with a knob or a socket on each side.
    case classic(JigsawEdges = .standard)
    /// A circle (an ellipse when the rectangle is not square).
    case circle
    /// A square with slightly rounded corners (a rectangle when the rectangle is not square).
    case square
    /// Any outline, scaled uniformly and centred to fit the rectangle.
    case custom(Path)

    /// A custom shape from SVG path data, such as `"M0 0 L10 0 L5 8 Z"`.
    ///
    /// - Throws: `SVGPathError` naming the offset where the data stopped making sense, or
    ///   ``PuzzleShapeError`` when the path draws nothing with an area.
    public static func svg(_ data: String) throws(PuzzleShapeError) -> PuzzleShape {
        let path: Path
        do {
            path = try Path(svgPathData: data)
        } catch {
            throw PuzzleShapeError("SVG path data is not valid: \(error)")
        }
        let bounds = path.bounds
        guard bounds.width > 0, bounds.height > 0, bounds.width.isFinite, bounds.height.isFinite
        else {
            throw PuzzleShapeError("SVG path encloses no area (bounds \(bounds))")
        }
        return .custom(path)
    }

    /// A short name: `classic`, `circle`, `square` or `custom`.
    public var name: String {
        switch self {
        case .classic: "classic"
        case .circle: "circle"
        case .square: "square"
        case .custom: "custom"
        }
    }

    /// The outline filling `rect`, closed, drawn clockwise on screen.
    ///
    /// A jigsaw piece's knobs reach the rectangle's edges; a custom path keeps its aspect
    /// ratio and is centred.
    public func path(in rect: Rect) -> Path {
        switch self {
        case .classic(let edges):
            return edges.path(in: rect)
        case .circle:
            return Path(ellipseIn: rect)
        case .square:
            return Path(roundedRect: rect, cornerRadius: min(rect.width, rect.height) * 0.08)
        case .custom(let path):
            return Self.fitting(path, in: rect)
        }
    }

    /// The transform that scales `path` uniformly and centres it in `rect`.
    public static func fittingTransform(for path: Path, in rect: Rect) -> Transform2D {
        let bounds = path.bounds
        guard bounds.width > 0, bounds.height > 0 else {
            return Transform2D(translationX: rect.midX - bounds.midX, y: rect.midY - bounds.midY)
        }
        let scale = min(rect.width / bounds.width, rect.height / bounds.height)
        return Transform2D(translationX: -bounds.midX, y: -bounds.midY)
            .concatenating(Transform2D(scaleX: scale, y: scale))
            .concatenating(Transform2D(translationX: rect.midX, y: rect.midY))
    }

    private static func fitting(_ path: Path, in rect: Rect) -> Path {
        path.applying(fittingTransform(for: path, in: rect))
    }
}

/// A shape that cannot be used: its SVG data is invalid or it encloses nothing.
public struct PuzzleShapeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, for the user.
    public var message: String

    /// Creates an error with a message.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
