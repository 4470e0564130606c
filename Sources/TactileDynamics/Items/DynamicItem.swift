import Foundation
import TactileCore

/// Something the animator moves: a centre, a bounds size and a rotation, like a view.
///
/// The animator writes ``center``, ``rotation``, ``velocity`` and ``angularVelocity`` after
/// every frame. To move an item yourself (while dragging, for example), set ``center`` or
/// ``rotation`` and call ``DynamicAnimator/updateItem(usingCurrentState:)``.
///
/// ```swift
/// let ball = try DynamicItem(
///     center: Point(x: 100, y: 50), size: Size(width: 40, height: 40),
///     collisionBoundsType: .ellipse)
/// ```
public class DynamicItem {
    /// The centre, in the reference area's coordinates (points).
    public var center: Point {
        get { motion.center }
        set { motion.center = newValue }
    }
    /// The rotation in radians, clockwise on screen (y grows downwards).
    public var rotation: Double {
        get { motion.rotation }
        set { motion.rotation = newValue }
    }
    /// The bounds; the origin is zero and the size is the item's width and height in points.
    public let bounds: Rect
    /// The outline used for collisions.
    public let collisionBoundsType: CollisionBoundsType
    /// The velocity of the centre in points per second, as of the last frame.
    public internal(set) var velocity: Vector {
        get { motion.velocity }
        set { motion.velocity = newValue }
    }
    /// The angular velocity in radians per second, as of the last frame.
    public internal(set) var angularVelocity: Double {
        get { motion.angularVelocity }
        set { motion.angularVelocity = newValue }
    }

    /// Collision geometry relative to the centre.
    let geometry: ItemGeometry
    /// The exact body state the animator last wrote, reused when nothing moved the item
    /// from outside, so rebuilding the simulation changes no bit of it.
    var committed: CommittedState? {
        get { motion.committed }
        set { motion.committed = newValue }
    }
    /// What the animator writes after every frame, kept as one value so that a frame's
    /// write-back is one access to the object rather than one per property (each access to
    /// a class's stored property is checked for exclusivity at run time).
    var motion: ItemMotion

    /// Creates an item.
    ///
    /// - Parameters:
    ///   - center: The centre in points.
    ///   - size: Width and height in points; both must be positive and finite.
    ///   - rotation: The initial rotation in radians.
    ///   - collisionBoundsType: The collision outline; `.path` must be convex.
    /// - Throws: ``DynamicsError`` for a zero, negative or non-finite size, a non-finite centre
    ///   or rotation, or a path that is not convex or encloses no area.
    public init(
        center: Point, size: Size, rotation: Double = 0,
        collisionBoundsType: CollisionBoundsType = .rectangle
    ) throws(DynamicsError) {
        try DynamicsError.finite(center, "item centre")
        try DynamicsError.finite(rotation, "item rotation")
        try DynamicsError.check(size.width, "item width", atLeast: 0, orEqual: false)
        try DynamicsError.check(size.height, "item height", atLeast: 0, orEqual: false)
        motion = ItemMotion(center: center, rotation: rotation)
        bounds = Rect(origin: .zero, size: size)
        self.collisionBoundsType = collisionBoundsType
        geometry = try ItemGeometry.make(collisionBoundsType, size: size)
    }

    /// For groups: geometry is the members'.
    init(groupCenter: Point, bounds: Rect) {
        motion = ItemMotion(center: groupCenter, rotation: 0)
        self.bounds = bounds
        collisionBoundsType = .rectangle
        geometry = .circle(radius: 0)
    }

    /// The axis-aligned rectangle the item covers, turned by its rotation.
    public var frame: Rect {
        let c = abs(cos(rotation))
        let s = abs(sin(rotation))
        let w = bounds.width * c + bounds.height * s
        let h = bounds.width * s + bounds.height * c
        return Rect(center: center, size: Size(width: w, height: h))
    }
}

/// An item's centre, rotation and velocities, and the body state they were written from.
struct ItemMotion {
    var center: Point
    var rotation: Double
    var velocity = Vector.zero
    var angularVelocity = 0.0
    var committed: CommittedState?
}

/// A body's state as the animator last wrote it.
struct CommittedState {
    var position: Vec2
    var angle: Double
    var velocity: Vec2
    var angularVelocity: Double
    /// The public values written alongside, to notice outside changes.
    var center: Point
    var rotation: Double
}
