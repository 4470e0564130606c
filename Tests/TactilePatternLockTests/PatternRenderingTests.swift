import TactileCore
import TactilePatternLock
import TestSupport
import Testing

/// What the renderer draws in each state: the path in the state's colour, the fading line
/// to the pointer, stealth mode, growing dots.
@Suite struct PatternRenderingTests {
    let theme = PatternLockTheme()

    func model() throws -> PatternLockModel {
        var model = try PatternLockModel()
        model.viewSize = Size(width: 300, height: 300)
        return model
    }

    func render(_ model: PatternLockModel) -> RecordingCanvas {
        let canvas = RecordingCanvas(size: model.viewSize)
        PatternRenderer.draw(model, theme: theme, in: canvas)
        return canvas
    }

    func center(_ number: Int) -> Point {
        Point(x: 50 + Double((number - 1) % 3) * 100, y: 50 + Double((number - 1) / 3) * 100)
    }

    /// A finished drag through 1, 2, 3, 6 with the dots fully grown.
    func drawn() throws -> PatternLockModel {
        var model = try model()
        for (i, n) in [1, 2, 3, 6].enumerated() {
            _ = model.handle(PointerEvent(i == 0 ? .began : .moved, at: center(n), time: 0))
        }
        _ = model.handle(PointerEvent(.ended, at: center(6), time: 0))
        model.advance(to: 1)
        return model
    }

    @Test(arguments: [PatternDisplayState.drawing, .correct, .wrong])
    func thePathTakesTheStateColour(state: PatternDisplayState) throws {
        let color =
            switch state {
            case .correct: theme.correct
            case .wrong: theme.wrong
            default: theme.drawing
            }
        var model = try drawn()
        model.show(state)
        let strokes = render(model).strokes
        #expect(strokes.count == 1, "one path, no line to a released pointer")
        #expect(strokes[0].0 == Rect(x: 50, y: 50, width: 200, height: 100))
        #expect(strokes[0].1 == color.withAlpha(0.8))
        // The four selected dots are filled in the state's colour at full growth.
        #expect(render(model).fillColors.filter { $0 == color }.count == 4)
    }

    @Test func theLineToThePointerFadesInFromThreeTenthsOfACell() throws {
        var model = try model()
        _ = model.handle(PointerEvent(.began, at: center(5)))
        func trail(at distance: Double) -> Color? {
            _ = model.handle(PointerEvent(.moved, at: Point(x: 150 + distance, y: 150 + 0.1)))
            return render(model).strokes.first?.1
        }
        // Hidden up to 0.3 of a cell (30), full from 0.55 (55); no other dot is near on the
        // way to the right until dot 6's hit circle at 70.
        #expect(trail(at: 20) == nil)
        #expect(trail(at: 29) == nil)
        let partly = try #require(trail(at: 42.5))
        #expect(abs(partly.alpha - 0.8 * 0.5) < 0.01, "half-way through the fade")
        let full = try #require(trail(at: 60))
        #expect(abs(full.alpha - 0.8) < 0.01)
    }

    @Test func stealthDrawsNoPathAndNoHighlight() throws {
        var model = try drawn()
        model.isStealthy = true
        let plain = try self.model()
        #expect(render(model).calls == render(plain).calls, "looks like an untouched grid")
        model.show(.wrong)
        let wrong = render(model)
        #expect(wrong.strokes.isEmpty)
        #expect(wrong.fillColors.filter { $0 == theme.wrong }.count == 9, "every dot tinted")
    }

    @Test func aSelectedDotGrows() throws {
        var model = try model()
        _ = model.handle(PointerEvent(.began, at: center(5), time: 0))
        func radius() -> Double {
            let dots = render(model).calls.compactMap { call -> Double? in
                guard case .fill(let rect, _) = call, rect.center == center(5) else { return nil }
                return rect.width / 2
            }
            return dots.last!  // the dot itself is drawn after its halo
        }
        let base = theme.dotRadius * 100
        #expect(abs(radius() - base) < 1e-9)
        model.advance(to: 1)
        #expect(abs(radius() - base * theme.selectedDotScale) < 1e-9)
    }

    @Test func disabledInputDimsTheDots() throws {
        var model = try model()
        model.disableInput()
        #expect(render(model).fillColors.dropFirst().allSatisfy { $0.alpha < 0.5 })
    }
}
