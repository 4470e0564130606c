import Foundation
import TactileCairo
import TactileCore
import TestSupport
import Testing

/// `tactile render`'s options that set up a component: each shows in the picture, counted
/// from its pixels (disks, pegs, balls, pulled balls, dots, the dots of a pattern), and a
/// value out of range is refused naming it and what is accepted.
@Suite struct RenderOptionTests {
    let scratch = ScratchDirectory("render-options")

    /// Renders a PNG with `arguments` after `render` and reads it back.
    func picture(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation)
        throws -> Bitmap
    {
        let path = scratch.file("\(UUID()).png")
        let run = tactile(["render"] + arguments + ["--out", path])
        #expect(run.code == 0, "\(run.errors)", sourceLocation: sourceLocation)
        return try ImageLoader.load(path: path)
    }

    // MARK: - Hanoi

    @Test(arguments: [(2, 3), (4, 3), (6, 5), (7, 4)])
    func hanoiDrawsTheDisksAndPegsAsked(disks: Int, pegs: Int) throws {
        let image = try picture([
            "hanoi", "--disks", "\(disks)", "--pegs", "\(pegs)", "--seconds", "0",
        ])
        let reader = Picture(image)
        // The bases: the first of the rows most covered, cut into one run per peg.
        let covered = (0..<image.height).map { reader.runs(inRow: $0).covered }
        let baseRow = covered.firstIndex(of: covered.max()!)!
        #expect(reader.runs(inRow: baseRow).runs.count == pegs)
        // At time 0 every disk is on A. Down the stack, the leftmost object (A's rod, then its
        // disks) widens over each rounded disk and narrows to a neck where it meets the next,
        // which starts wider: a disk begins wherever the width jumps up out of a neck.
        var widest: [Int] = []
        var previous = 0
        // The bases start at the first row where nothing narrow (a rod) is left.
        let baseTop = (0..<baseRow).first { y in
            let runs = reader.runs(inRow: y).runs
            return runs.count > 1 && runs.allSatisfy { $0.count > 16 }
        }!
        for y in 0..<baseTop {
            let width = reader.runs(inRow: y).runs.first?.count ?? 0
            // The rod alone is at most 12 pixels wide.
            guard width > 16 else { continue }
            if widest.isEmpty || (width > previous + 3 && widest[widest.count - 1] - previous >= 4)
            {
                widest.append(width)
            }
            widest[widest.count - 1] = max(widest[widest.count - 1], width)
            previous = width
        }
        #expect(widest.count == disks, "widest rows of the disks: \(widest)")
        #expect(widest == widest.sorted(), "disks widen downwards: \(widest)")
    }

    /// The demonstration plays the whole solution at 2.5 moves a second, then a second at
    /// rest; a longer one plays faster so that it lasts 12 s, and beyond 1,000 moves a second
    /// the first 12 s of it are shown.
    @Test(arguments: [(1, 1.0 / 2.5 + 1), (4, 15 / 2.5 + 1), (5, 13.0), (64, 13.0)])
    func hanoiGIFLastsAsLongAsItsSolution(disks: Int, seconds: Double) throws {
        let path = scratch.file("hanoi-\(disks).gif")
        let run = tactile([
            "render", "hanoi", "--disks", "\(disks)", "--size", "16x16", "--out", path,
        ])
        #expect(run.code == 0, "\(run.errors)")
        let frames = try GIFDecoder(Array(Data(contentsOf: URL(fileURLWithPath: path)))).images
            .count
        #expect(frames == Int((seconds * 20).rounded()))
    }

    // MARK: - Cradle

    @Test(arguments: [
        (["--balls", "7", "--pull", "3"], 7, 3), ([], 5, 2), (["--balls", "2"], 2, 1),
    ])
    func cradleHangsTheBallsAskedAndPullsTheOnesAsked(
        options: [String], balls: Int, pulled: Int
    ) throws {
        let image = try picture(["cradle", "--seconds", "0"] + options)
        let reader = Picture(image)
        // The bar is the row with the longest dark run; the strings hang from it.
        let dark = { (y: Int) in reader.runs(inRow: y, darkerBy: 40).runs }
        let longest = (0..<image.height).map { dark($0).map(\.count).max() ?? 0 }
        var below = longest.firstIndex(of: longest.max()!)!
        while (dark(below + 1).map(\.count).max() ?? 0) > longest.max()! / 2 { below += 1 }
        let atTheBar = dark(below + 4)
        let lower = dark(below + 20)
        #expect(atTheBar.count == balls, "strings under the bar: \(atTheBar)")
        #expect(lower.count == balls, "strings lower down: \(lower)")
        // A pulled string leans out to the left: lower down it is off its anchor.
        let leaning = lower.filter { run in
            !atTheBar.contains { abs($0.lowerBound - run.lowerBound) <= 2 }
        }
        #expect(leaning.count == pulled, "leaning: \(leaning) of \(lower)")
        #expect(leaning.allSatisfy { $0.lowerBound < atTheBar[pulled].lowerBound })
    }

    // MARK: - Pattern

    /// The dots of a grid, numbered 1…N² row by row: the centres of the objects of the
    /// picture at the end of the demonstration, when the grid is cleared.
    func dots(grid: Int?) throws -> [(x: Int, y: Int)] {
        let image = try picture(
            ["pattern", "--seconds", "60"] + (grid.map { ["--grid", "\($0)"] } ?? []))
        let centres = Picture(image).objects().map(\.centre)
        let rows = Dictionary(grouping: centres) { $0.y }.sorted { $0.key < $1.key }
        return rows.flatMap { $0.value.sorted { $0.x < $1.x } }
    }

    @Test(arguments: [nil, 2, 4, 6])
    func patternDrawsTheGridAsked(grid: Int?) throws {
        let dots = try dots(grid: grid)
        let n = grid ?? 3
        #expect(dots.count == n * n)
        #expect(Set(dots.map(\.y)).count == n && Set(dots.map(\.x)).count == n)
    }

    @Test(arguments: [
        (nil, nil, [7, 4, 1, 5, 9, 6, 3]),
        (4, nil, [13, 9, 5, 1, 6, 11, 16, 12, 8, 4]),
        (4, "1-6-11-16-12-8-4", [1, 6, 11, 16, 12, 8, 4]),
        (3, "3-2-1-4", [3, 2, 1, 4]),
        // A dot passed over on the way is taken, as a drag would.
        (nil, "1-3-9-7", [1, 2, 3, 6, 9, 8, 7]),
    ])
    func patternShowsThePatternAskedAsAccepted(grid: Int?, pattern: String?, dots expected: [Int])
        throws
    {
        let dots = try dots(grid: grid)
        var options = grid.map { ["--grid", "\($0)"] } ?? []
        if let pattern { options += ["--pattern", pattern] }
        let accepted = try picture(["pattern"] + options)
        let cleared = try picture(
            ["pattern", "--seconds", "60"] + (grid.map { ["--grid", "\($0)"] } ?? []))
        // At the still moment a selected dot is drawn over (green), an unselected one is
        // as on the cleared grid.
        let selected = dots.indices.filter { i in
            let (x, y) = dots[i]
            return Picture.distance(accepted[x, y], cleared[x, y]) > 30
        }.map { $0 + 1 }
        #expect(Set(selected) == Set(expected))
    }

    // MARK: - Refusals

    @Test(arguments: [
        (["hanoi", "--disks", "0"], "--disks must be a whole number 1…64, got 0"),
        (["hanoi", "--disks", "65"], "--disks must be a whole number 1…64, got 65"),
        (["hanoi", "--disks", "four"], "--disks must be a whole number 1…64, got \"four\""),
        (["hanoi", "--pegs", "2"], "--pegs must be a whole number 3…26, got 2"),
        (["hanoi", "--pegs", "27"], "--pegs must be a whole number 3…26, got 27"),
        (["cradle", "--balls", "1"], "--balls must be a whole number 2…9, got 1"),
        (["cradle", "--balls", "10"], "--balls must be a whole number 2…9, got 10"),
        (
            ["cradle", "--balls", "3", "--pull", "3"],
            "--pull (with 3 balls) must be a whole number 1…2, got 3"
        ),
        (["cradle", "--pull", "0"], "--pull (with 5 balls) must be a whole number 1…4, got 0"),
        (["pattern", "--grid", "7"], "--grid must be a whole number 2…6, got 7"),
        (["pattern", "--grid", "1"], "--grid must be a whole number 2…6, got 1"),
        (
            ["pattern", "--pattern", "1-2-3"],
            "--pattern \"1-2-3\" on the 3×3 grid: connect at least 4"
        ),
        (
            ["pattern", "--pattern", "1-2-3-10"],
            "--pattern \"1-2-3-10\" on the 3×3 grid: dot 10 is out of range; dots are numbered 1…9"
        ),
        (
            ["pattern", "--grid", "2", "--pattern", "1-2-4-5"],
            "--pattern \"1-2-4-5\" on the 2×2 grid: dot 5 is out of range; dots are numbered 1…4"
        ),
        (
            ["pattern", "--pattern", "1-2-1-4"],
            "--pattern \"1-2-1-4\" on the 3×3 grid: item 3 repeats"
        ),
        (
            ["pattern", "--pattern", ""],
            "--pattern \"\" on the 3×3 grid: a pattern needs at least one dot"
        ),
        (
            ["cradle", "--disks", "3"],
            "--disks sets up hanoi, not cradle, which takes --balls and --pull"
        ),
        (
            ["hanoi", "--pattern", "1-2-3-6"],
            "--pattern sets up pattern, not hanoi, which takes --disks and --pegs"
        ),
        (
            ["puzzle", "--balls", "3"],
            "--balls sets up cradle, not puzzle, which takes no such option"
        ),
    ])
    func outOfRangeValuesAreRefused(arguments: [String], message: String) {
        let run = tactile(["render"] + arguments + ["--out", scratch.file("never.png")])
        #expect(run.code == 2)
        #expect(run.errors.contains(message), "stderr was: \(run.errors)")
        #expect(scratch.contents.isEmpty, "nothing is written: \(scratch.contents)")
    }
}

/// Reads a rendered picture: runs of pixels that are not background, and objects.
struct Picture {
    let bitmap: Bitmap
    /// The colour of the top-left pixel, which every scene leaves as background.
    let background: (Int, Int, Int)

    init(_ bitmap: Bitmap) {
        self.bitmap = bitmap
        let p = bitmap.pixels
        background = (Int(p[0]), Int(p[1]), Int(p[2]))
    }

    /// The largest difference in a channel between two colours, in levels 0…255.
    static func distance(_ a: Color, _ b: Color) -> Int {
        Int((max(abs(a.red - b.red), abs(a.green - b.green), abs(a.blue - b.blue)) * 255).rounded())
    }

    /// How far pixel (x, y) is from the background, in levels; negative when lighter than it.
    func contrast(_ x: Int, _ y: Int) -> (largest: Int, darker: Int) {
        let i = (y * bitmap.width + x) * 4
        let p = bitmap.pixels
        let d = [
            Int(p[i]) - background.0, Int(p[i + 1]) - background.1, Int(p[i + 2]) - background.2,
        ]
        return (d.map(abs).max()!, -(d.reduce(0, +) / 3))
    }

    /// The runs of pixels in row `y` that differ from the background by more than 24 levels
    /// (or are darker than it by more than `darkerBy`), left to right, and how many pixels
    /// they cover.
    func runs(inRow y: Int, darkerBy: Int? = nil) -> (runs: [Range<Int>], covered: Int) {
        var runs: [Range<Int>] = []
        var start: Int?
        for x in 0...bitmap.width {
            let inside: Bool
            if x == bitmap.width {
                inside = false
            } else if let darkerBy {
                inside = contrast(x, y).darker > darkerBy
            } else {
                inside = contrast(x, y).largest > 24
            }
            if inside, start == nil { start = x }
            if !inside, let s = start {
                runs.append(s..<x)
                start = nil
            }
        }
        return (runs, runs.reduce(0) { $0 + $1.count })
    }

    /// The connected groups (4-neighbours) of pixels that differ from the background, with
    /// their size and centre rounded to whole pixels; groups under 4 pixels are left out.
    func objects() -> [(size: Int, centre: (x: Int, y: Int))] {
        let w = bitmap.width
        var seen = [Bool](repeating: false, count: w * bitmap.height)
        var found: [(size: Int, centre: (x: Int, y: Int))] = []
        for start in seen.indices where !seen[start] && contrast(start % w, start / w).largest > 24
        {
            var stack = [start]
            seen[start] = true
            var count = 0
            var sx = 0
            var sy = 0
            while let i = stack.popLast() {
                let (x, y) = (i % w, i / w)
                count += 1
                sx += x
                sy += y
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                where nx >= 0 && ny >= 0 && nx < w && ny < bitmap.height {
                    let j = ny * w + nx
                    if !seen[j], contrast(nx, ny).largest > 24 {
                        seen[j] = true
                        stack.append(j)
                    }
                }
            }
            if count >= 4 {
                found.append(
                    (
                        count,
                        (
                            Int((Double(sx) / Double(count)).rounded()),
                            Int((Double(sy) / Double(count)).rounded())
                        )
                    ))
            }
        }
        return found
    }
}
