import Foundation
import TactileCradle

/// `tactile render cradle`: two balls pulled to 30° and let go.
enum CradleScene {
    @Sendable static func make() throws(CommandFailure) -> RenderCommand.Scene {
        do {
            let view = try CradleView()
            try view.pull(2)
            return RenderCommand.Scene(component: view, still: 1.4, length: 5.2)
        } catch {
            throw .usage(error.message)
        }
    }
}
