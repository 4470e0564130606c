/// Breadth-first search over every position, for four or more pegs and small towers.
///
/// A position is encoded as a base-`pegs` number, disk 1 in the lowest digit. Each visited
/// position remembers the move that first reached it, so the path is read backwards from the
/// goal. Memory: two bytes per position.
struct ExhaustiveSearch {
    let start: HanoiPosition
    let goal: HanoiPosition

    func shortestPath() -> [HanoiMove] {
        let pegs = start.pegCount
        let disks = start.diskCount
        let count = HanoiSolver.stateCount(disks: disks, pegs: pegs)
        let startCode = encode(start)
        let goalCode = encode(goal)
        if startCode == goalCode { return [] }
        let unvisited: UInt16 = 0xFFFF
        var via = [UInt16](repeating: unvisited, count: count)
        via[startCode] = 0xFFFE
        var queue = [startCode]
        queue.reserveCapacity(count)
        var head = 0
        var powers = [Int](repeating: 1, count: disks + 1)
        for d in 1...disks { powers[d] = powers[d - 1] * pegs }
        var tops = [Int](repeating: 0, count: pegs)
        search: while head < queue.count {
            let code = queue[head]
            head += 1
            // The smallest disk on each peg (0 for an empty peg).
            for p in 0..<pegs { tops[p] = 0 }
            var rest = code
            for d in 1...disks {
                let p = rest % pegs
                rest /= pegs
                if tops[p] == 0 { tops[p] = d }
            }
            for from in 0..<pegs where tops[from] != 0 {
                let disk = tops[from]
                for to in 0..<pegs where to != from && (tops[to] == 0 || tops[to] > disk) {
                    let next = code + (to - from) * powers[disk - 1]
                    guard via[next] == unvisited else { continue }
                    via[next] = UInt16(from << 8 | to)
                    if next == goalCode { break search }
                    queue.append(next)
                }
            }
        }
        var moves: [HanoiMove] = []
        var code = goalCode
        while code != startCode {
            let step = Int(via[code])
            let (from, to) = (step >> 8, step & 0xFF)
            // The disk that just arrived is the smallest on `to`.
            var disk = 1
            while (code / powers[disk - 1]) % pegs != to { disk += 1 }
            moves.append(HanoiMove(disk: disk, from: from, to: to))
            code -= (to - from) * powers[disk - 1]
        }
        return moves.reversed()
    }

    private func encode(_ position: HanoiPosition) -> Int {
        var code = 0
        for d in stride(from: position.diskCount, through: 1, by: -1) {
            code = code * position.pegCount + position.peg(of: d)
        }
        return code
    }
}
