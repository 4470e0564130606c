/// A growable array of plain values addressed through a pointer: no bounds or uniqueness
/// checks in the solver's inner loops, and no copies when one element's field changes.
///
/// Not copyable: a pool has one owner (the world, itself not copyable), so no second copy
/// can share its memory unseen; `init(copying:)` is the one way to get a pool of one's own.
/// The elements must be plain values: they are never deinitialised.
struct Pool<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The number of elements.
    private(set) var count = 0

    init() {
        capacity = 16
        base = .allocate(capacity: capacity)
    }

    /// A pool of `count` copies of `value`.
    init(repeating value: Element, count: Int) {
        capacity = Swift.max(1, count)
        base = .allocate(capacity: capacity)
        base.initialize(repeating: value, count: count)
        self.count = count
    }

    /// A pool with its own copy of the elements of `other`.
    init(copying other: borrowing Pool<Element>) {
        capacity = Swift.max(1, other.count)
        base = .allocate(capacity: capacity)
        base.initialize(from: other.base, count: other.count)
        count = other.count
    }

    deinit { base.deallocate() }

    /// The valid indices, `0..<count`.
    var indices: Range<Int> { 0..<count }
    /// Whether the pool holds no element.
    var isEmpty: Bool { count == 0 }

    @inline(__always)
    subscript(index: Int) -> Element {
        unsafeAddress { UnsafePointer(base + index) }
        nonmutating unsafeMutableAddress { base + index }
    }

    mutating func append(_ element: Element) {
        if count == capacity { grow(to: capacity * 2) }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Adds one element whose value is left as it was, for a caller that sets it in its place
    /// before reading it (instead of building it elsewhere and copying it in); its index.
    mutating func appendUninitialized() -> Int {
        if count == capacity { grow(to: capacity * 2) }
        count += 1
        return count - 1
    }

    /// Moves the elements to storage for `newCapacity`.
    private mutating func grow(to newCapacity: Int) {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    mutating func append(contentsOf elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }

    /// Makes the pool hold `count` elements whose values are left as they were (never
    /// initialised when the pool grows), for a caller that writes every one before reading
    /// any: no default value is built and copied into each first.
    mutating func resize(toUninitialized count: Int) {
        if count > capacity { grow(to: count) }
        self.count = count
    }

    /// Drops the last element.
    mutating func removeLast() {
        count -= 1
    }

    /// Empties the pool, keeping its storage.
    mutating func removeAll(keepingCapacity: Bool = true) {
        count = 0
    }

    /// The elements, as an array (for the cold paths that want a collection).
    var elements: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
