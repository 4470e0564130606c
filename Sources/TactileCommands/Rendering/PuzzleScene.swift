import Foundation
import TactileCairo
import TactileCore
import TactileCrypto
import TactilePuzzle
import TactilePuzzleImaging
import TactilePuzzleVerifier

/// `tactile render puzzle`: a drawn picture, the piece dragged by a scripted hand into the
/// hole, the snap and the fade.
enum PuzzleScene {
    @Sendable static func make(_ parsed: ArgumentParser.Parsed) throws(CommandFailure)
        -> RenderCommand.Scene
    {
        let picture = ProceduralPicture.make(width: 640, height: 360, seed: 7, grain: false)
        let view = try! PuzzleView(
            content: .picture(picture), pieceSize: Size(width: 96, height: 96),
            holePosition: Point(x: 412, y: 150), shape: .classic(), axis: .horizontal,
            areaSize: Size(width: 640, height: 360))
        return RenderCommand.Scene(component: ScriptedDrag(view: view), still: 1.1, length: 2.5)
    }

    /// Drives a puzzle view with a hand-like drag: picks the piece up at 0.3 s, eases it into
    /// the hole over 1.2 s with a little wobble across the slider, and lets go.
    final class ScriptedDrag: ScriptedScene {
        let view: PuzzleView
        private var sent = 0
        private let times: [Double]

        init(view: PuzzleView) {
            self.view = view
            let moves: [Double] = (1...36).map { step in 0.3 + 1.2 * Double(step) / 36 }
            times = [0.3] + moves + [1.6]
        }

        var driven: PuzzleView { view }

        var isAnimating: Bool { sent < times.count || view.isAnimating }

        func advance(to time: Double) {
            while sent < times.count, times[sent] <= time {
                send(index: sent)
                sent += 1
            }
            view.advance(to: time)
        }

        /// The pointer for event `index`: on the slider thumb, following a minimum-jerk
        /// path from the start to the hole.
        private func send(index: Int) {
            let start = view.puzzle.startPosition
            let hole = view.holePosition
            let u = min(1, Double(index) / Double(times.count - 2))
            let s = Easing.minimumJerk(u)
            let area = Point(
                x: start.x + (hole.x - start.x) * s + view.puzzle.pieceSize.width / 2,
                y: start.y + view.puzzle.pieceSize.height / 2)
            var location = view.layout.viewPoint(area)
            if let thumb = view.layout.thumbRect(pieceFrame: view.puzzle.pieceFrame) {
                location.y = thumb.midY + 3 * sin(Double(index) * 0.7)
            }
            let phase: PointerEvent.Phase =
                index == 0 ? .began : index == times.count - 1 ? .ended : .moved
            view.handle(PointerEvent(phase, at: location, time: times[index]))
        }
    }
}
