internal import CCairo
import TactileCore

/// A `Canvas` that draws with Cairo, and Pango for text.
///
/// Wraps a `cairo_t` (a GTK draw callback's, or an offscreen ``ImageSurface``'s), holding a
/// reference to it for as long as the canvas lives. Not thread-safe; use one canvas per
/// thread.
public final class CairoCanvas: Canvas {
    /// The underlying `cairo_t *`.
    public let context: OpaquePointer
    public let size: Size

    /// Wraps an existing Cairo context, taking a reference to it.
    ///
    /// - Parameters:
    ///   - context: A `cairo_t *` (for example, the one GTK passes to a draw function).
    ///   - size: The drawable size in user-space units.
    public init(context: OpaquePointer, size: Size) {
        self.context = cairo_reference(context)
        self.size = size
    }

    deinit { cairo_destroy(context) }

    public func save() { cairo_save(context) }
    public func restore() { cairo_restore(context) }

    public func concatenate(_ t: Transform2D) {
        var matrix = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
        cairo_transform(context, &matrix)
    }

    public func clip(to path: Path, rule: FillRule) {
        setPath(path)
        cairo_set_fill_rule(context, rule.cairoValue)
        cairo_clip(context)
    }

    public func fill(_ path: Path, with color: Color, rule: FillRule) {
        setPath(path)
        cairo_set_fill_rule(context, rule.cairoValue)
        setSource(color)
        cairo_fill(context)
    }

    public func fill(_ path: Path, with gradient: LinearGradient, rule: FillRule) {
        let pattern = cairo_pattern_create_linear(
            gradient.start.x, gradient.start.y, gradient.end.x, gradient.end.y)
        defer { cairo_pattern_destroy(pattern) }
        for stop in gradient.stops {
            cairo_pattern_add_color_stop_rgba(
                pattern, stop.location, stop.color.red, stop.color.green, stop.color.blue,
                stop.color.alpha)
        }
        setPath(path)
        cairo_set_fill_rule(context, rule.cairoValue)
        cairo_set_source(context, pattern)
        cairo_fill(context)
    }

    public func stroke(_ path: Path, with color: Color, style: StrokeStyle) {
        guard style.width > 0, style.width.isFinite else { return }
        setPath(path)
        setSource(color)
        cairo_set_line_width(context, style.width)
        cairo_set_line_cap(context, style.cap.cairoValue)
        cairo_set_line_join(context, style.join.cairoValue)
        let dashes = style.dash.filter { $0 >= 0 && $0.isFinite }
        if dashes.isEmpty || dashes.allSatisfy({ $0 == 0 }) {
            cairo_set_dash(context, nil, 0, 0)
        } else {
            dashes.withUnsafeBufferPointer {
                cairo_set_dash(context, $0.baseAddress, Int32($0.count), style.dashPhase)
            }
        }
        cairo_stroke(context)
    }

    public func draw(_ bitmap: Bitmap, in rect: Rect, alpha: Double) {
        guard bitmap.width > 0, bitmap.height > 0, !rect.isEmpty else { return }
        let surface = ImageSurface(bitmap: bitmap)
        save()
        defer { restore() }
        cairo_translate(context, rect.minX, rect.minY)
        cairo_scale(
            context, rect.width / Double(bitmap.width), rect.height / Double(bitmap.height))
        cairo_set_source_surface(context, surface.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(context), CAIRO_FILTER_GOOD)
        cairo_rectangle(context, 0, 0, Double(bitmap.width), Double(bitmap.height))
        cairo_clip(context)
        cairo_paint_with_alpha(context, alpha.clamped(to: 0...1))
    }

    public func draw(
        _ text: String, at point: Point, font: Font, color: Color, alignment: TextAlignment
    ) {
        let layout = makeLayout(text, font: font)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let width = Double(logical.width) / Double(PANGO_SCALE)
        let x: Double =
            switch alignment {
            case .leading: point.x
            case .center: point.x - width / 2
            case .trailing: point.x - width
            }
        setSource(color)
        cairo_move_to(context, x, point.y)
        pango_cairo_show_layout(context, layout)
        cairo_new_path(context)
    }

    public func measure(_ text: String, font: Font) -> Size {
        let layout = makeLayout(text, font: font)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_size(layout, &width, &height)
        return Size(
            width: Double(width) / Double(PANGO_SCALE), height: Double(height) / Double(PANGO_SCALE)
        )
    }

    // MARK: - Helpers

    private func makeLayout(_ text: String, font: Font) -> OpaquePointer {
        let layout = pango_cairo_create_layout(context)!
        let description = pango_font_description_new()
        defer { pango_font_description_free(description) }
        pango_font_description_set_family(description, font.family)
        pango_font_description_set_absolute_size(
            description, font.size * Double(PANGO_SCALE))
        pango_font_description_set_weight(
            description, font.weight == .bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_layout_set_font_description(layout, description)
        pango_layout_set_text(layout, text, -1)
        return layout
    }

    private func setSource(_ c: Color) {
        cairo_set_source_rgba(context, c.red, c.green, c.blue, c.alpha)
    }

    private func setPath(_ path: Path) {
        cairo_new_path(context)
        for element in path.elements {
            switch element {
            case .move(let p):
                cairo_move_to(context, p.x, p.y)
            case .line(let p):
                cairo_line_to(context, p.x, p.y)
            case .quadCurve(let p, let c):
                // Degree elevation: a quadratic is the cubic with controls ⅔ of the way to c.
                var start = (x: 0.0, y: 0.0)
                cairo_get_current_point(context, &start.x, &start.y)
                let c1 = Point(
                    x: start.x + 2 / 3 * (c.x - start.x), y: start.y + 2 / 3 * (c.y - start.y))
                let c2 = Point(x: p.x + 2 / 3 * (c.x - p.x), y: p.y + 2 / 3 * (c.y - p.y))
                cairo_curve_to(context, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
            case .curve(let p, let c1, let c2):
                cairo_curve_to(context, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
            case .closeSubpath:
                cairo_close_path(context)
            }
        }
    }
}

extension FillRule {
    var cairoValue: cairo_fill_rule_t {
        switch self {
        case .nonZero: CAIRO_FILL_RULE_WINDING
        case .evenOdd: CAIRO_FILL_RULE_EVEN_ODD
        }
    }
}

extension LineCap {
    var cairoValue: cairo_line_cap_t {
        switch self {
        case .butt: CAIRO_LINE_CAP_BUTT
        case .round: CAIRO_LINE_CAP_ROUND
        case .square: CAIRO_LINE_CAP_SQUARE
        }
    }
}

extension LineJoin {
    var cairoValue: cairo_line_join_t {
        switch self {
        case .miter: CAIRO_LINE_JOIN_MITER
        case .round: CAIRO_LINE_JOIN_ROUND
        case .bevel: CAIRO_LINE_JOIN_BEVEL
        }
    }
}
