import TactileHanoi

/// `tactile render hanoi`: the optimal solution played from all disks on A to the last peg,
/// then a second at rest.
enum HanoiScene {
    static let options: [ArgumentParser.Option] = [
        .init(
            name: "disks", valueName: "N",
            help:
                "hanoi: number of disks, \(HanoiLimits.disks.lowerBound)…\(HanoiLimits.disks.upperBound). Default \(defaultDisks)."
        ),
        .init(
            name: "pegs", valueName: "P",
            help:
                "hanoi: number of pegs, \(HanoiLimits.pegs.lowerBound)…\(HanoiLimits.pegs.upperBound). Default 3."
        ),
    ]

    static let defaultDisks = 4
    /// Moves per second while the whole solution fits in ``longestSolution``.
    static let movesPerSecond = 2.5
    /// The longest the solution plays, in seconds: a bigger tower plays faster (up to
    /// ``HanoiSpeed/range``'s fastest), and one too big even for that is shown in part.
    static let longestSolution = 12.0

    @Sendable static func make(_ parsed: ArgumentParser.Parsed) throws(CommandFailure)
        -> RenderCommand.Scene
    {
        let disks = try parsed.integer("disks", in: HanoiLimits.disks) ?? defaultDisks
        let pegs = try parsed.integer("pegs", in: HanoiLimits.pegs) ?? 3
        let view: HanoiView
        do { view = try HanoiView(disks: disks, pegs: pegs) } catch { throw .usage(error.message) }
        let moves = Double(view.playback.plan.count)
        let rate = min(
            max(movesPerSecond, moves / longestSolution), HanoiSpeed.range.upperBound)
        view.update { $0.setSpeed(.movesPerSecond(rate)) + $0.play() }
        // Four disks: 15 moves at 2.5 a second, then a second at rest.
        return RenderCommand.Scene(
            component: view, still: 2.6, length: min(moves / rate, longestSolution) + 1)
    }
}
