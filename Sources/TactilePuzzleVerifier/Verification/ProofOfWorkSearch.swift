import Dispatch
import Foundation
import TactileCrypto

/// A client's search for nonces: what the app (and a test) runs to pay a price. It hashes the
/// nonces 0, 1, 2, … in order, a chunk per thread at a time, into buffers it reuses, so that
/// even a debug build pays a 22-bit price in a second or two.
extension ProofOfWorkChallenge {
    /// A nonce the search found, with the leading zero bits of its digest.
    struct Hit: Equatable, Sendable {
        var nonce: UInt64
        var zeros: Int
    }

    /// Nonces each thread hashes between two looks at what was found.
    static let searchChunk: UInt64 = 8192

    /// Threads a search uses: one per core, at most 8.
    static var searchThreads: Int { min(8, max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    /// Hands `round` the nonces with at least `bits` zero bits of each stretch of the count
    /// (in increasing order; a stretch may have none) until it returns true.
    ///
    /// - Parameters:
    ///   - bits: The zero bits a nonce must have to be handed over.
    ///   - threads: How many threads hash at once.
    ///   - round: Takes each stretch's finds; true ends the search.
    func search(atLeast bits: Int, threads: Int = searchThreads, round: ([Hit]) -> Bool) {
        let prefix = Array((salt + ":").utf8)
        let threads = max(1, threads)
        let finds = Finds(threads)
        var start: UInt64 = 0
        while true {
            let first = start
            if threads == 1 {
                finds.lanes[0] = Self.scan(
                    prefix, from: first, count: Self.searchChunk, atLeast: bits)
            } else {
                DispatchQueue.concurrentPerform(iterations: threads) { lane in
                    finds.lanes[lane] = Self.scan(
                        prefix, from: first + UInt64(lane) * Self.searchChunk,
                        count: Self.searchChunk, atLeast: bits)
                }
            }
            if round(finds.lanes.flatMap { $0 }) { return }
            start += UInt64(threads) * Self.searchChunk
        }
    }

    /// The nonces `first` ..< `first` + `count` whose digest of `prefix` + nonce has at least
    /// `bits` zero bits. The nonce's digits are counted up in place, like an odometer.
    static func scan(_ prefix: [UInt8], from first: UInt64, count: UInt64, atLeast bits: Int)
        -> [Hit]
    {
        var hits: [Hit] = []
        let start = Array(String(first).utf8)
        var message = prefix + start + [UInt8](repeating: 0, count: 21 - start.count)
        var digest = [UInt8](repeating: 0, count: 32)
        var length = prefix.count + start.count
        message.withUnsafeMutableBytes { text in
            digest.withUnsafeMutableBytes { digest in
                for offset in 0..<count {
                    Sodium.sha256(UnsafeRawBufferPointer(rebasing: text[..<length]), into: digest)
                    var zeros = 0
                    for byte in digest {
                        if byte != 0 {
                            zeros += byte.leadingZeroBitCount
                            break
                        }
                        zeros += 8
                    }
                    if zeros >= bits { hits.append(Hit(nonce: first + offset, zeros: zeros)) }
                    // The next nonce: carry through the nines; 99…9 becomes 100…0.
                    var digit = length - 1
                    while true {
                        if text[digit] != UInt8(ascii: "9") {
                            text[digit] += 1
                            break
                        }
                        text[digit] = UInt8(ascii: "0")
                        if digit == prefix.count {
                            text[digit] = UInt8(ascii: "1")
                            text[length] = UInt8(ascii: "0")
                            length += 1
                            break
                        }
                        digit -= 1
                    }
                }
            }
        }
        return hits
    }

    /// What each thread of a search found in its chunk: each thread writes its own lane only,
    /// and the search reads them after all have ended.
    private final class Finds: @unchecked Sendable {
        let lanes: UnsafeMutableBufferPointer<[Hit]>

        init(_ count: Int) {
            lanes = .allocate(capacity: count)
            lanes.initialize(repeating: [])
        }

        deinit {
            _ = lanes.deinitialize()
            lanes.deallocate()
        }
    }
}
