import Foundation
import TactileBenchmarks
import TactileCommands

let code = Benchmarks.run(
    Array(CommandLine.arguments.dropFirst()),
    output: CommandOutput(fileDescriptor: STDOUT_FILENO),
    errors: CommandOutput(fileDescriptor: STDERR_FILENO))
exit(code)
