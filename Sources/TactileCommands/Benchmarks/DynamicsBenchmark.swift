// Placeholder until the cradle component lands.
enum DynamicsBenchmark {
    static func run(output: CommandOutput) throws(CommandFailure) {
        throw .usage("bench dynamics is not available in this build yet")
    }
}
