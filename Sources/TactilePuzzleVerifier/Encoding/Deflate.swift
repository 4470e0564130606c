/// A small, fast deflate compressor (RFC 1951) in a zlib wrapper (RFC 1950).
///
/// Greedy LZ77 over a 32 KiB window with a single hash probe per position, then each block
/// of up to 32,768 symbols coded with its own length-limited Huffman codes.
enum Deflate {
    /// The zlib stream: header, deflate blocks, Adler-32.
    static func zlib(_ data: [UInt8]) -> [UInt8] {
        // Worst case: every byte a 9-bit literal, plus block headers.
        let capacity = data.count + data.count / 8 + 1024 + (data.count / 32768 + 1) * 320
        var output = [UInt8](repeating: 0, count: capacity)
        let length = output.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBufferPointer { input in
                var writer = BitWriter(out.baseAddress!)
                writer.writeByte(0x78)
                writer.writeByte(0x01)
                compress(input, into: &writer)
                writer.flush()
                let checksum = adler32(input)
                for shift in [24, 16, 8, 0] as [UInt32] {
                    writer.writeByte(UInt8(truncatingIfNeeded: checksum >> shift))
                }
                return writer.position
            }
        }
        output.removeSubrange(length...)
        return output
    }

    static let lengthBase: [Int] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
        131, 163, 195, 227, 258,
    ]
    static let lengthExtra: [Int] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    static let distanceBase: [Int] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
        2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra: [Int] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12,
        13, 13,
    ]
    /// Length → length code index (0…28), for lengths 3…258.
    static let lengthCode: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 259)
        for code in 0..<29 {
            let top = code == 28 ? 258 : lengthBase[code] + (1 << lengthExtra[code]) - 1
            for length in lengthBase[code]...min(top, 258) { table[length] = UInt8(code) }
        }
        table[258] = 28
        return table
    }()

    static func distanceCode(_ d: Int) -> Int {
        if d <= 4 { return d - 1 }
        // Codes come in pairs per power of two above 4.
        let bits = Int.bitWidth - (d - 1).leadingZeroBitCount  // bits in d − 1
        let high = ((d - 1) >> (bits - 2)) & 1
        return 2 * (bits - 1) + high
    }

    static func compress(_ input: UnsafeBufferPointer<UInt8>, into writer: inout BitWriter) {
        let hashBits = 13  // 32 KiB of table: stays in the first-level cache.
        let head = UnsafeMutablePointer<Int32>.allocate(capacity: 1 << hashBits)
        head.initialize(repeating: -1, count: 1 << hashBits)
        defer { head.deallocate() }
        // Symbols packed as length << 16 | value: a literal byte (length 0), or a match's
        // length and distance − 1.
        let blockSize = 32768
        let symbols = UnsafeMutablePointer<UInt32>.allocate(capacity: blockSize)
        defer { symbols.deallocate() }
        var symbolCount = 0
        let n = input.count
        let bytes = input.baseAddress!
        var i = 0
        @inline(__always) func hash(_ p: Int) -> Int {
            let v = UInt32(bytes[p]) | UInt32(bytes[p + 1]) << 8 | UInt32(bytes[p + 2]) << 16
            return Int((v &* 2_654_435_761) >> UInt32(32 - hashBits))
        }
        @inline(__always) func matchLength(_ c: Int, _ i: Int) -> Int {
            let limit = min(258, n - i)
            var length = 0
            while length < limit, bytes[c + length] == bytes[i + length] { length += 1 }
            return length
        }
        // After a long run of literals, look for matches only at every other position:
        // noisy data costs less to scan, and any match resets the pace.
        var misses = 0
        while i < n {
            var best = 0
            var bestDistance = 0
            let probes = misses < 32 || (misses & 1) == 0
            if probes, i + 3 <= n {
                let h = hash(i)
                let candidate = Int(head[h])
                head[h] = Int32(i)
                // Runs (distance 1) are common in filtered images; try them first.
                if i >= 1, bytes[i - 1] == bytes[i] {
                    best = matchLength(i - 1, i)
                    bestDistance = 1
                }
                if candidate >= 0, candidate < i - 1, i - candidate <= 32768,
                    bytes[candidate] == bytes[i]
                {
                    let length = matchLength(candidate, i)
                    if length > best {
                        best = length
                        bestDistance = i - candidate
                    }
                }
            }
            if best >= 3 {
                symbols[symbolCount] = UInt32(best) << 16 | UInt32(bestDistance - 1)
                // Index the match's last position so later data can refer to its end.
                let last = i + best - 1
                if last + 3 <= n { head[hash(last)] = Int32(last) }
                i += best
                misses = 0
            } else {
                symbols[symbolCount] = UInt32(bytes[i])
                i += 1
                misses += 1
            }
            symbolCount += 1
            if symbolCount == blockSize {
                writeBlock(
                    UnsafeBufferPointer(start: symbols, count: symbolCount), final: false,
                    into: &writer)
                symbolCount = 0
            }
        }
        writeBlock(
            UnsafeBufferPointer(start: symbols, count: symbolCount), final: true, into: &writer)
    }

    /// Writes one block with dynamic Huffman codes.
    static func writeBlock(
        _ symbols: UnsafeBufferPointer<UInt32>, final: Bool, into writer: inout BitWriter
    ) {
        var literalCounts = [Int](repeating: 0, count: 286)
        var distanceCounts = [Int](repeating: 0, count: 30)
        let codes = lengthCode
        literalCounts.withUnsafeMutableBufferPointer { literalCounts in
            codes.withUnsafeBufferPointer { codes in
                for s in symbols {
                    let length = Int(s >> 16)
                    if length == 0 {
                        literalCounts[Int(s)] += 1
                    } else {
                        literalCounts[257 + Int(codes[length])] += 1
                        distanceCounts[distanceCode(Int(s & 0xFFFF) + 1)] += 1
                    }
                }
            }
        }
        literalCounts[256] = 1
        if distanceCounts.allSatisfy({ $0 == 0 }) { distanceCounts[0] = 1 }
        let literalLengths = Huffman.lengths(literalCounts, limit: 15)
        let distanceLengths = Huffman.lengths(distanceCounts, limit: 15)
        let literalCodes = Huffman.codes(literalLengths)
        let distanceCodes = Huffman.codes(distanceLengths)

        var hlit = 286
        while hlit > 257, literalLengths[hlit - 1] == 0 { hlit -= 1 }
        var hdist = 30
        while hdist > 1, distanceLengths[hdist - 1] == 0 { hdist -= 1 }
        // Code lengths, run-length coded with 16 (repeat previous), 17 and 18 (zeros).
        let all = Array(literalLengths[0..<hlit] + distanceLengths[0..<hdist])
        var runs: [(symbol: Int, extra: Int)] = []
        var p = 0
        while p < all.count {
            let value = all[p]
            var run = 1
            while p + run < all.count, all[p + run] == value { run += 1 }
            var left = run
            if value == 0 {
                while left >= 11 {
                    let take = min(left, 138)
                    runs.append((18, take - 11))
                    left -= take
                }
                if left >= 3 {
                    runs.append((17, left - 3))
                    left = 0
                }
            } else {
                runs.append((value, 0))
                left -= 1
                while left >= 3 {
                    let take = min(left, 6)
                    runs.append((16, take - 3))
                    left -= take
                }
            }
            for _ in 0..<left { runs.append((value, 0)) }
            p += run
        }
        var lengthCounts = [Int](repeating: 0, count: 19)
        for r in runs { lengthCounts[r.symbol] += 1 }
        let codeLengthLengths = Huffman.lengths(lengthCounts, limit: 7)
        let codeLengthCodes = Huffman.codes(codeLengthLengths)
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var hclen = 19
        while hclen > 4, codeLengthLengths[order[hclen - 1]] == 0 { hclen -= 1 }

        writer.write(final ? 1 : 0, bits: 1)
        writer.write(2, bits: 2)
        writer.write(UInt32(hlit - 257), bits: 5)
        writer.write(UInt32(hdist - 1), bits: 5)
        writer.write(UInt32(hclen - 4), bits: 4)
        for k in 0..<hclen { writer.write(UInt32(codeLengthLengths[order[k]]), bits: 3) }
        for r in runs {
            writer.write(codeLengthCodes[r.symbol], bits: codeLengthLengths[r.symbol])
            switch r.symbol {
            case 16: writer.write(UInt32(r.extra), bits: 2)
            case 17: writer.write(UInt32(r.extra), bits: 3)
            case 18: writer.write(UInt32(r.extra), bits: 7)
            default: break
            }
        }
        // Code and length together per symbol, for one table look-up each.
        let literalTable = (0..<286).map {
            UInt64(literalCodes[$0]) << 8 | UInt64(literalLengths[$0])
        }
        let distanceTable = (0..<30).map {
            UInt64(distanceCodes[$0]) << 8 | UInt64(distanceLengths[$0])
        }
        // Per length (3…258): length code's entry index, extra bits value and count.
        let lengthInfo = (0...258).map { length -> (Int, UInt32, Int) in
            guard length >= 3 else { return (0, 0, 0) }
            let code = Int(lengthCode[length])
            return (257 + code, UInt32(length - lengthBase[code]), lengthExtra[code])
        }
        let distanceBases = distanceBase
        let distanceExtras = distanceExtra
        literalTable.withUnsafeBufferPointer { lit in
            distanceTable.withUnsafeBufferPointer { dist in
                lengthInfo.withUnsafeBufferPointer { lengths in
                    for s in symbols {
                        let length = Int(s >> 16)
                        if length == 0 {
                            let entry = lit[Int(s)]
                            writer.write(UInt32(entry >> 8), bits: Int(entry & 0xFF))
                        } else {
                            let (index, extra, extraBits) = lengths[length]
                            let entry = lit[index]
                            writer.write(UInt32(entry >> 8), bits: Int(entry & 0xFF))
                            writer.write(extra, bits: extraBits)
                            let distance = Int(s & 0xFFFF) + 1
                            let dc = distanceCode(distance)
                            let d = dist[dc]
                            writer.write(UInt32(d >> 8), bits: Int(d & 0xFF))
                            writer.write(
                                UInt32(distance - distanceBases[dc]), bits: distanceExtras[dc])
                        }
                    }
                }
            }
        }
        writer.write(literalCodes[256], bits: literalLengths[256])
    }

    static func adler32(_ p: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        do {
            var i = 0
            while i < p.count {
                let end = min(i + 5552, p.count)
                while i < end {
                    a &+= UInt32(p[i])
                    b &+= a
                    i += 1
                }
                a %= 65521
                b %= 65521
            }
        }
        return b << 16 | a
    }
}

/// Writes bits least-significant first, as deflate wants, into memory the caller sized.
struct BitWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private(set) var position = 0
    private var buffer: UInt64 = 0
    private var count: UInt64 = 0

    init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

    /// Writes a whole byte; only between blocks, when no bits are pending.
    mutating func writeByte(_ byte: UInt8) {
        base[position] = byte
        position += 1
    }

    @inline(__always)
    mutating func write(_ value: UInt32, bits: Int) {
        buffer |= UInt64(value) << count
        count += UInt64(bits)
        if count >= 32 {
            UnsafeMutableRawPointer(base + position).storeBytes(
                of: UInt32(truncatingIfNeeded: buffer).littleEndian, as: UInt32.self)
            position += 4
            buffer >>= 32
            count -= 32
        }
    }

    /// Writes out the bits still buffered, padding the last byte with zeros.
    mutating func flush() {
        while count > 0 {
            base[position] = UInt8(truncatingIfNeeded: buffer)
            position += 1
            buffer >>= 8
            count = count >= 8 ? count - 8 : 0
        }
        buffer = 0
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
