/// Writes bits least-significant first, as deflate wants, into memory the caller sized with
/// 8 bytes to spare.
struct BitWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private(set) var position = 0
    private var buffer: UInt64 = 0
    /// Bits pending in `buffer`, fewer than 8 between calls.
    private var count = 0

    init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

    /// Writes a whole byte; only when no bits are pending.
    mutating func writeByte(_ byte: UInt8) {
        base[position] = byte
        position += 1
    }

    /// Appends the low `bits` bits of `value` (at most 28; `value` has no higher bits set).
    @inline(__always)
    mutating func write(_ value: UInt64, bits: Int) {
        append(value, bits: bits)
        flushWholeBytes()
    }

    /// Appends bits without writing them out: at most 63 may be pending (7 are after a
    /// flush), so follow two appends of up to 28 bits, or three of up to 15, by
    /// ``flushWholeBytes()``.
    @inline(__always)
    mutating func append(_ value: UInt64, bits: Int) {
        buffer |= value &<< UInt64(truncatingIfNeeded: count)
        count &+= bits
    }

    /// Stores the whole bytes pending: all 8 bytes of the buffer go out, the position moves
    /// on by the complete ones.
    @inline(__always)
    mutating func flushWholeBytes() {
        UnsafeMutableRawPointer(base + position).storeBytes(
            of: buffer.littleEndian, as: UInt64.self)
        let whole = count & ~7
        position &+= whole &>> 3
        buffer = buffer &>> UInt64(truncatingIfNeeded: whole)
        count &-= whole
    }

    /// Writes out the bits still pending, padding the last byte with zeros.
    mutating func alignToByte() {
        if count > 0 {
            base[position] = UInt8(truncatingIfNeeded: buffer)
            position += 1
        }
        buffer = 0
        count = 0
    }

    /// Stored blocks (type 0) of `raw`, up to 65,535 bytes each.
    mutating func writeStored(_ raw: UnsafeBufferPointer<UInt8>, final: Bool) {
        var start = 0
        repeat {
            let length = min(65535, raw.count - start)
            let last = start + length == raw.count
            write(final && last ? 1 : 0, bits: 1)
            write(0, bits: 2)
            alignToByte()
            for byte in [length & 0xFF, length >> 8, ~length & 0xFF, ~length >> 8 & 0xFF] {
                writeByte(UInt8(byte))
            }
            if length > 0 {
                (base + position).update(from: raw.baseAddress! + start, count: length)
                position += length
            }
            start += length
        } while start < raw.count
    }
}

/// Length-limited Huffman codes in deflate's canonical form.
enum Huffman {
    /// Code lengths for symbol counts, none longer than `limit`; unused symbols get 0.
    static func lengths(_ counts: [Int], limit: Int) -> [Int] {
        var counts = counts
        while true {
            let lengths = unlimitedLengths(counts)
            if lengths.max()! <= limit { return lengths }
            // Flatten the distribution and try again.
            counts = counts.map { $0 == 0 ? 0 : ($0 + 1) / 2 }
        }
    }

    private static func unlimitedLengths(_ counts: [Int]) -> [Int] {
        var lengths = [Int](repeating: 0, count: counts.count)
        let used = counts.indices.filter { counts[$0] > 0 }
        if used.count == 1 {
            lengths[used[0]] = 1
            return lengths
        }
        guard used.count > 1 else { return lengths }
        // Nodes: leaves first, then merged nodes; parents record the tree.
        var weight = used.map { counts[$0] }
        var parent = [Int](repeating: -1, count: used.count * 2)
        var leaves = used.indices.sorted { weight[$0] < weight[$1] }[...]
        var merged: [Int] = []
        var mergedHead = 0
        func takeSmallest() -> Int {
            if let leaf = leaves.first,
                mergedHead >= merged.count || weight[leaf] <= weight[merged[mergedHead]]
            {
                leaves.removeFirst()
                return leaf
            }
            mergedHead += 1
            return merged[mergedHead - 1]
        }
        while leaves.count + merged.count - mergedHead > 1 {
            let a = takeSmallest()
            let b = takeSmallest()
            let node = weight.count
            weight.append(weight[a] + weight[b])
            parent[a] = node
            parent[b] = node
            merged.append(node)
        }
        var depth = [Int](repeating: 0, count: weight.count)
        for node in stride(from: weight.count - 2, through: 0, by: -1) where parent[node] >= 0 {
            depth[node] = depth[parent[node]] + 1
        }
        for (k, symbol) in used.enumerated() { lengths[symbol] = depth[k] }
        return lengths
    }

    /// Canonical codes for the lengths, bit-reversed for least-significant-first output.
    static func codes(_ lengths: [Int]) -> [UInt32] {
        var countPerLength = [Int](repeating: 0, count: 16)
        for l in lengths where l > 0 { countPerLength[l] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1..<16 {
            code = (code + countPerLength[bits - 1]) << 1
            next[bits] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            let c = next[length]
            next[length] += 1
            var reversed: UInt32 = 0
            for bit in 0..<length where c >> bit & 1 != 0 {
                reversed |= 1 << UInt32(length - 1 - bit)
            }
            return reversed
        }
    }
}
