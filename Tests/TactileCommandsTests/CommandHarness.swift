import Foundation
@_spi(Testing) import TactileCrypto
import Testing

@testable import TactileCommands

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

/// Runs the tool in memory with standard input and an output that fails past `limit` bytes.
func tactile(input: String = "", outputLimit: Int = .max, _ arguments: [String]) -> CommandRun {
    let output = CommandOutput(limit: outputLimit)
    let errors = CommandOutput()
    let code = Tactile.run(
        arguments, input: CommandInput(text: input), output: output, errors: errors)
    return CommandRun(code: code, output: output.text, errors: errors.text)
}

/// The built `tactile` program, for tests that need a real process: its own working
/// directory, file descriptors (`/dev/full`, a closed pipe) or signals.
func tactileExecutable(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let build = root.appendingPathComponent(".build")
    var candidates = [build.appendingPathComponent("debug/tactile")]
    if let triples = try? FileManager.default.contentsOfDirectory(atPath: build.path) {
        candidates += triples.map { build.appendingPathComponent("\($0)/debug/tactile") }
    }
    guard
        let found = candidates.first(where: {
            FileManager.default.isExecutableFile(atPath: $0.path)
        })
    else {
        Issue.record(
            "the tactile program is not built (swift build)", sourceLocation: sourceLocation)
        throw CocoaError(.fileNoSuchFile)
    }
    return found
}

/// What a `tactile` process did.
struct ProcessRun {
    var status: Int32
    var wasSignalled: Bool
    var errors: String
}

/// Runs `tactile` as a process with stdout sent to `standardOutput` (a path such as
/// `/dev/full`, or `nil` for a pipe that is read), in `directory`, killing it after `timeout`.
func runTactileProcess(
    _ arguments: [String], in directory: String? = nil, standardOutput: String? = nil,
    standardInput: String? = nil, timeout: Double = 20
) throws -> ProcessRun {
    let process = Process()
    process.executableURL = try tactileExecutable()
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let errors = Pipe()
    process.standardError = errors
    let outputPipe = Pipe()
    if let standardOutput {
        process.standardOutput = FileHandle(forWritingAtPath: standardOutput)
    } else {
        process.standardOutput = outputPipe
    }
    let inputPipe = Pipe()
    process.standardInput = standardInput == nil ? FileHandle.nullDevice : inputPipe
    try process.run()
    if let standardInput {
        inputPipe.fileHandleForWriting.write(Data(standardInput.utf8))
        try inputPipe.fileHandleForWriting.close()
    }
    if standardOutput == nil {
        DispatchQueue.global().async { _ = outputPipe.fileHandleForReading.readDataToEndOfFile() }
    }
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning, Date() < deadline { usleep(10_000) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return ProcessRun(
        status: process.terminationStatus,
        wasSignalled: process.terminationReason == .uncaughtSignal, errors: text)
}

/// Runs `tactile pattern …` in memory as a separate invocation would: nothing is shared
/// between runs but the store file. Uses the cheapest Argon2id cost and the given clock.
func patternCommand(
    _ arguments: [String], input: String = "",
    clock: @escaping @Sendable () -> Double = { 1_800_000_000 }
) -> CommandRun {
    let output = CommandOutput()
    let errors = CommandOutput()
    var code = ExitCode.success
    do {
        try PatternCommand.run(
            arguments, input: CommandInput(text: input), output: output, clock: clock,
            cost: .minimum)
    } catch {
        errors.line("tactile pattern: \(error.message)")
        code = error.code
    }
    return CommandRun(code: code.rawValue, output: output.text, errors: errors.text)
}
