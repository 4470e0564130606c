/// The optimal (Frame–Stewart) transfer of a tower: disks `base + 1 … base + count` go from
/// peg `from` to peg `to`, using only the pegs in `allowed`.
///
/// Nothing is stored per move: move `k` and the position after `k` moves are computed
/// directly. With three pegs, move `k` moves disk `ctz(k) + 1`, and that disk's pegs follow
/// from how often it has moved before, `k >> disk` (each disk cycles through the pegs in a
/// fixed direction that depends on its parity). With more pegs the Frame–Stewart recursion
/// is descended, O(disks · pegs).
struct TowerTransfer: Hashable, Sendable {
    /// Disks below this number are not part of the transfer.
    var base: Int
    /// How many disks move.
    var count: Int
    var from: Int
    var to: Int
    /// A bit per peg that may be used.
    var allowed: UInt32

    var pegCount: Int { allowed.nonzeroBitCount }

    /// The number of moves.
    var moveCount: UInt64 { FrameStewart.moves(disks: count, pegs: pegCount) }

    /// The transfer played backwards: the same disks from `to` to `from`.
    var reversed: TowerTransfer {
        TowerTransfer(base: base, count: count, from: to, to: from, allowed: allowed)
    }

    /// The third peg of a three-peg transfer.
    private var via: Int {
        (allowed & ~(1 << UInt32(from)) & ~(1 << UInt32(to))).trailingZeroBitCount
    }

    /// Move number `k` (1-based).
    func move(number k: UInt64) -> HanoiMove {
        if pegCount == 3 {
            let disk = k.trailingZeroBitCount + 1
            let earlier = k >> UInt64(disk)  // how often this disk moved before
            let phase = Int(earlier % 3)
            let cycle = cycle(ofLocalDisk: disk)
            return HanoiMove(
                disk: base + disk, from: Self.peg(cycle, phase),
                to: Self.peg(cycle, phase == 2 ? 0 : phase + 1))
        }
        let (first, middle, last) = parts()
        let firstCount = first.moveCount
        if k <= firstCount { return first.move(number: k) }
        let middleCount = middle.moveCount
        if k - firstCount <= middleCount { return middle.move(number: k - firstCount) }
        return last.move(number: k - firstCount - middleCount)
    }

    /// Writes the peg of every disk of the transfer after `k` of its moves into `position`.
    func place(after k: UInt64, into position: inout HanoiPosition) {
        guard count > 0 else { return }
        if pegCount == 3 {
            for disk in 1...count {
                // Disk d moves at k = 2^(d−1), 3·2^(d−1), …: ⌊(k + 2^(d−1)) / 2^d⌋ times.
                let moves = (k >> UInt64(disk)) + ((k >> UInt64(disk - 1)) & 1)
                position.setPeg(Self.peg(cycle(ofLocalDisk: disk), Int(moves % 3)), of: base + disk)
            }
            return
        }
        let (first, middle, last) = parts()
        let firstCount = first.moveCount
        let middleCount = middle.moveCount
        if k <= firstCount {
            first.place(after: k, into: &position)
            middle.place(after: 0, into: &position)
        } else if k - firstCount <= middleCount {
            first.place(after: firstCount, into: &position)
            middle.place(after: k - firstCount, into: &position)
        } else {
            last.place(after: k - firstCount - middleCount, into: &position)
            middle.place(after: middleCount, into: &position)
        }
    }

    /// Calls `body` with every move in order, without per-move recursion for three pegs.
    func forEachMove(_ body: (HanoiMove) throws -> Void) rethrows {
        guard count > 0 else { return }
        if pegCount == 3 {
            var iterator = ThreePegMoves(transfer: self)
            while let move = iterator.next() { try body(move) }
            return
        }
        let (first, middle, last) = parts()
        try first.forEachMove(body)
        try middle.forEachMove(body)
        try last.forEachMove(body)
    }

    /// The pegs a local disk visits in turn, starting from `from`.
    @inline(__always)
    func cycle(ofLocalDisk disk: Int) -> (Int, Int, Int) {
        (count - disk) & 1 == 0 ? (from, to, via) : (from, via, to)
    }

    /// Element `index` (0, 1 or 2) of a cycle.
    @inline(__always)
    static func peg(_ cycle: (Int, Int, Int), _ index: Int) -> Int {
        index == 0 ? cycle.0 : (index == 1 ? cycle.1 : cycle.2)
    }

    /// Frame–Stewart's three stages: the top disks aside, the rest across without the aside
    /// peg, the top disks back on top.
    private func parts() -> (TowerTransfer, TowerTransfer, TowerTransfer) {
        let split = FrameStewart.split(disks: count, pegs: pegCount)
        let others = allowed & ~(1 << UInt32(from)) & ~(1 << UInt32(to))
        let aside = others.trailingZeroBitCount
        let first = TowerTransfer(base: base, count: split, from: from, to: aside, allowed: allowed)
        let middle = TowerTransfer(
            base: base + split, count: count - split, from: from, to: to,
            allowed: allowed & ~(1 << UInt32(aside)))
        let last = TowerTransfer(base: base, count: split, from: aside, to: to, allowed: allowed)
        return (first, middle, last)
    }
}

/// The moves of a three-peg transfer generated one after another in O(1) each: move k moves
/// disk ctz(k) + 1 one step along that disk's cycle of pegs.
struct ThreePegMoves: IteratorProtocol {
    private var k: UInt64 = 0
    private let total: UInt64
    private let base: Int
    /// Per local disk: its current index in its cycle (0, 1, 2).
    private var phase: [UInt8]
    /// The two cycles: even distance from the top disk, odd distance.
    private let cycles: (even: (Int, Int, Int), odd: (Int, Int, Int))
    private let topParity: Int

    init(transfer: TowerTransfer) {
        total = transfer.moveCount
        base = transfer.base
        phase = [UInt8](repeating: 0, count: transfer.count + 1)
        let a = transfer.cycle(ofLocalDisk: transfer.count)
        let b = transfer.count > 1 ? transfer.cycle(ofLocalDisk: transfer.count - 1) : a
        cycles = (a, b)
        topParity = transfer.count & 1
    }

    mutating func next() -> HanoiMove? {
        guard k < total else { return nil }
        k &+= 1
        let disk = k.trailingZeroBitCount + 1
        let p = Int(phase[disk])
        phase[disk] = p == 2 ? 0 : UInt8(p + 1)
        let cycle = (disk & 1) == topParity ? cycles.even : cycles.odd
        let from = p == 0 ? cycle.0 : (p == 1 ? cycle.1 : cycle.2)
        let to = p == 0 ? cycle.1 : (p == 1 ? cycle.2 : cycle.0)
        return HanoiMove(disk: base + disk, from: from, to: to)
    }
}
