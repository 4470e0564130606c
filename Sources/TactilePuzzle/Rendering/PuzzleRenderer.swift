import TactileCore

/// Draws a puzzle at one moment — the picture with its hole, the piece with its shadow, the
/// slider track and the state's marks — from a model, what it shows, a layout and a style.
/// Without content (a puzzle on its way), an empty frame and an empty track.
struct PuzzleRenderer {
    let model: PuzzleModel
    let content: PuzzleControl.Content?
    let shape: PuzzleShape
    let layout: PuzzleLayout
    let style: PuzzleStyle
    let time: Double

    func draw(in canvas: any Canvas) {
        guard layout.scale > 0 else { return }
        canvas.fill(Path(rect: Rect(origin: .zero, size: layout.viewSize)), with: style.backdrop)
        guard let content else {
            for rect in [layout.imageRect, layout.trackRect].compactMap({ $0 }) {
                canvas.fill(Path(roundedRect: rect, cornerRadius: 6), with: style.track)
            }
            if model.state == .locked { drawLocked(in: canvas) }
            return
        }
        let shake = model.animation?.shakeOffset(at: time) ?? 0
        let fade = model.animation?.fadeProgress(at: time) ?? (model.state == .verified ? 1 : 0)
        canvas.withSavedState {
            canvas.concatenate(layout.areaToView)
            let area = Rect(origin: .zero, size: model.areaSize)
            canvas.clip(to: Path(rect: area))
            drawPicture(content, in: canvas, area: area, fade: fade)
            canvas.withSavedState {
                canvas.concatenate(Transform2D(translationX: shake / layout.scale, y: 0))
                drawPiece(content, in: canvas, fade: fade)
            }
        }
        drawFrame(in: canvas, shake: shake)
        if let trackRect = layout.trackRect { drawTrack(in: canvas, rect: trackRect) }
        if model.state == .locked {
            drawLocked(in: canvas)
        } else if model.state == .verifying {
            drawVerifying(in: canvas)
        } else if !model.isEnabled {
            canvas.fill(Path(rect: layout.imageRect), with: style.backdrop.withAlpha(0.4))
        }
    }

    // MARK: - Picture and hole

    private func drawPicture(
        _ content: PuzzleControl.Content, in canvas: any Canvas, area: Rect, fade: Double
    ) {
        switch content {
        case .prepared(let background, _):
            canvas.draw(background, in: area)
        case .picture(let bitmap):
            let hole = shape.path(in: model.holeFrame)
            // The hole shows a translucent copy over the backdrop; the rest the whole picture.
            drawWholePicture(bitmap, in: canvas, area: area, alpha: style.holeAlpha)
            canvas.withSavedState {
                var outside = Path(rect: area.insetBy(dx: -1, dy: -1))
                outside.addPath(hole)
                canvas.clip(to: outside, rule: .evenOdd)
                drawWholePicture(bitmap, in: canvas, area: area, alpha: 1)
            }
            drawInnerShadow(of: hole, in: canvas)
            // After a pass the hole fades away: the picture is whole again.
            if fade > 0 { drawWholePicture(bitmap, in: canvas, area: area, alpha: fade) }
        }
    }

    private func drawWholePicture(
        _ bitmap: Bitmap?, in canvas: any Canvas, area: Rect, alpha: Double
    ) {
        if let bitmap {
            canvas.draw(bitmap, in: area, alpha: alpha)
        } else {
            let gradient = LinearGradient(
                start: Point(x: area.minX, y: area.minY), end: Point(x: area.maxX, y: area.maxY),
                stops: [
                    .init(
                        location: 0, color: Color(red: 0.35, green: 0.6, blue: 0.85, alpha: alpha)),
                    .init(
                        location: 1, color: Color(red: 0.95, green: 0.7, blue: 0.4, alpha: alpha)),
                ])
            canvas.fill(Path(rect: area), with: gradient)
        }
    }

    /// A soft dark band inside the hole's edge, shifted by the shadow's offset.
    private func drawInnerShadow(of hole: Path, in canvas: any Canvas) {
        let shadow = style.holeInnerShadow
        guard shadow.opacity > 0 else { return }
        canvas.withSavedState {
            canvas.clip(to: hole)
            let shifted = hole.applying(
                Transform2D(translationX: shadow.offset.dx, y: shadow.offset.dy))
            let radius = max(shadow.radius, 0.5) / layout.scale
            for step in 1...3 {
                let width = radius * 2 * Double(step) / 3
                canvas.stroke(
                    shifted, with: shadow.color.withAlpha(shadow.opacity / 3),
                    style: StrokeStyle(width: width, join: .round))
            }
        }
    }

    // MARK: - Piece

    private func drawPiece(_ content: PuzzleControl.Content, in canvas: any Canvas, fade: Double) {
        let frame = model.pieceFrame
        let outline = shape.path(in: frame)
        let shadow = style.pieceShadow
        if shadow.opacity > 0, fade < 1 {
            let shifted = outline.applying(
                Transform2D(translationX: shadow.offset.dx, y: shadow.offset.dy))
            let alpha = shadow.opacity * (1 - fade) / 4
            let radius = shadow.radius / layout.scale
            canvas.fill(shifted, with: shadow.color.withAlpha(alpha))
            for step in 1...3 {
                canvas.stroke(
                    shifted, with: shadow.color.withAlpha(alpha),
                    style: StrokeStyle(width: radius * Double(step) / 1.5, join: .round))
            }
        }
        if fade < 1, style.pieceHalo.alpha > 0 {
            // Centred on the outline: the piece covers its inner half.
            canvas.stroke(
                outline, with: style.pieceHalo.withAlpha(style.pieceHalo.alpha * (1 - fade)),
                style: StrokeStyle(width: 6 / layout.scale, join: .round))
        }
        switch content {
        case .prepared(_, let piece):
            canvas.draw(piece, in: frame)
            // After a pass, a second coat hides the hole's rim under the piece's soft edge.
            if fade > 0 { canvas.draw(piece, in: frame, alpha: fade) }
        case .picture(let bitmap):
            canvas.withSavedState {
                canvas.clip(to: outline)
                let shift = frame.origin - model.holeFrame.origin
                canvas.concatenate(Transform2D(translationX: shift.dx, y: shift.dy))
                drawWholePicture(
                    bitmap, in: canvas, area: Rect(origin: .zero, size: model.areaSize), alpha: 1)
            }
        }
        if fade < 1 {
            var color = style.pieceOutline
            if case .failure = model.animation?.kind { color = style.failure }
            canvas.stroke(
                outline, with: color.withAlpha(color.alpha * (1 - fade)),
                style: StrokeStyle(width: 1.5 / layout.scale, join: .round))
        }
    }

    // MARK: - Marks

    private func drawFrame(in canvas: any Canvas, shake: Double) {
        let color: Color?
        switch model.state {
        case .verified: color = style.success
        case .failed, .locked: color = shake != 0 ? style.failure : nil
        default: color = nil
        }
        guard let color else { return }
        canvas.stroke(
            Path(rect: layout.imageRect.insetBy(dx: 1.5, dy: 1.5)), with: color,
            style: StrokeStyle(width: 3))
    }

    private func drawTrack(in canvas: any Canvas, rect: Rect) {
        let radius = rect.height / 2
        canvas.fill(Path(roundedRect: rect, cornerRadius: radius), with: style.track)
        guard let thumb = layout.thumbRect(pieceFrame: model.pieceFrame) else { return }
        let tint: Color =
            switch model.state {
            case .verified: style.success
            case .failed, .locked: style.failure
            default: style.accent
            }
        let travelled = Rect(
            x: rect.minX, y: rect.minY, width: max(thumb.maxX - rect.minX, 0),
            height: rect.height)
        canvas.fill(
            Path(roundedRect: travelled, cornerRadius: radius), with: tint.withAlpha(0.18))
        let message: String =
            switch model.state {
            case .idle: Localization.text("Slide the piece into the gap")
            case .dragging: ""
            case .verifying: Localization.text("Checking…")
            case .verified: Localization.text("Verified")
            case .failed: Localization.text("Not quite: try again")
            case .locked: Localization.text("Locked")
            }
        if !message.isEmpty {
            let font = Font(size: 13)
            let size = canvas.measure(message, font: font)
            // Beside the thumb, on whichever side has room.
            let right = rect.maxX - thumb.maxX
            let left = thumb.minX - rect.minX
            let centerX =
                right >= size.width + 16 || right >= left
                ? (thumb.maxX + rect.maxX) / 2 : (rect.minX + thumb.minX) / 2
            canvas.draw(
                message, at: Point(x: centerX, y: rect.midY - size.height / 2), font: font,
                color: style.text, alignment: .center)
        }
        canvas.fill(Path(roundedRect: thumb, cornerRadius: radius), with: tint)
        // A chevron pointing the way to slide.
        var chevron = Path()
        let c = thumb.center
        let s = min(8, thumb.height / 4)
        chevron.move(to: Point(x: c.x - s / 2, y: c.y - s))
        chevron.addLine(to: Point(x: c.x + s / 2, y: c.y))
        chevron.addLine(to: Point(x: c.x - s / 2, y: c.y + s))
        canvas.stroke(
            chevron, with: .white, style: StrokeStyle(width: 2.5, cap: .round, join: .round))
    }

    /// A turning arc over the piece while a verifier elsewhere decides (still, at a quarter
    /// turn, when the view does not animate).
    private func drawVerifying(in canvas: any Canvas) {
        let frame = model.pieceFrame
        let center = layout.areaToView.apply(to: frame.center)
        let radius = max(6, min(frame.width, frame.height) * layout.scale / 4)
        canvas.fill(
            Path(
                ellipseIn: Rect(
                    x: center.x - radius * 1.6, y: center.y - radius * 1.6, width: radius * 3.2,
                    height: radius * 3.2)), with: Color(white: 0, alpha: 0.35))
        let start = (time * 2 * .pi).truncatingRemainder(dividingBy: 2 * .pi)
        var arc = Path()
        arc.addArc(center: center, radius: radius, startAngle: start, endAngle: start + 1.5 * .pi)
        canvas.stroke(arc, with: .white, style: StrokeStyle(width: 3, cap: .round))
    }

    private func drawLocked(in canvas: any Canvas) {
        let rect = layout.imageRect
        canvas.fill(Path(rect: rect), with: style.backdrop.withAlpha(0.6))
        let font = Font(size: 16, weight: .bold)
        let text = Localization.text("Too many attempts")
        let height = canvas.measure(text, font: font).height
        canvas.draw(
            text, at: Point(x: rect.midX, y: rect.midY - height / 2), font: font,
            color: style.failure, alignment: .center)
    }
}
