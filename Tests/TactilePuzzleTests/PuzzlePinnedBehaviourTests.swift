import TactileCore
import TactilePuzzle
import TestSupport
import Testing

/// TTGPuzzleVerify's behaviour, pinned: a 320×240 view, an 80×60 piece, the hole at
/// (160, 90), tolerance 4.
@Suite struct PuzzlePinnedBehaviourTests {
    func model() -> PuzzleModel {
        try! PuzzleModel(
            areaSize: Size(width: 320, height: 240), pieceSize: Size(width: 80, height: 60),
            holePosition: Point(x: 160, y: 90), verificationTolerance: 4)
    }

    func view() -> PuzzleView {
        try! PuzzleView(
            pieceSize: Size(width: 80, height: 60), holePosition: Point(x: 160, y: 90),
            axis: .free, verificationTolerance: 4, areaSize: Size(width: 320, height: 240),
            viewSize: Size(width: 320, height: 240))
    }

    @Test func withinToleranceVerifiesAndJustOutsideDoesNot() {
        var m = model()
        m.setPiecePosition(Point(x: 163, y: 93))
        #expect(m.isWithinTolerance)
        #expect(m.localVerdict == .passed(snapTo: Point(x: 160, y: 90)))
        m.setPiecePosition(Point(x: 165, y: 93))
        #expect(!m.isWithinTolerance)
        #expect(m.localVerdict == .notPassed)
        // The boundary itself passes on either axis and either side.
        for p in [Point(x: 156, y: 90), Point(x: 164, y: 94), Point(x: 160, y: 86)] {
            m.setPiecePosition(p)
            #expect(m.isWithinTolerance, "\(p)")
        }
    }

    @Test func positionsClampToTheView() {
        var m = model()
        m.setPiecePosition(Point(x: -100, y: 500))
        #expect(m.piecePosition == Point(x: 0, y: 180))
        m.setPiecePosition(Point(x: 1e9, y: -1e9))
        #expect(m.piecePosition == Point(x: 240, y: 0))
        m.setPiecePosition(Point(x: .infinity, y: -.infinity))
        #expect(m.piecePosition == Point(x: 240, y: 0))
    }

    @Test func fractionsClamp() {
        var m = model()
        m.pieceFraction = Point(x: 2, y: -1)
        #expect(m.piecePosition == Point(x: 240, y: 0))
        #expect(m.pieceFraction == Point(x: 1, y: 0))
        m.pieceFraction = Point(x: -1, y: 2)
        #expect(m.piecePosition == Point(x: 0, y: 180))
        m.pieceFraction = Point(x: 0.5, y: 0.25)
        #expect(m.piecePosition == Point(x: 120, y: 45))
    }

    @Test func notANumberChangesNothing() {
        var m = model()
        m.setPiecePosition(Point(x: 50, y: 60))
        m.setPiecePosition(Point(x: .nan, y: 70))
        #expect(m.piecePosition == Point(x: 50, y: 70))
        m.pieceFraction = Point(x: .nan, y: .nan)
        #expect(m.piecePosition == Point(x: 50, y: 70))
        #expect(PuzzleModel.defaultTolerance == 8)
    }

    /// Configuration a caller can get wrong is refused, naming the value; the model keeps
    /// what it had. (Positions, above, clamp like a slider's value.)
    @Test func badConfigurationIsRefusedAndNamed() {
        var m = model()
        for bad in [Double.nan, -3, .infinity] {
            #expect(throws: PuzzleError.self) { try m.setVerificationTolerance(bad) }
        }
        #expect(m.verificationTolerance == 4)
        #expect(throws: PuzzleError.self) { try m.setMaximumFailures(0) }
        #expect(m.maximumFailures == 5)
        // The hole must keep the piece inside the 320×240 area: x 0…240, y 0…180.
        #expect(throws: PuzzleError.self) { try m.setHolePosition(Point(x: 241, y: 0)) }
        #expect(throws: PuzzleError.self) { try m.setHolePosition(Point(x: .nan, y: 0)) }
        #expect(m.holePosition == Point(x: 160, y: 90))
        #expect(throws: Never.self) { try m.setHolePosition(Point(x: 240, y: 180)) }

        let area = Size(width: 320, height: 240)
        let piece = Size(width: 80, height: 60)
        let hole = Point(x: 160, y: 90)
        let cases: [(String, () throws(PuzzleError) -> PuzzleModel)] = [
            (
                "area size",
                { () throws(PuzzleError) in
                    try PuzzleModel(
                        areaSize: Size(width: 0, height: 240), pieceSize: piece, holePosition: hole)
                }
            ),
            (
                "piece size",
                { () throws(PuzzleError) in
                    try PuzzleModel(
                        areaSize: area, pieceSize: Size(width: 400, height: 60), holePosition: hole)
                }
            ),
            (
                "hole position",
                { () throws(PuzzleError) in
                    try PuzzleModel(
                        areaSize: area, pieceSize: piece, holePosition: Point(x: -1, y: 0))
                }
            ),
            (
                "start position",
                { () throws(PuzzleError) in
                    try PuzzleModel(
                        areaSize: area, pieceSize: piece, holePosition: hole,
                        startPosition: Point(x: 0, y: 181))
                }
            ),
            (
                "verification tolerance",
                { () throws(PuzzleError) in
                    try PuzzleModel(
                        areaSize: area, pieceSize: piece, holePosition: hole,
                        verificationTolerance: -1)
                }
            ),
            (
                "maximum failures",
                { () throws(PuzzleError) in
                    try PuzzleModel(
                        areaSize: area, pieceSize: piece, holePosition: hole, maximumFailures: 0)
                }
            ),
        ]
        for (name, make) in cases {
            do {
                _ = try make()
                Issue.record("\(name): accepted")
            } catch {
                #expect(error.message.hasPrefix(name), "\(error.message)")
            }
        }
    }

    @Test func disabledControlIgnoresDrags() {
        let v = view()
        v.update { $0.setEnabled(false) }
        let start = v.piecePosition
        let grab = Point(x: start.x + 40, y: start.y + 30)
        #expect(!v.handle(PointerEvent(.began, at: grab, time: 0)))
        #expect(!v.handle(PointerEvent(.moved, at: Point(x: 200, y: 120), time: 0.1)))
        #expect(!v.handle(PointerEvent(.ended, at: Point(x: 200, y: 120), time: 0.2)))
        #expect(v.piecePosition == start)
        #expect(v.state == .idle)
        #expect(!v.handle(KeyEvent(.right)))
        #expect(v.piecePosition == start)
    }

    @Test func draggingIntoTheHoleVerifiesAndSnaps() {
        let v = view()
        var states: [PuzzleState] = []
        var completions: [PuzzleResult] = []
        v.onEvent = { event in
            if case .stateChanged(let state) = event { states.append(state) }
            if case .passed(let result) = event { completions.append(result) }
        }
        // The piece starts at the top-left corner; grab its middle.
        #expect(v.handle(PointerEvent(.began, at: Point(x: 40, y: 30), time: 1)))
        #expect(v.handle(PointerEvent(.moved, at: Point(x: 120, y: 80), time: 1.2)))
        #expect(v.handle(PointerEvent(.ended, at: Point(x: 203, y: 122), time: 1.5)))
        #expect(states == [.dragging, .verified])
        #expect(v.isAnimating)
        #expect(completions.isEmpty)
        v.advance(to: 1.5 + PuzzleAnimation.snapDuration / 2)
        // Half-way through the snap, eased out: more than half-way from (163, 92) to the hole.
        #expect(v.piecePosition.x < 161.5 && v.piecePosition.x > 160)
        v.advance(to: 3)
        #expect(!v.isAnimating)
        #expect(v.piecePosition == Point(x: 160, y: 90))
        #expect(completions.count == 1)
        let result = completions[0]
        #expect(result.position == Point(x: 163, y: 92))
        #expect(result.offset == Vector(dx: 3, dy: 2))
        expectClose(result.elapsedTime, 0.5, within: 1e-12)
        let travelled =
            Point(x: 40, y: 30).distance(to: Point(x: 120, y: 80))
            + Point(x: 120, y: 80).distance(to: Point(x: 203, y: 122))
        expectClose(result.dragDistance, travelled, within: 1e-9)
        #expect(
            result.track.map(\.position) == [
                Point(x: 0, y: 0), Point(x: 80, y: 50), Point(x: 163, y: 92),
            ])
        v.advance(to: 10)
        #expect(completions.count == 1)
    }
}
