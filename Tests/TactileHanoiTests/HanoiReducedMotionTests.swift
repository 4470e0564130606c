import TactileCore
import TactileHanoi
import Testing

/// With "reduce motion", a move of the playing solution is drawn landed on its target peg
/// from its first frame: the solution keeps its pace, nothing travels.
@Suite struct HanoiReducedMotionTests {
    @Test func aMoveInFlightIsDrawnOnItsTargetPeg() throws {
        var model = try HanoiModel(disks: 3)
        model.reducesMotion = true
        _ = model.setSpeed(.movesPerSecond(1))
        _ = model.advance(to: 0)
        _ = model.play()
        _ = model.advance(to: 0.3)  // a third of the way through move 1: disk 1 from A to C
        let loose = try #require(model.looseDisk)
        #expect(loose.disk == 1)
        let landed = model.layout.restingCenter(onPeg: 2, level: 0)
        #expect(loose.center.distance(to: landed) < 1e-9, "\(loose.center) vs \(landed)")
        // With motion, the same instant has it in the air.
        model.reducesMotion = false
        let flying = try #require(model.looseDisk)
        #expect(flying.center.y < model.layout.restingCenter(onPeg: 2, level: 0).y - 1)
    }
}
