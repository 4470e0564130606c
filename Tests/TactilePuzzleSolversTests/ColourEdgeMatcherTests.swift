import PuzzleTestSupport
import TactileCore
import TactilePuzzle
import TactilePuzzleImaging
import TactilePuzzleSolvers
import Testing

/// The colour-edge matcher sees what grey levels hide: a hole marked by a brightness-neutral
/// tint alone (no darkening, blur or grain) is found by it and not by the grey-level Sobel
/// solver it is built like.
@Suite struct ColourEdgeMatcherTests {
    @Test func anOutlineInColourAloneIsFoundByColourNotByGrey() throws {
        let tintOnly = HoleTreatment(
            darkening: 0, edgeSoftness: 0, edgeFloor: 1, blurRadius: 0, noise: 0, tint: 64)
        let trial = SolverTrial(
            options: PuzzleOptions(treatment: tintOnly), pictures: .drawn, puzzles: 10,
            seed: 41)
        let outcome = try trial.run([ColourEdgeMatcher(), GapFinder()])
        // Chance along a 640-pixel row with 8 px either side is about 3 %.
        #expect(outcome.hits[0] >= 9, "colour: \(outcome.hits[0]) of 10")
        #expect(outcome.hits[1] <= 2, "grey: \(outcome.hits[1]) of 10")
    }
}
