import TactileCore
import Testing

@testable import TactileHanoi

/// Pause lets the move in flight land and then holds; the status names only moves that are
/// done, as the picture shows them. Truth: the textbook recursion, and landing times worked
/// out from the speed.
@Suite struct HanoiPauseTests {
    let a = 0
    let b = 1
    let c = 2

    func move(_ disk: Int, _ from: Int, _ to: Int) -> HanoiMove {
        HanoiMove(disk: disk, from: from, to: to)
    }

    /// The textbook recursion's moves.
    func recursiveMoves(_ n: Int, from: Int, to: Int, via: Int) -> [HanoiMove] {
        guard n > 0 else { return [] }
        return recursiveMoves(n - 1, from: from, to: via, via: to) + [move(n, from, to)]
            + recursiveMoves(n - 1, from: via, to: to, via: from)
    }

    /// The events of every frame after `start` up to `end` at 60 a second, with their times.
    func run(_ model: inout HanoiModel, from start: Double, to end: Double) -> [(
        Double, HanoiEvent
    )] {
        FrameTimes(from: start, to: end).dropFirst().flatMap { t in
            model.advance(to: t).map { (t, $0) }
        }
    }

    /// The number in "Move k of N …".
    func movesDone(in status: String) -> Int? {
        let words = status.split(separator: " ")
        // "Solved: 15 moves, …" once the last move has landed.
        if words.count >= 2, words[0] == "Solved:" { return Int(words[1]) }
        guard words.count >= 4, words[0] == "Move", words[2] == "of" else { return nil }
        return Int(words[1])
    }

    @Test func pausingMidMoveLetsTheDiskLandAndThenHolds() throws {
        var model = try HanoiModel(disks: 3)
        _ = model.advance(to: 0)
        #expect(model.play() == [.playbackChanged(.playing)])
        // Two moves a second: by 0.6 s move 1 has landed and move 2 (disk 2 from A to B) is
        // about a fifth of the way.
        #expect(run(&model, from: 0, to: 0.6).map(\.1) == [.moveFinished(move(1, a, c))])
        let progress = model.playback.progress
        #expect(progress > 0.1 && progress < 0.3)
        #expect(model.status == "Move 1 of 7 — disk 1 from A to C")

        #expect(model.pause() == [.playbackChanged(.paused)])
        #expect(
            model.status == "Move 1 of 7 — disk 1 from A to C", "the move in flight is not done")
        #expect(model.isAnimating, "the disk in the air goes on to land")
        #expect(model.playback.isLanding && !model.playback.isPlaying)

        // It lands (1 − progress) / 2 s later, and nothing else happens.
        var centers: [Point] = []
        var events: [(Double, HanoiEvent)] = []
        for t in FrameTimes(from: 0.6, to: 2).dropFirst() {
            events += model.advance(to: t).map { (t, $0) }
            if let loose = model.looseDisk { centers.append(loose.center) }
        }
        #expect(events.map(\.1) == [.moveFinished(move(2, a, b))])
        let landing = 0.6 + (1 - progress) / 2
        #expect(abs((events.first?.0 ?? 0) - landing) <= 1.0 / 60 + 1e-9)
        #expect(!centers.isEmpty)
        #expect(
            zip(centers, centers.dropFirst()).allSatisfy { $0 != $1 }, "never frozen in the air")
        #expect(model.looseDisk == nil)
        #expect(!model.isAnimating)
        #expect(model.playback.state == .paused)
        #expect(model.shownPosition == (try HanoiPosition(state: "CBA", pegCount: 3)))
        #expect(model.status == "Move 2 of 7 — disk 2 from A to B")
        #expect(model.advance(to: 3) == [])
    }

    @Test func playingAgainWhileTheDiskLandsCarriesOn() throws {
        var model = try HanoiModel(disks: 3)
        _ = model.advance(to: 0)
        _ = model.play()
        _ = run(&model, from: 0, to: 0.6)
        _ = model.pause()
        #expect(model.togglePlayPause() == [.playbackChanged(.playing)])
        // Moves 2 and 3 land at 1.0 and 1.5 s, as if never paused.
        let events = run(&model, from: 0.6, to: 1.6)
        #expect(events.map(\.1) == [.moveFinished(move(2, a, b)), .moveFinished(move(1, c, b))])
        for (event, time) in zip(events, [1.0, 1.5]) {
            #expect(abs(event.0 - time) <= 1.0 / 60 + 1e-9, "\(event)")
        }
    }

    @Test func pausingWithReducedMotionLandsTheMoveAtOnce() throws {
        var model = try HanoiModel(disks: 3)
        model.reducesMotion = true
        _ = model.advance(to: 0)
        _ = model.play()
        _ = run(&model, from: 0, to: 0.6)
        // Move 2 is drawn landed, so it is counted.
        let loose = try #require(model.looseDisk)
        #expect(loose.center.distance(to: model.layout.restingCenter(onPeg: b, level: 0)) < 1e-9)
        #expect(model.status == "Move 2 of 7 — disk 2 from A to B")
        #expect(model.pause() == [.playbackChanged(.paused), .moveFinished(move(2, a, b))])
        #expect(model.status == "Move 2 of 7 — disk 2 from A to B")
        #expect(model.looseDisk == nil && !model.isAnimating)
    }

    @Test(arguments: [false, true])
    func theStatusCountsTheMovesThePictureShowsDone(reducesMotion: Bool) throws {
        let expected = recursiveMoves(4, from: a, to: c, via: b)
        var model = try HanoiModel(disks: 4)
        model.reducesMotion = reducesMotion
        _ = model.setSpeed(.movesPerSecond(3))
        _ = model.advance(to: 0)
        _ = model.play()
        #expect(model.status == "Move 0 of 15", "playing, not waiting for Start")
        for t in FrameTimes(from: 0, to: 6).dropFirst() {
            _ = model.advance(to: t)
            // The picture: resting disks, and the loose one where it is drawn if it is resting.
            var drawn = model.shownPosition.pegs.map(Int.init)
            if let loose = model.looseDisk,
                let peg = (0..<3).first(where: { peg in
                    let level = model.shownPosition.disks(on: peg).filter { $0 != loose.disk }.count
                    return model.layout.restingCenter(onPeg: peg, level: level).distance(
                        to: loose.center)
                        < 1e-9
                })
            {
                drawn[loose.disk - 1] = peg
            }
            let done = try #require(movesDone(in: model.status), "\(model.status)")
            var position = HanoiPosition(disks: 4, pegs: 3)
            for m in expected.prefix(done) { position = position.applying(m) }
            if model.looseDisk == nil || reducesMotion {
                #expect(drawn == position.pegs.map(Int.init), "at \(t): \(model.status)")
            } else {
                // In the air: every other disk where the moves done leave it.
                let loose = model.looseDisk!.disk
                for d in 1...4 where d != loose {
                    #expect(drawn[d - 1] == Int(position.pegs[d - 1]), "at \(t): disk \(d)")
                }
            }
            if done > 0, done < expected.count || model.isAnimating {
                let m = expected[done - 1]
                #expect(
                    model.status.hasSuffix(
                        "disk \(m.disk) from \(HanoiPeg.letter(m.from)) to \(HanoiPeg.letter(m.to))"
                    ))
            }
        }
        #expect(model.status == "Solved: 15 moves, the fewest possible")
        // With an even number of disks the smallest ends its round A → B → C on C.
        _ = model.stepBackward()
        _ = model.stepForward()
        #expect(model.status == "Solved: 15 moves, the fewest possible")
        #expect(expected.last == move(1, b, c))
    }
}
