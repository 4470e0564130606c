/// Reads SVG path data (the `d` attribute) into a ``Path``, following the SVG 1.1 grammar.
///
/// Works on UTF-8 bytes in one pass. Errors carry byte offsets; ``Path/init(svgPathData:)``
/// turns them into character offsets.
struct SVGPathParser {
    private let bytes: [UInt8]
    private var position = 0
    private var path = Path()
    /// The current point, which relative commands start from.
    private var current = Point.zero
    /// Where the current subpath began; `Z` returns here.
    private var subpathStart = Point.zero
    /// Whether the last command was `Z`, so a drawing command must first move to the start.
    private var isAfterClose = false
    /// The second control point of the previous command, when it was `C` or `S`.
    private var previousCubicControl: Point?
    /// The control point of the previous command, when it was `Q` or `T`.
    private var previousQuadControl: Point?

    init(_ data: String) {
        bytes = Array(data.utf8)
    }

    /// Parses the whole data.
    ///
    /// - Throws: ``SVGPathError`` with a UTF-8 byte offset.
    mutating func parse() throws(SVGPathError) -> Path {
        skipWhitespace()
        guard let first = peek() else { return path }
        guard first == ascii("M") || first == ascii("m") else {
            throw SVGPathError(offset: position, expected: .moveTo)
        }
        // The command that numbers without a letter repeat; none after `Z`.
        var repeating: Command?
        while true {
            skipWhitespace()
            guard let byte = peek() else { break }
            guard path.elements.count <= SVGPathLimits.maximumSegments else {
                throw SVGPathError(offset: position, expected: .end)
            }
            if let command = Command(byte) {
                position += 1
                try perform(command, isRepeat: false)
                repeating = command.repeated
            } else if let command = repeating, byte == ascii(",") || Self.startsNumber(byte) {
                try perform(command, isRepeat: true)
            } else {
                throw SVGPathError(
                    offset: position, expected: repeating == nil ? .command : .commandOrNumber)
            }
        }
        return path
    }

    // MARK: - Commands

    /// A command letter, with its case folded into ``isRelative``.
    private struct Command {
        enum Kind {
            case move, line, horizontal, vertical, curve, smoothCurve, quad, smoothQuad, arc, close
        }
        var kind: Kind
        var isRelative: Bool

        init?(_ byte: UInt8) {
            // Folding to lower case (setting bit 5) leaves only the two cases of each letter.
            let kind: Kind
            switch byte | 0x20 {
            case ascii("m"): kind = .move
            case ascii("l"): kind = .line
            case ascii("h"): kind = .horizontal
            case ascii("v"): kind = .vertical
            case ascii("c"): kind = .curve
            case ascii("s"): kind = .smoothCurve
            case ascii("q"): kind = .quad
            case ascii("t"): kind = .smoothQuad
            case ascii("a"): kind = .arc
            case ascii("z"): kind = .close
            default: return nil
            }
            self.kind = kind
            isRelative = byte & 0x20 != 0
        }

        private init(kind: Kind, isRelative: Bool) {
            self.kind = kind
            self.isRelative = isRelative
        }

        /// The command bare numbers after this one repeat: a moveto's extra pairs are linetos.
        var repeated: Command? {
            switch kind {
            case .close: nil
            case .move: Command(kind: .line, isRelative: isRelative)
            default: self
            }
        }
    }

    private mutating func perform(_ command: Command, isRepeat: Bool) throws(SVGPathError) {
        // The first number after a letter may not be preceded by a comma; a repeat's may.
        var allowsComma = isRepeat
        func next() throws(SVGPathError) -> Double {
            defer { allowsComma = true }
            return try number(allowingComma: allowsComma)
        }
        func nextPoint() throws(SVGPathError) -> Point {
            let x = try next()
            let y = try next()
            return command.isRelative
                ? Point(x: current.x + x, y: current.y + y) : Point(x: x, y: y)
        }
        var cubicControl: Point?
        var quadControl: Point?
        switch command.kind {
        case .move:
            let p = try nextPoint()
            path.move(to: p)
            subpathStart = p
            isAfterClose = false
            current = p
        case .line:
            let p = try nextPoint()
            startSubpathIfClosed()
            path.addLine(to: p)
            current = p
        case .horizontal:
            let x = try next()
            let p = Point(x: command.isRelative ? current.x + x : x, y: current.y)
            startSubpathIfClosed()
            path.addLine(to: p)
            current = p
        case .vertical:
            let y = try next()
            let p = Point(x: current.x, y: command.isRelative ? current.y + y : y)
            startSubpathIfClosed()
            path.addLine(to: p)
            current = p
        case .curve, .smoothCurve:
            let control1 =
                try command.kind == .curve ? nextPoint() : reflection(of: previousCubicControl)
            let control2 = try nextPoint()
            let p = try nextPoint()
            startSubpathIfClosed()
            path.addCurve(to: p, control1: control1, control2: control2)
            cubicControl = control2
            current = p
        case .quad, .smoothQuad:
            let control =
                try command.kind == .quad ? nextPoint() : reflection(of: previousQuadControl)
            let p = try nextPoint()
            startSubpathIfClosed()
            path.addQuadCurve(to: p, control: control)
            quadControl = control
            current = p
        case .arc:
            let rx = try next()
            let ry = try next()
            let rotation = try next() * .pi / 180
            let isLargeArc = try flag(allowingComma: true)
            let isClockwise = try flag(allowingComma: true)
            let p = try nextPoint()
            startSubpathIfClosed()
            addArc(
                to: p, radii: Vector(dx: rx, dy: ry), rotation: rotation, isLargeArc: isLargeArc,
                isClockwise: isClockwise)
            current = p
        case .close:
            path.closeSubpath()
            isAfterClose = true
            current = subpathStart
        }
        previousCubicControl = cubicControl
        previousQuadControl = quadControl
    }

    /// The first control point of a smooth curve: the previous curve's last control point
    /// mirrored through the current point, or the current point itself.
    private func reflection(of control: Point?) -> Point {
        guard let control else { return current }
        return current + (current - control)
    }

    /// After `Z`, a drawing command begins a new subpath at the closed one's start.
    private mutating func startSubpathIfClosed() {
        guard isAfterClose else { return }
        path.move(to: subpathStart)
        isAfterClose = false
    }

    /// Adds an SVG endpoint arc from the current point: nothing when the ends coincide, a line
    /// when a radius is zero, otherwise cubic curves ending exactly at `end`.
    private mutating func addArc(
        to end: Point, radii: Vector, rotation: Double, isLargeArc: Bool, isClockwise: Bool
    ) {
        guard end != current else { return }
        let arc = EllipticalArc(
            from: current, to: end, radii: radii, rotation: rotation, isLargeArc: isLargeArc,
            isClockwise: isClockwise)
        let pieces = arc?.pieces() ?? []
        guard !pieces.isEmpty else { return path.addLine(to: end) }
        for (index, piece) in pieces.enumerated() {
            path.addCurve(
                to: index == pieces.count - 1 ? end : piece.end, control1: piece.control1,
                control2: piece.control2)
        }
    }

    // MARK: - Tokens

    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), Self.isWhitespace(byte) { position += 1 }
    }

    /// Skips whitespace, at most one comma when allowed, and whitespace again.
    private mutating func skipSeparator(allowingComma allowsComma: Bool) {
        skipWhitespace()
        if allowsComma, peek() == ascii(",") {
            position += 1
            skipWhitespace()
        }
    }

    /// Reads a number: optional sign, digits with an optional decimal point (at least one
    /// digit), optional exponent. It ends where the grammar stops, so `1-2` and `.5.5` are two
    /// numbers each.
    private mutating func number(allowingComma: Bool) throws(SVGPathError) -> Double {
        skipSeparator(allowingComma: allowingComma)
        let start = position
        func skipDigits() -> Int {
            let first = position
            while let byte = peek(), Self.isDigit(byte) { position += 1 }
            return position - first
        }
        if peek() == ascii("+") || peek() == ascii("-") { position += 1 }
        var digitCount = skipDigits()
        if peek() == ascii(".") {
            position += 1
            digitCount += skipDigits()
        }
        guard digitCount > 0 else {
            position = start
            throw SVGPathError(offset: start, expected: .number)
        }
        // An exponent only counts when digits follow its letter and optional sign.
        if let e = peek(), e == ascii("e") || e == ascii("E") {
            let mantissaEnd = position
            position += 1
            if peek() == ascii("+") || peek() == ascii("-") { position += 1 }
            if skipDigits() == 0 { position = mantissaEnd }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(text), abs(value) <= SVGPathLimits.maximumMagnitude else {
            throw SVGPathError(offset: start, expected: .finiteNumber)
        }
        return value
    }

    /// Reads an arc flag: a single `0` or `1`, which needs no separator after it.
    private mutating func flag(allowingComma: Bool) throws(SVGPathError) -> Bool {
        skipSeparator(allowingComma: allowingComma)
        switch peek() {
        case ascii("0"):
            position += 1
            return false
        case ascii("1"):
            position += 1
            return true
        default:
            throw SVGPathError(offset: position, expected: .flag)
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        // Space, tab, line feed, form feed, carriage return.
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= ascii("0") && byte <= ascii("9")
    }

    private static func startsNumber(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == ascii(".") || byte == ascii("+") || byte == ascii("-")
    }
}

/// The byte of an ASCII character.
private func ascii(_ character: Unicode.Scalar) -> UInt8 {
    UInt8(ascii: character)
}
