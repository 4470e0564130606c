/// `tactile bench <suite>`.
enum BenchCommand {
    static let suites:
        [(name: String, run: @Sendable (CommandOutput) throws(CommandFailure) -> Void)] = [
            ("hanoi", HanoiBenchmark.run),
            ("dynamics", DynamicsBenchmark.run),
            ("pattern", PatternBenchmark.run),
            ("puzzle", PuzzleBenchmark.run),
        ]

    static let spec = ArgumentParser.Spec(
        usage: "tactile bench <suite>",
        summary:
            "Measure speed against peers in the same run. Use a release build: swift run -c release tactile bench hanoi",
        positionals: [("<suite>", "One of: \(suites.map(\.name).joined(separator: ", ")).")])

    static func run(_ arguments: [String], output: CommandOutput) throws(CommandFailure) {
        let parsed = try ArgumentParser.parse(arguments, spec: spec)
        if parsed.wantsHelp { return output.line(spec.help) }
        let name = try ValueParser.choice(
            parsed.positionals[0], name: "suite", from: suites.map(\.name))
        try suites.first { $0.name == name }!.run(output)
    }
}
