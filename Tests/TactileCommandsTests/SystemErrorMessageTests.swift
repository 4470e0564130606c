import Foundation
import TestSupport
import Testing

@testable import TactileCommands

/// When the system refuses something, a message says what failed — the option, its value,
/// the folder or program concerned — and the system's reason, never Foundation's "The
/// operation could not be completed" or an `NSError` dump.
@Suite struct SystemErrorMessageTests {
    let scratch = ScratchDirectory("system-errors")

    /// procfs makes no folders, whoever runs the tests (root included).
    static let uncreatable = "/proc/self/nope"

    func expectPlain(
        _ errors: String, says message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(errors.contains(message), "stderr was: \(errors)", sourceLocation: sourceLocation)
        for foundation in [
            "could not be completed", "Error Domain", "NSCocoaErrorDomain", "(null)",
        ] {
            #expect(
                !errors.contains(foundation), "stderr was: \(errors)",
                sourceLocation: sourceLocation)
        }
    }

    @Test func aPuzzlesOutputFolderThatCannotBeMadeIsNamed() {
        let out = Self.uncreatable + "/out"
        let run = tactile(["puzzle", "new", "--state", scratch.file("state"), "--out", out])
        #expect(run.code == 2)
        expectPlain(
            run.errors,
            says:
                "cannot create --out \(out): cannot create \(Self.uncreatable): No such file or directory"
        )
    }

    @Test(arguments: [
        ["puzzle", "new", "--out", "OUT"],
        ["puzzle", "check", "--id", String(repeating: "ab", count: 16), "--x", "10"],
        ["puzzle", "redeem", "token"],
    ])
    func aStateFolderThatCannotBeMadeIsNamed(command: [String]) {
        let state = Self.uncreatable + "/state"
        let arguments = command.map { $0 == "OUT" ? scratch.file("out") : $0 } + ["--state", state]
        let run = tactile(arguments)
        #expect(run.code == 2)
        expectPlain(
            run.errors,
            says:
                "cannot create state directory \(state): cannot create \(Self.uncreatable): No such file or directory"
        )
    }

    @Test func theServicesStoreFolderThatCannotBeMadeIsNamed() throws {
        let store = Self.uncreatable + "/store"
        let run = try runTactileProcess([
            "puzzle", "serve", "--store", store, "--listen", "127.0.0.1:0",
        ])
        #expect(run.status == 2 && !run.wasSignalled)
        expectPlain(
            run.errors,
            says:
                "cannot create state directory \(store): cannot create \(Self.uncreatable): No such file or directory"
        )
    }

    @Test func aBenchmarkProgramThatCannotRunSaysWhy() throws {
        // A copy of tactile beside a "tactile-bench" that is executable but no program.
        let copy = scratch.file("tactile")
        try FileManager.default.copyItem(atPath: try tactileExecutable().path, toPath: copy)
        let bench = try scratch.write("not a program\n", to: "tactile-bench")
        #expect(chmod(bench, 0o755) == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: copy)
        process.arguments = ["bench", "hanoi"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let said = String(
            decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        expectPlain(said, says: "tactile bench: cannot run \"\(bench)\": Exec format error")
    }
}
