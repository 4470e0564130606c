import TactileCore
import Testing

/// A value that can be compared with another within an absolute tolerance.
public protocol ApproximatelyComparable {
    /// The largest absolute difference between corresponding components; infinite when either
    /// side has a NaN component.
    func largestDifference(from other: Self) -> Double
}

extension Double: ApproximatelyComparable {
    public func largestDifference(from other: Double) -> Double {
        if self == other { return 0 }  // Also equal infinities.
        let difference = abs(self - other)
        return difference.isNaN ? .infinity : difference
    }
}

extension Point: ApproximatelyComparable {
    public func largestDifference(from other: Point) -> Double {
        max(x.largestDifference(from: other.x), y.largestDifference(from: other.y))
    }
}

extension Vector: ApproximatelyComparable {
    public func largestDifference(from other: Vector) -> Double {
        max(dx.largestDifference(from: other.dx), dy.largestDifference(from: other.dy))
    }
}

extension Rect: ApproximatelyComparable {
    /// Compares the four edges, so each edge of `self` is within the tolerance of `other`'s.
    public func largestDifference(from other: Rect) -> Double {
        max(
            minX.largestDifference(from: other.minX), minY.largestDifference(from: other.minY),
            maxX.largestDifference(from: other.maxX), maxY.largestDifference(from: other.maxY))
    }
}

extension Transform2D: ApproximatelyComparable {
    public func largestDifference(from other: Transform2D) -> Double {
        [
            a.largestDifference(from: other.a), b.largestDifference(from: other.b),
            c.largestDifference(from: other.c), d.largestDifference(from: other.d),
            tx.largestDifference(from: other.tx), ty.largestDifference(from: other.ty),
        ].max()!
    }
}

extension Color: ApproximatelyComparable {
    public func largestDifference(from other: Color) -> Double {
        max(
            red.largestDifference(from: other.red), green.largestDifference(from: other.green),
            blue.largestDifference(from: other.blue), alpha.largestDifference(from: other.alpha))
    }
}

/// Records an issue unless `actual` is within `tolerance` of `expected` in every component.
///
/// - Parameters:
///   - actual: The value the code under test produced.
///   - expected: The value it should be close to.
///   - tolerance: The largest allowed absolute difference per component.
///   - comment: Extra context for the failure message.
///   - sourceLocation: Where to report a failure; leave it to the default.
public func expectClose<Value: ApproximatelyComparable>(
    _ actual: Value, _ expected: Value, within tolerance: Double, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let difference = actual.largestDifference(from: expected)
    let message = "\(actual) is not within \(tolerance) of \(expected) (off by \(difference))"
    #expect(
        difference <= tolerance,
        Comment(rawValue: comment.map { "\($0.rawValue): \(message)" } ?? message),
        sourceLocation: sourceLocation)
}
