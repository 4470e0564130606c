import TactileCore

/// A canvas that records what is drawn on it: fills and strokes by their bounds and colour,
/// and text by its string. Bitmaps, clips and transforms are ignored.
public final class RecordingCanvas: Canvas {
    /// One drawing call.
    public enum Call: Equatable {
        case fill(Rect, Color)
        case stroke(Rect, Color, width: Double)
        case text(String)
    }

    public let size: Size
    public private(set) var calls: [Call] = []

    public init(size: Size) { self.size = size }

    public func save() {}
    public func restore() {}
    public func concatenate(_ transform: Transform2D) {}
    public func clip(to path: Path, rule: FillRule) {}
    public func fill(_ path: Path, with color: Color, rule: FillRule) {
        calls.append(.fill(path.bounds, color))
    }
    public func fill(_ path: Path, with gradient: LinearGradient, rule: FillRule) {}
    public func stroke(_ path: Path, with color: Color, style: StrokeStyle) {
        calls.append(.stroke(path.bounds, color, width: style.width))
    }
    public func draw(_ bitmap: Bitmap, in rect: Rect, alpha: Double) {}
    public func draw(
        _ text: String, at point: Point, font: Font, color: Color, alignment: TextAlignment
    ) {
        calls.append(.text(text))
    }
    public func measure(_ text: String, font: Font) -> Size { .zero }

    /// The strokes drawn, in order: bounds and colour.
    public var strokes: [(Rect, Color)] {
        calls.compactMap { if case .stroke(let r, let c, _) = $0 { (r, c) } else { nil } }
    }
    /// The colours of the fills drawn, in order.
    public var fillColors: [Color] {
        calls.compactMap { if case .fill(_, let c) = $0 { c } else { nil } }
    }
    /// The text drawn, in order.
    public var texts: [String] {
        calls.compactMap { if case .text(let s) = $0 { s } else { nil } }
    }
}
