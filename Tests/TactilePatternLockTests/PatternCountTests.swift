import TactilePatternLock
import Testing

/// Counting valid patterns by dynamic programming, against a published table and a
/// brute-force search that checks each move with plain geometry.
@Suite struct PatternCountTests {
    /// Counts by walking every sequence of distinct dots, accepting a move when every dot
    /// collinear with and strictly between its ends is already selected. Independent of the
    /// gcd rule and of the dynamic programme.
    func bruteForce(size: Int, maximumLength: Int) -> [UInt64] {
        let n = size * size
        var counts = [UInt64](repeating: 0, count: n + 1)
        var used = [Bool](repeating: false, count: n)
        func passesOnlySelected(_ a: Int, _ b: Int) -> Bool {
            let (ar, ac, br, bc) = (a / size, a % size, b / size, b % size)
            for p in 0..<n where p != a && p != b && !used[p] {
                let (pr, pc) = (p / size, p % size)
                let cross = (br - ar) * (pc - ac) - (bc - ac) * (pr - ar)
                let along = (pr - ar) * (br - ar) + (pc - ac) * (bc - ac)
                let length = (br - ar) * (br - ar) + (bc - ac) * (bc - ac)
                if cross == 0 && along > 0 && along < length { return false }
            }
            return true
        }
        func walk(from last: Int, length: Int) {
            counts[length] += 1
            guard length < maximumLength else { return }
            for next in 0..<n where !used[next] && passesOnlySelected(last, next) {
                used[next] = true
                walk(from: next, length: length + 1)
                used[next] = false
            }
        }
        for start in 0..<n {
            used[start] = true
            walk(from: start, length: 1)
            used[start] = false
        }
        return counts
    }

    @Test func threeByThreeMatchesThePublishedTable() throws {
        let count = try PatternCounter.count()
        #expect(count.rows.map(\.length) == Array(4...9))
        #expect(count.rows.map(\.count) == [1624, 7152, 26016, 72912, 140_704, 140_704])
        #expect(count.total == 389_112)
    }

    @Test func minimumLengthOneCountsEverything() throws {
        #expect(try PatternCounter.count(minimumLength: 1).total == 389_497)
    }

    @Test(arguments: [2, 3])
    func smallGridsMatchBruteForce(size: Int) throws {
        let grid = try PatternGrid(size: size)
        let counted = try PatternCounter.count(grid: grid, minimumLength: 1).byLength
        #expect(counted == bruteForce(size: size, maximumLength: size * size))
    }

    @Test func fourByFourShortPatternsMatchBruteForce() throws {
        let counted = try PatternCounter.count(grid: PatternGrid(size: 4), minimumLength: 1)
        let walked = bruteForce(size: 4, maximumLength: 5)
        #expect(Array(counted.byLength[1...5]) == Array(walked[1...5]))
    }

    @Test func fourByFourTotal() throws {
        #expect(try PatternCounter.count(grid: PatternGrid(size: 4)).total == 4_350_069_823_024)
    }

    @Test func refusesGridsTooLargeAndBadMinimums() throws {
        #expect(throws: PatternError.gridSizeOutOfRange(5)) {
            try PatternCounter.count(grid: PatternGrid(size: 5))
        }
        #expect(throws: PatternError.minimumLengthOutOfRange(10, dotCount: 9)) {
            try PatternCounter.count(minimumLength: 10)
        }
        #expect(throws: PatternError.minimumLengthOutOfRange(0, dotCount: 9)) {
            try PatternCounter.count(minimumLength: 0)
        }
    }
}
