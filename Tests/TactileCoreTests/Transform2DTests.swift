import TactileCore
import TestSupport
import Testing

@Suite("Affine transforms")
struct Transform2DTests {
    private let p = Point(x: 1, y: 1)

    @Test func concatenatingAppliesSelfFirstThenOther() {
        let scale = Transform2D(scaleX: 2, y: 3)
        let translation = Transform2D(translationX: 10, y: 20)
        // Scale, then translate: (1, 1) → (2, 3) → (12, 23).
        #expect(scale.concatenating(translation).apply(to: p) == Point(x: 12, y: 23))
        // Translate, then scale: (1, 1) → (11, 21) → (22, 63).
        #expect(translation.concatenating(scale).apply(to: p) == Point(x: 22, y: 63))
    }

    @Test func builderMethodsApplyTheirStepBeforeTheTransform() {
        let scale = Transform2D(scaleX: 2, y: 3)
        // As Core Graphics' translatedBy/scaledBy/rotated: the new step acts first.
        #expect(scale.translatedBy(x: 10, y: 20).apply(to: p) == Point(x: 22, y: 63))
        #expect(
            Transform2D(translationX: 10, y: 20).scaledBy(x: 2, y: 3).apply(to: p)
                == Point(x: 12, y: 23))
        expectClose(
            scale.rotated(by: .pi / 2).apply(to: Point(x: 1, y: 0)), Point(x: 0, y: 3),
            within: 1e-15)
    }

    @Test func positiveRotationTurnsClockwiseOnScreen() {
        // With y down, the x axis turns onto the y axis: right becomes down.
        let quarter = Transform2D(rotation: .pi / 2)
        expectClose(quarter.apply(to: Point(x: 1, y: 0)), Point(x: 0, y: 1), within: 1e-15)
        expectClose(quarter.apply(to: Point(x: 0, y: 1)), Point(x: -1, y: 0), within: 1e-15)
    }

    @Test func vectorsIgnoreTheTranslation() {
        let transform = Transform2D(scaleX: 2, y: -1).translatedBy(x: 100, y: 100)
        #expect(transform.apply(to: Vector(dx: 3, dy: 4)) == Vector(dx: 6, dy: -4))
    }

    static let invertible: [Transform2D] = [
        .identity,
        Transform2D(translationX: -7, y: 3.5),
        Transform2D(scaleX: 0.25, y: -8),
        Transform2D(rotation: 0.7).translatedBy(x: 12, y: -4),
        Transform2D(a: 1, b: 0.5, c: -2, d: 3, tx: 40, ty: -60),
    ]

    @Test(arguments: invertible)
    func inversesUndoTheTransform(transform: Transform2D) throws {
        let inverse = try #require(transform.inverted())
        expectClose(transform.concatenating(inverse), .identity, within: 1e-12)
        expectClose(inverse.concatenating(transform), .identity, within: 1e-12)
        for point in [Point(x: 0, y: 0), Point(x: 3, y: -9), Point(x: 1e3, y: 2e3)] {
            expectClose(inverse.apply(to: transform.apply(to: point)), point, within: 1e-9)
        }
    }

    @Test(arguments: zip(invertible, invertible.reversed()))
    func concatenationIsAssociativeAndInvertsInReverseOrder(first: Transform2D, second: Transform2D)
        throws
    {
        let third = Transform2D(rotation: -1.1)
        expectClose(
            first.concatenating(second).concatenating(third),
            first.concatenating(second.concatenating(third)),
            within: 1e-12)
        let composite = try #require(first.concatenating(second).inverted())
        let inversesReversed = try #require(second.inverted()).concatenating(
            try #require(first.inverted()))
        expectClose(composite, inversesReversed, within: 1e-12)
    }

    @Test(arguments: [
        Transform2D(scaleX: 0, y: 1),
        Transform2D(a: 1, b: 2, c: 2, d: 4, tx: 5, ty: 5),
        Transform2D(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0),
        Transform2D(a: .infinity, b: 0, c: 0, d: 1, tx: 0, ty: 0),
    ])
    func singularTransformsHaveNoInverse(transform: Transform2D) {
        #expect(transform.inverted() == nil)
    }

    @Test func transformedPathsHaveTheMappedBounds() {
        let transform = Transform2D(scaleX: 2, y: -3).concatenating(
            Transform2D(translationX: 5, y: 7))
        let path = Path(rect: Rect(x: 1, y: 2, width: 10, height: 4)).applying(transform)
        // (1, 2) → (7, 1) and (11, 6) → (27, −11).
        #expect(path.bounds == Rect(x: 7, y: -11, width: 20, height: 12))
    }

    @Test func determinantIsTheAreaScale() {
        #expect(Transform2D(scaleX: 2, y: 3).determinant == 6)
        expectClose(Transform2D(rotation: 1.234).determinant, 1, within: 1e-15)
        #expect(Transform2D.identity.isIdentity)
        #expect(!Transform2D(translationX: 0, y: 1e-300).isIdentity)
    }
}
