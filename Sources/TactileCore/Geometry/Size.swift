/// A width and a height, in points.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal extent.
    public var width: Double
    /// The vertical extent.
    public var height: Double

    /// Creates a size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A size with no extent.
    public static let zero = Size(width: 0, height: 0)

    /// Whether both extents are finite and positive.
    public var isDrawable: Bool { width.isFinite && height.isFinite && width > 0 && height > 0 }

    public var description: String { "\(width)×\(height)" }
}
