import TactileCore
import Testing

@testable import TactileHanoi

/// The Hanoi model as every component is tested: whole event arrays after each action, time
/// driven by hand.
@Suite struct HanoiModelEventTests {
    let a = 0
    let b = 1
    let c = 2

    func move(_ disk: Int, _ from: Int, _ to: Int) -> HanoiMove {
        HanoiMove(disk: disk, from: from, to: to)
    }

    /// The events of every frame from `start` to `end` at 60 a second, with their times.
    func run(_ model: inout HanoiModel, from start: Double, to end: Double) -> [(
        Double, HanoiEvent
    )] {
        FrameTimes(from: start, to: end).dropFirst().flatMap { t in
            model.advance(to: t).map { (t, $0) }
        }
    }

    @Test func aSolutionPlaysMoveByMoveAndSaysWhenSolved() throws {
        var model = try HanoiModel(disks: 2)
        #expect(model.advance(to: 0) == [])
        #expect(model.play() == [.playbackChanged(.playing)])
        // Two moves a second: they land at 0.5, 1 and 1.5 s.
        let events = run(&model, from: 0, to: 2)
        #expect(
            events.map(\.1) == [
                .moveFinished(move(1, a, b)), .moveFinished(move(2, a, c)),
                .playbackChanged(.finished), .moveFinished(move(1, b, c)), .solved,
            ])
        let landed = events.filter { if case .moveFinished = $0.1 { true } else { false } }
        for (event, time) in zip(landed, [0.5, 1.0, 1.5]) {
            #expect(abs(event.0 - time) < 1.0 / 60 + 1e-9, "\(event)")
        }
        #expect(model.status == "Solved: 3 moves, the fewest possible")
        _ = model.stepBackward()
        #expect(model.status == "Move 2 of 3 — disk 2 from A to C")
    }

    @Test func aStallResumesWhereItWasInsteadOfJumpingAhead() throws {
        var model = try HanoiModel(disks: 6)
        _ = model.advance(to: 0)
        _ = model.play()
        // Ten seconds frozen count as a quarter of a second: half a move at 2 a second.
        #expect(model.advance(to: 10) == [])
        #expect(model.playback.completedMoves == 0)
        #expect(abs(model.playback.progress - 0.5) < 1e-9)
    }

    @Test func pausingStepsAndSeekingAreToldAsPlaybackChanges() throws {
        var model = try HanoiModel(disks: 3)
        #expect(model.pause() == [], "not playing: nothing to pause")
        #expect(model.stepForward() == [.playbackChanged(.paused), .moveFinished(move(1, a, c))])
        #expect(model.stepBackward() == [.playbackChanged(.paused)])
        #expect(model.seek(toFraction: 1) == [.playbackChanged(.finished)])
        #expect(model.setSpeed(.instant) == [.playbackChanged(.finished)])
    }

    @Test func theSeekBarsEndIsTheLastMove() throws {
        var model = try HanoiModel(disks: 5)
        _ = model.seek(toFraction: 1)
        #expect(model.status == "Solved: 31 moves, the fewest possible")
        _ = model.seek(toFraction: 0)
        #expect(model.status == "Move 0 of 31 — press Start")
    }

    @Test func clickClickPlayPicksMovesRefusesAndSolves() throws {
        var model = try HanoiModel(disks: 2)
        #expect(
            model.startManualPlay() == [
                .modeChanged(.manual),
                .messageChanged("Drag a disk, or click a peg and then another."),
            ])
        // Digits pick pegs: 1 then 2 moves the top disk of A onto B.
        #expect(model.handle(KeyEvent(.character("1"))) == [.selectionChanged(peg: a)])
        #expect(
            model.handle(KeyEvent(.character("2"))) == [
                .selectionChanged(peg: nil), .moveFinished(move(1, a, b)), .messageChanged(nil),
            ])
        // Disk 2 onto disk 1 is refused, with the reason.
        let refusal = HanoiRefusal.largerOntoSmaller(disk: 2, onto: 1, peg: b)
        #expect(
            model.move(from: a, to: b) == [
                .moveRefused(refusal), .messageChanged(refusal.description),
            ])
        #expect(model.refusedPeg == b)
        // An empty peg cannot be picked.
        #expect(
            model.handle(KeyEvent(.character("3"))) == [
                .moveRefused(.emptyPeg(c)), .messageChanged(HanoiRefusal.emptyPeg(c).description),
            ])
        _ = model.move(from: a, to: c)
        #expect(
            model.move(from: b, to: c) == [
                .moveFinished(move(1, b, c)), .solved,
                .messageChanged("Solved in the fewest possible moves!"),
            ])
        // Undo puts the disk back, redo solves again.
        #expect(model.undo() == [.moveFinished(move(1, c, b)), .messageChanged(nil)])
        #expect(
            model.redo() == [
                .moveFinished(move(1, b, c)), .solved,
                .messageChanged("Solved in the fewest possible moves!"),
            ])
        // Keys that mean nothing here are not used.
        #expect(model.handle(KeyEvent(.character("9"))) == nil)
    }

    @Test func aDragMovesTheDiskInTheHandAndDropsItOnAPeg() throws {
        var model = try HanoiModel(disks: 3, viewSize: Size(width: 600, height: 300))
        _ = model.startManualPlay()
        let layout = model.layout
        let from = layout.restingCenter(onPeg: a, level: 2)
        let onto = layout.restingCenter(onPeg: b, level: 0)
        #expect(model.handle(PointerEvent(.began, at: from, time: 0)) == [])
        #expect(model.handle(PointerEvent(.moved, at: onto, time: 0.1)) == [.diskDragged])
        #expect(model.looseDisk?.disk == 1)
        #expect(
            model.handle(PointerEvent(.ended, at: onto, time: 0.2)) == [
                .moveFinished(move(1, a, b)), .messageChanged(nil),
            ])
        #expect(model.looseDisk == nil)
        #expect(model.shownPosition.topDisk(on: b) == 1)
        // In solver mode the pointer is not used.
        var solver = try HanoiModel(disks: 3)
        #expect(solver.handle(PointerEvent(.began, at: from, time: 0)) == nil)
    }

    @Test func aHintSwitchesToManualPlayAndShowsTheBestMove() throws {
        var model = try HanoiModel(disks: 3)
        #expect(
            model.hint() == [
                .modeChanged(.manual),
                .messageChanged("Drag a disk, or click a peg and then another."),
                .hintShown(move(1, a, c)), .messageChanged("Hint: move disk 1 from A to C."),
            ])
    }
}
