/// One move: the top disk of peg `from` goes onto peg `to`.
///
/// Disks are numbered from 1 (the smallest); pegs from 0 (written A, B, C, …).
public struct HanoiMove: Hashable, Sendable, CustomStringConvertible {
    /// The disk that moves, 1 being the smallest.
    public var disk: Int
    /// The peg it leaves (0 is A).
    public var from: Int
    /// The peg it lands on.
    public var to: Int

    /// Creates a move.
    public init(disk: Int, from: Int, to: Int) {
        self.disk = disk
        self.from = from
        self.to = to
    }

    /// The move that undoes this one.
    public var reversed: HanoiMove { HanoiMove(disk: disk, from: to, to: from) }

    /// `disk 1 from A to C`.
    public var description: String {
        "disk \(disk) from \(HanoiPeg.letter(from)) to \(HanoiPeg.letter(to))"
    }
}

/// Naming of pegs: 0 is A, 1 is B, and so on up to Z.
public enum HanoiPeg {
    /// The largest number of pegs supported (A…Z).
    public static let maximumCount = 26

    /// The letter of a peg index.
    public static func letter(_ peg: Int) -> String {
        guard (0..<maximumCount).contains(peg) else { return "?" }
        return String(UnicodeScalar(UInt8(65 + peg)))
    }

    /// The peg index of a letter (case-insensitive), or `nil`.
    public static func index(of letter: Character) -> Int? {
        guard let ascii = letter.uppercased().first?.asciiValue, (65...90).contains(ascii) else {
            return nil
        }
        return Int(ascii) - 65
    }
}
