extension HanoiMove {
    /// The move in 32 bits: `disk << 16 | from << 8 | to`.
    public var packed: UInt32 { UInt32(disk) << 16 | UInt32(from) << 8 | UInt32(to) }

    /// Unpacks a move packed by ``packed``.
    public init(packed: UInt32) {
        self.init(disk: Int(packed >> 16), from: Int(packed >> 8 & 0xFF), to: Int(packed & 0xFF))
    }
}

extension HanoiPlan {
    /// Calls `body` with consecutive chunks of the plan's moves, packed (see
    /// ``HanoiMove/packed``), in order; each chunk holds at most 65,536 moves.
    ///
    /// The fastest way to consume a long plan: three-peg towers are emitted by copying
    /// precomputed runs of 4,095 moves (a 12-disk tower, for each ordering of the pegs)
    /// between the moves of the larger disks, instead of computing moves one by one.
    public func forEachChunk(_ body: (UnsafeBufferPointer<UInt32>) throws -> Void) rethrows {
        var chunker = MoveChunker()
        defer { chunker.release() }
        for segment in segments {
            switch segment {
            case .single(let move):
                try chunker.append(move.packed, body)
            case .transfer(let transfer):
                try chunker.append(transfer, body)
            }
        }
        try chunker.flush(body)
    }
}

/// Fills a reusable buffer with packed moves and hands it on when full.
struct MoveChunker {
    static let capacity = 1 << 16
    /// Towers of this many disks are copied from a table.
    static let runDisks = 12
    /// The moves of a `runDisks` tower from peg a to peg b (table `a * 3 + b`) among A, B, C.
    static let runs: [[UInt32]] = (0..<9).map { index in
        let (a, b) = (index / 3, index % 3)
        guard a != b else { return [] }
        var moves: [UInt32] = []
        TowerTransfer(base: 0, count: runDisks, from: a, to: b, allowed: 0b111).forEachMove {
            moves.append($0.packed)
        }
        return moves
    }

    private let buffer = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
    private var count = 0

    func release() { buffer.deallocate() }

    mutating func append(_ move: UInt32, _ body: (UnsafeBufferPointer<UInt32>) throws -> Void)
        rethrows
    {
        if count == Self.capacity { try flush(body) }
        buffer[count] = move
        count += 1
    }

    mutating func flush(_ body: (UnsafeBufferPointer<UInt32>) throws -> Void) rethrows {
        guard count > 0 else { return }
        try body(UnsafeBufferPointer(start: buffer, count: count))
        count = 0
    }

    mutating func append(
        _ transfer: TowerTransfer, _ body: (UnsafeBufferPointer<UInt32>) throws -> Void
    ) rethrows {
        let onABC = transfer.allowed == 0b111
        if transfer.base == 0 && onABC && transfer.count >= Self.runDisks {
            try appendTower(transfer.count, from: transfer.from, to: transfer.to, body)
        } else {
            try transfer.forEachMove { try append($0.packed, body) }
        }
    }

    /// Disks 1…n from `a` to `b` on pegs A, B, C, copying runs for the smallest disks.
    private mutating func appendTower(
        _ n: Int, from a: Int, to b: Int, _ body: (UnsafeBufferPointer<UInt32>) throws -> Void
    ) rethrows {
        if n == Self.runDisks {
            try Self.runs[a * 3 + b].withUnsafeBufferPointer { try copy($0, body) }
            return
        }
        let c = 3 - a - b
        try appendTower(n - 1, from: a, to: c, body)
        try append(UInt32(n) << 16 | UInt32(a) << 8 | UInt32(b), body)
        try appendTower(n - 1, from: c, to: b, body)
    }

    private mutating func copy(
        _ run: UnsafeBufferPointer<UInt32>, _ body: (UnsafeBufferPointer<UInt32>) throws -> Void
    ) rethrows {
        var offset = 0
        while offset < run.count {
            if count == Self.capacity { try flush(body) }
            let n = min(run.count - offset, Self.capacity - count)
            (buffer + count).update(from: run.baseAddress! + offset, count: n)
            count += n
            offset += n
        }
    }
}
