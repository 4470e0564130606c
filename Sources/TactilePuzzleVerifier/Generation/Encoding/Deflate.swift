/// A fast deflate compressor (RFC 1951) in a zlib wrapper (RFC 1950), shaped for filtered
/// PNG rows.
///
/// Matches are looked for only where a pixel starts, with two candidates: the previous
/// pixel (runs) and the last position whose next 8 bytes hashed alike (one probe, 32 KiB
/// window). A match must cover at least ``minimumMatch`` bytes and is taken greedily: on a
/// grainy picture, matches this long are what pays. Each block gets its own
/// length-limited Huffman codes, or is stored when that is smaller, so the stream never
/// outgrows ``bound(_:)``.
enum Deflate {
    /// The shortest match coded: the 8 bytes the hash covers. Shorter ones cost about as
    /// much as the literals they would replace.
    static let minimumMatch = 8
    /// Bits of the match finder's hash: 16,384 positions.
    static let hashBits = 14
    /// Symbols per block: enough to amortise the code tables, few enough to follow changes
    /// across the picture.
    static let blockSymbols = 1 << 15
    /// Input bytes per block at most (runs of literals are one entry each, however long).
    static let blockBytes = 1 << 17

    /// The most bytes `zlib` writes for `count` bytes of input.
    static func bound(_ count: Int) -> Int {
        // Stored blocks cost 5 bytes per 65,535 and every block holds ≥ 16 Ki input bytes.
        count + count / 1024 + 64
    }

    /// Writes the zlib stream of `data` — rows of `rowLength` bytes, a filter-type byte then
    /// whole pixels of `bytesPerPixel` — to `output`, which has room for ``bound(_:)`` bytes.
    ///
    /// - Returns: The bytes written.
    static func zlib(
        _ data: UnsafeBufferPointer<UInt8>, rowLength: Int, bytesPerPixel: Int,
        into output: UnsafeMutablePointer<UInt8>, using workspace: Workspace
    ) -> Int {
        var writer = BitWriter(output)
        writer.writeByte(0x78)  // deflate, 32 KiB window
        writer.writeByte(0x01)  // fastest level; header check bits
        compress(
            data, rowLength: rowLength, bytesPerPixel: bytesPerPixel, using: workspace,
            into: &writer)
        writer.alignToByte()
        let checksum = adler32(data)
        for shift in [24, 16, 8, 0] as [UInt32] {
            writer.writeByte(UInt8(truncatingIfNeeded: checksum >> shift))
        }
        return writer.position
    }

    // MARK: Tables (RFC 1951, 3.2.5)

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
        for code in 0..<28 {
            for length in lengthBase[code]..<(lengthBase[code] + (1 << lengthExtra[code])) {
                table[length] = UInt8(code)
            }
        }
        table[258] = 28
        return table
    }()

    /// The distance code (0…29) of a distance 1…32,768.
    @inline(__always)
    static func distanceCode(_ d: Int) -> Int {
        if d <= 4 { return d - 1 }
        // Codes come in pairs per power of two above 4.
        let bits = Int.bitWidth - (d - 1).leadingZeroBitCount  // bits in d − 1
        let high = ((d - 1) >> (bits - 2)) & 1
        return 2 * (bits - 1) + high
    }

    // MARK: Matching

    /// Parses `input` into literals and matches, writing a block whenever the symbol buffer
    /// fills and a final block at the end.
    static func compress(
        _ input: UnsafeBufferPointer<UInt8>, rowLength: Int, bytesPerPixel bpp: Int,
        using workspace: Workspace, into writer: inout BitWriter
    ) {
        precondition(rowLength >= 1 && bpp >= 1 && (rowLength - 1) % bpp == 0)
        var block = workspace.block
        let n = input.count
        guard let bytes = input.baseAddress, n > 0 else {
            block.write(raw: input, final: true, into: &writer)
            return
        }
        let head = workspace.head
        head.update(repeating: 0, count: 1 << hashBits)
        let lengthCodes = workspace.lengthCodes

        @inline(__always) func load(_ p: Int) -> UInt64 {
            UnsafeRawPointer(bytes + p).loadUnaligned(as: UInt64.self)
        }
        @inline(__always) func matchLength(_ candidate: Int, _ i: Int) -> Int {
            let limit = min(258, n - i)
            var length = 0
            while length + 8 <= limit {
                let difference = load(candidate + length) ^ load(i + length)
                if difference != 0 {
                    return length + difference.trailingZeroBitCount >> 3
                }
                length += 8
            }
            while length < limit, bytes[candidate + length] == bytes[i + length] { length += 1 }
            return length
        }

        // Room for the most entries one step adds: a match and a run of literals.
        let blockLimit = blockSymbols - 2
        let hashShift = UInt64(64 - hashBits)
        // Where in its pixel a position falls, without a division.
        let phase = ExactDivision(by: bpp, below: rowLength)
        var blockStart = 0
        var i = 0
        var rowEnd = 0  // where the next row's filter byte is
        while i < n {
            if block.count >= blockLimit || block.bytes >= blockBytes {
                block.write(
                    raw: UnsafeBufferPointer(start: bytes + blockStart, count: i - blockStart),
                    final: false, into: &writer)
                blockStart = i
            }
            if i == rowEnd {
                block.literal(bytes[i])
                i += 1
                rowEnd += rowLength
                continue
            }
            // Here a pixel starts. Its next 8 bytes against the previous pixel's and against
            // the last position with the same hash, combined as flags so that the processor
            // meets one hard-to-predict decision rather than three.
            if i + 8 <= n {
                let next = load(i)
                let runHit = (i >= bpp ? 1 : 0) & (load(max(i - bpp, 0)) == next ? 1 : 0)
                let h = Int(truncatingIfNeeded: (next &* 0x9E37_79B9_7F4A_7C15) >> hashShift)
                let back = Int(UInt16(truncatingIfNeeded: i) &- head[h])
                head[h] = UInt16(truncatingIfNeeded: i)
                let candidate = i - back
                let hashHit =
                    (UInt(bitPattern: back &- 1) < 32768 ? 1 : 0) & (candidate >= 0 ? 1 : 0)
                    & (load(max(candidate, 0)) == next ? 1 : 0)
                if runHit | hashHit != 0 {
                    // A candidate that hit shares 8 bytes with what follows, so at least
                    // `minimumMatch`. Take the longer.
                    var length = 0
                    var distance = 0
                    if runHit != 0 {
                        length = matchLength(i - bpp, i)
                        distance = bpp
                    }
                    if hashHit != 0 {
                        let found = matchLength(candidate, i)
                        if found > length {
                            length = found
                            distance = back
                        }
                    }
                    assert(length >= minimumMatch)
                    block.match(length: length, distance: distance, lengthCode: lengthCodes[length])
                    i += length
                    // A match cut short at the longest deflate codes usually goes on at the
                    // same distance: try that before anything else.
                    while length == 258, block.count < blockLimit, i + 8 <= n,
                        load(i - distance) == load(i)
                    {
                        length = matchLength(i - distance, i)
                        block.match(
                            length: length, distance: distance, lengthCode: lengthCodes[length])
                        i += length
                    }
                    // Back onto a pixel start: past the row ends the match covered, then the
                    // rest of the pixel it ended in as literals.
                    while rowEnd < i { rowEnd += rowLength }
                    if i < rowEnd {
                        let offset = i - (rowEnd - rowLength + 1)
                        var rest = phase.remainder(offset)
                        while rest != 0, rest < bpp {
                            block.literal(bytes[i])
                            i += 1
                            rest += 1
                        }
                    }
                    continue
                }
            }
            let end = min(i + bpp, rowEnd)
            while i < end {
                block.literal(bytes[i])
                i += 1
            }
        }
        block.write(
            raw: UnsafeBufferPointer(start: bytes + blockStart, count: n - blockStart),
            final: true, into: &writer)
    }

    static func adler32(_ p: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        guard let base = p.baseAddress else { return 1 }
        var i = 0
        // 16 lanes at a time: lane j sums its bytes (`sums`) and, before each step, adds the
        // sums so far (`weighted`), from which the positional weights follow.
        let chunk = 5552 / 16 * 16  // keeps every sum below 2³² before the reduction
        while i + 16 <= p.count {
            let end = i + min(chunk, (p.count - i) / 16 * 16)
            let steps = UInt32((end - i) / 16)
            var sums = SIMD16<UInt32>(repeating: 0)
            var weighted = SIMD16<UInt32>(repeating: 0)
            while i < end {
                let bytes = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD16<UInt8>.self)
                weighted &+= sums
                sums &+= SIMD16<UInt32>(truncatingIfNeeded: bytes)
                i += 16
            }
            // b gains 16·steps·a, then Σ over bytes of (bytes after it in the chunk + 1).
            let lanes = SIMD16<UInt32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
            let tail = (sums &* (16 &- lanes)).wrappedSum()
            b =
                (b &+ 16 &* steps % 65521 &* a &+ 16 &* (weighted.wrappedSum() % 65521)
                    &+ tail % 65521) % 65521
            a = (a &+ sums.wrappedSum()) % 65521
        }
        while i < p.count {
            a = (a &+ UInt32(base[i])) % 65521
            b = (b &+ a) % 65521
            i += 1
        }
        return b << 16 | a
    }
}

extension Deflate {
    /// The compressor's working memory, kept between streams.
    final class Workspace {
        /// The block being gathered.
        let block = SymbolBlock()
        /// The low 16 bits of each hash's latest position: 32 KiB, which stays in the
        /// first-level cache. A stale entry only names a wrong candidate, which the
        /// comparison of its bytes then rejects.
        let head = UnsafeMutablePointer<UInt16>.allocate(capacity: 1 << hashBits)
        /// ``Deflate/lengthCode`` without the array's checks.
        let lengthCodes = UnsafeMutablePointer<UInt8>.allocate(capacity: 259)

        init() {
            head.initialize(repeating: 0, count: 1 << hashBits)
            lengthCodes.initialize(from: lengthCode, count: 259)
        }

        deinit {
            block.deallocate()
            head.deallocate()
            lengthCodes.deallocate()
        }
    }
}

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
