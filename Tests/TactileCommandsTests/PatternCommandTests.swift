import Foundation
import Testing

@testable import TactileCommands

/// `tactile pattern count|set|check`: the published counts, exit codes, throttling across
/// separate runs (a hand-moved clock stands in for the 30 s wait), damaged stores, and no
/// trace of the pattern in anything printed or stored.
@Suite struct PatternCommandTests {
    /// A clock moved by hand, seconds since 1970 (only ever from the test's own thread).
    final class Clock: @unchecked Sendable {
        var now = 1_800_000_000.0
    }

    /// A directory for the test's files, removed with the suite instance.
    final class Scratch {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("tactile-pattern-\(UUID().uuidString)").path

        init() {
            try? FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    let scratch = Scratch()
    let clock = Clock()

    var directory: String { scratch.path }
    var store: String { directory + "/pattern.store" }

    /// Runs `tactile pattern …` as a separate invocation would: nothing is shared between
    /// runs but the store file. Uses the cheapest Argon2id cost and the hand-moved clock.
    func pattern(_ arguments: String...) -> CommandRun {
        patternCommand(arguments, clock: { [clock] in clock.now })
    }

    @Test func threeByThreeTable() {
        let run = tactile("pattern", "count", "--grid", "3")
        #expect(run.code == 0)
        #expect(
            run.lines == [
                "length,count", "4,1624", "5,7152", "6,26016", "7,72912", "8,140704", "9,140704",
                "total,389112",
            ])
        #expect(tactile("pattern", "count").output == run.output, "3×3 is the default")
    }

    @Test func minimumLengthOne() {
        let run = tactile("pattern", "count", "--min-length", "1")
        #expect(run.lines.first == "length,count")
        #expect(run.lines[1...4] == ["1,9", "2,56", "3,320", "4,1624"])
        #expect(run.lines.last == "total,389497")
    }

    @Test func fourByFourTotal() {
        #expect(tactile("pattern", "count", "--grid", "4").lines.last == "total,4350069823024")
    }

    @Test(arguments: [
        (["count", "--grid", "5"], "--grid must be a whole number 2…4 for counting, got 5"),
        (["count", "--grid", "1"], "--grid must be a whole number 2…4, got 1"),
        (["count", "--grid", "three"], "--grid must be a whole number 2…4, got \"three\""),
        (["count", "--min-length", "10"], "--min-length must be a whole number 1…9, got 10"),
        (["count", "--grid", "2", "--min-length", "5"], "--min-length must be a whole number 1…4"),
        (["set", "1-2-3-6"], "missing --store FILE"),
        (["check", "--store", "x"], "missing <pattern|->"),
        (["frobnicate"], "unknown sub-command \"frobnicate\""),
    ])
    func badUsageExitsTwo(arguments: [String], message: String) {
        let run = runTactile(["pattern"] + arguments)
        #expect(run.code == 2)
        #expect(run.errors.contains(message), "stderr was: \(run.errors)")
    }

    @Test func theDoneWhenScenario() throws {
        #expect(pattern("set", "--store", store, "1-2-3-6").code == 0)
        #expect(pattern("check", "--store", store, "1-2-3-6").code == 0)
        let expectations = [
            "4 tries left before a 30 s wait", "3 tries left", "2 tries left",
            "1 try left before a 30 s wait", "try again in 30 s",
        ]
        for (index, wrong) in ["7-8-9-6", "1-5-9-6", "3-2-1-4", "9-8-7-4", "4-5-6-3"].enumerated() {
            let run = pattern("check", "--store", store, wrong)
            #expect(run.code == 1)
            #expect(run.errors.contains(expectations[index]), "\(run.errors)")
        }
        clock.now += 4
        let locked = pattern("check", "--store", store, "1-2-3-6")
        #expect(locked.code == 3)
        #expect(locked.errors.contains("try again in 26 s"), "\(locked.errors)")
        clock.now += 25.5
        #expect(pattern("check", "--store", store, "1-2-3-6").errors.contains("in 1 s"))
        clock.now += 0.5
        #expect(pattern("check", "--store", store, "1-2-3-6").code == 0)
        #expect(pattern("check", "--store", store, "7-8-9-6").errors.contains("4 tries left"))
    }

    @Test func invalidInputIsNotCounted() throws {
        #expect(pattern("set", "--store", store, "1-2-3").code == 2, "too short to set")
        #expect(!FileManager.default.fileExists(atPath: store))
        #expect(pattern("set", "--store", store, "1-2-3-6").code == 0)
        for bad in ["1-2", "1-2-1-4", "1-2-10-4", "a-b-c-d", ""] {
            #expect(pattern("check", "--store", store, bad).code == 2, "\(bad)")
        }
        #expect(pattern("check", "--store", store, "7-8-9-6").errors.contains("(1 wrong in a row)"))
    }

    @Test func aMissingStoreSaysNothingIsSet() {
        let run = pattern("check", "--store", directory + "/none", "1-2-3-6")
        #expect(run.code == 2)
        #expect(run.errors.contains("no pattern is set"))
    }

    @Test func setRefusesToReplaceAStore() throws {
        #expect(pattern("set", "--store", store, "1-2-3-6").code == 0)
        let again = pattern("set", "--store", store, "9-8-7-4")
        #expect(again.code == 2)
        #expect(again.errors.contains("already set"))
        #expect(pattern("check", "--store", store, "1-2-3-6").code == 0)
    }

    @Test func truncatedOrBitFlippedStoresExitFour() throws {
        #expect(pattern("set", "--store", store, "1-2-3-6").code == 0)
        let good = try Data(contentsOf: URL(fileURLWithPath: store))
        try good.prefix(60).write(to: URL(fileURLWithPath: store))
        let truncated = pattern("check", "--store", store, "1-2-3-6")
        #expect(truncated.code == 4)
        #expect(truncated.errors.contains("truncated"), "\(truncated.errors)")
        var flipped = good
        flipped[100] ^= 0x04
        try flipped.write(to: URL(fileURLWithPath: store))
        let damaged = pattern("check", "--store", store, "1-2-3-6")
        #expect(damaged.code == 4)
        #expect(damaged.errors.contains("integrity check failed"), "\(damaged.errors)")
        try Data().write(to: URL(fileURLWithPath: store))
        #expect(pattern("check", "--store", store, "1-2-3-6").code == 4)
        #expect(pattern("set", "--store", store, "1-2-3-6").code == 4, "set does not overwrite")
    }

    @Test func nothingPrintedOrStoredRevealsThePattern() throws {
        var printed = ""
        for run in [
            pattern("set", "--store", store, "1-2-3-6-9-8"),
            pattern("check", "--store", store, "1-2-3-6-9-8"),
            pattern("check", "--store", store, "1-2-3-6-9-7"),
            pattern("check", "--store", store, "1-3-6-9-8"),
        ] {
            printed += run.output + run.errors
        }
        for form in ["1-2-3-6-9-8", "123698", "1-2-3-6-9-7", "1-3-6-9-8"] {
            #expect(!printed.contains(form))
        }
        let stored = try Data(contentsOf: URL(fileURLWithPath: store))
        #expect(stored.range(of: Data("1-2-3-6-9-8".utf8)) == nil)
        #expect(stored.range(of: Data("123698".utf8)) == nil)
        #expect(stored.range(of: Data([0, 1, 2, 5, 8, 7])) == nil)
        #expect(stored.range(of: Data([1, 2, 3, 6, 9, 8])) == nil)
    }

    @Test func renderPatternWritesAnAnimation() throws {
        let path = directory + "/pattern.gif"
        let run = tactile("render", "pattern", "--out", path, "--size", "64x64", "--seconds", "1")
        #expect(run.code == 0, "\(run.errors)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.starts(with: Data("GIF89a".utf8)))
    }

    /// Runs the tool with an argument array.
    func runTactile(_ arguments: [String]) -> CommandRun {
        let output = CommandOutput()
        let errors = CommandOutput()
        let code = Tactile.run(arguments, output: output, errors: errors)
        return CommandRun(code: code, output: output.text, errors: errors.text)
    }
}
