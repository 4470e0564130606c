import TactileCore

/// The area a field acts in, centred on the field's position.
public indirect enum FieldRegion: Sendable {
    /// Everywhere (the default).
    case infinite
    /// Inside a circle of this radius, in points.
    case circle(radius: Double)
    /// Inside a rectangle of this size, centred on the field.
    case rectangle(Size)
    /// Everywhere the given region is not.
    case inverse(FieldRegion)

    /// Whether a point, relative to the field's position, is inside.
    public func contains(_ p: Point) -> Bool {
        switch self {
        case .infinite: true
        case .circle(let radius): p.x * p.x + p.y * p.y <= radius * radius
        case .rectangle(let size): abs(p.x) <= size.width / 2 && abs(p.y) <= size.height / 2
        case .inverse(let region): !region.contains(p)
        }
    }

    func validate() throws(DynamicsError) {
        switch self {
        case .infinite: break
        case .circle(let radius):
            try DynamicsError.check(radius, "field region radius", atLeast: 0, orEqual: false)
        case .rectangle(let size):
            try DynamicsError.check(size.width, "field region width", atLeast: 0, orEqual: false)
            try DynamicsError.check(size.height, "field region height", atLeast: 0, orEqual: false)
        case .inverse(let region): try region.validate()
        }
    }
}
