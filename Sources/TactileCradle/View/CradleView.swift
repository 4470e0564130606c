import TactileCore

/// An interactive Newton's cradle: a ``CradleModel`` behind the generic host, which forwards
/// pointer and key events, moves time while the balls swing and draws with the theme of the
/// desktop's style. Controls beside it change the model through `update`:
///
/// ```swift
/// let cradle = try CradleView()
/// try cradle.update { try $0.pull(2) }
/// label.text = cradle.energyText
/// ```
public typealias CradleView = ComponentHost<CradleModel>

extension ComponentHost where Model == CradleModel {
    /// Creates a view of a cradle at rest.
    public convenience init(configuration: CradleConfiguration = .init()) throws(CradleError) {
        self.init(try CradleModel(configuration: configuration))
    }
}

extension CradleModel: ComponentModel {
    public static var standardThemes: Themes<CradleTheme> { Themes(light: .light, dark: .dark) }

    public func draw(in canvas: any Canvas, theme: CradleTheme) {
        let layout = self.layout
        let size = viewSize
        // A flat background keeps animated previews small.
        canvas.fill(Path(rect: Rect(origin: .zero, size: size)), with: theme.background)
        let r = cradle.configuration.ballRadius * layout.scale
        let anchors = cradle.anchors.map(layout.viewPoint)
        // The frame: a bar above the anchors.
        if let first = anchors.first, let last = anchors.last {
            let bar = Rect(
                x: first.x - 3 * r, y: first.y - 10 * max(0.5, layout.scale),
                width: last.x - first.x + 6 * r,
                height: 10 * max(0.5, layout.scale))
            canvas.fill(
                Path(roundedRect: bar, cornerRadius: bar.height / 2),
                with: theme.frame)
        }
        let centers = cradle.balls.map { layout.viewPoint($0.center) }
        for (anchor, center) in zip(anchors, centers) {
            var string = Path()
            string.move(to: anchor)
            string.addLine(to: center)
            canvas.stroke(
                string, with: theme.string,
                style: StrokeStyle(width: max(1, 1.5 * layout.scale), cap: .round))
        }
        for (index, center) in centers.enumerated() {
            let disc = Path(
                ellipseIn: Rect(center: center, size: Size(width: 2 * r, height: 2 * r)))
            let highlighted = index == cradle.draggedBall
            canvas.fill(
                disc,
                with: LinearGradient(
                    start: Point(x: center.x - r, y: center.y - r),
                    end: Point(x: center.x + r, y: center.y + r),
                    stops: [
                        .init(
                            location: 0,
                            color: highlighted ? theme.draggedBallLight : theme.ballLight),
                        .init(
                            location: 0.55,
                            color: highlighted ? theme.draggedBall : theme.ballMiddle),
                        .init(location: 1, color: theme.ballShadow),
                    ]))
            canvas.stroke(disc, with: theme.rim, style: StrokeStyle(width: 1))
        }
        guard showsStatus else { return }
        let status = isPaused ? Localization.text("{1} · paused", energyText) : energyText
        canvas.draw(
            status, at: Point(x: 12, y: size.height - 24), font: Font(size: 13),
            color: theme.text)
    }
}
