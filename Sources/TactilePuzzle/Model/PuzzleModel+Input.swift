import TactileCore

extension PuzzleModel {
    /// How far outside the picture and the track, in points, a release still counts as an
    /// attempt; further out, the drag is taken back.
    public static let releaseMargin = 24.0

    /// Handles a pointer event in view points, with the picture and track where `layout`
    /// puts them; `nil` when the event is not used.
    ///
    /// A drag may start on the piece or on the slider thumb. A release within
    /// ``releaseMargin`` of the picture or track ends in ``PuzzleEvent/attemptMade(_:)``, for
    /// the host to verify and then ``settle(_:result:at:returnsAfterFailure:)``; one further
    /// out takes the drag back, so a slip off the control does not spend the puzzle.
    public mutating func handle(_ event: PointerEvent, in layout: PuzzleLayout) -> [PuzzleEvent]? {
        let location = layout.areaPoint(event.location)
        switch event.phase {
        case .began:
            guard animation == nil else { return nil }
            let onThumb = layout.thumbRect(pieceFrame: pieceFrame)?.contains(event.location)
            guard
                beginDrag(
                    at: location, time: event.time, anywhere: onThumb == true,
                    device: event.device)
            else { return nil }
            return [.stateChanged(state)]
        case .moved:
            guard state == .dragging else { return nil }
            return moveDrag(to: location, time: event.time) ? [.pieceMoved(piecePosition)] : []
        case .ended:
            guard state == .dragging, inputMethod == .pointer else { return nil }
            let reach = layout.trackRect.map { layout.imageRect.union($0) } ?? layout.imageRect
            guard
                reach.insetBy(dx: -Self.releaseMargin, dy: -Self.releaseMargin).contains(
                    event.location)
            else {
                cancelDrag()
                return [.pieceMoved(piecePosition), .stateChanged(state)]
            }
            guard let result = endDrag(at: location, time: event.time) else { return nil }
            return [.pieceMoved(piecePosition), .attemptMade(result)]
        case .cancelled:
            guard state == .dragging else { return nil }
            cancelDrag()
            return [.pieceMoved(piecePosition), .stateChanged(state)]
        }
    }

    /// Handles a key at `time`: arrows move the piece by `step` view points along the allowed
    /// axes (converted to area units through `layout`), Enter or Space submits; `nil` when the
    /// key is not used.
    ///
    /// - Parameters:
    ///   - event: The key.
    ///   - layout: Where the picture is, for the scale of a step.
    ///   - time: When the key was pressed, in seconds on the host's clock.
    ///   - step: How far an arrow moves the piece, in picture pixels (the model's units), so
    ///     that the verifier can tell the keyboard's steps at any view size.
    /// - Returns: The events, ending in ``PuzzleEvent/attemptMade(_:)`` for a submission.
    public mutating func handle(
        _ event: KeyEvent, in layout: PuzzleLayout, time: Double, step: Double
    ) -> [PuzzleEvent]? {
        guard animation == nil else { return nil }
        let direction: Vector
        switch event.key {
        case .left: direction = Vector(dx: -1, dy: 0)
        case .right: direction = Vector(dx: 1, dy: 0)
        case .up: direction = Vector(dx: 0, dy: -1)
        case .down: direction = Vector(dx: 0, dy: 1)
        case .enter, .space:
            return submit(time: time).map { [.attemptMade($0)] }
        default:
            return nil
        }
        let wasDragging = state == .dragging
        let moved = nudge(by: direction * step, time: time)
        guard moved || state == .dragging else { return nil }
        return (wasDragging ? [] : [.stateChanged(state)])
            + (moved ? [.pieceMoved(piecePosition)] : [])
    }
}
