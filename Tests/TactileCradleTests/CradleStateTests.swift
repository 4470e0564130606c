import TactileCore
import TactileDynamics
import Testing

@testable import TactileCradle

/// Each fact about the cradle is kept once: the ball in the hand by the cradle, pausing by
/// the view's clock, a rebuild said by the change that caused it, a ball's mass and weight
/// as the engine has them.
@Suite struct CradleStateTests {
    @Test func theBallInTheHandIsTheCradles() throws {
        let cradle = try NewtonsCradle()
        #expect(cradle.draggedBall == nil)
        cradle.beginDrag(ball: 1, at: cradle.balls[1].center)
        #expect(cradle.draggedBall == 1)
        cradle.endDrag()
        #expect(cradle.draggedBall == nil)
        cradle.beginDrag(ball: 2, at: cradle.balls[2].center)
        cradle.reset()
        #expect(cradle.draggedBall == nil, "a rebuilt cradle has no ball in the hand")
    }

    @Test func aChangeSaysWhetherItRebuiltTheCradle() throws {
        let cradle = try NewtonsCradle()
        var next = cradle.configuration
        next.gravity = 2
        #expect(try cradle.configure(next) == false, "gravity changes in place")
        next.ballCount = 4
        #expect(try cradle.configure(next) == true)
        next.gap = 2
        #expect(try cradle.configure(next) == true)
        next.elasticity = 0.5
        #expect(try cradle.configure(next) == false)
    }

    @Test func aPausedViewsClockStandsStill() throws {
        let view = try CradleView()
        try view.update { try $0.pull(1) }
        view.advance(to: 0)
        view.advance(to: 0.1)
        view.update { $0.setPaused(true) }
        #expect(view.isPaused && !view.isAnimating)
        let angles = view.cradle.angles
        view.advance(to: 5)
        #expect(view.cradle.angles == angles, "nothing moves while paused")
        view.update { $0.setPaused(false) }
        #expect(!view.isPaused && view.isAnimating)
    }

    @Test func aDraggedBallIsPulledByTwiceItsWeightAtMost() throws {
        // Pulled far to the side, the spring pulls at its limit, twice the ball's weight; the
        // ball's speed after one frame tells the force. The mass is worked out here, not taken
        // from the cradle: m = ρ·πr²/10⁴.
        let cradle = try NewtonsCradle()
        let r = cradle.configuration.ballRadius
        let mass = Double.pi * r * r / 10_000
        #expect(abs(DynamicItemProperties.mass(density: 1, area: .pi * r * r) - mass) < 1e-12)
        let ball = cradle.balls[0]
        cradle.advance(to: 0)
        cradle.beginDrag(ball: 0, at: ball.center)
        cradle.moveDrag(to: Point(x: ball.center.x - 400, y: ball.center.y))
        cradle.advance(to: 1.0 / 60)
        let speed = cradle.animator.velocity(of: ball).linear.length
        let g = cradle.configuration.gravity * 1000
        // At the bottom of the arc the pull is along it: about 2 g for one frame — not the
        // unlimited spring's far more, nor a weight taken 1,000 times too light.
        #expect(speed >= 1.5 * g / 60, "\(speed)")
        #expect(speed <= 3 * g / 60, "\(speed)")
    }
}
