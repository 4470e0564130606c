/// The `tactile` command-line tool: solving, simulating, rendering and benchmarking.
///
/// `run` is the whole program; `main.swift` only passes the arguments and exits with the
/// code it returns, so tests call it directly.
public enum Tactile {
    static let commands:
        [(
            name: String, summary: String,
            run: @Sendable ([String], CommandOutput) throws(CommandFailure) -> Void
        )] = [
            ("hanoi", "Solve and count Tower of Hanoi moves", HanoiCommand.run),
            ("cradle", "Simulate Newton's cradle", CradleCommand.run),
            ("pattern", "Count, set and check gesture patterns", PatternCommand.run),
            ("puzzle", "Generate and check puzzle slider captchas", PuzzleCommand.run),
            ("render", "Draw a component to a PNG or an animated GIF", RenderCommand.run),
            ("bench", "Measure speed against peers (use a release build)", BenchCommand.run),
        ]

    static var help: String {
        var lines = [
            "Usage: tactile <command> [arguments] [--help]", "",
            "Interactive, animated components: Tower of Hanoi, Newton's cradle, pattern lock, puzzle captcha.",
            "", "Commands:",
        ]
        for c in commands {
            lines.append(
                "  " + c.name.padding(toLength: 10, withPad: " ", startingAt: 0) + c.summary)
        }
        lines.append("")
        lines.append(
            "Exit codes: 0 success, 1 negative answer, 2 bad usage or input, 3 locked out, 4 damaged store."
        )
        return lines.joined(separator: "\n")
    }

    /// Runs a command line (without the program name) and returns the exit code.
    public static func run(_ arguments: [String], output: CommandOutput, errors: CommandOutput)
        -> Int32
    {
        defer {
            output.flush()
            errors.flush()
        }
        guard let name = arguments.first else {
            errors.line(help)
            return ExitCode.usage.rawValue
        }
        if name == "--help" || name == "-h" || name == "help" {
            output.line(help)
            return ExitCode.success.rawValue
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            errors.line(
                "tactile: unknown command \"\(name)\"; commands: \(commands.map(\.name).joined(separator: ", "))"
            )
            return ExitCode.usage.rawValue
        }
        do {
            try command.run(Array(arguments.dropFirst()), output)
            return ExitCode.success.rawValue
        } catch {
            output.flush()
            errors.line("tactile \(name): \(error.message)")
            return error.code.rawValue
        }
    }
}

/// Runs a sub-command chosen by the first argument from a table.
func dispatch(
    _ arguments: [String], command: String,
    _ table: [(
        name: String, spec: ArgumentParser.Spec,
        run: (ArgumentParser.Parsed, CommandOutput) throws(CommandFailure) -> Void
    )],
    output: CommandOutput
) throws(CommandFailure) {
    let names = table.map(\.name).joined(separator: ", ")
    guard let first = arguments.first else {
        throw .usage("missing sub-command; one of: \(names)")
    }
    if first == "--help" || first == "-h" {
        output.line("Usage: tactile \(command) <\(table.map(\.name).joined(separator: "|"))> …\n")
        for entry in table { output.line("  \(entry.spec.usage)\n      \(entry.spec.summary)") }
        return
    }
    guard let entry = table.first(where: { $0.name == first }) else {
        throw .usage("unknown sub-command \"\(first)\"; one of: \(names)")
    }
    let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), spec: entry.spec)
    if parsed.wantsHelp {
        output.line(entry.spec.help)
        return
    }
    try entry.run(parsed, output)
}
