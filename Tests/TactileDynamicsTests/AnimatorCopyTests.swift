import Foundation
import TactileCore
import Testing

@testable import TactileDynamics

/// An animator that takes on another's state (``DynamicAnimator/adoptState(of:)``) goes on
/// exactly as that one does: the judge is the same scene run without a copy.
@Suite struct AnimatorCopyTests {
    /// Balls and boxes dropped into a box with friction, so that by the copy they rest on
    /// each other with accumulated contact impulses, with a spring and a continuous push;
    /// `count` over 64 makes a scene whose contacts are found on a grid, reused over several
    /// steps and ordered by colour.
    func makeScene(count: Int) throws -> (DynamicAnimator, [DynamicItem]) {
        let large = count > 64
        let animator = try DynamicAnimator(
            referenceBounds: Rect(x: 0, y: 0, width: large ? 400 : 300, height: 400),
            timeStep: large ? 1.0 / 240 : 1.0 / 600, positionIterations: large ? 3 : 4)
        var items: [DynamicItem] = []
        let perRow = large ? 15 : 8
        for i in 0..<count {
            let x = 30 + Double(i % perRow) * (large ? 25 : 32) + Double(i / perRow) * 3
            let y = 30 + Double(i / perRow) * (large ? 25 : 40)
            items.append(
                i.isMultiple(of: 3)
                    ? Scene.ball(x, y, radius: large ? 8 : 12)
                    : Scene.box(x, y, large ? 16 : 24, large ? 12 : 18))
        }
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: items))
        try animator.addBehavior(Scene.properties(items, .init(elasticity: 0.2, friction: 0.6)))
        let spring = try AttachmentBehavior(item: items[4], attachedToAnchor: Point(x: 150, y: 60))
        try spring.setFrequency(1)
        try spring.setDamping(0.3)
        try animator.addBehavior(spring)
        let push = PushBehavior(items: [items[7]], mode: .continuous)
        try push.setAngle(0, magnitude: 0.2)
        try animator.addBehavior(push)
        return (animator, items)
    }

    @Test(arguments: [24, 120])
    func aCopyGoesOnAsTheOriginalDoes(count: Int) throws {
        let (original, originalItems) = try makeScene(count: count)
        let (untouched, untouchedItems) = try makeScene(count: count)
        Scene.run(original, to: 3)
        Scene.run(untouched, to: 3)
        #expect(original.isRunning, "the scene still moves when the copy is made")
        let contacts = original.world.contacts.elements
        #expect(
            contacts.contains { $0.first.normalImpulse > 0 || $0.second.normalImpulse > 0 },
            "bodies rest on each other, pressed together, when the copy is made")
        if count > 64 {
            #expect(original.world.detectionInterval > 1, "contacts are reused over steps")
        }
        let (copy, copyItems) = try makeScene(count: count)
        copy.adoptState(of: original)
        #expect(Scene.stateHash(copyItems) == Scene.stateHash(originalItems))
        Scene.run(copy, from: 3, to: 8)
        Scene.run(original, from: 3, to: 8)
        Scene.run(untouched, from: 3, to: 8)
        let expected = Scene.stateHash(untouchedItems)
        #expect(Scene.stateHash(copyItems) == expected)
        #expect(Scene.stateHash(originalItems) == expected)
        #expect(copy.elapsedTime == untouched.elapsedTime)
    }

    /// A stored property added to ``World`` or ``Grid`` and left out of its copy would make
    /// copies drift only where that state steers the run (or never show, for scratch); so the
    /// copy must name every stored property the declaration has, read from the sources.
    @Test(arguments: [("World", "World.swift"), ("Grid", "Grid.swift")])
    func theCopyNamesEveryStoredProperty(type: String, file: String) throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/TactileDynamics/World").standardized
        let declaration = try String(
            contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        let copies = try String(
            contentsOf: folder.appendingPathComponent("World+Copy.swift"), encoding: .utf8)
        // This type's copying initialiser, up to its closing brace.
        let start = try #require(copies.range(of: "init(copying other: borrowing \(type))"))
        let end = try #require(
            copies.range(of: "\n    }\n", range: start.upperBound..<copies.endIndex))
        let copy = copies[start.upperBound..<end.lowerBound]
        // The declaration's own members are indented once; a stored one has no body.
        let stored = declaration.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("    var "), !line.contains("{") else { return nil }
            return line.dropFirst(8).prefix { $0.isLetter || $0.isNumber }.description
        }
        #expect(stored.count >= (type == "World" ? 40 : 9), "the declaration's stored properties")
        let assigned = Set(
            copy.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard words.count >= 3, words[1] == "=" else { return nil }
                return String(words[0].replacingOccurrences(of: "self.", with: ""))
            })
        let initialised: Set = type == "World" ? ["h", "positionIterations"] : []
        let missing = stored.filter { !assigned.contains($0) && !initialised.contains($0) }
        #expect(missing.isEmpty, "\(type)(copying:) leaves out \(missing)")
    }
}
