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
