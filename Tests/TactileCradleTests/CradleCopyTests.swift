import TactileCore
import Testing

@testable import TactileCradle

/// A cradle model is a value, swing and all: a copy swings on exactly as the original does,
/// and a change to one never reaches the other. The judge is a third model given the same
/// input without ever being copied.
@Suite struct CradleCopyTests {
    /// What a cradle shows at a moment: each ball's centre and velocity, to the bit.
    static func state(_ model: CradleModel) -> [Double] {
        model.cradle.balls.flatMap { [$0.center.x, $0.center.y, $0.velocity.dx, $0.velocity.dy] }
    }

    /// A model with two balls pulled to 30° and let go, swung for `seconds` at 60 frames a
    /// second (through impacts), and the time it has reached.
    static func swinging(for seconds: Double, gap: Double = 0) throws -> (CradleModel, Double) {
        var configuration = CradleConfiguration()
        configuration.gap = gap
        var model = try CradleModel(configuration: configuration)
        _ = try model.pull(2)
        var t = 0.0
        while t < seconds {
            _ = model.advance(to: t)
            t += 1.0 / 60
        }
        return (model, t)
    }

    @Test(arguments: [0.0, 4.0])
    func aCopyMidSwingSwingsOnAsTheOriginalDoes(gap: Double) throws {
        var (original, t) = try Self.swinging(for: 1.3, gap: gap)
        var (untouched, _) = try Self.swinging(for: 1.3, gap: gap)
        var copy = original
        #expect(copy.cradle === original.cradle, "a copy shares the cradle until it changes")
        var impacts = 0
        var previous = Self.state(untouched)
        for _ in 0..<180 {
            _ = copy.advance(to: t)
            _ = original.advance(to: t)
            _ = untouched.advance(to: t)
            let expected = Self.state(untouched)
            #expect(Self.state(copy) == expected, "t = \(t)")
            #expect(Self.state(original) == expected, "t = \(t)")
            // A ball whose horizontal velocity changes by over 60 points/s in a frame took an
            // impact: gravity turns a swing around by about 8 points/s a frame.
            impacts +=
                zip(previous, expected).enumerated().filter { index, pair in
                    index % 4 == 2 && abs(pair.0 - pair.1) > 60
                }.count
            previous = expected
            t += 1.0 / 60
        }
        #expect(copy.cradle !== original.cradle, "the first change gave one of them its own")
        #expect(impacts > 4, "the three seconds compared hold impacts")
    }

    @Test func aChangeToACopyLeavesTheOriginalAlone() throws {
        var (original, t) = try Self.swinging(for: 0.9)
        var (untouched, _) = try Self.swinging(for: 0.9)
        var copy = original
        _ = copy.reset()
        _ = try copy.pull(1)
        let ball = copy.layout.viewPoint(copy.cradle.balls[0].center)
        _ = copy.handle(PointerEvent(.began, at: ball, time: t))
        for _ in 0..<120 {
            _ = copy.handle(PointerEvent(.moved, at: ball + Vector(dx: -30, dy: 0), time: t))
            _ = copy.advance(to: t)
            _ = original.advance(to: t)
            _ = untouched.advance(to: t)
            #expect(Self.state(original) == Self.state(untouched), "t = \(t)")
            t += 1.0 / 60
        }
        #expect(copy.cradle.isDragging && !original.cradle.isDragging)
        #expect(Self.state(copy) != Self.state(original))
    }

    @Test func aCopyMidDragGoesOnAsTheOriginalDoes() throws {
        var (original, t) = try Self.swinging(for: 0.5)
        var (untouched, _) = try Self.swinging(for: 0.5)
        let ball = original.layout.viewPoint(original.cradle.balls[4].center)
        let press = PointerEvent(.began, at: ball, time: t)
        _ = original.handle(press)
        _ = untouched.handle(press)
        // Gravity changed while the ball is held: the hand's spring keeps the pull it had.
        var lighter = original.cradle.configuration
        lighter.gravity = 0.5
        _ = try original.configure(lighter)
        _ = try untouched.configure(lighter)
        var copy = original
        for frame in 0..<150 {
            // Held and pulled out to the right for a second, then let go.
            let point = ball + Vector(dx: min(Double(frame), 60) * 0.8, dy: 0)
            let phase: PointerEvent.Phase = frame == 60 ? .ended : .moved
            if frame <= 60 {
                let event = PointerEvent(phase, at: point, time: t)
                _ = copy.handle(event)
                _ = original.handle(event)
                _ = untouched.handle(event)
            }
            _ = copy.advance(to: t)
            _ = original.advance(to: t)
            _ = untouched.advance(to: t)
            let expected = Self.state(untouched)
            #expect(Self.state(copy) == expected, "frame \(frame)")
            #expect(Self.state(original) == expected, "frame \(frame)")
            t += 1.0 / 60
        }
        #expect(!copy.cradle.isDragging && copy.cradle.angles[4] != 0)
    }

    @Test func aHostedModelKeepsItsOneCradle() throws {
        // The view changes its model in place: the model's cradle is never shared, so never
        // copied, however the model is driven.
        let view = try CradleView()
        weak var engine = view.cradle
        try view.update { try $0.pull(2) }
        var t = 0.0
        for frame in 0..<120 {
            view.advance(to: t)
            if frame == 60 {
                let ball = view.layout.viewPoint(view.cradle.balls[4].center)
                view.handle(PointerEvent(.began, at: ball, time: t))
                view.handle(PointerEvent(.ended, at: ball + Vector(dx: 20, dy: 0), time: t))
            }
            t += 1.0 / 60
        }
        view.update { $0.reset() }
        #expect(engine != nil && view.cradle === engine)
    }
}
