import Foundation
import TactileCore
import TactileCrypto
import TactilePatternLock
import TactilePatternVault

/// The scene `tactile render pattern` records: a pattern drawn dot by dot and accepted, then
/// a wrong one refused and cleared.
enum PatternScene {
    @Sendable static func make() throws(CommandFailure) -> RenderCommand.Scene {
        do {
            let scene = try PatternReplayScene(
                script: [
                    (0.2, try Pattern(canonical: "7-4-1-5-9-6-3"), .correct),
                    (3.0, try Pattern(canonical: "1-2-3-6-5-4"), .wrong),
                ])
            // Drawn by 2.2 s and shown as accepted; the wrong one shows from 4.5 s, clears at 5.7.
            return RenderCommand.Scene(component: scene, still: 2.6, length: 6)
        } catch {
            throw .usage(error.message)
        }
    }
}
