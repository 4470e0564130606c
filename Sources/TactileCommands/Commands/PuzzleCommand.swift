// Placeholder until the puzzle component lands; replaced by its command, scene and benchmark.
enum PuzzleCommand {
    static func run(_ arguments: [String], output: CommandOutput) throws(CommandFailure) {
        throw .usage("puzzle is not available in this build yet")
    }
}

enum PuzzleScene {
    @Sendable static func make() throws(CommandFailure) -> RenderCommand.Scene {
        throw .usage("rendering puzzle is not available in this build yet")
    }
}
