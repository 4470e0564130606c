// `tactile` command lines: the input is the argument vector, NUL-separated, at most 16
// arguments of at most 256 bytes. Only commands that neither write files nor hash run:
// `hanoi`, `cradle` and `pattern count` (see `runnableSubcommands`), and whatever the parser
// refuses or answers with help. `cradle simulate` simulates one second (the default ten take
// two seconds of real time here; vectors with their own `--seconds` are skipped).
// Standard output and error hold 64 KiB each, so a long stream meets a full disk. Failures
// are expected; a trap or an exit code outside 0…4 is a finding.

import Foundation
import FuzzDriver
import TactileCommands

@_cdecl("FuzzCommandLine_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    tactile_fuzz_main(argc, argv)
}

/// A fresh temporary directory, made the working directory on first use, so that nothing a
/// command might write lands in the tree. (libFuzzer's paths must therefore be absolute.)
private let workingDirectory: String = {
    var template = Array((NSTemporaryDirectory() + "tactile-fuzz-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template), chdir(made) == 0 else {
        fatalError("cannot make a temporary directory: \(String(cString: strerror(errno)))")
    }
    atexit { rmdir(workingDirectory) }
    return String(cString: made)
}()

/// Sub-commands that run, by command. Any other lower-case word, in either place, is skipped:
/// it names (or may one day name) something that writes a store, hashes, renders or benchmarks.
/// Anything else (`--help`, `-h`, `hanoi2`, an empty argument) is only refused by the parser.
private let runnableSubcommands: [String: Set<String>] = [
    "hanoi": ["solve", "count", "move"],
    "cradle": ["simulate"],
    "pattern": ["count"],
    "puzzle": [],
]

private func isWord(_ argument: String) -> Bool {
    !argument.isEmpty && argument.allSatisfy { $0.isASCII && $0.isLowercase }
}

private func isRunnable(_ arguments: [String]) -> Bool {
    guard let command = arguments.first else { return true }
    guard let runnable = runnableSubcommands[command] else { return !isWord(command) }
    if command == "cradle", arguments.contains(where: { $0.hasPrefix("--seconds") }) {
        return false
    }
    guard arguments.count > 1 else { return true }
    return !isWord(arguments[1]) || runnable.contains(arguments[1])
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let fields = UnsafeBufferPointer(start: data, count: size)
        .split(separator: 0, omittingEmptySubsequences: false)
    guard fields.count <= 16, fields.allSatisfy({ $0.count <= 256 }) else { return 0 }
    // As the program sees them: invalid UTF-8 is repaired, as in `CommandLine.arguments`.
    var arguments = fields.map { String(decoding: $0, as: UTF8.self) }
    guard isRunnable(arguments) else { return 0 }
    if arguments.starts(with: ["cradle", "simulate"]) {
        arguments.insert(contentsOf: ["--seconds", "1"], at: 2)
    }
    _ = workingDirectory
    let code = Tactile.run(
        arguments, input: CommandInput(text: ""), output: CommandOutput(limit: 1 << 16),
        errors: CommandOutput(limit: 1 << 16))
    guard (0...4).contains(code) else { fatalError("exit code \(code) for \(arguments)") }
    return 0
}
