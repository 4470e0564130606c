import PuzzleTestSupport
import TactileCore
import TactilePuzzle
import Testing

@testable import TactilePuzzleImaging
@testable import TactilePuzzleVerifier

/// A hole's weights, kept for the masks seen last, are the weights worked out afresh: for
/// every shape, at whole and fractional places, for every named treatment, however often
/// asked and after the cache has started afresh.
@Suite(.serialized) struct HoleWeightsTests {
    @Test func keptWeightsAreTheWeightsWorkedOutAfresh() {
        let shapes: [PuzzleShape] = [
            .classic(), .circle, .square,
            .classic(JigsawEdges(top: .socket, right: .knob, bottom: .flat, left: .socket)),
        ]
        let treatments: [HoleTreatment] = [.standard, .softened, .plain]
        // More masks than are kept, twice over: answers come from the cache and from afresh.
        var asked = 0
        for round in 0..<2 {
            for (s, shape) in shapes.enumerated() {
                for place in [0.0, 0.25, 0.5, 17, 200.75] {
                    let frame = Rect(x: 30 + place, y: 12 + place / 2, width: 61, height: 61)
                    let mask = ShapeMask(path: shape.path(in: frame), within: frame)
                    for treatment in treatments {
                        let reach =
                            treatment.rimWidth > 0 ? Int(treatment.rimWidth.rounded(.up)) + 1 : 0
                        let counts = HoleTreatment.padded(mask, by: reach)
                        let width = mask.width + 2 * reach
                        let height = mask.height + 2 * reach
                        let fresh = treatment.weights(counts: counts, width: width, height: height)
                        let kept = treatment.cachedWeights(
                            counts: counts, width: width, height: height)
                        #expect(
                            kept == fresh,
                            "round \(round), shape \(s), place \(place), \(treatment.name)")
                        asked += 1
                    }
                }
            }
        }
        #expect(asked > 2 * HoleTreatment.recentWeights.limit)
        #expect(
            HoleTreatment.recentWeights.count <= HoleTreatment.recentWeights.limit)
    }

    /// Two masks that differ in one pixel's coverage get weights of their own.
    @Test func aMaskDifferingInOnePixelIsNotTakenForAnother() {
        let frame = Rect(x: 4, y: 4, width: 40, height: 40)
        let mask = ShapeMask(path: PuzzleShape.circle.path(in: frame), within: frame)
        let counts = HoleTreatment.padded(mask, by: 2)
        var changed = counts
        let middle = changed.count / 2
        changed[middle] = changed[middle] == 0 ? 1 : changed[middle] - 1
        let treatment = HoleTreatment.standard
        let width = mask.width + 4
        let height = mask.height + 4
        let first = treatment.cachedWeights(counts: counts, width: width, height: height)
        let second = treatment.cachedWeights(counts: changed, width: width, height: height)
        #expect(first == treatment.weights(counts: counts, width: width, height: height))
        #expect(second == treatment.weights(counts: changed, width: width, height: height))
        #expect(first != second)
    }
}
