import Foundation
import TactileCommands

let code = Tactile.run(
    Array(CommandLine.arguments.dropFirst()),
    output: CommandOutput(fileDescriptor: STDOUT_FILENO),
    errors: CommandOutput(fileDescriptor: STDERR_FILENO))
exit(code)
