import Foundation
import TactileCommands

// A closed pipe is output that cannot be written: the write fails with EPIPE and the command
// exits 2 with the reason, instead of dying by SIGPIPE.
signal(SIGPIPE, SIG_IGN)

let code = Tactile.run(
    Array(CommandLine.arguments.dropFirst()),
    output: CommandOutput(fileDescriptor: STDOUT_FILENO),
    errors: CommandOutput(fileDescriptor: STDERR_FILENO))
exit(code)
