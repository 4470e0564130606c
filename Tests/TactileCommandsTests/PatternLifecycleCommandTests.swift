import Foundation
import TactileCrypto
import TestSupport
import Testing

@testable import TactileCommands

/// `tactile pattern set|check|change|remove|status` with patterns from standard input, other
/// grids, and stores forged to look locked.
@Suite struct PatternLifecycleCommandTests {
    let scratch = ScratchDirectory("pattern-life")
    var store: String { scratch.file("pattern.store") }

    func pattern(_ arguments: String..., input: String = "") -> CommandRun {
        patternCommand(arguments, input: input)
    }

    @Test func patternsFromStandardInput() {
        #expect(pattern("set", "--store", store, "-", input: "1-5-9-6\n").code == 0)
        #expect(pattern("check", "--store", store, "-", input: "1-5-9-6\r\n").code == 0)
        #expect(pattern("check", "--store", store, "-", input: "1-5-9-8").code == 1)
        let empty = pattern("check", "--store", store, "-", input: "")
        #expect(empty.code == 2)
        #expect(empty.errors.contains("standard input ended"))
        let long = pattern(
            "check", "--store", store, "-", input: String(repeating: "1", count: 5000))
        #expect(long.code == 2)
        #expect(long.errors.contains("longer than 4096 bytes"))
    }

    @Test func changeRemoveAndStatus() {
        #expect(pattern("status", "--store", store).code == 1, "nothing set yet")
        #expect(pattern("set", "--store", store, "1-5-9-6").code == 0)
        let status = pattern("status", "--store", store)
        #expect(status.code == 0)
        #expect(status.output.contains("0 wrong in a row, not locked"), "\(status.output)")
        #expect(!status.output.contains("1-5-9-6"))
        #expect(
            pattern("change", "--store", store, "-", "-", input: "7-8-9-6\n3-5-7-8\n").code == 1)
        #expect(
            pattern("change", "--store", store, "-", "-", input: "1-5-9-6\n3-5-7-8\n").code == 0)
        #expect(pattern("check", "--store", store, "1-5-9-6").code == 1)
        #expect(pattern("check", "--store", store, "3-5-7-8").code == 0)
        #expect(pattern("remove", "--store", store, "1-5-9-6").code == 1)
        #expect(pattern("remove", "--store", store, "3-5-7-8").code == 0)
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test func setTakesAGrid() {
        #expect(pattern("set", "--store", store, "--grid", "4", "1-6-11-16-12").code == 0)
        #expect(pattern("status", "--store", store).output.contains("4×4"))
        #expect(pattern("check", "--store", store, "1-6-11-16-12").code == 0)
        #expect(pattern("set", "--store", scratch.file("b"), "--grid", "7", "1-2-3-4").code == 2)
    }

    @Test func aForgedWaitWithoutFailuresIsDamage() throws {
        // A wait of a day after 0 failures can only come from someone editing the store: the
        // checksum alone would accept it once recomputed, so the record itself is checked.
        #expect(pattern("set", "--store", store, "1-5-9-6").code == 0)
        var bytes = try #require(scratch.contents("pattern.store"))
        let waitEnd = (1_800_000_000.0 + 86_400).bitPattern
        for i in 0..<8 { bytes[80 + i] = UInt8(truncatingIfNeeded: waitEnd >> UInt64(56 - 8 * i)) }
        bytes.replaceSubrange(88..<120, with: Sodium.sha256(Array(bytes[0..<88])))
        try Data(bytes).write(to: URL(fileURLWithPath: store))
        let run = pattern("check", "--store", store, "1-5-9-6")
        #expect(run.code == 4)
        #expect(run.errors.contains("a wait is recorded after 0 failures"), "\(run.errors)")
        #expect(pattern("status", "--store", store).code == 4)
    }

    @Test func loosenedModesFailClosed() throws {
        #expect(pattern("set", "--store", store, "1-5-9-6").code == 0)
        for (file, mode) in [(store, 0o644), (store, 0o600 | 0o060), (store + ".lock", 0o666)] {
            #expect(chmod(file, mode_t(mode)) == 0)
            let run = pattern("check", "--store", store, "1-5-9-6")
            #expect(run.code == 4, "\(file) at \(String(mode, radix: 8))")
            #expect(run.errors.contains("open to other users"), "\(run.errors)")
            #expect(chmod(file, 0o600) == 0)
        }
        #expect(chmod(scratch.path, 0o777) == 0)
        let folder = pattern("check", "--store", store, "1-5-9-6")
        #expect(folder.code == 4)
        #expect(folder.errors.contains("can be written by other users"), "\(folder.errors)")
        #expect(chmod(scratch.path, 0o755) == 0)
        #expect(pattern("check", "--store", store, "1-5-9-6").code == 0)
    }
}
