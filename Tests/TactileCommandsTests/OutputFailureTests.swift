import Foundation
import Testing

@testable import TactileCommands

/// Output that cannot be written — a full disk, a closed pipe — stops a command at once and
/// makes it exit non-zero with the reason; nothing claims success.
@Suite struct OutputFailureTests {
    @Test(arguments: [["--format", "csv"], ["--format", "text"]])
    func aFullOutputStopsAStreamOf64Disks(format: [String]) {
        // 2⁶⁴ − 1 moves: only stopping at the first failed write lets this return.
        let run = tactile(outputLimit: 1 << 20, ["hanoi", "solve", "64"] + format)
        #expect(run.code == 2)
        #expect(run.errors.contains("cannot write the output: No space left on device"))
    }

    @Test(arguments: ["byte", "number"])
    func everyKindOfWriteSendsFullBlocksOn(kind: String) {
        // The csv writer used only single bytes and numbers, which once never flushed: the
        // whole stream piled up in memory. A block must go out (here: fail) as soon as it
        // is full, before any explicit flush.
        let output = CommandOutput(limit: 1000)
        for k in 0..<70_000 {
            if kind == "byte" { output.write(byte: 65) } else { output.write(UInt64(k % 10)) }
        }
        #expect(output.hasFailed)
        #expect(output.failureReason == "No space left on device")
    }

    @Test func devFullGivesANonZeroExit() throws {
        for arguments in [
            ["hanoi", "solve", "10"], ["hanoi", "solve", "10", "--format", "csv"],
            ["cradle", "simulate", "--seconds", "1"], ["hanoi", "count", "5"],
            ["pattern", "count"], ["--help"],
        ] {
            let run = try runTactileProcess(arguments, standardOutput: "/dev/full")
            #expect(run.status == 2, "\(arguments)")
            #expect(!run.wasSignalled)
            #expect(run.errors.contains("No space left on device"), "\(arguments): \(run.errors)")
        }
    }

    @Test(arguments: ["", "trap '' PIPE; "])
    func aClosedPipeEndsTheStreamWithExitCode2(shellPrefix: String) throws {
        // A closed pipe is output that cannot be written: exit 2 with the reason, as the
        // README promises, rather than death by SIGPIPE (141 in a shell) — whether the shell
        // leaves SIGPIPE's default or ignores it. The 64-disk stream must stop, not run for ever.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = [
            "-c",
            shellPrefix
                + "\"$0\" hanoi solve 64 --format csv | head -2 >/dev/null; exit ${PIPESTATUS[0]}",
            try tactileExecutable().path,
        ]
        let errors = Pipe()
        shell.standardError = errors
        try shell.run()
        let deadline = Date().addingTimeInterval(20)
        while shell.isRunning, Date() < deadline { usleep(10_000) }
        let finished = !shell.isRunning
        if shell.isRunning { shell.terminate() }
        shell.waitUntilExit()
        #expect(finished, "hanoi solve 64 kept writing into a closed pipe")
        #expect(shell.terminationStatus == 2)
        let text = String(
            decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("Broken pipe"), "\(text)")
    }
}
