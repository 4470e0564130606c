import TactileCore

/// Where every disk is: a legal Tower of Hanoi position.
///
/// Any assignment of disks to pegs is a legal position, since each peg's disks are stacked
/// largest at the bottom. Written as one peg letter per disk, smallest disk first:
/// `ACB` means disk 1 on A, disk 2 on C, disk 3 on B.
public struct HanoiPosition: Hashable, Sendable, CustomStringConvertible {
    /// The number of pegs.
    public let pegCount: Int
    /// `pegs[d - 1]` is the peg of disk `d`.
    public private(set) var pegs: [UInt8]

    /// The number of disks.
    public var diskCount: Int { pegs.count }

    /// All disks stacked on one peg.
    public init(disks: Int, pegs pegCount: Int, allOn peg: Int = 0) {
        precondition(peg >= 0 && peg < pegCount, "peg \(peg) outside 0..<\(pegCount)")
        self.pegCount = pegCount
        self.pegs = [UInt8](repeating: UInt8(peg), count: disks)
    }

    /// A position from the peg of each disk, smallest first.
    public init(pegs: [Int], pegCount: Int) throws(HanoiError) {
        try HanoiLimits.check(pegs: pegCount)
        try HanoiLimits.check(disks: pegs.count)
        for (i, peg) in pegs.enumerated() where !(0..<pegCount).contains(peg) {
            throw HanoiError(
                "disk \(i + 1) is on peg \(peg), outside 0…\(pegCount - 1)")
        }
        self.pegCount = pegCount
        self.pegs = pegs.map { UInt8($0) }
    }

    /// Parses a state such as `ACB`.
    ///
    /// - Throws: ``HanoiError`` when a letter is not one of the first `pegCount` letters or
    ///   the length is not 1…64.
    public init(state: String, pegCount: Int) throws(HanoiError) {
        try HanoiLimits.check(pegs: pegCount)
        let last = HanoiPeg.letter(pegCount - 1)
        // A message shows at most the first 70 characters of what was given.
        let shown = state.count > 70 ? String(state.prefix(70)) + "…" : state
        guard HanoiLimits.disks.contains(state.count) else {
            throw HanoiError(
                "state \"\(shown)\" must have one peg letter per disk, 1…64 letters, got \(state.count)"
            )
        }
        var pegs: [Int] = []
        for (offset, character) in state.enumerated() {
            guard let peg = HanoiPeg.index(of: character), peg < pegCount else {
                throw HanoiError(
                    "state \"\(shown)\": letter \(offset + 1) is \"\(character)\", expected A…\(last)"
                )
            }
            pegs.append(peg)
        }
        try self.init(pegs: pegs, pegCount: pegCount)
    }

    /// The peg of disk `disk` (1-based).
    public func peg(of disk: Int) -> Int { Int(pegs[disk - 1]) }

    /// Moves a disk without checking legality; use ``check(from:to:)`` first.
    public mutating func setPeg(_ peg: Int, of disk: Int) { pegs[disk - 1] = UInt8(peg) }

    /// The smallest disk on a peg, or `nil` when it is empty.
    public func topDisk(on peg: Int) -> Int? {
        pegs.firstIndex(of: UInt8(peg)).map { $0 + 1 }
    }

    /// The disks on a peg, bottom (largest) first.
    public func disks(on peg: Int) -> [Int] {
        var result: [Int] = []
        for d in stride(from: diskCount, through: 1, by: -1) where pegs[d - 1] == UInt8(peg) {
            result.append(d)
        }
        return result
    }

    /// The peg holding all disks, if they are all on one.
    public var towerPeg: Int? {
        guard let first = pegs.first, pegs.allSatisfy({ $0 == first }) else { return nil }
        return Int(first)
    }

    /// Checks that moving the top disk of `from` onto `to` is legal and returns the move.
    public func check(from: Int, to: Int) throws(HanoiRefusal) -> HanoiMove {
        guard (0..<pegCount).contains(from) else { throw .noSuchPeg(from, pegCount: pegCount) }
        guard (0..<pegCount).contains(to) else { throw .noSuchPeg(to, pegCount: pegCount) }
        guard from != to else { throw .samePeg(from) }
        guard let disk = topDisk(on: from) else { throw .emptyPeg(from) }
        if let top = topDisk(on: to), top < disk {
            throw .largerOntoSmaller(disk: disk, onto: top, peg: to)
        }
        return HanoiMove(disk: disk, from: from, to: to)
    }

    /// Whether a move is legal here: the disk is on top of `from` and smaller than `to`'s top.
    public func isLegal(_ move: HanoiMove) -> Bool {
        (try? check(from: move.from, to: move.to)).map { $0.disk == move.disk } ?? false
    }

    /// The position after a legal move.
    public func applying(_ move: HanoiMove) -> HanoiPosition {
        var next = self
        next.setPeg(move.to, of: move.disk)
        return next
    }

    /// The state string, one peg letter per disk, smallest first.
    public var description: String { pegs.map { HanoiPeg.letter(Int($0)) }.joined() }
}

/// Why a manual move is not allowed.
public enum HanoiRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    case noSuchPeg(Int, pegCount: Int)
    case samePeg(Int)
    case emptyPeg(Int)
    case largerOntoSmaller(disk: Int, onto: Int, peg: Int)

    public var description: String {
        switch self {
        case .noSuchPeg(let peg, let count):
            Localization.text("There is no peg {1}; pegs are 1…{2}.", peg + 1, count)
        case .samePeg(let peg):
            Localization.text("The disk is already on peg {1}.", HanoiPeg.letter(peg))
        case .emptyPeg(let peg):
            Localization.text("Peg {1} is empty.", HanoiPeg.letter(peg))
        case .largerOntoSmaller(let disk, let onto, let peg):
            Localization.text(
                "Disk {1} cannot go on the smaller disk {2} on peg {3}.", disk, onto,
                HanoiPeg.letter(peg))
        }
    }
}
