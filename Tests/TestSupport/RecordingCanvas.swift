import TactileCore

/// A canvas that records what is drawn on it, in the canvas's own coordinates: fills and
/// strokes by their bounds and colour, bitmaps by their rectangle, text by its string.
/// Transforms apply as on a real canvas (`save`, `restore`, `concatenate`), and clips cut
/// the recorded bounds: what falls wholly outside the clip is not recorded at all.
public final class RecordingCanvas: Canvas {
    /// One drawing call.
    public enum Call: Equatable {
        case fill(Rect, Color)
        case stroke(Rect, Color, width: Double)
        case bitmap(Rect)
        case text(String)
    }

    public let size: Size
    public private(set) var calls: [Call] = []

    private struct State {
        var transform = Transform2D.identity
        var clip: Rect?
    }
    private var state = State()
    private var saved: [State] = []

    public init(size: Size) { self.size = size }

    public func save() { saved.append(state) }
    public func restore() { if let last = saved.popLast() { state = last } }
    public func concatenate(_ transform: Transform2D) {
        state.transform = transform.concatenating(state.transform)
    }
    public func clip(to path: Path, rule: FillRule) {
        let bounds = path.applying(state.transform).bounds
        state.clip =
            state.clip.map { $0.intersection(bounds) ?? Rect(x: 0, y: 0, width: 0, height: 0) }
            ?? bounds
    }

    /// `bounds` as seen on the canvas, cut by the clip; `nil` when nothing of it shows.
    private func visible(_ bounds: Rect) -> Rect? {
        guard let clip = state.clip else { return bounds }
        guard let cut = clip.intersection(bounds), cut.width > 0 || cut.height > 0 else {
            return nil
        }
        return cut
    }

    public func fill(_ path: Path, with color: Color, rule: FillRule) {
        if let r = visible(path.applying(state.transform).bounds) { calls.append(.fill(r, color)) }
    }
    public func fill(_ path: Path, with gradient: LinearGradient, rule: FillRule) {}
    public func stroke(_ path: Path, with color: Color, style: StrokeStyle) {
        let t = state.transform
        let scale = abs(t.a * t.d - t.b * t.c).squareRoot()
        if let r = visible(path.applying(t).bounds) {
            calls.append(.stroke(r, color, width: style.width * scale))
        }
    }
    public func draw(_ bitmap: Bitmap, in rect: Rect, alpha: Double) {
        if let r = visible(Path(rect: rect).applying(state.transform).bounds) {
            calls.append(.bitmap(r))
        }
    }
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
