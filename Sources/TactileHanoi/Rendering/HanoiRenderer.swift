import TactileCore

/// Draws a Tower of Hanoi scene: bases, rods, peg letters and disks.
public struct HanoiRenderer: Sendable {
    /// A disk drawn away from the pegs (in flight or being dragged), centred on a point.
    public struct LooseDisk: Hashable, Sendable {
        public var disk: Int
        public var center: Point
        public init(disk: Int, center: Point) {
            self.disk = disk
            self.center = center
        }
    }

    /// Peg outlines to emphasise: a selected source, a hint, a refused target.
    public struct Marks: Hashable, Sendable {
        public var selected: Int?
        public var hint: HanoiMove?
        public var refused: Int?
        public init(selected: Int? = nil, hint: HanoiMove? = nil, refused: Int? = nil) {
            self.selected = selected
            self.hint = hint
            self.refused = refused
        }
    }

    public var layout: HanoiLayout
    public var theme: HanoiTheme

    /// Creates a renderer for a layout.
    public init(layout: HanoiLayout, theme: HanoiTheme = HanoiTheme()) {
        self.layout = layout
        self.theme = theme
    }

    /// Draws a position; `loose` is drawn on top and is not drawn on its peg.
    public func draw(
        _ position: HanoiPosition, loose: LooseDisk? = nil, marks: Marks = Marks(),
        in canvas: any Canvas
    ) {
        let size = layout.viewSize
        canvas.fill(Path(rect: Rect(origin: .zero, size: size)), with: theme.background)
        for peg in 0..<layout.pegCount {
            let base = layout.base(ofPeg: peg)
            let rod = layout.rod(ofPeg: peg)
            canvas.fill(Path(roundedRect: rod, cornerRadius: layout.rodWidth / 2), with: theme.rod)
            canvas.fill(
                Path(roundedRect: base, cornerRadius: layout.baseHeight / 3), with: theme.wood)
            let mark: Color? =
                marks.refused == peg
                ? theme.refusal
                : (marks.selected == peg || marks.hint?.from == peg || marks.hint?.to == peg)
                    ? theme.highlight
                    : nil
            if let mark {
                let outline = base.union(rod).insetBy(dx: -4, dy: -4)
                canvas.stroke(
                    Path(roundedRect: outline, cornerRadius: 6), with: mark,
                    style: StrokeStyle(
                        width: 2, dash: marks.hint != nil && marks.selected != peg ? [6, 4] : []))
            }
            if let label = layout.labelFrame(ofPeg: peg) {
                canvas.draw(
                    HanoiPeg.letter(peg), at: Point(x: label.midX, y: label.minY),
                    font: Font(size: layout.labelFontSize, weight: .bold), color: theme.label,
                    alignment: .center)
            }
        }
        for peg in 0..<layout.pegCount {
            for (level, disk) in position.disks(on: peg).enumerated() where disk != loose?.disk {
                drawDisk(
                    disk, in: layout.frame(ofDisk: disk, onPeg: peg, level: level), canvas: canvas)
            }
        }
        if let loose {
            let frame = Rect(
                center: loose.center,
                size: Size(width: layout.width(ofDisk: loose.disk), height: layout.diskHeight))
            drawDisk(loose.disk, in: frame, canvas: canvas)
        }
    }

    private func drawDisk(_ disk: Int, in frame: Rect, canvas: any Canvas) {
        let color = theme.color(ofDisk: disk, of: layout.diskCount)
        let inset = min(1, frame.height * 0.08)
        let body = frame.insetBy(dx: 0, dy: inset)
        let shape = Path(roundedRect: body, cornerRadius: body.height * 0.4)
        canvas.fill(
            shape,
            with: LinearGradient(
                start: Point(x: body.minX, y: body.minY), end: Point(x: body.minX, y: body.maxY),
                stops: [
                    .init(location: 0, color: color.adjustingBrightness(0.25)),
                    .init(location: 1, color: color.adjustingBrightness(-0.15)),
                ]))
        if body.height >= 6 {
            canvas.stroke(
                shape, with: color.adjustingBrightness(-0.35), style: StrokeStyle(width: 1))
        }
    }
}
