/// A growable array of plain values addressed through a pointer: no bounds or uniqueness
/// checks in the solver's inner loops, and no copies when one element's field changes.
///
/// Copies of a pool share their storage, so a pool has one owner: the world, which moves
/// rather than copies (`DynamicAnimator.takeWorld` leaves the animator an empty world while
/// a caller works on the real one, so nothing can read a stale copy). The elements must be
/// plain values: they are never deinitialised.
///
/// Not a class, and not `~Copyable`: a class costs an extra load in every inner loop (5–7 %
/// on the ball pits), and a pool that checks its uniqueness on every write is defeated by
/// the copies Swift makes to keep exclusive access to a contact passed `inout` beside the
/// world.
struct Pool<Element>: RandomAccessCollection, MutableCollection {
    private final class Storage {
        let base: UnsafeMutablePointer<Element>
        let capacity: Int

        init(capacity: Int) {
            self.capacity = Swift.max(1, capacity)
            base = .allocate(capacity: self.capacity)
        }

        deinit { base.deallocate() }
    }

    /// Owns the memory; `base` is kept beside it so that element access touches neither the
    /// object's reference count nor its exclusivity bookkeeping.
    private var storage: Storage
    private var base: UnsafeMutablePointer<Element>
    /// The number of elements.
    private(set) var count = 0

    init() {
        storage = Storage(capacity: 16)
        base = storage.base
    }

    /// A pool of `count` copies of `value`.
    init(repeating value: Element, count: Int) {
        storage = Storage(capacity: count)
        base = storage.base
        base.initialize(repeating: value, count: count)
        self.count = count
    }

    /// A pool with its own copy of the elements of `other`.
    init(copying other: Pool<Element>) {
        storage = Storage(capacity: other.count)
        base = storage.base
        base.initialize(from: other.base, count: other.count)
        count = other.count
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    @inline(__always)
    subscript(index: Int) -> Element {
        unsafeAddress { UnsafePointer(base + index) }
        nonmutating unsafeMutableAddress { base + index }
    }

    mutating func append(_ element: Element) {
        if count == storage.capacity {
            let grown = Storage(capacity: storage.capacity * 2)
            grown.base.moveInitialize(from: base, count: count)
            storage = grown
            base = grown.base
        }
        (base + count).initialize(to: element)
        count += 1
    }

    mutating func append(contentsOf elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }

    /// Drops the last element.
    mutating func removeLast() {
        count -= 1
    }

    /// Empties the pool, keeping its storage.
    mutating func removeAll(keepingCapacity: Bool = true) {
        count = 0
    }
}
