import TactileCore

/// The tests' deterministic random number generator: TactileCore's, so tests replay exactly.
public typealias SeededGenerator = SeededRandom
