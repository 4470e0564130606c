import Foundation
import TactileCore

/// Connects an item to a point, or two items to each other.
///
/// The plain attachments keep a distance: rigid by default (``frequency`` 0), a damped
/// spring when a frequency is set. The factory methods make the other kinds: a rope
/// (``limitAttachment(with:offsetFromCenter:attachedTo:offsetFromCenter:)``), a weld
/// (``fixedAttachment(with:attachedTo:attachmentAnchor:)``), a hinge
/// (``pinAttachment(with:attachedTo:attachmentAnchor:)``) and a slider
/// (``slidingAttachment(with:attachedTo:attachmentAnchor:axisOfTranslation:)``).
public final class AttachmentBehavior: DynamicBehavior {
    /// What the attachment connects.
    public enum AttachedType: Hashable, Sendable {
        /// Two items.
        case items
        /// An item and a fixed point.
        case anchor
    }

    /// What the attachment keeps.
    public enum Style: Hashable, Sendable {
        /// A distance: rigid, or a spring when the frequency is positive.
        case distance
        /// At most a distance, like a rope.
        case limit
        /// Relative position and rotation, like a weld.
        case fixed
        /// A shared point, turning freely within ``AttachmentBehavior/attachmentRange``.
        case pin
        /// Motion along one axis only, within ``AttachmentBehavior/attachmentRange``.
        case sliding
    }

    /// Whether this connects two items or an item and a point.
    public let attachedBehaviorType: AttachedType
    /// What the attachment keeps.
    public let style: Style
    /// The first item.
    public let firstItem: DynamicItem
    /// The second item, for item–item attachments.
    public let secondItem: DynamicItem?
    /// The attachment point on the first item, from its centre in its own axes.
    public let offsetFromFirstItem: Vector
    /// The attachment point on the second item, from its centre in its own axes.
    public let offsetFromSecondItem: Vector
    /// The fixed point of an item–anchor attachment, in the reference area (points).
    public private(set) var anchorPoint: Point {
        didSet { setNeedsParameterUpdate() }
    }
    /// The kept distance in points; the initial distance between the two points by default.
    public private(set) var length: Double {
        didSet { setNeedsParameterUpdate() }
    }
    /// Spring frequency in hertz; 0 (the default) makes the attachment rigid.
    public private(set) var frequency = 0.0 {
        didSet { setNeedsParameterUpdate() }
    }
    /// Spring damping ratio (1 is critical). Default 0.
    public private(set) var damping = 0.0 {
        didSet { setNeedsParameterUpdate() }
    }
    /// The largest force a spring attachment (frequency > 0) pulls with, in mass · points/s²
    /// (mass as density × area / 10⁴); unlimited by default. A limited spring is how a drag is
    /// made (Box2D's mouse joint has the same): the item follows the finger as fast as the
    /// force allows, so a flick cannot give it any speed at all. Rigid attachments ignore it.
    public private(set) var maximumForce = Double.infinity {
        didSet { setNeedsParameterUpdate() }
    }
    /// Torque resisting relative rotation, in mass · points²/s² (UIKit force unit × points ×
    /// 100). Default 0.
    public private(set) var frictionTorque = 0.0 {
        didSet { setNeedsParameterUpdate() }
    }
    /// Allowed relative rotation (pin, radians) or translation (sliding, points). Unlimited
    /// by default.
    public private(set) var attachmentRange: ClosedRange<Double> = -.infinity ... .infinity {
        didSet { setNeedsParameterUpdate() }
    }
    /// The sliding axis, in the first item's axes (item–item) or the reference area's.
    public let axisOfTranslation: Vector
    /// Second item's rotation minus the first's, at creation.
    let referenceAngle: Double

    private init(
        type: AttachedType, style: Style, first: DynamicItem, second: DynamicItem?,
        offsetFromFirst: Vector, offsetFromSecond: Vector, anchor: Point, axis: Vector
    ) throws(DynamicsError) {
        try DynamicsError.finite(offsetFromFirst, "attachment offset")
        try DynamicsError.finite(offsetFromSecond, "attachment offset")
        try DynamicsError.finite(anchor, "attachment anchor")
        try DynamicsError.finite(axis, "axis of translation")
        if let second, second === first {
            throw DynamicsError("an attachment needs two different items")
        }
        attachedBehaviorType = type
        self.style = style
        firstItem = first
        secondItem = second
        offsetFromFirstItem = offsetFromFirst
        offsetFromSecondItem = offsetFromSecond
        anchorPoint = anchor
        let axisLength = axis.length
        axisOfTranslation = axisLength > 0 ? axis / axisLength : Vector(dx: 1, dy: 0)
        if style == .sliding && !(axisLength > 0) {
            throw DynamicsError("the axis of translation must not be zero")
        }
        referenceAngle = (second?.rotation ?? 0) - first.rotation
        let a = AttachmentBehavior.point(on: first, offset: offsetFromFirst)
        let b = second.map { AttachmentBehavior.point(on: $0, offset: offsetFromSecond) } ?? anchor
        length = a.distance(to: b)
        super.init()
    }

    /// Joins `item` to `other` (or, when `nil`, to the reference area) at `anchor`, a point
    /// each keeps where it is now in its own axes.
    private convenience init(
        style: Style, item: DynamicItem, other: DynamicItem?, anchor: Point, axis: Vector = .zero
    ) throws(DynamicsError) {
        try self.init(
            type: other == nil ? .anchor : .items, style: style, first: item, second: other,
            offsetFromFirst: Self.offset(of: anchor, on: item),
            offsetFromSecond: other.map { Self.offset(of: anchor, on: $0) } ?? .zero,
            anchor: anchor, axis: axis)
    }

    /// Attaches a point of an item to a fixed anchor, rigidly at their current distance.
    public convenience init(
        item: DynamicItem, offsetFromCenter: Vector = .zero, attachedToAnchor anchor: Point
    ) throws(DynamicsError) {
        try self.init(
            type: .anchor, style: .distance, first: item, second: nil,
            offsetFromFirst: offsetFromCenter, offsetFromSecond: .zero, anchor: anchor,
            axis: .zero)
    }

    /// Attaches points of two items, rigidly at their current distance.
    public convenience init(
        item: DynamicItem, offsetFromCenter: Vector = .zero, attachedTo other: DynamicItem,
        offsetFromCenter otherOffset: Vector = .zero
    ) throws(DynamicsError) {
        try self.init(
            type: .items, style: .distance, first: item, second: other,
            offsetFromFirst: offsetFromCenter, offsetFromSecond: otherOffset, anchor: .zero,
            axis: .zero)
    }

    /// Two items that may come closer but not further apart than now, like a rope.
    public static func limitAttachment(
        with item: DynamicItem, offsetFromCenter: Vector = .zero, attachedTo other: DynamicItem,
        offsetFromCenter otherOffset: Vector = .zero
    ) throws(DynamicsError) -> AttachmentBehavior {
        try AttachmentBehavior(
            type: .items, style: .limit, first: item, second: other,
            offsetFromFirst: offsetFromCenter, offsetFromSecond: otherOffset, anchor: .zero,
            axis: .zero)
    }

    /// Two items welded at a point: they keep their relative position and rotation.
    public static func fixedAttachment(
        with item: DynamicItem, attachedTo other: DynamicItem, attachmentAnchor anchor: Point
    ) throws(DynamicsError) -> AttachmentBehavior {
        try AttachmentBehavior(style: .fixed, item: item, other: other, anchor: anchor)
    }

    /// Two items hinged at a point; limit their relative rotation with
    /// ``setAttachmentRange(_:)``.
    public static func pinAttachment(
        with item: DynamicItem, attachedTo other: DynamicItem, attachmentAnchor anchor: Point
    ) throws(DynamicsError) -> AttachmentBehavior {
        try AttachmentBehavior(style: .pin, item: item, other: other, anchor: anchor)
    }

    /// Two items that slide along an axis (in the first item's axes) without turning
    /// relative to each other; limit the travel with ``setAttachmentRange(_:)``.
    public static func slidingAttachment(
        with item: DynamicItem, attachedTo other: DynamicItem, attachmentAnchor anchor: Point,
        axisOfTranslation axis: Vector
    ) throws(DynamicsError) -> AttachmentBehavior {
        try AttachmentBehavior(
            style: .sliding, item: item, other: other, anchor: anchor, axis: axis)
    }

    /// An item that slides along a fixed axis through an anchor, without turning.
    public static func slidingAttachment(
        with item: DynamicItem, attachmentAnchor anchor: Point, axisOfTranslation axis: Vector
    ) throws(DynamicsError) -> AttachmentBehavior {
        try AttachmentBehavior(style: .sliding, item: item, other: nil, anchor: anchor, axis: axis)
    }

    override var compilesToJointsOnly: Bool { true }

    public override var items: [DynamicItem] {
        secondItem.map { [firstItem, $0] } ?? [firstItem]
    }

    /// Moves the anchor of an item–anchor attachment (for example, to follow a finger).
    public func setAnchorPoint(_ point: Point) throws(DynamicsError) {
        try DynamicsError.finite(point, "anchor point")
        guard attachedBehaviorType == .anchor else {
            throw DynamicsError("only an item–anchor attachment has an anchor point to move")
        }
        anchorPoint = point
    }

    /// Sets the kept distance in points, 0 or more.
    public func setLength(_ length: Double) throws(DynamicsError) {
        try DynamicsError.check(length, "attachment length", atLeast: 0)
        self.length = length
    }

    /// Sets the spring frequency in hertz (0 for rigid).
    public func setFrequency(_ frequency: Double) throws(DynamicsError) {
        try DynamicsError.check(frequency, "attachment frequency", atLeast: 0)
        self.frequency = frequency
    }

    /// Sets the spring damping ratio, 0 or more.
    public func setDamping(_ damping: Double) throws(DynamicsError) {
        try DynamicsError.check(damping, "attachment damping", atLeast: 0)
        self.damping = damping
    }

    /// Sets the largest force a spring attachment pulls with, more than 0 (`.infinity` for no
    /// limit).
    public func setMaximumForce(_ force: Double) throws(DynamicsError) {
        guard !force.isNaN, force > 0 else {
            throw DynamicsError(
                "maximum force must be more than 0 (or infinity for none), got \(force)")
        }
        maximumForce = force
    }

    /// Sets the friction torque, 0 or more.
    public func setFrictionTorque(_ torque: Double) throws(DynamicsError) {
        try DynamicsError.check(torque, "friction torque", atLeast: 0)
        frictionTorque = torque
    }

    /// Sets the allowed relative rotation (pin) or translation (sliding).
    public func setAttachmentRange(_ range: ClosedRange<Double>) throws(DynamicsError) {
        guard !range.lowerBound.isNaN, !range.upperBound.isNaN else {
            throw DynamicsError("attachment range must not contain NaN")
        }
        attachmentRange = range
    }

    /// A point on an item given by an offset in its axes.
    static func point(on item: DynamicItem, offset: Vector) -> Point {
        let c = cos(item.rotation)
        let s = sin(item.rotation)
        return Point(
            x: item.center.x + c * offset.dx - s * offset.dy,
            y: item.center.y + s * offset.dx + c * offset.dy)
    }

    /// A world point as an offset from an item's centre, in its axes.
    static func offset(of point: Point, on item: DynamicItem) -> Vector {
        let c = cos(item.rotation)
        let s = sin(item.rotation)
        let d = point - item.center
        return Vector(dx: c * d.dx + s * d.dy, dy: -s * d.dx + c * d.dy)
    }
}
