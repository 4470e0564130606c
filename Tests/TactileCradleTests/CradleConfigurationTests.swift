import Foundation
import TactileCore
import TactileCradle
import Testing

/// Configuration ranges and live changes.
@Suite struct CradleConfigurationTests {
    @Test(arguments: [
        (CradleConfiguration(ballCount: 1), "ball count must be 2…9, got 1"),
        (CradleConfiguration(ballCount: 10), "ball count must be 2…9, got 10"),
        (CradleConfiguration(gap: -1), "gap must be 0…20, got -1"),
        (CradleConfiguration(gravity: .nan), "gravity must be 0.1…5, got nan"),
        (CradleConfiguration(elasticity: 1.2), "elasticity must be 0…1, got 1.2"),
        (CradleConfiguration(resistance: 9), "resistance must be 0…5, got 9"),
    ])
    func badValuesAreRefused(configuration: CradleConfiguration, message: String) {
        #expect(throws: CradleError(message)) { try NewtonsCradle(configuration: configuration) }
    }

    @Test func pullRangeAndRestPositions() throws {
        let cradle = try NewtonsCradle(configuration: CradleConfiguration(ballCount: 4, gap: 2))
        #expect(throws: CradleError("balls to pull must be 0…3, got 4")) {
            try cradle.pull(4, angle: 0.5)
        }
        #expect(cradle.anchors.map(\.x) == [-63, -21, 21, 63])
        #expect(cradle.angles == [0, 0, 0, 0])
        try cradle.pull(2, angle: .pi / 6)
        for angle in cradle.angles.prefix(2) { #expect(abs(angle + .pi / 6) < 1e-12) }
    }

    @Test func gravityChangesThePeriodInPlace() throws {
        let cradle = try NewtonsCradle(configuration: CradleConfiguration(ballCount: 2, gap: 20))
        try cradle.pull(1, angle: 0.05)
        var config = cradle.configuration
        config.gravity = 4
        try cradle.configure(config)
        // Four times the gravity halves the period: the ball is back after one period of
        // 2π√(L/4g).
        let period = 2 * Double.pi * (160.0 / 4000).squareRoot()
        var t = 0.0
        var crossings = 0
        var previous = cradle.angles[0]
        while t < period * 1.01 {
            t += 1.0 / 600
            cradle.advance(to: t)
            if (previous < 0) != (cradle.angles[0] < 0) { crossings += 1 }
            previous = cradle.angles[0]
        }
        #expect(crossings == 2)
    }
}
