import TactileCore

/// Draws a Tower of Hanoi scene: bases, rods, peg letters and disks.
public struct HanoiRenderer: Sendable {
    /// A disk drawn away from the pegs (in flight or being dragged), centred on a point.
    public struct LooseDisk: Hashable, Sendable {
        public var disk: Int
        public var center: Point
        /// 1 for a disk in flight; less for one in the hand, so the disks it passes over
        /// stay in sight.
        public var opacity: Double
        public init(disk: Int, center: Point, opacity: Double = 1) {
            self.disk = disk
            self.center = center
            self.opacity = opacity
        }
    }

    /// Peg outlines to emphasise: a selected source, a hint, a refused target, and the peg
    /// a dragged disk is over (in the highlight when it may go there, in the refusal colour
    /// when not).
    public struct Marks: Hashable, Sendable {
        public var selected: Int?
        public var hint: HanoiMove?
        public var refused: Int?
        /// The peg under a dragged disk, other than its own.
        public var dropTarget: Int?
        /// Whether the dragged disk may be put on ``dropTarget``.
        public var dropAllowed: Bool
        public init(
            selected: Int? = nil, hint: HanoiMove? = nil, refused: Int? = nil,
            dropTarget: Int? = nil, dropAllowed: Bool = true
        ) {
            self.selected = selected
            self.hint = hint
            self.refused = refused
            self.dropTarget = dropTarget
            self.dropAllowed = dropAllowed
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
            let dropping = marks.dropTarget == peg
            let mark: Color? =
                marks.refused == peg || (dropping && !marks.dropAllowed)
                ? theme.refusal
                : (dropping || marks.selected == peg || marks.hint?.from == peg
                    || marks.hint?.to == peg)
                    ? theme.highlight
                    : nil
            if let mark {
                let outline = base.union(rod).insetBy(dx: -4, dy: -4)
                let dashed = marks.hint != nil && marks.selected != peg && !dropping
                canvas.stroke(
                    Path(roundedRect: outline, cornerRadius: 6), with: mark,
                    style: StrokeStyle(width: dropping ? 3 : 2, dash: dashed ? [6, 4] : []))
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
            drawDisk(loose.disk, in: frame, canvas: canvas, opacity: loose.opacity)
        }
    }

    private func drawDisk(_ disk: Int, in frame: Rect, canvas: any Canvas, opacity: Double = 1) {
        let solid = theme.color(ofDisk: disk, of: layout.diskCount)
        let color = solid.withAlpha(solid.alpha * opacity)
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
