import Testing

@testable import TactileHanoi

/// Move k and the position after k moves, computed directly, agree with playing the moves.
@Suite struct HanoiMoveFormulaTests {
    /// The textbook recursion, as independent truth.
    func recursiveMoves(_ n: Int, from: Int, to: Int, via: Int, into moves: inout [HanoiMove]) {
        guard n > 0 else { return }
        recursiveMoves(n - 1, from: from, to: via, via: to, into: &moves)
        moves.append(HanoiMove(disk: n, from: from, to: to))
        recursiveMoves(n - 1, from: via, to: to, via: from, into: &moves)
    }

    @Test(arguments: 1...12)
    func directMovesMatchRecursionAndSimulation(disks: Int) throws {
        var expected: [HanoiMove] = []
        recursiveMoves(disks, from: 0, to: 2, via: 1, into: &expected)
        let plan = try HanoiSolver.plan(disks: disks)
        #expect(plan.count == UInt64(expected.count))
        var position = plan.start
        for (i, move) in expected.enumerated() {
            let k = UInt64(i + 1)
            #expect(plan.move(number: k) == move)
            #expect(position.isLegal(move))
            position = position.applying(move)
            #expect(plan.position(after: k) == position)
        }
        var streamed: [HanoiMove] = []
        plan.forEachMove { streamed.append($0) }
        #expect(streamed == expected)
        #expect(position == HanoiPosition(disks: disks, pegs: 3, allOn: 2))
    }

    @Test func sixtyFourDisksSeekAnywhere() throws {
        let plan = try HanoiSolver.plan(disks: 64)
        #expect(plan.count == UInt64.max)
        // The middle move is the only move of disk 64.
        #expect(plan.move(number: 1 << 63) == HanoiMove(disk: 64, from: 0, to: 2))
        #expect(plan.move(number: 1) == HanoiMove(disk: 1, from: 0, to: 1))
        #expect(plan.move(number: .max) == HanoiMove(disk: 1, from: 1, to: 2))
        // Before the middle move disks 1…63 sit on B, disk 64 on A; after it, 64 is on C.
        let before = plan.position(after: (1 << 63) - 1)
        #expect(before.disks(on: 1) == Array((1...63).reversed()))
        #expect(before.peg(of: 64) == 0)
        #expect(plan.position(after: 1 << 63).peg(of: 64) == 2)
        #expect(plan.position(after: .max) == HanoiPosition(disks: 64, pegs: 3, allOn: 2))
        // Each position is consistent with the next move being legal there.
        for k: UInt64 in [1, 2, 12_345_678_901, 1 << 40 | 7, .max - 3] {
            let position = plan.position(after: k - 1)
            let move = plan.move(number: k)
            #expect(position.isLegal(move))
            #expect(position.applying(move) == plan.position(after: k))
        }
    }
}

/// Chunked generation gives exactly the moves of one-at-a-time generation.
@Suite struct HanoiMoveChunkTests {
    func chunked(_ plan: HanoiPlan) -> [HanoiMove] {
        var moves: [HanoiMove] = []
        plan.forEachChunk { chunk in moves.append(contentsOf: chunk.map(HanoiMove.init(packed:))) }
        return moves
    }

    func single(_ plan: HanoiPlan) -> [HanoiMove] {
        var moves: [HanoiMove] = []
        plan.forEachMove { moves.append($0) }
        return moves
    }

    @Test(arguments: [1, 11, 12, 13, 17])
    func towers(disks: Int) throws {
        let plan = try HanoiSolver.plan(disks: disks)
        let moves = chunked(plan)
        #expect(moves.count == Int(plan.count))
        #expect(moves == single(plan))
    }

    @Test func arbitraryPositionsAndMorePegs() throws {
        let from = try HanoiPosition(state: "ABCABCABCABCABCA", pegCount: 3)
        let plan = try HanoiSolver.plan(from: from, to: HanoiPosition(disks: 16, pegs: 3, allOn: 1))
        #expect(chunked(plan) == single(plan))
        let four = try HanoiSolver.plan(disks: 20, pegs: 4)
        #expect(chunked(four) == single(four))
    }
}
