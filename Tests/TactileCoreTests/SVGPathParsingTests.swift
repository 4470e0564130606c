import Foundation
import TactileCore
import TestSupport
import Testing

@Suite("SVG path data parsing")
struct SVGPathParsingTests {
    private typealias Element = Path.Element

    private func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    @Test(arguments: ["", "   ", " \t\r\n\u{0C}"])
    func blankDataIsAnEmptyPath(data: String) throws {
        #expect(try Path(svgPathData: data).isEmpty)
    }

    @Test func numbersWithExponentsSignsAndNoSeparatorsParseExactly() throws {
        let path = try Path(svgPathData: "M-1.5e-3,2E+2L.5.5 1-2 3.e1-.25e0 +4 5")
        #expect(
            path.elements == [
                .move(to: p(-0.0015, 200)), .line(to: p(0.5, 0.5)), .line(to: p(1, -2)),
                .line(to: p(30, -0.25)), .line(to: p(4, 5)),
            ])
    }

    @Test func commandLettersNeedNoSeparators() throws {
        let path = try Path(svgPathData: "M0,0L10,0V10H0Z")
        #expect(
            path.elements == [
                .move(to: p(0, 0)), .line(to: p(10, 0)), .line(to: p(10, 10)), .line(to: p(0, 10)),
                .closeSubpath,
            ])
    }

    @Test func extraPairsAfterAMoveAreLines() throws {
        #expect(
            try Path(svgPathData: "M 1 2 3 4, 5 6").elements == [
                .move(to: p(1, 2)), .line(to: p(3, 4)), .line(to: p(5, 6)),
            ])
        // Relative, they are relative lines; a first relative move is measured from the origin.
        #expect(
            try Path(svgPathData: "m 1 2 3 4 5 6").elements == [
                .move(to: p(1, 2)), .line(to: p(4, 6)), .line(to: p(9, 12)),
            ])
    }

    @Test func relativeCommandsStartFromTheCurrentPoint() throws {
        let path = try Path(svgPathData: "M 10 10 l 5 0 h 5 v 5 c 1 0 2 1 2 2 q 1 1 2 0 m 1 1")
        #expect(
            path.elements == [
                .move(to: p(10, 10)), .line(to: p(15, 10)), .line(to: p(20, 10)),
                .line(to: p(20, 15)),
                .curve(to: p(22, 17), control1: p(21, 15), control2: p(22, 16)),
                .quadCurve(to: p(24, 17), control: p(23, 18)), .move(to: p(25, 18)),
            ])
    }

    @Test func relativeCommandsAfterCloseStartFromTheSubpathStart() throws {
        let path = try Path(svgPathData: "M 10 10 l 10 0 l 0 10 z m 5 5 l 1 0 z l 0 3")
        #expect(
            path.elements == [
                .move(to: p(10, 10)), .line(to: p(20, 10)), .line(to: p(20, 20)), .closeSubpath,
                .move(to: p(15, 15)), .line(to: p(16, 15)), .closeSubpath,
                .move(to: p(15, 15)), .line(to: p(15, 18)),
            ])
    }

    @Test func smoothCubicsMirrorOnlyACubicsControlPoint() throws {
        // After C: mirror (20, 10) through (20, 20).
        #expect(
            try Path(svgPathData: "M0 0 C 10 0 20 10 20 20 S 30 40 40 40 s 10 0 10 10").elements
                == [
                    .move(to: p(0, 0)),
                    .curve(to: p(20, 20), control1: p(10, 0), control2: p(20, 10)),
                    .curve(to: p(40, 40), control1: p(20, 30), control2: p(30, 40)),
                    .curve(to: p(50, 50), control1: p(50, 40), control2: p(50, 40)),
                ])
        // After a line or a quadratic: the current point.
        #expect(
            try Path(svgPathData: "M0 0 L 10 0 S 20 10 30 0 M 0 0 Q 5 5 10 0 S 20 10 30 0").elements
                == [
                    .move(to: p(0, 0)), .line(to: p(10, 0)),
                    .curve(to: p(30, 0), control1: p(10, 0), control2: p(20, 10)),
                    .move(to: p(0, 0)), .quadCurve(to: p(10, 0), control: p(5, 5)),
                    .curve(to: p(30, 0), control1: p(10, 0), control2: p(20, 10)),
                ])
    }

    @Test func smoothQuadraticsMirrorOnlyAQuadraticsControlPoint() throws {
        // Chained: (10, 10) through (20, 0) is (30, −10); that through (40, 0) is (50, 10).
        #expect(
            try Path(svgPathData: "M0 0 Q 10 10 20 0 T 40 0 t 20 0").elements == [
                .move(to: p(0, 0)), .quadCurve(to: p(20, 0), control: p(10, 10)),
                .quadCurve(to: p(40, 0), control: p(30, -10)),
                .quadCurve(to: p(60, 0), control: p(50, 10)),
            ])
        #expect(
            try Path(svgPathData: "M0 0 C 0 5 5 5 10 0 T 20 0").elements == [
                .move(to: p(0, 0)), .curve(to: p(10, 0), control1: p(0, 5), control2: p(5, 5)),
                .quadCurve(to: p(20, 0), control: p(10, 0)),
            ])
    }

    // MARK: Arcs

    @Test(arguments: [
        "M 3.7 -2.1 A 13 7 33 1 0 -4.4 8.9",
        "M 0.1 0.2 A 0.3 0.7 -100 0 1 1e-3 -7.77",
        "M 100 100 A 5 5 0 1 1 100.5 100",
        "M 1 1 A 1 1 0 0 0 2 2",
    ])
    func absoluteArcsEndExactlyAtTheirEndPoint(data: String) throws {
        let path = try Path(svgPathData: data)
        let numbers = data.split(separator: " ").suffix(2).compactMap { Double($0) }
        try #require(numbers.count == 2)
        #expect(path.currentPoint == p(numbers[0], numbers[1]))
        #expect(path.elements.count > 1)
        #expect(
            path.elements.dropFirst().allSatisfy { if case .curve = $0 { true } else { false } })
    }

    @Test func relativeArcsEndExactlyAtTheOffsetPoint() throws {
        let path = try Path(svgPathData: "M 0.1 0.7 a 13 7 33 1 0 -4.4 8.9")
        #expect(path.currentPoint == p(0.1 + -4.4, 0.7 + 8.9))
    }

    @Test func arcFlagsNeedNoSeparators() throws {
        let packed = try Path(svgPathData: "M0 0a1 1 0 00 1 1a1,1,0,1,1,2,0")
        let spaced = try Path(svgPathData: "M0 0 a 1 1 0 0 0 1 1 a 1 1 0 1 1 2 0")
        #expect(packed == spaced)
        #expect(packed.currentPoint == p(3, 1))
    }

    /// From (0, 0) to (10, 10) with radius 10 the centre is (10, 0) or (0, 10). The sweep flag
    /// turns clockwise on screen: around (0, 10) that is the quarter from 12 to 3 o'clock;
    /// around (10, 0), the three quarters from 9 o'clock through 12 and 3 to 6.
    @Test(arguments: [
        (isLarge: false, isClockwise: true, center: Point(x: 0, y: 10), turns: 0.25),
        (isLarge: true, isClockwise: true, center: Point(x: 10, y: 0), turns: 0.75),
        (isLarge: false, isClockwise: false, center: Point(x: 10, y: 0), turns: 0.25),
        (isLarge: true, isClockwise: false, center: Point(x: 0, y: 10), turns: 0.75),
    ])
    func arcFlagsPickTheSpecifiedCentreAndSide(
        isLarge: Bool, isClockwise: Bool, center: Point, turns: Double
    )
        throws
    {
        let data = "M 0 0 A 10 10 0 \(isLarge ? 1 : 0) \(isClockwise ? 1 : 0) 10 10"
        let path = try Path(svgPathData: data)
        let points = try #require(path.flattened(tolerance: 0.01).first)
        let worst = points.map { abs($0.distance(to: center) - 10) }.max()!
        #expect(worst <= 0.01, "a point strays \(worst) from the circle around \(center)")
        expectClose(path.length, turns * 2 * .pi * 10, within: 0.01)
    }

    @Test func tooSmallRadiiAreScaledUpToReach() throws {
        // Radius 1 cannot join points 20 apart; scaled to 10 it is the upper half circle.
        let path = try Path(svgPathData: "M 0 0 A 1 1 0 0 1 20 0")
        expectClose(path.bounds, Rect(x: 0, y: -10, width: 20, height: 10), within: 1e-12)
        // Negative radii count as positive.
        #expect(try Path(svgPathData: "M 0 0 A -1 -1 0 0 1 20 0") == path)
    }

    @Test func rotatedArcsTurnTheEllipse() throws {
        // Turned 90°, the 20-by-10 ellipse's long axis is vertical: (0, 0) and (0, 40) are its
        // ends, and sweeping clockwise from the top passes x = 10.
        let path = try Path(svgPathData: "M 0 0 A 20 10 90 0 1 0 40")
        expectClose(path.bounds, Rect(x: 0, y: 0, width: 10, height: 40), within: 1e-9)
    }

    @Test func zeroRadiusArcsAreStraightLines() throws {
        #expect(
            try Path(svgPathData: "M 0 0 A 0 5 0 0 1 20 0").elements == [
                .move(to: p(0, 0)), .line(to: p(20, 0)),
            ])
    }

    @Test func arcsThatEndWhereTheyStartAreLeftOut() throws {
        #expect(
            try Path(svgPathData: "M 5 5 A 10 10 0 0 1 5 5 L 6 6").elements == [
                .move(to: p(5, 5)), .line(to: p(6, 6)),
            ])
    }

    // MARK: Errors

    @Test(arguments: [
        ("L 10 10", 0, SVGPathError.Expectation.moveTo),
        ("  L 1 1", 2, .moveTo),
        ("5 5", 0, .moveTo),
        ("M 10", 4, .number),
        ("M 0 0 L 10", 10, .number),
        ("M 0 0 L", 7, .number),
        ("M 0 0 L ", 8, .number),
        ("M 0 0 C 1 2 3 4 5", 17, .number),
        ("M 0 0 X 1", 6, .commandOrNumber),
        ("M 0 0 L 1 2\u{A0}3", 11, .commandOrNumber),
        ("M 0 0 Z 1 1", 8, .command),
        ("M,0 0", 1, .number),
        ("M 0 0 L 1 2,", 12, .number),
        ("M 0 0 L 1,,2", 10, .number),
        ("M 0 0 L - 1", 8, .number),
        ("M 0 0 L 1e 2", 9, .number),
        ("M 0 0 A 1 1 0 2 0 5 5", 14, .flag),
        ("M 0 0 A 1 1 0 0", 15, .flag),
        ("M 1e999 0", 2, .finiteNumber),
    ])
    func malformedDataReportsWhereAndWhat(
        data: String, offset: Int, expected: SVGPathError.Expectation
    ) {
        #expect(throws: SVGPathError(offset: offset, expected: expected)) {
            try Path(svgPathData: data)
        }
    }

    @Test func errorOffsetsCountCharacters() {
        // The combining accent makes "2́" one character of three bytes; the error is in it.
        #expect(throws: SVGPathError(offset: 10, expected: .commandOrNumber)) {
            try Path(svgPathData: "M 0 0 L 1 2\u{301} 3")
        }
    }

    @Test func errorsDescribeThemselves() {
        #expect(
            SVGPathError(offset: 12, expected: .number).description
                == "expected a number at offset 12")
        #expect(
            SVGPathError(offset: 0, expected: .moveTo).description
                == "expected a moveto command (M or m) at offset 0")
    }

    // MARK: Writing

    @Test func pathsAreWrittenAsAbsoluteCommands() {
        var path = Path(rect: Rect(x: 0, y: 0, width: 10, height: 5.5))
        path.move(to: p(-1, 2e-7))
        path.addQuadCurve(to: p(3, 4), control: p(1, 2))
        path.addCurve(to: p(9, 10), control1: p(5, 6), control2: p(7, 8))
        #expect(
            path.svgPathData() == "M0 0 L10 0 L10 5.5 L0 5.5 Z M-1 2e-07 Q1 2 3 4 C5 6 7 8 9 10")
    }

    @Test(arguments: [
        Path(ellipseIn: Rect(x: 0.1, y: 0.2, width: 33.3, height: 44.4)),
        Path(roundedRect: Rect(x: -5, y: 7, width: 100, height: 30), cornerRadius: 8),
        try! Path(svgPathData: "M 10 10 l 10 0 q 5 5 0 10 t -10 0 z m 1 1 a 3 4 5 1 0 6 7 Z"),
    ])
    func writtenPathsReadBackEqual(path: Path) throws {
        #expect(try Path(svgPathData: path.svgPathData()) == path)
    }

    @Test func aSegmentAfterACloseIsWrittenWithAMoveToTheSubpathStart() throws {
        var path = Path()
        path.move(to: p(1, 1))
        path.addLine(to: p(5, 1))
        path.closeSubpath()
        path.addLine(to: p(1, 5))
        #expect(path.svgPathData() == "M1 1 L5 1 Z M1 1 L1 5")
    }
}
