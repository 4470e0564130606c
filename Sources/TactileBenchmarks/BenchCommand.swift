import Foundation
import TactileCommands

/// `tactile-bench`, which `tactile bench` runs: the benchmarks, kept out of the `tactile` that
/// ships.
public enum Benchmarks {
    /// Runs `tactile bench`'s arguments (without the program name); the exit code.
    public static func run(_ arguments: [String], output: CommandOutput, errors: CommandOutput)
        -> Int32
    {
        Tactile.run("bench", output: output, errors: errors) { () throws(CommandFailure) in
            try BenchCommand.run(arguments, output: output)
        }
    }
}

/// `tactile bench <suite>`.
enum BenchCommand {
    static let suites:
        [(
            name: String,
            run: @Sendable (CommandOutput, ArgumentParser.Parsed) throws(CommandFailure) -> Void
        )] = [
            (
                "hanoi",
                { output, _ throws(CommandFailure) in try HanoiBenchmark.run(output: output) }
            ),
            (
                "dynamics",
                { output, _ throws(CommandFailure) in try DynamicsBenchmark.run(output: output) }
            ),
            (
                "pattern",
                { output, _ throws(CommandFailure) in try PatternBenchmark.run(output: output) }
            ),
            ("puzzle", PuzzleBenchmark.run),
        ]

    static let spec = ArgumentParser.Spec(
        usage: "tactile bench <suite> [--pictures DIR] [--puzzles N]",
        summary:
            "Measure speed against peers in the same run. Use a release build: swift run -c release tactile bench hanoi",
        positionals: [("<suite>", "One of: \(suites.map(\.name).joined(separator: ", ")).")],
        options: [
            .init(
                name: "pictures", valueName: "DIR",
                help:
                    "puzzle: photos to cut puzzles from (PNG/JPEG files of at least 300x170). Default: scikit-image's sample photos, from Debian's python3-skimage."
            ),
            .init(
                name: "puzzles", valueName: "N",
                help:
                    "puzzle: puzzles per solver, picture kind and treatment, \(PuzzleBenchmark.puzzleRange.lowerBound)…\(PuzzleBenchmark.puzzleRange.upperBound). Default: \(PuzzleBenchmark.defaultPuzzles)."
            ),
        ])

    static func run(_ arguments: [String], output: CommandOutput) throws(CommandFailure) {
        let parsed = try ArgumentParser.parse(arguments, spec: spec)
        if parsed.wantsHelp { return output.line(spec.help) }
        let name = try ValueParser.choice(
            parsed.positionals[0], name: "suite", from: suites.map(\.name))
        if name != "puzzle",
            let option = ["pictures", "puzzles"].first(where: {
                parsed.option($0) != nil
            })
        {
            throw .usage("--\(option) applies to the puzzle suite only")
        }
        #if DEBUG
            progress(
                "warning: this is a debug build, many times slower than release; for real figures run `swift run -c release tactile bench \(name)`"
            )
        #endif
        progress("tactile bench \(name): measuring; the figures follow when every round is done")
        try suites.first { $0.name == name }!.run(output, parsed)
    }

    /// Tells the person waiting how far a benchmark has got, on standard error at once (the
    /// figures go to standard output, buffered, at the end).
    static func progress(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
