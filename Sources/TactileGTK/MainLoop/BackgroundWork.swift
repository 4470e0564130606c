import CGtk
import Foundation

/// Runs `work` on a thread of its own, then `completion` with its result on the GTK main
/// loop.
///
/// For slow work a person waits for, such as a deliberately slow password hash: the window
/// keeps drawing and answering meanwhile. `work` must not touch GTK; `completion` may.
public func runInBackground<Result: Sendable>(
    _ work: @escaping @Sendable () -> Result, then completion: @escaping (Result) -> Void
) {
    let job = BackgroundJob(completion)
    Thread {
        let result = work()
        // Handed to the main loop, which lets go of the job once it has run the completion.
        addMainLoopSource {
            job.run(with: result)
            return false
        }
    }.start()
}

/// What to do with a background job's result on the main loop: only the main loop touches
/// the completion.
private final class BackgroundJob<Result: Sendable>: @unchecked Sendable {
    var completion: ((Result) -> Void)?

    init(_ completion: @escaping (Result) -> Void) { self.completion = completion }

    /// Runs the completion and lets go of it here, on the main loop: whatever it holds (GTK
    /// widgets among them) is released on the thread that owns it, whichever thread lets go
    /// of the job last.
    func run(with result: Result) {
        let completion = self.completion
        self.completion = nil
        completion?(result)
    }
}

/// Runs `work` on the GTK main loop once it is idle (after the frame being laid out), for
/// changes that must not happen while GTK allocates sizes. Call it on the main loop.
public func runWhenIdle(_ work: @escaping () -> Void) {
    addMainLoopSource(priority: G_PRIORITY_DEFAULT_IDLE) {
        work()
        return false
    }
}
