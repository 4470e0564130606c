import Foundation
import TactileCommands
import TactileHanoi
import Testing

/// `tactile hanoi …` as documented in the command-line contract.
@Suite struct HanoiCommandTests {
    /// Plays csv moves from a position, checking each is legal; returns the end position.
    func replay(_ lines: ArraySlice<Substring>, from start: HanoiPosition) throws -> HanoiPosition {
        var position = start
        for (i, line) in lines.enumerated() {
            let fields = line.split(separator: ",")
            try #require(fields.count == 4)
            #expect(Int(fields[0]) == i + 1)
            let move = HanoiMove(
                disk: Int(fields[1])!, from: HanoiPeg.index(of: fields[2].first!)!,
                to: HanoiPeg.index(of: fields[3].first!)!)
            try #require(position.isLegal(move), "move \(i + 1) \(move) is illegal at \(position)")
            position = position.applying(move)
        }
        return position
    }

    @Test func tenDisksAsCSVAreLegalAndEndOnC() throws {
        let run = tactile("hanoi", "solve", "10", "--format", "csv")
        #expect(run.code == 0)
        #expect(run.lines.first == "move,disk,from,to")
        #expect(run.lines.count == 1 + 1023)
        let end = try replay(run.lines.dropFirst(), from: HanoiPosition(disks: 10, pegs: 3))
        #expect(end == HanoiPosition(disks: 10, pegs: 3, allOn: 2))
    }

    @Test func textFormatReadsMoveKDiskDFromXToY() {
        let run = tactile("hanoi", "solve", "2")
        #expect(
            run.output
                == "Move 1: disk 1 from A to B\nMove 2: disk 2 from A to C\nMove 3: disk 1 from B to C\n"
        )
    }

    @Test func fromAStateToAStateIsShortest() throws {
        let run = tactile("hanoi", "solve", "3", "--from", "ACB", "--to", "CCC", "--format", "csv")
        #expect(run.code == 0)
        let end = try replay(run.lines.dropFirst(), from: HanoiPosition(state: "ACB", pegCount: 3))
        #expect(end.description == "CCC")
        // Breadth-first search over the 27 positions gives the same length.
        var distance: [String: Int] = ["ACB": 0]
        var frontier = [try HanoiPosition(state: "ACB", pegCount: 3)]
        while !frontier.isEmpty {
            var next: [HanoiPosition] = []
            for p in frontier {
                for from in 0..<3 {
                    for to in 0..<3 {
                        guard let move = try? p.check(from: from, to: to) else { continue }
                        let q = p.applying(move)
                        if distance[q.description] == nil {
                            distance[q.description] = distance[p.description]! + 1
                            next.append(q)
                        }
                    }
                }
            }
            frontier = next
        }
        #expect(run.lines.count - 1 == distance["CCC"])
    }

    @Test func toAPegLetterAndMorePegs() throws {
        let run = tactile("hanoi", "solve", "5", "--pegs", "4", "--to", "B", "--format", "csv")
        #expect(run.code == 0)
        #expect(run.lines.count - 1 == 13)
        let end = try replay(run.lines.dropFirst(), from: HanoiPosition(disks: 5, pegs: 4))
        #expect(end == HanoiPosition(disks: 5, pegs: 4, allOn: 1))
    }

    @Test func countsAndDirectMoves() {
        #expect(tactile("hanoi", "count", "64").output == "18446744073709551615\n")
        #expect(tactile("hanoi", "count", "20", "--pegs", "4").output == "289\n")
        #expect(
            tactile("hanoi", "move", "64", "9223372036854775808").output
                == "Move 9223372036854775808: disk 64 from A to C\n")
        #expect(tactile("hanoi", "move", "3", "7").output == "Move 7: disk 1 from A to C\n")
    }

    @Test(arguments: [
        (["hanoi", "solve", "0"], "number of disks must be a whole number 1…64, got 0"),
        (["hanoi", "solve", "-3"], "got -3"),
        (["hanoi", "solve", "abc"], "got \"abc\""),
        (["hanoi", "count", "65"], "1…64, got 65"),
        (["hanoi", "move", "3", "8"], "1…7, got 8"),
        (["hanoi", "move", "3", "0"], "1…7, got 0"),
        (["hanoi", "solve", "3", "--pegs", "27"], "--pegs must be a whole number 3…26, got 27"),
        (["hanoi", "solve", "3", "--from", "AB"], "has 2 letters but <disks> is 3"),
        (["hanoi", "solve", "3", "--from", "AXA"], "letter 2 is \"X\", expected A…C"),
        (["hanoi", "solve", "3", "--format", "json"], "--format must be one of text, csv"),
        (["hanoi", "solve", "3", "--speed", "2"], "unknown option --speed"),
        (["hanoi", "solve"], "missing <disks>"),
        (["hanoi", "solve", "3", "4"], "unexpected argument \"4\""),
        (["hanoi", "fly"], "unknown sub-command \"fly\""),
        (["nope"], "unknown command \"nope\""),
    ])
    func badInputExitsTwoNamingTheValue(arguments: [String], message: String) {
        let output = TactileCommands.CommandOutput()
        let errors = TactileCommands.CommandOutput()
        let code = TactileCommands.Tactile.run(arguments, output: output, errors: errors)
        #expect(code == 2)
        #expect(output.text.isEmpty)
        #expect(errors.text.contains(message), "stderr was: \(errors.text)")
    }
}
