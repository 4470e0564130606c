import TactileHanoi
import Testing

/// What a person types in the disks and pegs fields gets a clear answer.
@Suite struct HanoiInputTests {
    @Test(arguments: [
        ("", "Enter the number of disks (1…64)."),
        ("   ", "Enter the number of disks (1…64)."),
        ("abc", "“abc” is not a whole number; enter 1…64 disks."),
        ("3.5", "“3.5” is not a whole number; enter 1…64 disks."),
        ("٣", "“٣” is not a whole number; enter 1…64 disks."),
        ("0", "The number of disks must be at least 1; got 0."),
        ("-3", "The number of disks must be at least 1; got -3."),
        ("65", "At most 64 disks; got 65."),
        ("99999999999999999999999", "At most 64 disks; got 99999999999999999999999."),
    ])
    func badDiskCountsSayWhatIsAccepted(text: String, message: String) {
        #expect(throws: HanoiError(message)) { try HanoiInput.disks(from: text) }
    }

    @Test func goodCountsAreRead() throws {
        #expect(try HanoiInput.disks(from: " 7 ") == 7)
        #expect(try HanoiInput.disks(from: "64") == 64)
        #expect(try HanoiInput.pegs(from: "4") == 4)
        #expect(throws: HanoiError("The number of pegs must be at least 3; got 2.")) {
            try HanoiInput.pegs(from: "2")
        }
    }
}
