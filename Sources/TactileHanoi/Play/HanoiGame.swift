/// Manual play: the user moves disks, with legality checks, undo, redo, hints and a move
/// counter measured against the optimum.
public struct HanoiGame: Sendable {
    /// The current position.
    public private(set) var position: HanoiPosition
    /// The position that counts as solved.
    public let goal: HanoiPosition
    /// The position play started from.
    public let start: HanoiPosition
    /// The fewest moves from ``start`` to ``goal``, or `nil` when it cannot be computed (four
    /// or more pegs, a start that is not a single tower, and more disks than
    /// ``HanoiSolver/exhaustiveSearchLimit`` allows).
    public let optimalMoveCount: UInt64?
    /// Moves made, oldest first (undone moves are not counted).
    public private(set) var history: [HanoiMove] = []
    private var redoStack: [HanoiMove] = []

    /// Starts a game.
    ///
    /// - Throws: ``HanoiError`` when the positions differ in disks or pegs.
    public init(start: HanoiPosition, goal: HanoiPosition) throws(HanoiError) {
        guard start.diskCount == goal.diskCount, start.pegCount == goal.pegCount else {
            throw HanoiError(
                "the start has \(start.diskCount) disks on \(start.pegCount) pegs but the goal has \(goal.diskCount) on \(goal.pegCount)"
            )
        }
        self.start = start
        self.goal = goal
        self.position = start
        self.optimalMoveCount = try? HanoiSolver.plan(from: start, to: goal).count
    }

    /// Starts a game with all disks on A, to be moved to the last peg.
    public init(disks: Int, pegs: Int = 3) throws(HanoiError) {
        try HanoiLimits.check(disks: disks)
        try HanoiLimits.check(pegs: pegs)
        try self.init(
            start: HanoiPosition(disks: disks, pegs: pegs, allOn: 0),
            goal: HanoiPosition(disks: disks, pegs: pegs, allOn: pegs - 1))
    }

    /// Whether the goal is reached.
    public var isSolved: Bool { position == goal }

    /// The number of moves made so far.
    public var moveCount: Int { history.count }

    /// Whether there is a move to undo.
    public var canUndo: Bool { !history.isEmpty }

    /// Whether there is an undone move to redo.
    public var canRedo: Bool { !redoStack.isEmpty }

    /// Moves the top disk of `from` onto `to`, or says why not (nothing changes then).
    @discardableResult
    public mutating func move(from: Int, to: Int) throws(HanoiRefusal) -> HanoiMove {
        let move = try position.check(from: from, to: to)
        position = position.applying(move)
        history.append(move)
        redoStack.removeAll()
        return move
    }

    /// Takes back the last move; returns it, or `nil` when there is none.
    @discardableResult
    public mutating func undo() -> HanoiMove? {
        guard let last = history.popLast() else { return nil }
        position = position.applying(last.reversed)
        redoStack.append(last)
        return last
    }

    /// Plays the last undone move again; returns it, or `nil` when there is none.
    @discardableResult
    public mutating func redo() -> HanoiMove? {
        guard let next = redoStack.popLast() else { return nil }
        position = position.applying(next)
        history.append(next)
        return next
    }

    /// The best next move towards the goal, or `nil` when solved.
    public func hint() throws(HanoiError) -> HanoiMove? {
        try HanoiSolver.hint(from: position, to: goal)
    }

    /// The fewest moves still needed.
    public func remainingMoveCount() throws(HanoiError) -> UInt64 {
        try HanoiSolver.plan(from: position, to: goal).count
    }
}
