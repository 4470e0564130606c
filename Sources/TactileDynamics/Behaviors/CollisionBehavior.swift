import TactileCore

/// Told when items start and stop touching each other or a boundary, once per contact
/// episode: a resting contact reports one beginning, however long it rests.
public protocol CollisionBehaviorDelegate: AnyObject {
    /// Two items started touching at `point`.
    func collisionBehavior(
        _ behavior: CollisionBehavior, beganContactFor item1: DynamicItem,
        with item2: DynamicItem, at point: Point)
    /// Two items stopped touching.
    func collisionBehavior(
        _ behavior: CollisionBehavior, endedContactFor item1: DynamicItem,
        with item2: DynamicItem)
    /// An item started touching a boundary; the reference bounds' identifier is `nil`.
    func collisionBehavior(
        _ behavior: CollisionBehavior, beganContactFor item: DynamicItem,
        withBoundaryIdentifier identifier: String?, at point: Point)
    /// An item stopped touching a boundary.
    func collisionBehavior(
        _ behavior: CollisionBehavior, endedContactFor item: DynamicItem,
        withBoundaryIdentifier identifier: String?)
}

extension CollisionBehaviorDelegate {
    public func collisionBehavior(
        _ behavior: CollisionBehavior, beganContactFor item1: DynamicItem,
        with item2: DynamicItem, at point: Point
    ) {}
    public func collisionBehavior(
        _ behavior: CollisionBehavior, endedContactFor item1: DynamicItem,
        with item2: DynamicItem
    ) {}
    public func collisionBehavior(
        _ behavior: CollisionBehavior, beganContactFor item: DynamicItem,
        withBoundaryIdentifier identifier: String?, at point: Point
    ) {}
    public func collisionBehavior(
        _ behavior: CollisionBehavior, endedContactFor item: DynamicItem,
        withBoundaryIdentifier identifier: String?
    ) {}
}

/// Space around the inside of a rectangle, in points.
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    /// Creates insets.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// No insets.
    public static let zero = EdgeInsets()
}

/// Makes its items collide with each other and with boundaries.
///
/// Items collide only with items of the same collision behaviour, so separate collision
/// behaviours are groups that pass through each other.
public final class CollisionBehavior: ItemListBehavior {
    /// What collides.
    public enum Mode: Hashable, Sendable {
        /// Items with items only.
        case items
        /// Items with boundaries only.
        case boundaries
        /// Both (the default).
        case everything

        var includesItems: Bool { self != .boundaries }
        var includesBoundaries: Bool { self != .items }
    }

    /// What collides; ``Mode/everything`` by default.
    public var collisionMode = Mode.everything {
        didSet { setNeedsUpdate() }
    }
    /// Whether the animator's reference bounds (less ``referenceBoundsInsets``) are a
    /// boundary. False by default.
    public var translatesReferenceBoundsIntoBoundary = false {
        didSet { setNeedsUpdate() }
    }
    /// Insets of the reference-bounds boundary.
    public private(set) var referenceBoundsInsets = EdgeInsets.zero
    /// Told about contacts.
    public weak var collisionDelegate: (any CollisionBehaviorDelegate)? {
        didSet { setNeedsUpdate() }
    }
    /// Named boundaries, in the order added.
    private(set) var boundaries: [(identifier: String, path: Path)] = []

    /// Creates a collision behaviour for the given items.
    public override init(items: [DynamicItem] = []) { super.init(items: items) }

    /// Uses the reference bounds inset by `insets` as a boundary.
    public func setTranslatesReferenceBoundsIntoBoundary(with insets: EdgeInsets)
        throws(DynamicsError)
    {
        for (value, name) in [
            (insets.top, "top inset"), (insets.left, "left inset"),
            (insets.bottom, "bottom inset"), (insets.right, "right inset"),
        ] {
            try DynamicsError.finite(value, name)
        }
        referenceBoundsInsets = insets
        translatesReferenceBoundsIntoBoundary = true
    }

    /// The identifiers of the named boundaries.
    public var boundaryIdentifiers: [String] { boundaries.map(\.identifier) }

    /// Adds (or replaces) a boundary along a path's outline.
    public func addBoundary(withIdentifier identifier: String, for path: Path)
        throws(DynamicsError)
    {
        let polylines = path.flattened(tolerance: 0.25)
        guard polylines.contains(where: { $0.count >= 2 }) else {
            throw DynamicsError("boundary \"\(identifier)\" has no segments")
        }
        for line in polylines {
            for p in line { try DynamicsError.finite(p, "boundary \"\(identifier)\" point") }
        }
        removeBoundary(withIdentifier: identifier)
        boundaries.append((identifier, path))
        setNeedsUpdate()
    }

    /// Adds (or replaces) a boundary along a segment.
    public func addBoundary(withIdentifier identifier: String, from start: Point, to end: Point)
        throws(DynamicsError)
    {
        try DynamicsError.finite(start, "boundary start")
        try DynamicsError.finite(end, "boundary end")
        guard start != end else {
            throw DynamicsError("boundary \"\(identifier)\" must have distinct end points")
        }
        var path = Path()
        path.move(to: start)
        path.addLine(to: end)
        try addBoundary(withIdentifier: identifier, for: path)
    }

    /// The path of a named boundary.
    public func boundary(withIdentifier identifier: String) -> Path? {
        boundaries.first { $0.identifier == identifier }?.path
    }

    /// Removes a named boundary.
    public func removeBoundary(withIdentifier identifier: String) {
        guard let index = boundaries.firstIndex(where: { $0.identifier == identifier }) else {
            return
        }
        boundaries.remove(at: index)
        setNeedsUpdate()
    }

    /// Removes every named boundary.
    public func removeAllBoundaries() {
        guard !boundaries.isEmpty else { return }
        boundaries.removeAll()
        setNeedsUpdate()
    }
}
