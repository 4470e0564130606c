import TactileCore

/// A shadow: colour, opacity, blur radius and offset, in points (UIKit's `CALayer` shadow
/// vocabulary).
public struct PuzzleShadow: Hashable, Sendable {
    /// The shadow's colour; ``opacity`` sets its alpha.
    public var color: Color
    /// 0…1.
    public var opacity: Double
    /// How far the shadow spreads, in points.
    public var radius: Double
    /// How far the shadow is shifted, in points.
    public var offset: Vector

    /// Creates a shadow.
    public init(color: Color = .black, opacity: Double, radius: Double, offset: Vector) {
        self.color = color
        self.opacity = opacity.clamped(to: 0...1)
        self.radius = radius.isFinite ? max(0, radius) : 0
        self.offset = offset.isFinite ? offset : .zero
    }
}

/// How the captcha looks: the hole's translucency, shadows and colours.
public struct PuzzleStyle: Hashable, Sendable {
    /// How opaque the picture stays inside the hole, 0…1 (TTGPuzzleVerify's
    /// `puzzleBlankAlpha`); the view's backdrop shows through the rest.
    public var holeAlpha: Double {
        didSet { holeAlpha = holeAlpha.clamped(to: 0...1) }
    }
    /// The shadow under the piece.
    public var pieceShadow: PuzzleShadow
    /// The shadow inside the hole's edge.
    public var holeInnerShadow: PuzzleShadow
    /// The thin line around the piece.
    public var pieceOutline: Color
    /// A soft light rim outside the piece, which keeps it plain on a dark picture (where the
    /// shadow cannot show).
    public var pieceHalo: Color
    /// What shows through the hole and around the picture.
    public var backdrop: Color
    /// The slider track's colour.
    public var track: Color
    /// The accent for the thumb and the travelled part of the track.
    public var accent: Color
    /// Success colour.
    public var success: Color
    /// Failure colour.
    public var failure: Color
    /// Text colour on the track.
    public var text: Color

    /// Creates a style; every argument has a default.
    public init(
        holeAlpha: Double = 0.5,
        pieceShadow: PuzzleShadow = PuzzleShadow(
            opacity: 0.55, radius: 4, offset: Vector(dx: 0, dy: 2)),
        holeInnerShadow: PuzzleShadow = PuzzleShadow(
            opacity: 0.6, radius: 4, offset: Vector(dx: 1, dy: 1)),
        pieceOutline: Color = Color(white: 1, alpha: 0.8),
        pieceHalo: Color = Color(white: 1, alpha: 0.45),
        backdrop: Color = Color(white: 0.96),
        track: Color = Color(red: 0.9, green: 0.92, blue: 0.95),
        accent: Color = Color(red: 0.16, green: 0.47, blue: 0.9),
        success: Color = Color(red: 0.16, green: 0.62, blue: 0.33),
        failure: Color = Color(red: 0.85, green: 0.22, blue: 0.2),
        text: Color = Color(white: 0.35)
    ) {
        self.holeAlpha = holeAlpha.clamped(to: 0...1)
        self.pieceShadow = pieceShadow
        self.holeInnerShadow = holeInnerShadow
        self.pieceOutline = pieceOutline
        self.pieceHalo = pieceHalo
        self.backdrop = backdrop
        self.track = track
        self.accent = accent
        self.success = success
        self.failure = failure
        self.text = text
    }

    /// For a light desktop.
    public static let light = PuzzleStyle()

    /// For a dark desktop: a dark backdrop and track, lighter text and states.
    public static let dark = PuzzleStyle(
        backdrop: Color(white: 0.17), track: Color(red: 0.23, green: 0.24, blue: 0.27),
        accent: Color(red: 0.21, green: 0.52, blue: 0.89),
        success: Color(red: 0.2, green: 0.7, blue: 0.42),
        failure: Color(red: 0.94, green: 0.38, blue: 0.36), text: Color(white: 0.82))
}
