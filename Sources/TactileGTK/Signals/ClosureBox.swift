import CGtk

/// A Swift value, usually a closure, handed to C as a `gpointer`.
///
/// GTK gets a +1 reference (``retainedPointer()``) and gives it back through ``releaseBox``
/// (a `GDestroyNotify`; a signal handler's closure calls it as it is finalized) when the
/// signal handler, main-loop source, tick callback or draw function that holds it goes away.
/// Never hand GTK an unretained box.
///
/// The one box for the closures Tactile hands GTK: `connect(_:signal:_:)` boxes signal
/// handlers, `addMainLoopSource(priority:after:_:)` idle work and timers; a C
/// callback of another shape finds its closure with ``value(at:)``.
package final class ClosureBox<Value> {
    /// The value handed to C.
    package let value: Value

    /// Boxes `value`.
    package init(_ value: Value) { self.value = value }

    /// A pointer that owns one reference to the box, for GTK to release with ``releaseBox``.
    package func retainedPointer() -> gpointer { Unmanaged.passRetained(self).toOpaque() }

    /// The value of the box behind `pointer`, without changing its reference count.
    package static func value(at pointer: gpointer?) -> Value {
        Unmanaged<ClosureBox>.fromOpaque(pointer!).takeUnretainedValue().value
    }
}

/// Releases the reference a ``ClosureBox/retainedPointer()`` holds: the `GDestroyNotify`
/// to hand GTK beside it.
package let releaseBox: GDestroyNotify = { data in
    if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
}
