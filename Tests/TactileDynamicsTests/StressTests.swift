import Foundation
import TactileCore
import TestSupport
import Testing

@testable import TactileDynamics

/// Randomised abuse: hundreds of items, extreme pushes, anchors that jump about. Nothing
/// may become NaN or infinite, and nothing may leave a closed box.
@Suite struct StressTests {
    /// With rigid contacts and with soft ones.
    @Test(arguments: [(11 as UInt64, false), (12, false), (13, true), (14, true)])
    func noNaNUnderRandomisedStress(seed: UInt64, softContacts: Bool) throws {
        var random = SeededGenerator(seed: seed)
        let bounds = Rect(x: 0, y: 0, width: 800, height: 600)
        // A coarser step keeps this quick in a debug build; the abuse is the same.
        let animator = try DynamicAnimator(
            referenceBounds: bounds, timeStep: 1.0 / 120, softContacts: softContacts)
        var items: [DynamicItem] = []
        var triangle = Path()
        triangle.move(to: Point(x: 0, y: -8))
        triangle.addLine(to: Point(x: 8, y: 6))
        triangle.addLine(to: Point(x: -8, y: 6))
        triangle.closeSubpath()
        for i in 0..<200 {
            let center = Point(x: 20 + Double(i % 24) * 32, y: 20 + Double(i / 24) * 32)
            let kind: CollisionBoundsType =
                switch i % 3 {
                case 0: .ellipse
                case 1: .rectangle
                default: .path(triangle)
                }
            items.append(
                try DynamicItem(
                    center: center,
                    size: Size(
                        width: Double.random(in: 6...20, using: &random),
                        height: Double.random(in: 6...20, using: &random)),
                    rotation: Double.random(in: 0...6, using: &random), collisionBoundsType: kind))
        }
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: items))
        try animator.addBehavior(
            DynamicItemBehavior(
                items: items,
                properties: .init(elasticity: 0.9, friction: 0.5, density: 0.5, charge: 1)))
        let pushes = (0..<4).map { k in
            PushBehavior(items: Array(items[(k * 20)..<(k * 20 + 20)]), mode: .continuous)
        }
        for push in pushes { try animator.addBehavior(push) }
        var anchors: [AttachmentBehavior] = []
        for k in 0..<10 {
            let anchor = try AttachmentBehavior(
                item: items[100 + k], attachedToAnchor: Point(x: 400, y: 300))
            if k.isMultiple(of: 2) { try anchor.setFrequency(30) }
            anchors.append(anchor)
            try animator.addBehavior(anchor)
        }
        try animator.addBehavior(
            AttachmentBehavior.pinAttachment(
                with: items[150], attachedTo: items[151], attachmentAnchor: items[150].center))
        let vortex = FieldBehavior.vortexField()
        try vortex.setPosition(Point(x: 400, y: 300))
        try vortex.setStrength(5)
        for item in items[160..<200] { vortex.addItem(item) }
        try animator.addBehavior(vortex)
        let magnetic = FieldBehavior.magneticField()
        try magnetic.setStrength(1e4)
        for item in items[140..<160] { magnetic.addItem(item) }
        try animator.addBehavior(magnetic)

        let frames = 60
        for frame in 0...frames {
            for push in pushes {
                try push.setAngle(
                    Double.random(in: 0...6.3, using: &random),
                    magnitude: Double.random(in: 0...5000, using: &random))
            }
            for anchor in anchors {
                try anchor.setAnchorPoint(
                    Point(
                        x: Double.random(in: -200...1000, using: &random),
                        y: Double.random(in: -200...800, using: &random)))
            }
            animator.advance(to: Double(frame) / 60)
        }
        for item in items {
            #expect(item.center.isFinite && item.rotation.isFinite)
            #expect(item.velocity.isFinite && item.angularVelocity.isFinite)
        }
        // Pinned to anchors that leave the box, ten items may follow them out; the rest stay in.
        let inside = items.filter { bounds.insetBy(dx: -30, dy: -30).contains($0.center) }
        #expect(inside.count >= items.count - 10)
    }
}
