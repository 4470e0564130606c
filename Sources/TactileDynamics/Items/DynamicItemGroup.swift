import TactileCore

/// Items that move as one rigid body, each keeping its own collision outline.
///
/// Add the group (not its members) to behaviours. The group's centre is the centre of its
/// members' bounds at creation; the animator moves the members with the group.
public final class DynamicItemGroup: DynamicItem {
    /// The members, in the order given.
    public let items: [DynamicItem]
    /// Each member's offset from the group's centre and rotation relative to the group's.
    let offsets: [(offset: Vec2, rotation: Double)]

    /// Creates a group.
    ///
    /// - Throws: ``DynamicsError`` when `items` is empty, holds an item twice or holds a group.
    public init(items: [DynamicItem]) throws(DynamicsError) {
        guard !items.isEmpty else { throw DynamicsError("an item group needs at least one item") }
        var seen = Set<ObjectIdentifier>()
        for item in items {
            guard !(item is DynamicItemGroup) else {
                throw DynamicsError("an item group cannot contain another group")
            }
            guard seen.insert(ObjectIdentifier(item)).inserted else {
                throw DynamicsError("an item group cannot contain the same item twice")
            }
        }
        var union = items[0].frame
        for item in items.dropFirst() { union = union.union(item.frame) }
        let center = union.center
        self.items = items
        offsets = items.map { (Vec2($0.center.x - center.x, $0.center.y - center.y), $0.rotation) }
        super.init(
            groupCenter: center,
            bounds: Rect(origin: .zero, size: union.size))
    }
}
