import TactilePatternLock
import Testing

/// Android's rules, generalised with gcd: passed-over dots are added first, no dot twice.
@Suite struct PatternRuleTests {
    /// Builds a pattern by moving to each written dot number in turn, as a finger would.
    func drag(_ numbers: [Int], size: Int = 3) throws -> Pattern {
        var pattern = Pattern(grid: try PatternGrid(size: size))
        for number in numbers { pattern.extend(to: number - 1) }
        return pattern
    }

    @Test func oneToThreeAddsTwo() throws {
        #expect(try drag([1, 3]).canonical == "1-2-3")
    }

    @Test func oneToNineAddsFive() throws {
        #expect(try drag([1, 9]).canonical == "1-5-9")
    }

    @Test func oneToEightAddsNothing() throws {
        #expect(try drag([1, 8]).canonical == "1-8")
    }

    @Test func fourToSixOverASelectedFiveAddsNothing() throws {
        #expect(try drag([5, 4, 6]).canonical == "5-4-6")
    }

    @Test func passingOverASelectedDotAddsNothing() throws {
        var pattern = try drag([2, 1])
        #expect(pattern.extend(to: 1) == [], "dot 2 is selected already")
        #expect(pattern.extend(to: 0) == [], "dot 1 is selected already")
        #expect(pattern.canonical == "2-1")
    }

    @Test(arguments: [
        // 4×4: corner to corner passes 6 and 11; along the top row 2 and 3; (0,0)→(2,2) passes 6.
        (4, [1, 16], "1-6-11-16"),
        (4, [1, 4], "1-2-3-4"),
        (4, [1, 11], "1-6-11"),
        (4, [1, 12], "1-12"),  // (0,0)→(2,3): gcd 1
        (4, [13, 4], "13-10-7-4"),
        (4, [2, 6, 1, 11], "2-6-1-11"),  // 1→11 passes 6, already selected
        // 5×5: (0,0)→(4,4) passes three; (0,0)→(2,4) passes (1,2) = 8; (0,0)→(4,2) passes (2,1) = 12.
        (5, [1, 25], "1-7-13-19-25"),
        (5, [1, 15], "1-8-15"),
        (5, [1, 23], "1-12-23"),
        (5, [3, 23], "3-8-13-18-23"),
        (5, [1, 24], "1-24"),  // (0,0)→(4,3): gcd 1
        (5, [5, 21], "5-9-13-17-21"),
        (6, [1, 36], "1-8-15-22-29-36"),
        (6, [1, 29], "1-8-15-22-29"),  // (0,0)→(4,4): gcd 4
        (6, [1, 17], "1-9-17"),  // (0,0)→(2,4): gcd 2
        (6, [1, 33], "1-33"),  // (0,0)→(5,2): gcd 1
    ])
    func gcdRuleOnLargerGrids(size: Int, numbers: [Int], expected: String) throws {
        #expect(try drag(numbers, size: size).canonical == expected)
    }

    /// The gcd rule agrees with plain geometry on every pair of dots on every grid: a dot is
    /// passed over when it is collinear with and strictly between the two.
    @Test(arguments: 2...6)
    func dotsBetweenMatchGeometry(size: Int) throws {
        let grid = try PatternGrid(size: size)
        for a in grid.dots {
            for b in grid.dots where b != a {
                let (ar, ac) = (grid.row(of: a), grid.column(of: a))
                let (br, bc) = (grid.row(of: b), grid.column(of: b))
                let expected = grid.dots.filter { p in
                    let (pr, pc) = (grid.row(of: p), grid.column(of: p))
                    let cross = (br - ar) * (pc - ac) - (bc - ac) * (pr - ar)
                    let along = (pr - ar) * (br - ar) + (pc - ac) * (bc - ac)
                    let length = (br - ar) * (br - ar) + (bc - ac) * (bc - ac)
                    return p != a && p != b && cross == 0 && along > 0 && along < length
                }.sorted {
                    let d0 = abs(grid.row(of: $0) - ar) + abs(grid.column(of: $0) - ac)
                    let d1 = abs(grid.row(of: $1) - ar) + abs(grid.column(of: $1) - ac)
                    return d0 < d1
                }
                #expect(grid.dots(between: a, and: b) == expected, "\(a) → \(b) on \(size)×\(size)")
            }
        }
    }

    @Test func gridSizeOutsideTwoToSixIsRefused() {
        #expect(throws: PatternError.gridSizeOutOfRange(7)) { try PatternGrid(size: 7) }
        #expect(throws: PatternError.gridSizeOutOfRange(1)) { try PatternGrid(size: 1) }
        #expect(PatternError.gridSizeOutOfRange(7).message == "grid size must be 2…6, got 7")
    }

    @Test func minimumLengthIsChecked() throws {
        let short = try drag([1, 2, 3])
        #expect(throws: PatternError.tooShort(count: 3, minimum: 4)) { try short.validate() }
        try short.validate(minimumLength: 3)
    }
}
