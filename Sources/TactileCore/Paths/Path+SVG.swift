extension Path {
    /// Creates a path from SVG path data, the syntax of the `d` attribute.
    ///
    /// Every command of SVG 1.1 is understood, absolute (upper case) and relative (lower
    /// case): `M L H V C S Q T A Z`. Numbers repeat the previous command (after a moveto they
    /// are linetos); they may be separated by whitespace, one comma, or nothing where the
    /// grammar allows (`1-2` and `.5.5` are two numbers each, arc flags need no separator).
    /// Arcs become cubic Bézier curves ending exactly at the given end point, with radii
    /// scaled up when too small to reach it, a straight line when a radius is zero, and
    /// nothing when the arc ends where it starts. `S` and `T` mirror the previous control
    /// point only right after a curve of their own kind. A command after `Z` starts a new
    /// subpath (with an explicit move) at the closed subpath's start.
    ///
    /// Empty or all-whitespace data gives an empty path.
    ///
    /// - Parameter data: The path data, for example `"M10 10 h 80 v 80 h -80 Z"`.
    /// - Throws: ``SVGPathError`` at the first place the data breaks the grammar: data that
    ///   does not begin with `M` or `m`, a command missing numbers, a stray character, a
    ///   number beyond ±``SVGPathLimits/maximumMagnitude``, or more than
    ///   ``SVGPathLimits/maximumSegments`` segments. SVG renderers draw up to the error; this
    ///   initializer draws nothing.
    public init(svgPathData data: String) throws(SVGPathError) {
        var parser = SVGPathParser(data)
        do {
            self = try parser.parse()
        } catch {
            // The parser counts UTF-8 bytes; report characters, as a reader would count them.
            let index = data.utf8.index(data.utf8.startIndex, offsetBy: error.offset)
            throw SVGPathError(
                offset: data.distance(from: data.startIndex, to: index), expected: error.expected)
        }
    }

    /// The path written as SVG path data, using only absolute `M`, `L`, `Q`, `C` and `Z`.
    ///
    /// Numbers are written in the shortest form that reads back as the same `Double`, so
    /// ``init(svgPathData:)`` gives back an equal path, except that a segment drawn straight
    /// after a close gets an explicit `M` to the closed subpath's start. Non-finite
    /// coordinates have no SVG spelling; they come out as `nan` or `inf`, which do not parse.
    public func svgPathData() -> String {
        var commands: [String] = []
        commands.reserveCapacity(elements.count)
        var subpathStart = Point.zero
        var isAfterClose = false
        func draw(_ command: String) {
            if isAfterClose {
                commands.append("M" + Self.svgText(subpathStart))
                isAfterClose = false
            }
            commands.append(command)
        }
        for element in elements {
            switch element {
            case .move(let p):
                commands.append("M" + Self.svgText(p))
                subpathStart = p
                isAfterClose = false
            case .line(let p):
                draw("L" + Self.svgText(p))
            case .quadCurve(let p, let c):
                draw("Q" + Self.svgText(c) + " " + Self.svgText(p))
            case .curve(let p, let c1, let c2):
                draw("C" + Self.svgText(c1) + " " + Self.svgText(c2) + " " + Self.svgText(p))
            case .closeSubpath:
                commands.append("Z")
                isAfterClose = true
            }
        }
        return commands.joined(separator: " ")
    }

    /// A point as two SVG numbers, `x y`.
    private static func svgText(_ p: Point) -> String {
        svgText(p.x) + " " + svgText(p.y)
    }

    /// A number in the shortest round-tripping form, without a trailing `.0`.
    private static func svgText(_ value: Double) -> String {
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
