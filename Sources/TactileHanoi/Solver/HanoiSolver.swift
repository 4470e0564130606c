import TactileCore

/// Finds fewest-move plans between Tower of Hanoi positions.
public enum HanoiSolver {
    /// The largest state space (pegs^disks) searched exhaustively when four or more pegs start
    /// or end outside a single tower: 4 pegs up to 11 disks, 5 pegs up to 9.
    public static let exhaustiveSearchLimit = 1 << 22

    /// The optimal transfer of a whole tower from peg A to the last peg.
    public static func plan(disks: Int, pegs: Int = 3) throws(HanoiError) -> HanoiPlan {
        try HanoiLimits.check(disks: disks)
        try HanoiLimits.check(pegs: pegs)
        return try plan(
            from: HanoiPosition(disks: disks, pegs: pegs, allOn: 0),
            to: HanoiPosition(disks: disks, pegs: pegs, allOn: pegs - 1))
    }

    /// A fewest-move plan from one legal position to another.
    ///
    /// Three pegs: exact for every pair of positions. The largest disk whose peg differs
    /// moves once (the smaller disks gather on the third peg) or twice (they gather on the
    /// goal peg, then on the start peg); the cheaper is taken. Smaller disks are gathered into
    /// a tower greedily, which is optimal.
    ///
    /// Four or more pegs: tower to tower uses Frame–Stewart's recursion (optimal for four pegs,
    /// conjectured optimal beyond); other positions are solved by breadth-first search when
    /// `pegs^disks` is at most ``exhaustiveSearchLimit``.
    ///
    /// - Throws: ``HanoiError`` when the positions differ in disks or pegs, or when four or
    ///   more pegs and a non-tower position exceed the search limit.
    public static func plan(from start: HanoiPosition, to goal: HanoiPosition) throws(HanoiError)
        -> HanoiPlan
    {
        guard start.diskCount == goal.diskCount else {
            throw HanoiError(
                "the start has \(start.diskCount) disks but the goal has \(goal.diskCount)")
        }
        guard start.pegCount == goal.pegCount else {
            throw HanoiError(
                "the start has \(start.pegCount) pegs but the goal has \(goal.pegCount)")
        }
        let pegs = start.pegCount
        let all = UInt32((1 << pegs) - 1)
        if let a = start.towerPeg, let b = goal.towerPeg {
            let transfer = TowerTransfer(
                base: 0, count: start.diskCount, from: a, to: b, allowed: all)
            return HanoiPlan(
                start: start, goal: goal, segments: a == b ? [] : [.transfer(transfer)])
        }
        if pegs == 3 {
            return HanoiPlan(
                start: start, goal: goal, segments: threePegSegments(from: start, to: goal))
        }
        let states = stateCount(disks: start.diskCount, pegs: pegs)
        guard states <= exhaustiveSearchLimit else {
            let limit = largestSearchableDisks(pegs: pegs)
            throw HanoiError(
                Localization.text(
                    "with {1} pegs, positions other than a single tower can be solved for up to {2} disks, got {3}",
                    pegs, limit, start.diskCount))
        }
        let moves = ExhaustiveSearch(start: start, goal: goal).shortestPath()
        return HanoiPlan(start: start, goal: goal, segments: moves.map { .single($0) })
    }

    /// The best next move from `position` towards `goal`, or `nil` when already there.
    public static func hint(from position: HanoiPosition, to goal: HanoiPosition) throws(HanoiError)
        -> HanoiMove?
    {
        let plan = try plan(from: position, to: goal)
        return plan.count > 0 ? plan.move(number: 1) : nil
    }

    /// The most disks that can be searched exhaustively with `pegs` pegs.
    public static func largestSearchableDisks(pegs: Int) -> Int {
        var disks = 0
        while stateCount(disks: disks + 1, pegs: pegs) <= exhaustiveSearchLimit { disks += 1 }
        return disks
    }

    static func stateCount(disks: Int, pegs: Int) -> Int {
        var count = 1
        for _ in 0..<disks {
            let (next, overflow) = count.multipliedReportingOverflow(by: pegs)
            if overflow || next > exhaustiveSearchLimit { return .max }
            count = next
        }
        return count
    }

    // MARK: - Three pegs

    private static func threePegSegments(from start: HanoiPosition, to goal: HanoiPosition)
        -> [HanoiPlan.Segment]
    {
        // The largest disk that has to move; larger ones never move.
        guard let d = (1...start.diskCount).last(where: { start.peg(of: $0) != goal.peg(of: $0) })
        else { return [] }
        let (s, g) = (start.peg(of: d), goal.peg(of: d))
        let r = 3 - s - g
        let once =
            gather(start, disks: d - 1, onto: r)
            + [.single(HanoiMove(disk: d, from: s, to: g))]
            + reversed(gather(goal, disks: d - 1, onto: r))
        let twice =
            gather(start, disks: d - 1, onto: g)
            + [.single(HanoiMove(disk: d, from: s, to: r))]
            + [.transfer(TowerTransfer(base: 0, count: d - 1, from: g, to: s, allowed: 0b111))]
            + [.single(HanoiMove(disk: d, from: r, to: g))]
            + reversed(gather(goal, disks: d - 1, onto: s))
        return total(twice) < total(once) ? twice : once
    }

    /// Segments that bring disks 1…`disks` of `position` into a tower on `peg` (greedy,
    /// optimal): the largest disk not yet there goes directly once the smaller ones are
    /// gathered on the third peg, and then they follow as a tower.
    private static func gather(_ position: HanoiPosition, disks: Int, onto peg: Int)
        -> [HanoiPlan.Segment]
    {
        var tail: [HanoiPlan.Segment] = []
        var target = peg
        var m = disks
        while m > 0 {
            let here = position.peg(of: m)
            if here != target {
                let other = 3 - here - target
                // Prepended later segments run after the gathering of disks 1…m−1 onto `other`.
                tail.insert(
                    contentsOf: [
                        .single(HanoiMove(disk: m, from: here, to: target)),
                        .transfer(
                            TowerTransfer(
                                base: 0, count: m - 1, from: other, to: target, allowed: 0b111)),
                    ], at: 0)
                target = other
            }
            m -= 1
        }
        return tail
    }

    private static func reversed(_ segments: [HanoiPlan.Segment]) -> [HanoiPlan.Segment] {
        segments.reversed().map(\.reversed)
    }

    /// The number of moves, or `UInt64.max` on overflow.
    private static func total(_ segments: [HanoiPlan.Segment]) -> UInt64 {
        segments.reduce(0) { FrameStewart.saturatingAdd($0, $1.moveCount) }
    }
}
