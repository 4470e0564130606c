import TactilePatternLock
import Testing

/// The written form `1-5-9-6`: parsing, normalising like a drag, errors that leak nothing.
@Suite struct PatternCanonicalFormTests {
    @Test(arguments: [
        ("1-5-9-6", "1-5-9-6"),
        ("1-3-6-9", "1-2-3-6-9"),
        ("7-3", "7-5-3"),
        (" 1 - 2 -3-6 ", "1-2-3-6"),
        ("2-8-1-3", "2-5-8-1-3"),  // 1→3 passes 2, already selected
    ])
    func parsesAndNormalises(text: String, canonical: String) throws {
        #expect(try Pattern(canonical: text).canonical == canonical)
    }

    @Test func roundTripsEveryDotOnEveryGrid() throws {
        for size in 2...6 {
            let grid = try PatternGrid(size: size)
            let pattern = try Pattern(dots: Array(grid.dots.reversed()), grid: grid)
            #expect(try Pattern(canonical: pattern.canonical, grid: grid) == pattern)
            #expect(pattern.count == grid.dotCount)
        }
    }

    @Test(arguments: [
        ("", PatternError.empty),
        ("  ", PatternError.empty),
        ("1-2-x", PatternError.notADotNumber("x", position: 3)),
        ("1--2", PatternError.notADotNumber("", position: 2)),
        ("1,2,3", PatternError.notADotNumber("1,2,3", position: 1)),
        ("+1-2", PatternError.notADotNumber("+1", position: 1)),
        ("1-10", PatternError.dotOutOfRange(10, dotCount: 9)),
        ("0-1", PatternError.dotOutOfRange(0, dotCount: 9)),
        ("1-2-1", PatternError.repeatedDot(position: 3)),
        ("1-3-2", PatternError.repeatedDot(position: 3)),  // 2 was passed over
    ])
    func badInputIsRefused(text: String, error: PatternError) {
        #expect(throws: error) { try Pattern(canonical: text) }
    }

    @Test func messagesNameTheProblemButNotTheDots() {
        #expect(
            PatternError.dotOutOfRange(10, dotCount: 9).message
                == "dot 10 is out of range; dots are numbered 1…9 on this grid")
        let repeated = PatternError.repeatedDot(position: 3).message
        #expect(repeated.contains("item 3"))
        #expect(!repeated.contains("2"), "the repeated dot's number is not shown")
    }

    @Test func descriptionHidesTheDots() throws {
        let pattern = try Pattern(canonical: "1-5-9-6")
        #expect(String(describing: pattern) == "pattern of 4 dots on a 3×3 grid")
        #expect(String(reflecting: pattern) == "pattern of 4 dots on a 3×3 grid")
        #expect(!"\(pattern)".contains("5"))
    }
}
