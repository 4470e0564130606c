import Foundation
import TactileCommands

/// Monotonic wall-clock timing for benchmarks.
struct Stopwatch {
    private let start = DispatchTime.now().uptimeNanoseconds

    /// Seconds since the stopwatch was made.
    var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    /// Runs `body` repeatedly until at least `minimum` seconds pass and returns seconds per call.
    static func timePerCall(minimum: Double = 0.3, _ body: () -> Void) -> Double {
        var calls = 0
        let watch = Stopwatch()
        repeat {
            body()
            calls += 1
        } while watch.elapsed < minimum
        return watch.elapsed / Double(calls)
    }
}

/// Keeps a value alive so the optimiser cannot drop the work that made it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A figure with a human-friendly unit.
func formatDuration(_ seconds: Double) -> String {
    switch seconds {
    case ..<1e-6: String(format: "%.1f ns", seconds * 1e9)
    case ..<1e-3: String(format: "%.2f µs", seconds * 1e6)
    case ..<1: String(format: "%.3f ms", seconds * 1e3)
    default: String(format: "%.3f s", seconds)
    }
}
