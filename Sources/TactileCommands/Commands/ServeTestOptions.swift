import TactilePuzzle
import TactilePuzzleImaging
import TactilePuzzleVerifier

/// The options of `tactile puzzle serve` that exist for tests only (their names end in
/// `-for-tests`): each gives something away or bends a limit, so that a test can reach a
/// state of the service quickly, and each is announced by a warning at start-up.
struct ServeTestOptions {
    /// `/test/answer/{id}` gives every puzzle's answer away.
    var revealsAnswers = false
    /// The drag model judges no drag (the other rules still apply).
    var skipsDragModel = false
    /// The axis every puzzle's piece moves along, instead of horizontal.
    var axis: PuzzleAxis?
    /// Seconds a puzzle can be answered, instead of the policy's two minutes.
    var puzzleLifetime: Double?
    /// The window of a client's rate limits in seconds, instead of a minute: a site's
    /// `puzzlesPerMinute` and `answersPerMinute` then count per this many seconds.
    var rateWindow: Double?

    /// The longest puzzle lifetime and rate-limit window a test may set, in seconds.
    static let longestSeconds = 3600

    /// Reads the options from a parsed command line.
    ///
    /// - Throws: A usage failure naming the option, the value and what it accepts.
    init(_ parsed: ArgumentParser.Parsed) throws(CommandFailure) {
        revealsAnswers = try Self.yes(parsed, "reveal-answers-for-tests")
        skipsDragModel = try Self.yes(parsed, "skip-drag-model-for-tests")
        axis = try parsed.option("axis-for-tests").map { text throws(CommandFailure) in
            PuzzleAxis(
                rawValue: try ValueParser.choice(
                    text, name: "--axis-for-tests", from: PuzzleAxis.allCases.map(\.rawValue)))!
        }
        puzzleLifetime = try Self.seconds(parsed, "puzzle-lifetime-for-tests")
        rateWindow = try Self.seconds(parsed, "rate-window-for-tests")
    }

    /// `policy` with the lifetime and the window these options set.
    func applied(to policy: VerifierPolicy) -> VerifierPolicy {
        var policy = policy
        if let puzzleLifetime { policy.puzzleLifetime = puzzleLifetime }
        if let rateWindow { policy.window = rateWindow }
        return policy
    }

    /// One line for each option in use, saying what it does and that it is not for real use.
    var warnings: [String] {
        var lines: [String] = []
        if skipsDragModel {
            lines.append(
                "WARNING: --skip-drag-model-for-tests lets scripted drags pass; never use it for real"
            )
        }
        if revealsAnswers {
            lines.append(
                "WARNING: --reveal-answers-for-tests gives every answer away; never use it for real"
            )
        }
        if let axis {
            lines.append(
                "WARNING: --axis-for-tests makes every puzzle \(axis.rawValue); never use it for real"
            )
        }
        if let puzzleLifetime {
            lines.append(
                "WARNING: --puzzle-lifetime-for-tests lets a puzzle be answered for \(ValueParser.format(puzzleLifetime)) s; never use it for real"
            )
        }
        if let rateWindow {
            lines.append(
                "WARNING: --rate-window-for-tests counts a client's rate limits per \(ValueParser.format(rateWindow)) s instead of a minute; never use it for real"
            )
        }
        return lines
    }

    private static func yes(_ parsed: ArgumentParser.Parsed, _ name: String)
        throws(CommandFailure) -> Bool
    {
        try parsed.option(name).map { text throws(CommandFailure) in
            try ValueParser.choice(text, name: "--\(name)", from: ["yes"])
        } != nil
    }

    private static func seconds(_ parsed: ArgumentParser.Parsed, _ name: String)
        throws(CommandFailure) -> Double?
    {
        try parsed.option(name).map { text throws(CommandFailure) in
            Double(try ValueParser.integer(text, name: "--\(name)", in: 1...longestSeconds))
        }
    }
}
