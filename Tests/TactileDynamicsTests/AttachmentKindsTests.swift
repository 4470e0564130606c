import Foundation
import TactileCore
import TestSupport
import Testing

@testable import TactileDynamics

/// Ropes, welds, hinges, sliders and friction torque keep what they promise.
@Suite struct AttachmentKindsTests {
    @Test func ropeNeverStretchesButGoesSlack() throws {
        let animator = Scene.animator()
        let top = Scene.ball(0, 0)
        let bottom = Scene.ball(0, 100)
        let rope = try AttachmentBehavior.limitAttachment(with: top, attachedTo: bottom)
        #expect(rope.length == 100 && rope.style == .limit)
        try animator.addBehavior(rope)
        try animator.addBehavior(Scene.properties([top], .init(isAnchored: true)))
        let properties = Scene.properties([bottom], .init())
        try animator.addBehavior(properties)
        try animator.addBehavior(GravityBehavior(items: [bottom]))
        try properties.addLinearVelocity(Vector(dx: 0, dy: -400), for: bottom)
        var longest = 0.0
        var shortest = Double.infinity
        Scene.run(animator, to: 2) { _ in
            let d = top.center.distance(to: bottom.center)
            longest = max(longest, d)
            shortest = min(shortest, d)
        }
        #expect(longest < 100.1)
        #expect(shortest < 50)
    }

    @Test func rigidChainKeepsItsLinks() throws {
        let animator = Scene.animator()
        var links: [DynamicItem] = []
        var previous: DynamicItem?
        for i in 0..<5 {
            let link = Scene.ball(Double(i + 1) * 40, 0, radius: 5)
            links.append(link)
            if let previous {
                try animator.addBehavior(AttachmentBehavior(item: previous, attachedTo: link))
            } else {
                try animator.addBehavior(AttachmentBehavior(item: link, attachedToAnchor: .zero))
            }
            previous = link
        }
        try animator.addBehavior(GravityBehavior(items: links))
        var worst = 0.0
        Scene.run(animator, to: 3) { _ in
            worst = max(worst, abs(links[0].center.distance(to: .zero) - 40))
            for k in 1..<5 {
                worst = max(worst, abs(links[k].center.distance(to: links[k - 1].center) - 40))
            }
        }
        #expect(worst < 0.1)
    }

    /// A group whose centre of mass is not the centre of its bounds (a heavy box with a light
    /// arm), hung from a point of its arm: that point stays on the anchor from the very first
    /// frame, whichever item the attachment is given first.
    @Test(arguments: [false, true])
    func anAttachmentOnAGroupHoldsTheGivenPoint(attachedBeforeGravity: Bool) throws {
        let animator = Scene.animator()
        let heavy = Scene.box(0, 0, 60, 60)
        let arm = Scene.box(60, 0, 60, 10)
        let group = try DynamicItemGroup(items: [heavy, arm])
        // The group's centre is the middle of its bounds, x = 30; its centroid is near x = 9.
        expectClose(group.center.x, 30, within: 1e-9)
        let offset = Vector(dx: 55, dy: 0)  // near the arm's far end, x = 85
        let anchor = Point(x: 85, y: 0)
        let hang = try AttachmentBehavior(
            item: group, offsetFromCenter: offset, attachedToAnchor: anchor)
        let gravity = GravityBehavior(items: [group])
        if attachedBeforeGravity {
            try animator.addBehavior(hang)
            try animator.addBehavior(gravity)
        } else {
            try animator.addBehavior(gravity)
            try animator.addBehavior(hang)
        }
        var worst = 0.0
        Scene.run(animator, to: 3) { _ in
            worst = max(
                worst, AttachmentBehavior.point(on: group, offset: offset).distance(to: anchor))
        }
        #expect(worst < 0.5, "the hung point drifted \(worst) pt from the anchor")
        // It swung down: the heavy box now hangs below the anchor.
        #expect(heavy.center.y > 40)
    }

    /// A push at a point of a group turns it about its centre of mass: pushing straight at
    /// the centroid does not turn it at all.
    @Test func aPushThroughAGroupsCentroidDoesNotTurnIt() throws {
        let animator = Scene.animator()
        let heavy = Scene.box(0, 0, 60, 60)
        let arm = Scene.box(60, 0, 60, 10)
        let group = try DynamicItemGroup(items: [heavy, arm])
        // Centroid from the members' areas: (3600·0 + 600·60) / 4200 from the heavy box.
        let centroidX = (3600 * 0 + 600 * 60) / 4200.0
        let push = PushBehavior(items: [group], mode: .continuous)
        try push.setPushDirection(Vector(dx: 0, dy: 1))
        try push.setTargetOffsetFromCenter(
            Vector(dx: centroidX - group.center.x, dy: 0), for: group)
        try animator.addBehavior(push)
        Scene.run(animator, to: 1)
        #expect(abs(group.rotation) < 1e-6, "turned by \(group.rotation) rad")
        #expect(group.center.y > 1)
    }

    @Test func fixedAttachmentWeldsTwoItems() throws {
        let animator = Scene.animator()
        let a = Scene.box(0, 0, 40, 20)
        let b = Scene.box(40, 0, 40, 20, rotation: 0.3)
        let weld = try AttachmentBehavior.fixedAttachment(
            with: a, attachedTo: b, attachmentAnchor: Point(x: 20, y: 0))
        try animator.addBehavior(weld)
        try animator.addBehavior(GravityBehavior(items: [a]))
        try animator.addBehavior(
            AttachmentBehavior(
                item: a, offsetFromCenter: Vector(dx: -20, dy: 0),
                attachedToAnchor: Point(x: -20, y: 0)))
        Scene.run(animator, to: 2)
        expectClose(b.rotation - a.rotation, 0.3, within: 0.002)
        expectClose(a.center.distance(to: b.center), 40, within: 0.1)
        #expect(a.rotation > 0.5)  // The pair swung down as one.
    }

    @Test func pinAttachmentSharesAPointAndRespectsItsAngleRange() throws {
        let animator = Scene.animator()
        let a = Scene.box(0, 0, 40, 10)
        let b = Scene.box(40, 0, 40, 10)
        let pin = try AttachmentBehavior.pinAttachment(
            with: a, attachedTo: b, attachmentAnchor: Point(x: 20, y: 0))
        try pin.setAttachmentRange(-0.5...0.5)
        try animator.addBehavior(pin)
        try animator.addBehavior(Scene.properties([a], .init(isAnchored: true)))
        try animator.addBehavior(GravityBehavior(items: [b]))
        var largest = 0.0
        Scene.run(animator, to: 2) { _ in
            largest = max(largest, b.rotation - a.rotation)
            let pa = AttachmentBehavior.point(on: a, offset: Vector(dx: 20, dy: 0))
            let pb = AttachmentBehavior.point(on: b, offset: Vector(dx: -20, dy: 0))
            #expect(pa.distance(to: pb) < 0.1)
        }
        #expect(largest < 0.51 && largest > 0.45)
    }

    @Test func slidingAttachmentMovesAlongItsAxisWithinRange() throws {
        let animator = Scene.animator()
        let slider = Scene.box(0, 0, 20, 20)
        let rail = try AttachmentBehavior.slidingAttachment(
            with: slider, attachmentAnchor: .zero, axisOfTranslation: Vector(dx: 1, dy: 1))
        try rail.setAttachmentRange(-50...80)
        try animator.addBehavior(rail)
        try animator.addBehavior(GravityBehavior(items: [slider]))
        var furthest = 0.0
        Scene.run(animator, to: 2) { _ in
            let c = slider.center
            // Across the axis: nothing. Along it: within the range.
            #expect(abs(c.x - c.y) / 2.squareRoot() < 0.05)
            furthest = max(furthest, (c.x + c.y) / 2.squareRoot())
            #expect(abs(slider.rotation) < 1e-6)
        }
        expectClose(furthest, 80, within: 0.1)
    }

    @Test func frictionTorqueSlowsRelativeTurning() throws {
        func spin(friction: Double) throws -> Double {
            let animator = Scene.animator()
            let wheel = Scene.ball(0, 0)
            let hub = Scene.ball(0, 0, radius: 2)
            let pin = try AttachmentBehavior.pinAttachment(
                with: hub, attachedTo: wheel, attachmentAnchor: .zero)
            try pin.setFrictionTorque(friction)
            try animator.addBehavior(pin)
            try animator.addBehavior(Scene.properties([hub], .init(isAnchored: true)))
            let properties = Scene.properties([wheel], .init())
            try animator.addBehavior(properties)
            try properties.addAngularVelocity(10, for: wheel)
            Scene.run(animator, to: 1)
            return wheel.angularVelocity
        }
        expectClose(try spin(friction: 0), 10, within: 1e-9)
        // Constant torque τ on inertia m r²/2 = π·100/10⁴ · 50: ω falls by τ/I per second.
        let inertia = Double.pi * 100 / 10_000 * 50
        expectClose(try spin(friction: 2), 10 - 2 / inertia, within: 0.01)
    }

    @Test func movingAnAnchorDragsTheItem() throws {
        let animator = Scene.animator()
        let ball = Scene.ball(0, 50)
        let attachment = try AttachmentBehavior(item: ball, attachedToAnchor: .zero)
        try animator.addBehavior(attachment)
        for frame in 0...60 {
            try attachment.setAnchorPoint(Point(x: Double(frame) * 5, y: 0))
            animator.advance(to: Double(frame) / 60)
        }
        expectClose(ball.center.distance(to: attachment.anchorPoint), 50, within: 0.1)
        #expect(ball.center.x > 100)
    }
}
