import Foundation
import TactileCradle

/// `tactile render cradle`: balls pulled to 30° and let go (two of five by default).
enum CradleScene {
    static let options: [ArgumentParser.Option] = [
        .init(
            name: "balls", valueName: "N",
            help:
                "cradle: number of balls, \(CradleConfiguration.ballCounts.lowerBound)…\(CradleConfiguration.ballCounts.upperBound). Default 5."
        ),
        .init(
            name: "pull", valueName: "K",
            help: "cradle: balls pulled to 30° and let go, 1…N−1. Default 2 (1 with 2 balls)."),
    ]

    @Sendable static func make(_ parsed: ArgumentParser.Parsed) throws(CommandFailure)
        -> RenderCommand.Scene
    {
        let balls = try parsed.integer("balls", in: CradleConfiguration.ballCounts) ?? 5
        let pull =
            try parsed.integer("pull", in: 1...(balls - 1), shownAs: "--pull (with \(balls) balls)")
            ?? min(2, balls - 1)
        do {
            let view = try CradleView(configuration: CradleConfiguration(ballCount: balls))
            try view.update { cradle throws(CradleError) in try cradle.pull(pull) }
            return RenderCommand.Scene(component: view, still: 1.4, length: 5.2)
        } catch {
            throw .usage(error.message)
        }
    }
}
