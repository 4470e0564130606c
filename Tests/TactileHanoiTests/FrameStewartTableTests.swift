import Testing

@testable import TactileHanoi

/// Frame–Stewart numbers against published tables (OEIS A007664 for four pegs, A007665 for five).
@Suite struct FrameStewartTableTests {
    @Test func fourPegs() {
        let published: [UInt64] = [
            0, 1, 3, 5, 9, 13, 17, 25, 33, 41, 49, 65, 81, 97, 113, 129, 161, 193, 225, 257, 289,
        ]
        #expect((0...20).map { FrameStewart.moves(disks: $0, pegs: 4) } == published)
    }

    @Test func fivePegs() {
        let published: [UInt64] = [0, 1, 3, 5, 7, 11, 15, 19, 23, 27, 31, 39, 47, 55, 63, 71]
        #expect((0...15).map { FrameStewart.moves(disks: $0, pegs: 5) } == published)
    }

    @Test func threePegsIsTwoToTheNMinusOne() {
        for n in 1...63 {
            #expect(FrameStewart.moves(disks: n, pegs: 3) == (UInt64(1) << UInt64(n)) - 1)
        }
        #expect(FrameStewart.moves(disks: 64, pegs: 3) == UInt64.max)
    }

    @Test(arguments: [(4, 1...10), (5, 1...8), (6, 1...6)])
    func plansHaveFrameStewartLengthAndAreLegal(pegs: Int, disks: ClosedRange<Int>) throws {
        for n in disks {
            let plan = try HanoiSolver.plan(disks: n, pegs: pegs)
            #expect(plan.count == FrameStewart.moves(disks: n, pegs: pegs))
            var position = plan.start
            var k: UInt64 = 0
            plan.forEachMove { move in
                k += 1
                #expect(position.isLegal(move))
                #expect(plan.move(number: k) == move)
                position = position.applying(move)
                #expect(plan.position(after: k) == position)
            }
            #expect(position == HanoiPosition(disks: n, pegs: pegs, allOn: pegs - 1))
        }
    }

    @Test func fourPegTowerPlansMatchBreadthFirstSearch() throws {
        for n in 1...6 {
            let truth = BreadthFirstDistances(
                disks: n, pegs: 4, goal: Array(repeating: 3, count: n))
            #expect(
                UInt64(truth.distance(from: Array(repeating: 0, count: n))!)
                    == FrameStewart.moves(disks: n, pegs: 4))
        }
    }
}
