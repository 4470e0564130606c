/// A block's symbols and their counts, until it is written.
struct SymbolBlock {
    /// Runs of literal bytes as `1 << 31 | count` (the bytes stay in the input), or
    /// matches as `distanceCode << 25 | length << 16 | (distance − 1)`.
    let symbols = UnsafeMutablePointer<UInt32>.allocate(capacity: Deflate.blockSymbols)
    /// Counts of literal/length symbols 0…285 (256 is the end of the block), in four
    /// interleaved tables so that repeated bytes do not wait on each other's increments.
    let literalCounts = UnsafeMutablePointer<Int>.allocate(capacity: 4 * 286)
    /// Counts of distance symbols 0…29.
    let distanceCounts = UnsafeMutablePointer<Int>.allocate(capacity: 30)
    /// Entries in `symbols`.
    private(set) var count = 0
    /// Input bytes the entries cover.
    private(set) var bytes = 0
    /// Literals since the last match, not yet entered.
    private var run = 0

    init() {
        literalCounts.initialize(repeating: 0, count: 4 * 286)
        distanceCounts.initialize(repeating: 0, count: 30)
    }

    func deallocate() {
        symbols.deallocate()
        literalCounts.deallocate()
        distanceCounts.deallocate()
    }

    @inline(__always)
    mutating func literal(_ byte: UInt8) {
        literalCounts[(bytes & 3) &* 286 &+ Int(byte)] &+= 1
        bytes &+= 1
        run &+= 1
    }

    /// Enters the literals since the last match as one run.
    @inline(__always)
    private mutating func closeRun() {
        guard run > 0 else { return }
        symbols[count] = UInt32(truncatingIfNeeded: 1 << 31 | run)
        count &+= 1
        run = 0
    }

    @inline(__always)
    mutating func match(length: Int, distance: Int, lengthCode: UInt8) {
        closeRun()
        let code = Deflate.distanceCode(distance)
        symbols[count] = UInt32(truncatingIfNeeded: code << 25 | length << 16 | (distance - 1))
        literalCounts[257 &+ Int(lengthCode)] &+= 1
        distanceCounts[code] &+= 1
        count &+= 1
        bytes &+= length
    }

    /// Writes the block — the symbols, which encode `raw` — with dynamic Huffman codes, or
    /// `raw` stored when that is no larger; then starts an empty block.
    mutating func write(raw: UnsafeBufferPointer<UInt8>, final: Bool, into writer: inout BitWriter)
    {
        closeRun()
        defer {
            count = 0
            bytes = 0
            literalCounts.update(repeating: 0, count: 4 * 286)
            distanceCounts.update(repeating: 0, count: 30)
        }
        var literals = (0..<286).map {
            literalCounts[$0] + literalCounts[286 + $0] + literalCounts[572 + $0]
                + literalCounts[858 + $0]
        }
        literals[256] = 1
        var distances = Array(UnsafeBufferPointer(start: distanceCounts, count: 30))
        // A distance code must exist even when no match does.
        if distances.allSatisfy({ $0 == 0 }) { distances[0] = 1 }
        let literalLengths = Huffman.lengths(literals, limit: 15)
        let distanceLengths = Huffman.lengths(distances, limit: 15)
        let header = CodeLengthHeader(
            literalLengths: literalLengths, distanceLengths: distanceLengths)

        // Exact size of the coded block, against storing it.
        var bits = 3 + header.bits
        for s in 0..<286 { bits += literals[s] * literalLengths[s] }
        for code in 0..<29 { bits += literals[257 + code] * Deflate.lengthExtra[code] }
        for d in 0..<30 { bits += distances[d] * (distanceLengths[d] + Deflate.distanceExtra[d]) }
        let storedChunks = max(1, (raw.count + 65534) / 65535)
        if bits > raw.count * 8 + storedChunks * 48 {
            writer.writeStored(raw, final: final)
            return
        }

        writer.write(final ? 1 : 0, bits: 1)
        writer.write(2, bits: 2)
        header.write(into: &writer)

        // Entries `code << 8 | length`: literal/length symbols 0…285, then per match length
        // 0…258 its length code with the extra bits appended, then the distance codes with
        // their extra bit counts (bits 40…47) and base distances (bits 48…63).
        let literalCodes = Huffman.codes(literalLengths)
        let distanceCodes = Huffman.codes(distanceLengths)
        let table = UnsafeMutablePointer<UInt64>.allocate(capacity: 286 + 259 + 30)
        defer { table.deallocate() }
        let distanceTable = table + 286 + 259
        for s in 0..<286 {
            table[s] = UInt64(literalCodes[s]) << 8 | UInt64(literalLengths[s])
        }
        for length in 0..<259 {
            guard length >= 3 else {
                table[286 + length] = 0
                continue
            }
            let code = Int(Deflate.lengthCode[length])
            let symbol = 257 + code
            let extra = UInt64(length - Deflate.lengthBase[code])
            table[286 + length] =
                (UInt64(literalCodes[symbol]) | extra << UInt64(literalLengths[symbol])) << 8
                | UInt64(literalLengths[symbol] + Deflate.lengthExtra[code])
        }
        for d in 0..<30 {
            distanceTable[d] =
                UInt64(distanceCodes[d]) << 8 | UInt64(distanceLengths[d])
                | UInt64(Deflate.distanceExtra[d]) << 40 | UInt64(Deflate.distanceBase[d]) << 48
        }
        // The writer lives in registers meanwhile.
        var out = writer
        defer { writer = out }
        // (An empty block has no symbols, only its end.)
        var position = 0
        for k in 0..<count {
            guard let input = raw.baseAddress else { break }
            let s = symbols[k]
            if s >= 1 << 31 {
                // Literals, three at a time: at most 45 bits with 7 pending.
                let end = position &+ Int(s & 0x7FFF_FFFF)
                while position &+ 3 <= end {
                    let a = table[Int(input[position])]
                    let b = table[Int(input[position &+ 1])]
                    let c = table[Int(input[position &+ 2])]
                    out.append(a &>> 8, bits: Int(a & 0xFF))
                    out.append(b &>> 8, bits: Int(b & 0xFF))
                    out.append(c &>> 8, bits: Int(c & 0xFF))
                    out.flushWholeBytes()
                    position &+= 3
                }
                while position < end {
                    let a = table[Int(input[position])]
                    out.write(a &>> 8, bits: Int(a & 0xFF))
                    position &+= 1
                }
            } else {
                let length = Int(s &>> 16 & 0x1FF)
                let entry = table[286 &+ length]
                out.append(entry &>> 8, bits: Int(entry & 0xFF))
                let d = distanceTable[Int(s &>> 25)]
                let codeBits = d & 0xFF
                let extra = UInt64(s & 0xFFFF) &+ 1 &- (d &>> 48)
                out.append(
                    (d &>> 8 & 0xFFFF_FFFF) | extra &<< codeBits,
                    bits: Int(codeBits &+ (d &>> 40 & 0xFF)))
                out.flushWholeBytes()
                position &+= length
            }
        }
        let end = table[256]
        out.write(end &>> 8, bits: Int(end & 0xFF))
    }
}

/// The code lengths of a dynamic block, run-length coded with 16 (repeat the previous),
/// 17 and 18 (zeros), and their own Huffman code.
struct CodeLengthHeader {
    private var hlit = 286
    private var hdist = 30
    private var hclen = 19
    private var runs: [(symbol: Int, extra: Int)] = []
    private var lengths: [Int] = []
    private var codes: [UInt32] = []
    /// The order code length code lengths are sent in.
    private static let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    init(literalLengths: [Int], distanceLengths: [Int]) {
        while hlit > 257, literalLengths[hlit - 1] == 0 { hlit -= 1 }
        while hdist > 1, distanceLengths[hdist - 1] == 0 { hdist -= 1 }
        let all = Array(literalLengths[0..<hlit] + distanceLengths[0..<hdist])
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
        var counts = [Int](repeating: 0, count: 19)
        for r in runs { counts[r.symbol] += 1 }
        // A complete code needs two symbols at least.
        if counts.filter({ $0 > 0 }).count < 2 { counts[counts[0] == 0 ? 0 : 1] += 1 }
        lengths = Huffman.lengths(counts, limit: 7)
        codes = Huffman.codes(lengths)
        while hclen > 4, lengths[Self.order[hclen - 1]] == 0 { hclen -= 1 }
    }

    private static func extraBits(_ symbol: Int) -> Int {
        switch symbol {
        case 16: 2
        case 17: 3
        case 18: 7
        default: 0
        }
    }

    /// The header's size after the block type: counts, code length codes, runs.
    var bits: Int {
        14 + 3 * hclen + runs.reduce(0) { $0 + lengths[$1.symbol] + Self.extraBits($1.symbol) }
    }

    func write(into writer: inout BitWriter) {
        writer.write(UInt64(hlit - 257), bits: 5)
        writer.write(UInt64(hdist - 1), bits: 5)
        writer.write(UInt64(hclen - 4), bits: 4)
        for k in 0..<hclen { writer.write(UInt64(lengths[Self.order[k]]), bits: 3) }
        for r in runs {
            writer.write(UInt64(codes[r.symbol]), bits: lengths[r.symbol])
            writer.write(UInt64(r.extra), bits: Self.extraBits(r.symbol))
        }
    }
}
