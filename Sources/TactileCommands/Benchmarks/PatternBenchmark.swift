// Placeholder until the pattern component lands.
enum PatternBenchmark {
    static func run(output: CommandOutput) throws(CommandFailure) {
        throw .usage("bench pattern is not available in this build yet")
    }
}
