import Synchronization

/// Accepted drags' fingerprints kept in this process, by bucket, until they expire: the
/// replay memory of the backends whose verifier is local to one machine. Bounded: each bucket
/// keeps its newest ``perBucket`` fingerprints, and all buckets together at most `budget` bytes
/// (the least recently written go first).
public final class DragMemory: Sendable {
    private let buckets: Mutex<ExpiringEntries<[[UInt8]]>>
    /// The most fingerprints a bucket keeps.
    public static let perBucket = 256

    /// Creates an empty memory of at most `budget` bytes (16 MiB by default: about 60,000
    /// fingerprints).
    public init(budget: Int = 16 << 20) {
        buckets = Mutex(ExpiringEntries(budget: budget) { $0.reduce(64) { $0 + $1.count + 16 } })
    }

    /// The fingerprints kept in the named buckets.
    func fingerprints(in names: [String], now: Double) -> [[UInt8]] {
        buckets.withLock { buckets in names.flatMap { buckets.get($0, now: now) ?? [] } }
    }

    /// Keeps a fingerprint in a bucket; the bucket lives `lifetime` seconds from its latest.
    func remember(_ fingerprint: [UInt8], in name: String, lifetime: Double, now: Double) {
        buckets.withLock { buckets in
            let kept = (buckets.get(name, now: now) ?? []) + [fingerprint]
            buckets.put(name, Array(kept.suffix(Self.perBucket)), until: now + lifetime, now: now)
        }
    }
}
