// Placeholder until the puzzle component lands.
enum PuzzleBenchmark {
    static func run(output: CommandOutput) throws(CommandFailure) {
        throw .usage("bench puzzle is not available in this build yet")
    }
}
