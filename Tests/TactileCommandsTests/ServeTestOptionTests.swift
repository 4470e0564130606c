import TactilePuzzle
import TactilePuzzleImaging
import TactilePuzzleVerifier
import Testing

@testable import TactileCommands

/// The `--…-for-tests` options of `tactile puzzle serve` change what they name and nothing
/// else, say so at start-up, and refuse a bad value naming it and what is accepted.
@Suite struct ServeTestOptionTests {
    func options(_ arguments: String...) throws(CommandFailure) -> ServeTestOptions {
        try ServeTestOptions(ArgumentParser.parse(arguments, spec: PuzzleCommand.serveSpec))
    }

    @Test func withoutThemTheServiceIsAsConfigured() throws {
        let none = try options()
        #expect(none.applied(to: VerifierPolicy()) == VerifierPolicy())
        #expect(none.axis == nil)
        #expect(none.warnings == [])
    }

    @Test func eachChangesWhatItNamesAndWarns() throws {
        let set = try options(
            "--axis-for-tests", "vertical", "--puzzle-lifetime-for-tests", "9",
            "--rate-window-for-tests", "20")
        var policy = VerifierPolicy()
        policy.puzzleLifetime = 9
        policy.window = 20
        #expect(set.applied(to: VerifierPolicy()) == policy)
        #expect(set.axis == .vertical)
        #expect(
            set.warnings == [
                "WARNING: --axis-for-tests makes every puzzle vertical; never use it for real",
                "WARNING: --puzzle-lifetime-for-tests lets a puzzle be answered for 9 s; never use it for real",
                "WARNING: --rate-window-for-tests counts a client's rate limits per 20 s instead of a minute; never use it for real",
            ])
        let revealing = try options(
            "--reveal-answers-for-tests", "yes", "--skip-drag-model-for-tests", "yes")
        #expect(revealing.revealsAnswers && revealing.skipsDragModel)
        #expect(revealing.warnings.count == 2)
    }

    @Test(arguments: [
        (
            ["--axis-for-tests", "diagonal"],
            "--axis-for-tests must be one of horizontal, vertical, free, got \"diagonal\""
        ),
        (
            ["--puzzle-lifetime-for-tests", "0"],
            "--puzzle-lifetime-for-tests must be a whole number 1…3600, got 0"
        ),
        (
            ["--puzzle-lifetime-for-tests", "1.5"],
            "--puzzle-lifetime-for-tests must be a whole number 1…3600, got \"1.5\""
        ),
        (
            ["--rate-window-for-tests", "3601"],
            "--rate-window-for-tests must be a whole number 1…3600, got 3601"
        ),
        (
            ["--reveal-answers-for-tests", "no"],
            "--reveal-answers-for-tests must be one of yes, got \"no\""
        ),
    ])
    func aBadValueIsNamedWithWhatIsAccepted(arguments: [String], message: String) {
        #expect {
            try ServeTestOptions(ArgumentParser.parse(arguments, spec: PuzzleCommand.serveSpec))
        } throws: { error in
            let failure = error as? CommandFailure
            return failure?.code == .usage && failure?.message == message
        }
    }
}
