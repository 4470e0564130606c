import Foundation
import TactileCore

@testable import TactileDynamics

/// Small builders shared by the dynamics tests.
enum Scene {
    static let area = Rect(x: -2000, y: -2000, width: 4000, height: 4000)

    static func animator(
        _ bounds: Rect = area, timeStep: Double = 1.0 / 600, softContacts: Bool = false
    ) -> DynamicAnimator {
        try! DynamicAnimator(
            referenceBounds: bounds, timeStep: timeStep, softContacts: softContacts)
    }

    static func ball(_ x: Double, _ y: Double, radius: Double = 10) -> DynamicItem {
        try! DynamicItem(
            center: Point(x: x, y: y), size: Size(width: 2 * radius, height: 2 * radius),
            collisionBoundsType: .ellipse)
    }

    static func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double, rotation: Double = 0)
        -> DynamicItem
    {
        try! DynamicItem(
            center: Point(x: x, y: y), size: Size(width: w, height: h), rotation: rotation)
    }

    static func properties(
        _ items: [DynamicItem], _ properties: DynamicItemProperties
    ) -> DynamicItemBehavior {
        try! DynamicItemBehavior(items: items, properties: properties)
    }

    /// Advances in frames of `1/rate` seconds from `start` to `end`, calling `each` per frame.
    static func run(
        _ animator: DynamicAnimator, from start: Double = 0, to end: Double, rate: Double = 60,
        each: (Double) -> Void = { _ in }
    ) {
        for t in FrameTimes(from: start, to: end + 0.5 / rate, rate: rate) {
            animator.advance(to: t)
            each(t)
        }
    }

    /// A hash of the exact bits of every item's state.
    static func stateHash(_ items: [DynamicItem]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ x: Double) {
            h ^= x.bitPattern
            h = h &* 0x100_0000_01b3
        }
        for item in items {
            mix(item.center.x)
            mix(item.center.y)
            mix(item.rotation)
            mix(item.velocity.dx)
            mix(item.velocity.dy)
            mix(item.angularVelocity)
        }
        return h
    }
}
