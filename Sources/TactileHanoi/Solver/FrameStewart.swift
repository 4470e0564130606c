/// Frame–Stewart numbers: the fewest moves known to transfer a tower of `n` disks with `p`
/// pegs (proven optimal for 3 pegs, and for 4 pegs by Bousch, 2014).
///
/// FS(n, 3) = 2ⁿ − 1 and FS(n, p) = min over 1 ≤ k < n of 2·FS(k, p) + FS(n − k, p − 1).
/// The table covers 0…64 disks and 3…26 pegs, built once in O(n²·p).
public enum FrameStewart {
    private static let table: [[(moves: UInt64, split: Int)]] = {
        let maxDisks = HanoiLimits.disks.upperBound
        let maxPegs = HanoiLimits.pegs.upperBound
        var table = [[(moves: UInt64, split: Int)]](
            repeating: [(0, 0)], count: maxPegs + 1)
        for p in 3...maxPegs {
            var row: [(moves: UInt64, split: Int)] = [(0, 0)]
            for n in 1...maxDisks {
                if p == 3 {
                    row.append((n == 64 ? UInt64.max : (1 << UInt64(n)) - 1, n - 1))
                } else if n == 1 {
                    row.append((1, 0))
                } else {
                    var best: (moves: UInt64, split: Int) = (.max, 0)
                    for k in 1..<n {
                        let total = saturatingAdd(
                            saturatingAdd(row[k].moves, row[k].moves), table[p - 1][n - k].moves)
                        // Ties go to the larger split.
                        if total <= best.moves { best = (total, k) }
                    }
                    row.append(best)
                }
            }
            table[p] = row
        }
        return table
    }()

    /// The Frame–Stewart number FS(disks, pegs), saturating at `UInt64.max`.
    ///
    /// - Precondition: `disks` in 0…64 and `pegs` in 3…26.
    public static func moves(disks: Int, pegs: Int) -> UInt64 {
        table[pegs][disks].moves
    }

    /// The number of top disks that go aside first, for `disks` and `pegs`.
    static func split(disks: Int, pegs: Int) -> Int {
        table[pegs][disks].split
    }

    static func saturatingAdd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
