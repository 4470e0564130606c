import TactileCore
import Testing

@testable import TactileHanoi

/// Manual play: legal-move checks with reasons, undo/redo, hints, pointer and keyboard.
@Suite struct HanoiManualPlayTests {
    @Test func illegalMovesAreRefusedWithAReasonAndChangeNothing() throws {
        var game = try HanoiGame(disks: 3)
        try game.move(from: 0, to: 2)
        let before = game
        #expect(throws: HanoiRefusal.largerOntoSmaller(disk: 2, onto: 1, peg: 2)) {
            try game.move(from: 0, to: 2)
        }
        #expect(throws: HanoiRefusal.emptyPeg(1)) { try game.move(from: 1, to: 0) }
        #expect(throws: HanoiRefusal.samePeg(0)) { try game.move(from: 0, to: 0) }
        #expect(throws: HanoiRefusal.noSuchPeg(3, pegCount: 3)) { try game.move(from: 0, to: 3) }
        #expect(game.position == before.position && game.moveCount == 1)
        #expect(
            HanoiRefusal.largerOntoSmaller(disk: 2, onto: 1, peg: 2).description
                == "Disk 2 cannot go on the smaller disk 1 on peg C.")
    }

    @Test func undoRedoAndSolvedDetection() throws {
        var game = try HanoiGame(disks: 2)
        #expect(game.optimalMoveCount == 3)
        try game.move(from: 0, to: 1)
        try game.move(from: 0, to: 2)
        #expect(game.undo() == HanoiMove(disk: 2, from: 0, to: 2))
        #expect(game.canRedo)
        #expect(game.redo() == HanoiMove(disk: 2, from: 0, to: 2))
        try game.move(from: 1, to: 2)
        #expect(game.isSolved)
        #expect(game.moveCount == 3)
        _ = game.undo()
        try game.move(from: 1, to: 0)
        #expect(!game.canRedo, "a new move clears the redo stack")
        #expect(try game.remainingMoveCount() == 1)  // disk 1 from A to C
    }

    @Test func dragAndClickClickMoveDisks() throws {
        let view = try HanoiView(disks: 3)
        view.viewSize = Size(width: 900, height: 500)
        view.update { $0.startManualPlay() }
        let a = Point(x: 150, y: 300)
        let c = Point(x: 750, y: 300)
        let b = Point(x: 450, y: 300)
        // Drag disk 1 from A to C.
        view.handle(PointerEvent(.began, at: a))
        view.handle(PointerEvent(.moved, at: Point(x: 400, y: 100)))
        view.handle(PointerEvent(.ended, at: c))
        #expect(view.game.position == (try HanoiPosition(state: "CAA", pegCount: 3)))
        // Click A, then C: disk 2 onto disk 1 is refused.
        view.handle(PointerEvent(.began, at: a))
        view.handle(PointerEvent(.ended, at: a))
        view.handle(PointerEvent(.began, at: c))
        view.handle(PointerEvent(.ended, at: c))
        #expect(view.game.position == (try HanoiPosition(state: "CAA", pegCount: 3)))
        #expect(view.message == "Disk 2 cannot go on the smaller disk 1 on peg C.")
        // Keys 1 then 2: disk 2 from A to B.
        view.handle(KeyEvent(.character("1")))
        view.handle(KeyEvent(.character("2")))
        #expect(view.game.position == (try HanoiPosition(state: "CBA", pegCount: 3)))
        view.handle(KeyEvent(.left))
        #expect(view.game.position == (try HanoiPosition(state: "CAA", pegCount: 3)))
        _ = b
    }

    @Test func startInManualModeSolvesFromTheCurrentPosition() throws {
        let view = try HanoiView(disks: 3)
        view.update { $0.startManualPlay() }
        view.update { $0.move(from: 0, to: 1) }
        view.update { $0.play() }
        #expect(view.mode == .solver)
        #expect(view.playback.plan.start == (try HanoiPosition(state: "BAA", pegCount: 3)))
        view.update { $0.setSpeed(.instant) }
        #expect(view.playback.position == HanoiPosition(disks: 3, pegs: 3, allOn: 2))
    }

    @Test func statusReadsMoveKOfN() throws {
        let view = try HanoiView(disks: 3)
        #expect(view.status == "Move 0 of 7 — press Start")
        view.update { $0.setSpeed(.movesPerSecond(1)) }
        view.update { $0.play() }
        view.advance(to: 10)
        view.advance(to: 10.5)
        #expect(view.status == "Move 0 of 7", "move 1 is in flight, not done")
        view.handle(KeyEvent(.space))
        #expect(view.playback.state == .paused)
        #expect(view.status == "Move 0 of 7")
        view.handle(KeyEvent(.right))
        #expect(view.status == "Move 1 of 7 — disk 1 from A to C")
        view.handle(KeyEvent(.right))
        #expect(view.status == "Move 2 of 7 — disk 2 from A to B")
    }

    @Test func manualPlayFromMidSolutionWithManyPegsAndDisks() throws {
        let view = try HanoiView(disks: 13, pegs: 4)
        view.update { $0.seek(to: 40) }
        let shown = view.playback.position
        view.update { $0.startManualPlay() }
        #expect(view.game.position == shown, "manual play starts where the solution was")
        #expect(view.game.optimalMoveCount == nil)
        #expect(view.status == "Moves: 0")
        view.update { $0.hint() }
        #expect(view.message?.contains("up to 11 disks") == true)
    }
}
