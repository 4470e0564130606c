import Foundation

/// `tactile bench`: the benchmarks are a program of their own, `tactile-bench`, built beside
/// `tactile` (`swift build` builds both), so that what ships carries no benchmark or attack
/// code. This runs it with the same arguments, and exits as it does.
enum BenchLauncher {
    /// The benchmark program's path: beside the running `tactile`.
    static var program: String {
        let own =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return (own as NSString).deletingLastPathComponent + "/tactile-bench"
    }

    /// Runs the benchmarks with `arguments`: writing straight to `output` and `errors` when
    /// they are file descriptors, else (in tests) through pipes copied into them at the end.
    static func run(_ arguments: [String], output: CommandOutput, errors: CommandOutput) -> Int32 {
        let path = program
        guard FileManager.default.isExecutableFile(atPath: path) else {
            errors.line(
                "tactile bench: the benchmarks are a program of their own, not found at \(TerminalText.quoted(path)); build it with: swift build -c release --product tactile-bench"
            )
            errors.flush()
            return ExitCode.usage.rawValue
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        output.flush()
        errors.flush()
        var pipes: (output: Pipe, errors: Pipe)?
        if let out = output.fileDescriptor, let err = errors.fileDescriptor {
            process.standardOutput = FileHandle(fileDescriptor: out, closeOnDealloc: false)
            process.standardError = FileHandle(fileDescriptor: err, closeOnDealloc: false)
        } else {
            pipes = (Pipe(), Pipe())
            process.standardOutput = pipes?.output
            process.standardError = pipes?.errors
        }
        do { try process.run() } catch {
            errors.line(
                "tactile bench: cannot run \(TerminalText.quoted(path)): \(reason(error))")
            errors.flush()
            return ExitCode.usage.rawValue
        }
        if let pipes {
            // Both read at once, so that neither fills while the other is waited on.
            final class Collected: @unchecked Sendable { var data = Data() }
            let said = Collected()
            let done = DispatchSemaphore(value: 0)
            Thread {
                said.data = pipes.errors.fileHandleForReading.readDataToEndOfFile()
                done.signal()
            }.start()
            let printed = pipes.output.fileHandleForReading.readDataToEndOfFile()
            done.wait()
            process.waitUntilExit()
            output.write(String(decoding: printed, as: UTF8.self))
            errors.write(String(decoding: said.data, as: UTF8.self))
        } else {
            process.waitUntilExit()
        }
        return process.terminationReason == .exit
            ? process.terminationStatus : 128 + process.terminationStatus
    }

    /// Why `Process.run` failed, in the system's words ("Exec format error"), rather than
    /// Foundation's wrapping of them.
    static func reason(_ error: any Error) -> String {
        let wrapped = error as NSError
        for candidate in [wrapped.userInfo[NSUnderlyingErrorKey] as? NSError, wrapped] {
            if let candidate, candidate.domain == NSPOSIXErrorDomain {
                return String(cString: strerror(Int32(candidate.code)))
            }
        }
        switch CocoaError.Code(rawValue: wrapped.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return String(cString: strerror(ENOENT))
        case .fileReadNoPermission: return String(cString: strerror(EACCES))
        default:
            return wrapped.localizedFailureReason ?? "error \(wrapped.code) of \(wrapped.domain)"
        }
    }
}
