/// The `tactile` command-line tool: solving, simulating, rendering and benchmarking.
///
/// `run` is the whole program; `main.swift` only passes the arguments and exits with the
/// code it returns, so tests call it directly.
public enum Tactile {
    static let commands:
        [(
            name: String, summary: String,
            run: @Sendable (CommandContext) throws(CommandFailure) -> Void
        )] = [
            (
                "hanoi", "Solve and count Tower of Hanoi moves",
                { c throws(CommandFailure) in try HanoiCommand.run(c.arguments, output: c.output) }
            ),
            (
                "cradle", "Simulate Newton's cradle",
                { c throws(CommandFailure) in try CradleCommand.run(c.arguments, output: c.output) }
            ),
            (
                "pattern", "Count, set, check, change and remove gesture patterns",
                PatternCommand.run
            ),
            (
                "puzzle", "Generate, check and redeem puzzle slider captchas",
                { c throws(CommandFailure) in
                    try PuzzleCommand.run(c.arguments, input: c.input, output: c.output)
                }
            ),
            (
                "render", "Draw a component to a PNG or an animated GIF",
                { c throws(CommandFailure) in try RenderCommand.run(c.arguments, output: c.output) }
            ),
            (
                "bench", "Measure speed against peers (use a release build)",
                // Answered by `tactile-bench` (see `run`); listed here for the help.
                { _ throws(CommandFailure) in }
            ),
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
            "Exit codes: 0 success, 1 negative answer, 2 bad usage or input (or output that could not"
        )
        lines.append("be written), 3 locked out or rate-limited, 4 damaged or unreadable store.")
        return lines.joined(separator: "\n")
    }

    /// Runs a command line (without the program name) and returns the exit code.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - input: Where `-` arguments are read from.
    ///   - output: Standard output; if writing it fails the exit code says so (2).
    ///   - errors: Standard error; messages there have control characters escaped.
    public static func run(
        _ arguments: [String], input: CommandInput = CommandInput(), output: CommandOutput,
        errors: CommandOutput
    ) -> Int32 {
        defer { errors.flush() }
        guard let name = arguments.first else {
            errors.line(help)
            return ExitCode.usage.rawValue
        }
        if name == "--help" || name == "-h" || name == "help" {
            output.line(help)
            return finish(ExitCode.success, command: "tactile", output: output, errors: errors)
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            errors.line(
                "tactile: unknown command \(TerminalText.quoted(name)); commands: \(commands.map(\.name).joined(separator: ", "))"
            )
            return ExitCode.usage.rawValue
        }
        if name == "bench" {
            output.flush()
            return BenchLauncher.run(Array(arguments.dropFirst()), output: output, errors: errors)
        }
        let context = CommandContext(
            arguments: Array(arguments.dropFirst()), input: input, output: output)
        return run(name, output: output, errors: errors) { () throws(CommandFailure) in
            try command.run(context)
        }
    }

    /// Runs one command's body: its failure's message to `errors` (as `tactile NAME: …`) and
    /// its code, else success once the output is written.
    package static func run(
        _ name: String, output: CommandOutput, errors: CommandOutput,
        _ body: () throws(CommandFailure) -> Void
    ) -> Int32 {
        defer { errors.flush() }
        do {
            try body()
            return finish(.success, command: "tactile \(name)", output: output, errors: errors)
        } catch {
            output.flush()
            errors.line("tactile \(name): \(TerminalText.escaped(error.message))")
            return error.code.rawValue
        }
    }

    /// Flushes standard output; a failed write turns success into exit code 2 with the reason.
    private static func finish(
        _ code: ExitCode, command: String, output: CommandOutput, errors: CommandOutput
    ) -> Int32 {
        output.flush()
        if let reason = output.failureReason {
            errors.line("\(command): cannot write the output: \(reason)")
            return ExitCode.usage.rawValue
        }
        return code.rawValue
    }
}

/// What a command is run with: its arguments, and where it reads and writes.
struct CommandContext {
    var arguments: [String]
    var input: CommandInput
    var output: CommandOutput
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
        throw .usage("unknown sub-command \(TerminalText.quoted(first)); one of: \(names)")
    }
    let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), spec: entry.spec)
    if parsed.wantsHelp {
        output.line(entry.spec.help)
        return
    }
    try entry.run(parsed, output)
}
