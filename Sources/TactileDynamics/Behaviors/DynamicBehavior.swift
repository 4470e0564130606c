/// A behaviour: something that acts on items, possibly made of child behaviours.
///
/// Behaviours form a tree; adding the root to a ``DynamicAnimator`` adds the whole tree.
/// Subclass it to bundle behaviours into one (the cradle does), and use ``action`` to run
/// code after every frame the animator computes.
open class DynamicBehavior {
    /// The behaviours this one is made of.
    public private(set) var childBehaviors: [DynamicBehavior] = []
    /// Runs after every frame while the behaviour is in a running animator.
    public var action: (() -> Void)?
    /// The animator this behaviour (or an ancestor) was added to.
    public internal(set) weak var dynamicAnimator: DynamicAnimator?
    /// The behaviour this one is a child of.
    public private(set) weak var parentBehavior: DynamicBehavior?

    /// Creates a behaviour with no children.
    public init() {}

    /// Adds a child behaviour.
    ///
    /// - Throws: ``DynamicsError`` when the child already has a parent or is in an animator,
    ///   or when adding it would make a cycle.
    public func addChildBehavior(_ child: DynamicBehavior) throws(DynamicsError) {
        guard child.parentBehavior == nil, child.dynamicAnimator == nil else {
            throw DynamicsError("the behaviour is already part of another behaviour or animator")
        }
        var ancestor: DynamicBehavior? = self
        while let current = ancestor {
            guard current !== child else {
                throw DynamicsError("a behaviour cannot be its own descendant")
            }
            ancestor = current.parentBehavior
        }
        childBehaviors.append(child)
        child.parentBehavior = self
        child.setAnimator(dynamicAnimator)
        setNeedsUpdate()
    }

    /// Removes a child behaviour; does nothing if it is not a child.
    public func removeChildBehavior(_ child: DynamicBehavior) {
        guard let index = childBehaviors.firstIndex(where: { $0 === child }) else { return }
        childBehaviors.remove(at: index)
        child.parentBehavior = nil
        setNeedsUpdate()
        child.setAnimator(nil)
    }

    /// The items this behaviour acts on directly (not its children's).
    public var items: [DynamicItem] { [] }

    /// Called when the behaviour is added to or removed from an animator.
    open func willMove(to animator: DynamicAnimator?) {}

    func setAnimator(_ animator: DynamicAnimator?) {
        if animator !== dynamicAnimator { willMove(to: animator) }
        dynamicAnimator = animator
        for child in childBehaviors { child.setAnimator(animator) }
    }

    /// Tells the animator the behaviour's items or children changed, so it recompiles the
    /// world and resumes.
    func setNeedsUpdate() {
        dynamicAnimator?.setNeedsRebuild()
    }

    /// Tells the animator only the behaviour's parameters changed, so it updates them in
    /// place (keeping contacts) and resumes.
    func setNeedsParameterUpdate() {
        dynamicAnimator?.setNeedsRefresh(jointsOnly: compilesToJointsOnly)
    }

    /// Whether the behaviour's parameters are compiled into joints alone (an attachment's, a
    /// snap's), so a change to them needs only the joints compiled again.
    var compilesToJointsOnly: Bool { false }

    /// This behaviour and its descendants, parents first.
    func flattened(into list: inout [DynamicBehavior]) {
        list.append(self)
        for child in childBehaviors { child.flattened(into: &list) }
    }
}

/// A behaviour acting on a list of items that can be changed.
public class ItemListBehavior: DynamicBehavior {
    private var list: [DynamicItem]
    /// The items of `list`, to tell in constant time whether one is there (a scene of
    /// thousands of items is built one `addItem` at a time).
    private var members: Set<ObjectIdentifier>

    init(items: [DynamicItem]) {
        list = []
        members = []
        super.init()
        for item in items where members.insert(ObjectIdentifier(item)).inserted {
            list.append(item)
        }
    }

    public override var items: [DynamicItem] { list }

    /// Adds an item; adding one already present does nothing.
    public func addItem(_ item: DynamicItem) {
        guard members.insert(ObjectIdentifier(item)).inserted else { return }
        list.append(item)
        setNeedsUpdate()
    }

    /// Removes an item; removing one not present does nothing.
    public func removeItem(_ item: DynamicItem) {
        guard members.remove(ObjectIdentifier(item)) != nil,
            let index = list.firstIndex(where: { $0 === item })
        else { return }
        list.remove(at: index)
        setNeedsUpdate()
    }
}
