import CGtk

/// A Swift value handed to C as a `gpointer`.
///
/// GTK gets a +1 reference (``retainedPointer()``) and gives it back through
/// ``releaseBox`` (a `GClosureNotify`) or ``releaseBoxData`` (a `GDestroyNotify`) when the
/// signal handler, tick callback or draw function goes away. Never hand GTK an unretained box.
final class ClosureBox<Value> {
    let value: Value

    init(_ value: Value) { self.value = value }

    /// A pointer that owns one reference to the box.
    func retainedPointer() -> gpointer { Unmanaged.passRetained(self).toOpaque() }

    /// The value of the box behind `pointer`, without changing its reference count.
    static func value(at pointer: gpointer?) -> Value {
        Unmanaged<ClosureBox>.fromOpaque(pointer!).takeUnretainedValue().value
    }
}

/// Releases the reference a ``ClosureBox/retainedPointer()`` holds (`GClosureNotify` shape).
let releaseBox: GClosureNotify = { data, _ in
    if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
}

/// Releases the reference a ``ClosureBox/retainedPointer()`` holds (`GDestroyNotify` shape).
let releaseBoxData: GDestroyNotify = { data in
    if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
}
