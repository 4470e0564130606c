import Foundation
import Testing

@testable import TactileHTTP

/// The server's worker queue: first come first served, every job exactly once, and closing
/// waits for every job already promised a place.
@Suite struct WorkQueueTests {
    /// Records from several threads at once.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [Int] = []
        func append(_ value: Int) { lock.withLock { entries.append(value) } }
        var values: [Int] { lock.withLock { entries } }
    }

    func submit(_ queue: WorkQueue, _ job: @escaping @Sendable () -> Void) {
        #expect(queue.reserve())
        queue.enqueue(job)
    }

    @Test func oneThreadRunsJobsInTheOrderTheyCame() {
        let queue = WorkQueue(threads: 1, name: "test-worker")
        let log = Log()
        // The first job holds the thread while the rest queue up behind it, past the ring's
        // first size, so the ring grows with jobs waiting in it.
        let gate = DispatchSemaphore(value: 0)
        submit(queue) { gate.wait() }
        for index in 0..<300 { submit(queue) { log.append(index) } }
        gate.signal()
        queue.close()
        #expect(log.values == Array(0..<300))
    }

    @Test func manyThreadsRunEveryJobOnce() {
        let queue = WorkQueue(threads: 4, name: "test-worker")
        let log = Log()
        let submitters = DispatchGroup()
        for first in stride(from: 0, to: 2000, by: 500) {
            DispatchQueue.global().async(group: submitters) {
                for index in first..<(first + 500) {
                    precondition(queue.reserve())
                    queue.enqueue { log.append(index) }
                }
            }
        }
        submitters.wait()
        queue.close()
        #expect(log.values.sorted() == Array(0..<2000))
    }

    /// Four threads take the four oldest jobs first: a job queued later never starts before
    /// one queued earlier.
    @Test func jobsStartInTheOrderTheyCameOnEveryThread() {
        let queue = WorkQueue(threads: 4, name: "test-worker")
        let started = Log()
        for index in 0..<400 {
            submit(queue) {
                started.append(index)
                usleep(UInt32(index % 7) * 50)
            }
        }
        queue.close()
        // Starts are logged a moment after a job is taken, and a thread the system pauses
        // there lets the others run on, so some jobs log late; but pairs logged out of order
        // stay few. A queue that took jobs in any other order (last first, at random) would
        // put about half of all 79,800 pairs out of order.
        let order = started.values
        #expect(order.sorted() == Array(0..<400))
        var inversions = 0
        for i in order.indices {
            for j in order.indices.dropFirst(i + 1) where order[i] > order[j] { inversions += 1 }
        }
        #expect(inversions < 2_000, "\(inversions) pairs started out of order: \(order)")
    }

    @Test func closingWaitsForReservedJobsThenRefusesMore() {
        let queue = WorkQueue(threads: 2, name: "test-worker")
        let log = Log()
        #expect(queue.reserve())
        let closed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            queue.close()
            closed.signal()
        }
        // The queue is closing but owes the reserved job a run.
        #expect(closed.wait(timeout: .now() + 0.3) == .timedOut)
        queue.enqueue { log.append(1) }
        #expect(closed.wait(timeout: .now() + 30) == .success)
        #expect(log.values == [1])
        #expect(!queue.reserve())
        queue.close()
    }
}
