// Placeholder until the cradle component lands; replaced by its command, scene and benchmark.
enum CradleCommand {
    static func run(_ arguments: [String], output: CommandOutput) throws(CommandFailure) {
        throw .usage("cradle is not available in this build yet")
    }
}

enum CradleScene {
    @Sendable static func make() throws(CommandFailure) -> RenderCommand.Scene {
        throw .usage("rendering cradle is not available in this build yet")
    }
}
