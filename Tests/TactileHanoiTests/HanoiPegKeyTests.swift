import TactileCore
import Testing

@testable import TactileHanoi

/// Every peg has a key: its letter (A–Z, either case), and for the first ten a digit (1–9, and
/// 0 for the tenth, as on a keyboard's row of digits).
@Suite struct HanoiPegKeyTests {
    func key(_ c: Character, _ modifiers: KeyEvent.Modifiers = []) -> KeyEvent {
        KeyEvent(.character(c), modifiers: modifiers)
    }

    @Test func zeroAndJPickTheTenthPeg() throws {
        var model = try HanoiModel(disks: 2, pegs: 10)
        #expect(
            model.handle(key("1")) == [
                .modeChanged(.manual),
                .messageChanged("Drag a disk, or click a peg and then another."),
                .selectionChanged(peg: 0),
            ])
        #expect(
            model.handle(key("0")) == [
                .selectionChanged(peg: nil), .moveFinished(HanoiMove(disk: 1, from: 0, to: 9)),
                .messageChanged(nil),
            ])
        #expect(model.handle(key("j")) == [.selectionChanged(peg: 9)])
        #expect(
            model.handle(key("E")) == [
                .selectionChanged(peg: nil), .moveFinished(HanoiMove(disk: 1, from: 9, to: 4)),
            ])
        // No peg K among ten; keys with Ctrl or Alt are the window's.
        #expect(model.handle(key("k")) == nil)
        #expect(model.handle(key("a", .control)) == nil)
        #expect(model.handle(key("2", .alternate)) == nil)
        #expect(model.handle(key("é")) == nil)
    }

    @Test func everyLetterReachesItsPegUpToTwentySix() throws {
        let pegs = HanoiLimits.pegs.upperBound
        #expect(pegs == 26)
        var model = try HanoiModel(disks: 1, pegs: pegs)
        _ = model.startManualPlay()
        var from = 0
        for (index, letter) in "bcdefghijklmnopqrstuvwxyz".enumerated() {
            let to = index + 1
            #expect(
                model.handle(key(Character(HanoiPeg.letter(from)))) == [
                    .selectionChanged(peg: from)
                ])
            let events = model.handle(key(letter)) ?? []
            #expect(
                events.contains(.moveFinished(HanoiMove(disk: 1, from: from, to: to))), "\(letter)")
            from = to
        }
        #expect(model.shownPosition.peg(of: 1) == 25)
    }

    @Test func threePegsTakeOnlyTheirKeys() throws {
        var model = try HanoiModel(disks: 3)
        for unused: Character in ["4", "9", "0", "d", "z"] {
            #expect(model.handle(key(unused)) == nil, "\(unused)")
        }
        #expect(model.mode == .solver, "an unused key does not start play by hand")
        #expect(model.handle(key("c"))?.contains(.moveRefused(.emptyPeg(2))) == true)
    }
}
