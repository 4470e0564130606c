import TactileCore

/// A parameter the engine refuses, with a message naming the value and what is accepted.
public struct DynamicsError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What is wrong, such as "elasticity must be 0…1, got 1.5".
    public let message: String

    /// Creates an error with a message.
    public init(_ message: String) { self.message = message }

    public var description: String { message }

    static func finite(_ value: Double, _ name: String) throws(DynamicsError) {
        guard value.isFinite else {
            throw DynamicsError("\(name) must be a finite number, got \(value)")
        }
    }

    static func check(_ value: Double, _ name: String, atLeast lower: Double, orEqual: Bool = true)
        throws(DynamicsError)
    {
        try finite(value, name)
        let ok = orEqual ? value >= lower : value > lower
        guard ok else {
            throw DynamicsError(
                "\(name) must be \(orEqual ? "at least" : "greater than") \(format(lower)), got \(format(value))"
            )
        }
    }

    static func check(_ value: Double, _ name: String, in range: ClosedRange<Double>)
        throws(DynamicsError)
    {
        try finite(value, name)
        guard range.contains(value) else {
            throw DynamicsError(
                "\(name) must be \(format(range.lowerBound))…\(format(range.upperBound)), got \(format(value))"
            )
        }
    }

    static func finite(_ point: Point, _ name: String) throws(DynamicsError) {
        guard point.isFinite else {
            throw DynamicsError("\(name) must have finite coordinates, got \(point)")
        }
    }

    static func finite(_ vector: Vector, _ name: String) throws(DynamicsError) {
        guard vector.isFinite else {
            throw DynamicsError("\(name) must have finite components, got \(vector)")
        }
    }

    /// The direction `magnitude` long (0 or more) at `angle` radians, both checked; `name`
    /// ("gravity", "push") begins the message of an error.
    static func checkedDirection(angle: Double, magnitude: Double, of name: String)
        throws(DynamicsError) -> Vector
    {
        try finite(angle, "\(name) angle")
        try check(magnitude, "\(name) magnitude", atLeast: 0)
        return Vector(angle: angle, length: magnitude)
    }

    static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }
}
