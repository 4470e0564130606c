import Foundation
import TactileCore
import Testing

@testable import TactileCradle

/// A drag, however wild, leaves the cradle a cradle: every ball stays below the bar on its
/// string, the balls keep their order (none passes through or over another), and what the
/// drag gives is bounded, so the swing afterwards is an ordinary one.
@Suite struct CradleDragTests {
    /// Drags ball `index` through `points` (cradle coordinates), `seconds` apart, lets go,
    /// then runs `after` seconds; checks the cradle every frame on the way.
    func drag(
        _ index: Int, through points: [Point], every seconds: Double, after: Double
    ) throws -> (highest: Double, crossings: Int, fastest: Double) {
        let cradle = try NewtonsCradle()
        var time = 0.0
        var highest = -Double.infinity
        var crossings = 0
        var fastest = 0.0
        func check() {
            for ball in cradle.balls { highest = max(highest, -ball.center.y) }
            for (a, b) in zip(cradle.balls, cradle.balls.dropFirst())
            where b.center.x < a.center.x - 1 {
                crossings += 1
            }
        }
        cradle.beginDrag(ball: index, at: cradle.balls[index].center)
        for point in points {
            time += seconds
            cradle.moveDrag(to: point)
            cradle.advance(to: time)
            check()
        }
        cradle.endDrag()
        for frame in 1...Int(after * 60) {
            cradle.advance(to: time + Double(frame) / 60)
            check()
            for ball in cradle.balls {
                fastest = max(fastest, cradle.animator.velocity(of: ball).linear.length)
            }
        }
        return (highest, crossings, fastest)
    }

    /// A free ball let go from the horizontal moves at √(2 g L) at the bottom: what a drag
    /// may fairly give it.
    let horizontalSwingSpeed = (2 * 1000 * 160.0).squareRoot()

    @Test func aBallPulledOverTheBarStaysBelowItAndInOrder() throws {
        // From the rest position up and over the bar to the far side, in half a second.
        let path = (1...30).map { step -> Point in
            let angle = -Double.pi * Double(step) / 30  // to straight up and beyond
            return Point(x: -80 + 300 * sin(angle), y: -300 * cos(angle))
        }
        let run = try drag(0, through: path, every: 1.0 / 60, after: 20)
        #expect(run.highest < 0, "a ball rose to \(run.highest) points above the bar")
        #expect(run.crossings == 0)
        #expect(run.fastest < 2 * horizontalSwingSpeed, "fastest \(run.fastest) points/s")
    }

    @Test func aSlowPullToTheTopAndBackDownIsAnOrdinarySwing() throws {
        // Up to straight above the anchor over two seconds, held, then let go.
        let path = (1...120).map { step -> Point in
            let angle = -Double.pi * Double(step) / 120
            return Point(x: -80 + 160 * sin(angle), y: 160 * cos(angle))
        }
        let run = try drag(0, through: path, every: 1.0 / 60, after: 20)
        #expect(run.highest < 0, "a ball rose to \(run.highest) points above the bar")
        #expect(run.crossings == 0)
        #expect(run.fastest < 2 * horizontalSwingSpeed, "fastest \(run.fastest) points/s")
    }

    @Test func aFastFlickGivesABoundedSpeed() throws {
        // 1,500 points sideways in 50 ms, then let go.
        let path = (1...3).map { Point(x: -80 - 500 * Double($0), y: 160) }
        let run = try drag(0, through: path, every: 1.0 / 60, after: 20)
        #expect(run.highest < 0, "a ball rose to \(run.highest) points above the bar")
        #expect(run.crossings == 0)
        #expect(run.fastest < 2 * horizontalSwingSpeed, "fastest \(run.fastest) points/s")
    }
}
