import TactileCore
import Testing

@testable import TactilePuzzle

/// A view as tall as ``PuzzleLayout/height(forWidth:areaSize:showsTrack:)`` says holds the
/// picture across its whole width and the track right under it, with no empty band.
@Suite struct PuzzleLayoutTests {
    @Test(arguments: [
        (Size(width: 640, height: 360), true), (Size(width: 640, height: 360), false),
        (Size(width: 320, height: 240), true), (Size(width: 300, height: 600), false),
    ])
    func theFittingHeightLeavesNoBand(area: Size, showsTrack: Bool) {
        for width in [258.0, 480, 550.5, 1200] {
            let height = PuzzleLayout.height(
                forWidth: width, areaSize: area, showsTrack: showsTrack)
            let layout = PuzzleLayout(
                viewSize: Size(width: width, height: height), areaSize: area,
                showsTrack: showsTrack)
            #expect(abs(layout.imageRect.width - width) < 1e-9, "width \(width)")
            let bottom = layout.trackRect?.maxY ?? layout.imageRect.maxY
            #expect(abs(bottom - height) < 1e-9, "width \(width)")
            // Any taller, and the extra is an empty band; the picture stays as it is.
            let taller = PuzzleLayout(
                viewSize: Size(width: width, height: height + 50), areaSize: area,
                showsTrack: showsTrack)
            #expect(taller.imageRect == layout.imageRect)
        }
    }

    @Test func nothingToDrawNeedsNoHeight() {
        #expect(
            PuzzleLayout.height(forWidth: 0, areaSize: Size(width: 4, height: 3), showsTrack: true)
                == 0)
        #expect(PuzzleLayout.height(forWidth: 100, areaSize: .zero, showsTrack: true) == 0)
        #expect(
            PuzzleLayout.height(
                forWidth: .nan, areaSize: Size(width: 4, height: 3), showsTrack: false) == 0)
    }
}
