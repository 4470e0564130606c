import Foundation

/// Jobs run first come, first served on a fixed set of threads: whichever thread comes free
/// starts the job that has waited longest.
///
/// One queue for all threads keeps every core busy while there is work (no thread sits idle
/// while another has a backlog), and serving in arrival order keeps the slowest answers
/// close to the typical ones.
///
/// A job is submitted in two steps, ``reserve()`` then ``enqueue(_:)``, so that the caller
/// can get ready for the job's end in between (the server suspends the connection the job
/// will answer); ``close()`` waits for every reserved job.
final class WorkQueue: @unchecked Sendable {
    typealias Job = () -> Void

    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Signalled when a job is queued or the queue closes.
    private let jobWaiting = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Signalled when a thread ends.
    private let threadEnded = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// A ring of waiting jobs: `count` of them from `head`.
    private var ring: [Job?] = Array(repeating: nil, count: 64)
    private var head = 0
    private var count = 0
    /// Jobs reserved and not yet queued.
    private var reserved = 0
    private var isClosed = false
    private var liveThreads = 0

    /// Starts `threads` threads (at least one) named `name`.
    init(threads: Int, name: String) {
        pthread_mutex_init(lock, nil)
        pthread_cond_init(jobWaiting, nil)
        pthread_cond_init(threadEnded, nil)
        liveThreads = max(1, threads)
        for _ in 0..<liveThreads {
            let thread = Thread { [self] in
                // Named from inside: Foundation names the system thread only for the current one.
                Thread.current.name = name
                work()
            }
            // As much stack as a libmicrohttpd thread gets.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    deinit {
        close()
        pthread_cond_destroy(threadEnded)
        pthread_cond_destroy(jobWaiting)
        pthread_mutex_destroy(lock)
        threadEnded.deallocate()
        jobWaiting.deallocate()
        lock.deallocate()
    }

    /// Holds a place for one job: false once the queue is closed, and then nothing is owed.
    /// After true, ``enqueue(_:)`` must follow.
    func reserve() -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard !isClosed else { return false }
        reserved += 1
        return true
    }

    /// Queues the job a ``reserve()`` held a place for; it runs even if the queue has
    /// closed since.
    func enqueue(_ job: @escaping Job) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        precondition(reserved > 0, "enqueue without reserve")
        reserved -= 1
        if count == ring.count {
            // Unroll the ring into a longer one, oldest first.
            ring =
                (0..<count).map { ring[(head + $0) % ring.count] }
                + Array(repeating: nil, count: count)
            head = 0
        }
        ring[(head + count) % ring.count] = job
        count += 1
        pthread_cond_signal(jobWaiting)
    }

    /// Refuses new reservations, lets every job reserved or queued run, and returns once
    /// all threads have ended. Calling it again does nothing more.
    func close() {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        isClosed = true
        pthread_cond_broadcast(jobWaiting)
        while liveThreads > 0 { pthread_cond_wait(threadEnded, lock) }
    }

    private func work() {
        pthread_mutex_lock(lock)
        while true {
            while count == 0 && !(isClosed && reserved == 0) {
                pthread_cond_wait(jobWaiting, lock)
            }
            guard count > 0 else { break }
            let job = ring[head]!
            ring[head] = nil
            head = (head + 1) % ring.count
            count -= 1
            pthread_mutex_unlock(lock)
            job()
            pthread_mutex_lock(lock)
        }
        liveThreads -= 1
        // Another thread may still be waiting for a reserved job that will never need it.
        pthread_cond_broadcast(jobWaiting)
        pthread_cond_broadcast(threadEnded)
        pthread_mutex_unlock(lock)
    }
}
