import TactileCore

/// Receives a ``PuzzleView``'s events; every method has an empty default.
public protocol PuzzleViewDelegate: AnyObject {
    /// The piece moved (area units).
    func puzzleView(_ view: PuzzleView, didMovePieceTo position: Point)
    /// The state changed.
    func puzzleView(_ view: PuzzleView, didChangeState state: PuzzleState)
    /// An attempt passed; called once the snap and fade have finished.
    func puzzleView(_ view: PuzzleView, didComplete result: PuzzleResult)
    /// An attempt failed; called once the shake (and return) has finished.
    func puzzleView(_ view: PuzzleView, didFail result: PuzzleResult)
}

extension PuzzleViewDelegate {
    public func puzzleView(_ view: PuzzleView, didMovePieceTo position: Point) {}
    public func puzzleView(_ view: PuzzleView, didChangeState state: PuzzleState) {}
    public func puzzleView(_ view: PuzzleView, didComplete result: PuzzleResult) {}
    public func puzzleView(_ view: PuzzleView, didFail result: PuzzleResult) {}
}
