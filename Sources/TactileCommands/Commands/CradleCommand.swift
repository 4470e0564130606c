import Foundation
import TactileCradle

/// `tactile cradle simulate`.
enum CradleCommand {
    static let simulateSpec = ArgumentParser.Spec(
        usage:
            "tactile cradle simulate [--balls N] [--pull K] [--angle DEG] [--seconds S] [--gap PT] [--format csv]",
        summary:
            "Pull K balls of a Newton's cradle to an angle, let go, and print every ball's angle and the energy every 1/60 s.",
        options: [
            .init(name: "balls", valueName: "N", help: "Number of balls, 2…9. Default 5."),
            .init(name: "pull", valueName: "K", help: "Balls pulled, 1…N−1. Default 1."),
            .init(
                name: "angle", valueName: "DEG",
                help: "Pull angle from the vertical in degrees, 0.1…90. Default 30."),
            .init(
                name: "seconds", valueName: "S",
                help: "Simulated seconds after the release, 0…600. Default 10."),
            .init(
                name: "gap", valueName: "PT",
                help: "Gap between neighbouring balls at rest in points, 0…20. Default 0."),
            .init(name: "format", valueName: "csv", help: "Output format; csv (the default)."),
        ],
        details: [
            "Columns: t,theta1,…,thetaN,energy — seconds from the release, each ball's angle",
            "in degrees from the vertical (positive to the right; ball 1 is the leftmost and is",
            "pulled to the left), and the energy as a fraction of the energy at the release.",
            "Balls have radius 20 points on strings of 160 points; gravity is 1,000 points/s²,",
            "elasticity 1 and resistance 0.",
            "Example: tactile cradle simulate --balls 5 --pull 2 --angle 30 --seconds 4",
        ])

    static func run(_ arguments: [String], output: CommandOutput) throws(CommandFailure) {
        try dispatch(
            arguments, command: "cradle", [("simulate", simulateSpec, simulate)], output: output)
    }

    static func simulate(_ parsed: ArgumentParser.Parsed, output: CommandOutput)
        throws(CommandFailure)
    {
        let balls = try parsed.integer("balls", in: CradleConfiguration.ballCounts) ?? 5
        let pull =
            try parsed.integer("pull", in: 1...(balls - 1), shownAs: "--pull (with \(balls) balls)")
            ?? 1
        let angle = try parsed.number("angle", in: 0.1...90) ?? 30
        let seconds = try parsed.number("seconds", in: 0...600) ?? 10
        let gap = try parsed.number("gap", in: CradleConfiguration.gaps) ?? 0
        _ = try parsed.choice("format", from: ["csv"])

        let cradle: NewtonsCradle
        do {
            cradle = try NewtonsCradle(
                configuration: CradleConfiguration(ballCount: balls, gap: gap))
        } catch {
            throw .usage(error.message)
        }
        output.line("t," + (1...balls).map { "theta\($0)" }.joined(separator: ",") + ",energy")
        do {
            try cradle.record(pull: pull, degrees: angle, seconds: seconds) { sample in
                var row = String(format: "%.4f", sample.time)
                for theta in sample.angles { row += String(format: ",%.3f", theta) }
                row += String(format: ",%.5f", sample.energy)
                output.line(row)
            }
        } catch {
            throw .usage(error.message)
        }
    }
}
