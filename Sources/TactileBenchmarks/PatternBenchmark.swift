import Foundation
import TactileCommands
@_spi(Testing) import TactileCrypto
import TactilePatternLock
import TactilePatternVault

/// `tactile bench pattern`: counting 3×3 and 4×4 patterns, against a brute-force walk as the
/// peer, and the time of one verify at the cost new stores use.
enum PatternBenchmark {
    /// The peer: walks every sequence of distinct dots depth first, checking each move.
    struct Walk {
        let grid: PatternGrid
        var between: [UInt64]
        var counts: [UInt64]

        init(grid: PatternGrid) {
            self.grid = grid
            let n = grid.dotCount
            between = [UInt64](repeating: 0, count: n * n)
            counts = [UInt64](repeating: 0, count: n + 1)
            for a in 0..<n {
                for b in 0..<n where a != b {
                    for dot in grid.dots(between: a, and: b) { between[a * n + b] |= 1 << dot }
                }
            }
        }

        mutating func run() {
            for start in 0..<grid.dotCount { walk(set: 1 << UInt64(start), last: start, length: 1) }
        }

        mutating func walk(set: UInt64, last: Int, length: Int) {
            counts[length] += 1
            let n = grid.dotCount
            for next in 0..<n where set & (1 << UInt64(next)) == 0 {
                let needed = between[last * n + next]
                if needed & set == needed {
                    walk(set: set | 1 << UInt64(next), last: next, length: length + 1)
                }
            }
        }
    }

    static func run(output: CommandOutput) throws(CommandFailure) {
        let three = PatternGrid.standard
        let four = try PatternCommand.patternResult { () throws(PatternError) in
            try PatternGrid(size: 4)
        }
        var total: UInt64 = 0
        let dynamic3 = Stopwatch.timePerCall {
            total = (try? PatternCounter.count(grid: three, minimumLength: 1))?.total ?? 0
        }
        var walk = Walk(grid: three)
        let walkWatch = Stopwatch()
        walk.run()
        let walk3 = walkWatch.elapsed
        let walked = walk.counts.reduce(0, +)
        guard walked == total else {
            throw CommandFailure(.negative, "the counts disagree: \(total) against \(walked)")
        }
        output.line("Counting patterns (all lengths; dynamic programming over (set, last dot)):")
        output.line(
            "  3×3: \(total) patterns in \(formatDuration(dynamic3)); brute-force walk \(formatDuration(walk3)) (\(String(format: "%.0f", walk3 / dynamic3))× slower)"
        )
        let fourWatch = Stopwatch()
        let count4 = try PatternCommand.patternResult { () throws(PatternError) in
            try PatternCounter.count(grid: four)
        }
        let dynamic4 = fourWatch.elapsed
        output.line(
            "  4×4: \(count4.total) patterns of 4+ dots in \(formatDuration(dynamic4)) (target: seconds; a walk would visit every one of them)"
        )

        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tactile-bench-\(getpid())-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(.damagedStore, "cannot create \(directory): \(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pattern = try PatternCommand.parse("1-5-9-6", grid: three)
        for (name, cost) in [
            ("recommended", PatternVault.recommendedCost),
            ("minimum (tests)", Argon2idCost.minimum),
        ] {
            let vault = PatternVault(
                path: directory + "/\(cost.passes)-\(cost.memoryBytes)", cost: cost)
            try PatternCommand.vaultResult { () throws(PatternVaultError) in
                try vault.enroll(pattern)
            }
            var times: [Double] = []
            for _ in 0..<5 {
                let watch = Stopwatch()
                let verdict = try PatternCommand.vaultResult { () throws(PatternVaultError) in
                    try vault.verify(pattern)
                }
                times.append(watch.elapsed)
                guard verdict == .accepted else {
                    throw CommandFailure(.negative, "the enrolled pattern was not accepted")
                }
            }
            let median = times.sorted()[times.count / 2]
            output.line(
                "One verify, Argon2id \(name) (\(PatternCommand.describe(cost))), with store read and two atomic writes: median of 5 \(formatDuration(median))"
            )
        }
        output.line("  (target for the recommended cost: 50–500 ms)")
    }
}
