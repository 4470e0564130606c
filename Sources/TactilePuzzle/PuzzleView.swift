import TactileCore

/// The puzzle slider captcha on screen: a ``PuzzleControl`` behind the generic host, which
/// forwards pointer and key events and time, tells `onEvent` each ``PuzzleEvent`` and draws
/// with the ``PuzzleStyle`` of the desktop's style. Owners change the control through
/// `update`:
///
/// ```swift
/// let captcha = try PuzzleView(content: .picture(photo), axis: .horizontal)
/// captcha.onEvent = { event in
///     if case .passed = event { print("passed") }
/// }
/// captcha.update { $0.reset() }
/// ```
public typealias PuzzleView = ComponentHost<PuzzleControl>

extension ComponentHost where Model == PuzzleControl {
    /// Creates a captcha; see
    /// ``PuzzleControl/init(content:pieceSize:holePosition:startPosition:shape:axis:verificationTolerance:areaSize:verification:viewSize:)``.
    public convenience init(
        content: PuzzleControl.Content = .picture(nil),
        pieceSize: Size = Size(width: 80, height: 60),
        holePosition: Point = Point(x: 160, y: 90), startPosition: Point? = nil,
        shape: PuzzleShape = .classic(), axis: PuzzleAxis = .free,
        verificationTolerance: Double = PuzzleModel.defaultTolerance,
        areaSize: Size = Size(width: 320, height: 240),
        verification: PuzzleControl.Verification = .local,
        viewSize: Size = Size(width: 320, height: 240)
    ) throws(PuzzleError) {
        self.init(
            try PuzzleControl(
                content: content, pieceSize: pieceSize, holePosition: holePosition,
                startPosition: startPosition, shape: shape, axis: axis,
                verificationTolerance: verificationTolerance, areaSize: areaSize,
                verification: verification, viewSize: viewSize))
    }
}

extension PuzzleControl: ComponentModel {
    public static var standardThemes: Themes<PuzzleStyle> { Themes(light: .light, dark: .dark) }

    public func draw(in canvas: any Canvas, theme: PuzzleStyle) {
        PuzzleRenderer(
            model: puzzle, content: isWaiting ? nil : content, shape: shape, layout: layout,
            style: theme, time: now
        ).draw(in: canvas)
    }
}
