import Foundation
import TactileCore
import TactilePatternLock

/// The scene `tactile render pattern` records: a pattern drawn dot by dot and accepted, then
/// a wrong one refused and cleared.
enum PatternScene {
    static let options: [ArgumentParser.Option] = [
        .init(
            name: "grid", valueName: "N",
            help:
                "pattern: dots per side, \(PatternLimits.gridSizes.lowerBound)…\(PatternLimits.gridSizes.upperBound). Default 3."
        ),
        .init(
            name: "pattern", valueName: "DOTS",
            help:
                "pattern: the pattern accepted, such as 1-5-9-6: at least \(PatternLimits.defaultMinimumLength) of the dots 1…N², row by row. Default: an N."
        ),
    ]

    /// Seconds between one dot and the next as a pattern is drawn.
    static let step = 0.25
    /// Seconds a wrong pattern stays before it clears.
    static let wrongShown = 1.2

    @Sendable static func make(_ parsed: ArgumentParser.Parsed) throws(CommandFailure)
        -> RenderCommand.Scene
    {
        let size = try parsed.integer("grid", in: PatternLimits.gridSizes) ?? 3
        let grid = try PatternCommand.patternResult { () throws(PatternError) in
            try PatternGrid(size: size)
        }
        let accepted: Pattern
        if let text = parsed.option("pattern") {
            do {
                accepted = try Pattern(canonical: text, grid: grid)
                try accepted.validate()
            } catch {
                throw .usage(
                    "--pattern \(TerminalText.quoted(text)) on the \(size)×\(size) grid: \(error.message)"
                )
            }
        } else {
            accepted = try letterN(on: grid)
        }
        var wrong = try rowAndBack(on: grid)
        if wrong == accepted {
            wrong = try PatternCommand.patternResult { () throws(PatternError) in
                try Pattern(dots: wrong.dots.reversed(), grid: grid)
            }
        }
        // The accepted pattern shows for a second after its last dot; the wrong one for
        // `wrongShown`, then the cleared grid for a moment.
        let acceptedAt = 0.2 + step * Double(accepted.count)
        let wrongFrom = acceptedAt + 1.05
        let clearedAt = wrongFrom + step * Double(wrong.count) + wrongShown
        do {
            let scene = try PatternReplayScene(
                grid: grid, wrongClearDelay: wrongShown,
                script: [(0.2, accepted, .correct), (wrongFrom, wrong, .wrong)])
            return RenderCommand.Scene(
                component: scene, still: acceptedAt + 0.65, length: clearedAt + 0.3)
        } catch {
            throw .usage(error.message)
        }
    }

    /// An N from the bottom left: up the left column, down the diagonal, up the right column
    /// (7-4-1-5-9-6-3 on 3×3).
    static func letterN(on grid: PatternGrid) throws(CommandFailure) -> Pattern {
        let n = grid.size
        let left = (0..<n).reversed().map { $0 * n }
        let diagonal = (1..<n).map { $0 * n + $0 }
        let right = (0..<(n - 1)).reversed().map { $0 * n + n - 1 }
        return try PatternCommand.patternResult { () throws(PatternError) in
            try Pattern(dots: left + diagonal + right, grid: grid)
        }
    }

    /// Along the top row and back along the second (1-2-3-6-5-4 on 3×3).
    static func rowAndBack(on grid: PatternGrid) throws(CommandFailure) -> Pattern {
        let n = grid.size
        return try PatternCommand.patternResult { () throws(PatternError) in
            try Pattern(dots: Array(0..<n) + (n..<(2 * n)).reversed(), grid: grid)
        }
    }
}

/// A pattern lock that replays patterns at scripted times, for recordings.
final class PatternReplayScene: ScriptedScene {
    let lock: PatternLockView
    private var script: [(time: Double, pattern: Pattern, ending: PatternDisplayState)]
    private var time = 0.0

    init(
        grid: PatternGrid = .standard, wrongClearDelay: Double,
        script: [(Double, Pattern, PatternDisplayState)]
    ) throws(PatternError) {
        lock = try PatternLockView(
            configuration: PatternLockConfiguration(grid: grid, wrongClearDelay: wrongClearDelay))
        self.script = script.map { (time: $0.0, pattern: $0.1, ending: $0.2) }
    }

    var driven: PatternLockView { lock }

    var isAnimating: Bool { !script.isEmpty || lock.isAnimating }

    func advance(to time: Double) {
        self.time = max(self.time, time)
        while let next = script.first, next.time <= self.time {
            script.removeFirst()
            lock.advance(to: next.time)
            lock.update {
                $0.replay(next.pattern, stepDuration: PatternScene.step, endingIn: next.ending)
            }
        }
        lock.advance(to: self.time)
    }
}
