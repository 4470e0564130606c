/// The directions the piece may move in.
public enum PuzzleAxis: String, Hashable, Sendable, CaseIterable, Codable {
    /// Left and right only, along the hole's row; the view adds a slider track.
    case horizontal
    /// Up and down only, along the hole's column.
    case vertical
    /// Anywhere in the picture.
    case free

    /// Whether the piece moves along x.
    public var allowsHorizontalMovement: Bool { self != .vertical }
    /// Whether the piece moves along y.
    public var allowsVerticalMovement: Bool { self != .horizontal }
}
