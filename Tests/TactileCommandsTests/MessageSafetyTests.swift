import Foundation
import TestSupport
import Testing

@testable import TactileCommands

/// What a message shows of a bad value: control characters escaped, numbers only as
/// written in decimal, the option named, and never part of a pattern.
@Suite struct MessageSafetyTests {
    @Test func controlCharactersAreEscapedInMessages() {
        let scratch = ScratchDirectory("escapes")
        let hostile = "\u{1B}[2J\u{1B}]0;owned\u{07}\r\u{202E}x"
        for arguments in [
            ["hanoi", "solve", hostile], ["hanoi", "solve", "3", "--" + hostile, "1"],
            [hostile], ["hanoi", hostile],
            [
                "render", "hanoi", "--out", scratch.file("missing/" + hostile + ".png"), "--size",
                "16x16", "--seconds", "0",
            ],
            ["hanoi", "solve", "3", "--from", hostile],
        ] {
            let run = tactile(arguments)
            #expect(run.code == 2, "\(arguments)")
            let bad = run.errors.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
                    || $0.value == 0x202E
            }
            #expect(bad.isEmpty, "raw control characters in: \(run.errors.debugDescription)")
            #expect(run.errors.contains("\\u{1B}"), "\(run.errors)")
        }
    }

    @Test func longValuesAreShortened() {
        let run = tactile(["hanoi", "solve", String(repeating: "9", count: 10_000)])
        #expect(run.code == 2)
        #expect(run.errors.count < 400, "\(run.errors.count) characters")
    }

    @Test(arguments: ["0x10", "0x1p4", "inf", "nan", "1_0", "--1", "1e", ".", "+", "1.5.2", "٣"])
    func onlyPlainDecimalsAreNumbers(text: String) {
        #expect(tactile(["cradle", "simulate", "--angle", text]).code == 2, "\(text)")
        #expect(tactile(["hanoi", "solve", text]).code == 2, "\(text)")
    }

    @Test(arguments: ["30", "+30", "30.", ".5e2", "3e1", " 30 "])
    func decimalsInEveryFormAreAccepted(text: String) {
        let run = tactile(["cradle", "simulate", "--angle", text, "--seconds", "0"])
        #expect(run.code == 0, "\(text): \(run.errors)")
    }

    @Test func emptyStatesNameTheirOption() {
        let from = tactile(["hanoi", "solve", "3", "--from", ""])
        #expect(from.code == 2)
        #expect(from.errors.contains("--from needs a state"), "\(from.errors)")
        let to = tactile(["hanoi", "solve", "3", "--to", ""])
        #expect(to.code == 2)
        #expect(to.errors.contains("--to needs a state"), "\(to.errors)")
        let letters = tactile(["hanoi", "solve", "3", "--from", "AQB"])
        #expect(letters.errors.contains("--from:"), "\(letters.errors)")
    }

    @Test(arguments: ["2x-5-9-6", "1,2,3,6", "1-5-9-6x"])
    func mistypedPatternItemsAreNotEchoed(text: String) {
        let scratch = ScratchDirectory("echo")
        let run = tactile(["pattern", "set", "--store", scratch.file("s"), text])
        #expect(run.code == 2)
        #expect(run.errors.contains("item 1") || run.errors.contains("item 4"), "\(run.errors)")
        #expect(!run.errors.contains(text), "\(run.errors)")
        #expect(!run.errors.contains("2x") && !run.errors.contains("6x"), "\(run.errors)")
    }

    @Test func doubleDashEndsTheOptions() {
        #expect(tactile(["hanoi", "count", "--", "3"]).output == "7\n")
        let negative = tactile(["hanoi", "count", "--", "-3"])
        #expect(negative.code == 2)
        #expect(negative.errors.contains("got -3"), "\(negative.errors)")
        #expect(
            tactile(["hanoi", "count", "--", "--help"]).code == 2, "after --, --help is a value")
    }
}
