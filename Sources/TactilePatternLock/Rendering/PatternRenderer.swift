import TactileCore

/// Draws a ``PatternLockModel`` through a `Canvas`.
///
/// Order: background, halos of selected dots, the path with round caps and joins, the line
/// to the pointer (fading in once the pointer is ``PatternLockTheme/trailStartDistance``
/// cells from the last dot), then the dots, growing when selected, and the focus ring. In
/// stealth mode the path and highlights are left out; a wrong or accepted pattern tints
/// every dot instead, so the verdict shows without revealing the pattern.
public enum PatternRenderer {
    /// Draws the model's current state into `canvas`.
    public static func draw(
        _ model: PatternLockModel, theme: PatternLockTheme, in canvas: any Canvas
    ) {
        let layout = model.layout
        let cell = layout.cellSize
        if theme.background.alpha > 0 {
            canvas.fill(Path(rect: Rect(origin: .zero, size: canvas.size)), with: theme.background)
        }
        guard cell > 0 else { return }
        let pattern = model.pattern
        let state = model.displayState
        let accent = theme.color(for: state == .normal ? .drawing : state)
        let dimming = model.isInputEnabled ? 1.0 : 0.45
        let showsPath = !model.isStealthy

        if showsPath {
            for (index, dot) in pattern.dots.enumerated() {
                let radius = theme.haloRadius * cell * model.growth(ofSelection: index)
                canvas.fill(
                    circle(at: layout.center(of: dot), radius: radius),
                    with: accent.withAlpha(0.16 * dimming))
            }
            let style = StrokeStyle(width: theme.lineWidth * cell, cap: .round, join: .round)
            if pattern.count > 1 {
                var path = Path()
                path.move(to: layout.center(of: pattern.dots[0]))
                for dot in pattern.dots.dropFirst() { path.addLine(to: layout.center(of: dot)) }
                canvas.stroke(path, with: accent.withAlpha(0.8 * dimming), style: style)
            }
            if let last = pattern.last, let tip = model.tip {
                let from = layout.center(of: last)
                let distance = from.distance(to: tip) / cell
                let opacity =
                    ((distance - theme.trailStartDistance) / max(theme.trailFadeDistance, 1e-9))
                    .clamped(to: 0...1)
                if opacity > 0 {
                    var path = Path()
                    path.move(to: from)
                    path.addLine(to: tip)
                    canvas.stroke(
                        path, with: accent.withAlpha(0.8 * opacity * dimming), style: style)
                }
            }
        }

        let stealthTint: Color? =
            model.isStealthy && (state == .wrong || state == .correct)
            ? theme.color(for: state) : nil
        var selectedIndex = [Int: Int]()
        for (index, dot) in pattern.dots.enumerated() { selectedIndex[dot] = index }
        for dot in layout.grid.dots {
            let center = layout.center(of: dot)
            var radius = theme.dotRadius * cell
            var color = stealthTint ?? theme.dot
            if showsPath, let index = selectedIndex[dot] {
                let growth = model.growth(ofSelection: index)
                radius *= 1 + (theme.selectedDotScale - 1) * growth
                color = growth < 1 ? theme.dot.mixed(with: accent, fraction: growth) : accent
            }
            canvas.fill(circle(at: center, radius: radius), with: color.withAlpha(dimming))
        }

        if let focus = model.focusedDot {
            canvas.stroke(
                circle(at: layout.center(of: focus), radius: (theme.haloRadius + 0.06) * cell),
                with: theme.focus,
                style: StrokeStyle(width: max(1.5, 0.025 * cell), dash: [0.08 * cell, 0.06 * cell]))
        }
    }

    static func circle(at center: Point, radius: Double) -> Path {
        Path(
            ellipseIn: Rect(center: center, size: Size(width: 2 * radius, height: 2 * radius)))
    }
}
