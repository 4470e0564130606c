import TactileCommands
import Testing

/// The result of running `tactile` in memory.
struct CommandRun {
    var code: Int32
    var output: String
    var errors: String

    var lines: [Substring] { output.split(separator: "\n") }
}

/// Runs the tool with the given arguments, as a shell would (`tactile …`).
func tactile(_ arguments: String...) -> CommandRun {
    let output = CommandOutput()
    let errors = CommandOutput()
    let code = Tactile.run(arguments, output: output, errors: errors)
    return CommandRun(code: code, output: output.text, errors: errors.text)
}
