// Placeholder until the pattern component lands; replaced by its command, scene and benchmark.
enum PatternCommand {
    static func run(_ arguments: [String], output: CommandOutput) throws(CommandFailure) {
        throw .usage("pattern is not available in this build yet")
    }
}

enum PatternScene {
    @Sendable static func make() throws(CommandFailure) -> RenderCommand.Scene {
        throw .usage("rendering pattern is not available in this build yet")
    }
}
