/// A sequence of moves from one position to another, addressable by move number.
///
/// A plan is a short list of segments — single moves and whole-tower transfers — so even a
/// 64-disk plan of 2⁶⁴ − 1 moves takes a few kilobytes, and ``move(number:)`` and
/// ``position(after:)`` take O(disks) time at any point of it.
public struct HanoiPlan: Sendable {
    enum Segment: Hashable, Sendable {
        case single(HanoiMove)
        case transfer(TowerTransfer)

        var moveCount: UInt64 {
            switch self {
            case .single: 1
            case .transfer(let t): t.moveCount
            }
        }

        var reversed: Segment {
            switch self {
            case .single(let m): .single(m.reversed)
            case .transfer(let t): .transfer(t.reversed)
            }
        }
    }

    /// Where the plan starts.
    public let start: HanoiPosition
    /// Where the plan ends.
    public let goal: HanoiPosition
    let segments: [Segment]
    /// `ends[i]` is the number of moves up to and including segment `i`.
    private let ends: [UInt64]
    /// The position before each segment.
    private let startPositions: [HanoiPosition]

    init(start: HanoiPosition, goal: HanoiPosition, segments: [Segment]) {
        self.start = start
        self.goal = goal
        let kept = segments.filter { $0.moveCount > 0 }
        self.segments = kept
        var ends: [UInt64] = []
        var positions: [HanoiPosition] = []
        var total: UInt64 = 0
        var position = start
        for segment in kept {
            positions.append(position)
            total += segment.moveCount
            ends.append(total)
            switch segment {
            case .single(let m): position = position.applying(m)
            case .transfer(let t): t.place(after: t.moveCount, into: &position)
            }
        }
        self.ends = ends
        self.startPositions = positions
    }

    /// The number of moves.
    public var count: UInt64 { ends.last ?? 0 }

    /// Move number `k`, counting from 1.
    ///
    /// - Precondition: `k` is in 1…``count``.
    public func move(number k: UInt64) -> HanoiMove {
        precondition(k >= 1 && k <= count, "move \(k) is outside 1…\(count)")
        let i = segmentIndex(containing: k)
        let before = i == 0 ? 0 : ends[i - 1]
        switch segments[i] {
        case .single(let m): return m
        case .transfer(let t): return t.move(number: k - before)
        }
    }

    /// The position after the first `k` moves (0 gives ``start``).
    ///
    /// - Precondition: `k` is in 0…``count``.
    public func position(after k: UInt64) -> HanoiPosition {
        precondition(k <= count, "move \(k) is outside 0…\(count)")
        guard k > 0 else { return start }
        let i = segmentIndex(containing: k)
        let before = i == 0 ? 0 : ends[i - 1]
        var position = startPositions[i]
        switch segments[i] {
        case .single(let m): position = position.applying(m)
        case .transfer(let t): t.place(after: k - before, into: &position)
        }
        return position
    }

    /// Calls `body` with every move in order; O(1) per move for three pegs.
    public func forEachMove(_ body: (HanoiMove) throws -> Void) rethrows {
        for segment in segments {
            switch segment {
            case .single(let m): try body(m)
            case .transfer(let t): try t.forEachMove(body)
            }
        }
    }

    /// The plan played backwards, from ``goal`` to ``start``.
    public var reversed: HanoiPlan {
        HanoiPlan(start: goal, goal: start, segments: segments.reversed().map(\.reversed))
    }

    private func segmentIndex(containing k: UInt64) -> Int {
        // Binary search for the first segment whose end is at least k.
        var low = 0
        var high = ends.count - 1
        while low < high {
            let mid = (low + high) / 2
            if ends[mid] >= k { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
