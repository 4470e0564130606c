import Foundation
import TactileCore

/// The outline an item collides with.
public enum CollisionBoundsType: Hashable, Sendable {
    /// The item's bounds rectangle, turned with the item (UIKit's default).
    case rectangle
    /// The ellipse inscribed in the bounds; a circle when the bounds are square.
    case ellipse
    /// A convex path in the item's coordinates, relative to its centre.
    case path(Path)
}

/// Collision geometry in an item's frame, relative to its centre.
enum ItemGeometry {
    case circle(radius: Double)
    /// Counter-clockwise (in y-up terms: positive signed area) convex vertices.
    case polygon([Vec2])

    /// Area, centroid, and second moment of area about the centroid (per unit density).
    var massProperties: (area: Double, centroid: Vec2, moment: Double) {
        switch self {
        case .circle(let r):
            let area = Double.pi * r * r
            return (area, .zero, area * r * r / 2)
        case .polygon(let vertices):
            var area = 0.0
            var centroid = Vec2.zero
            var moment = 0.0
            let origin = vertices[0]
            for i in 1..<(vertices.count - 1) {
                let e1 = vertices[i] - origin
                let e2 = vertices[i + 1] - origin
                let d = e1.cross(e2)
                let triangle = 0.5 * d
                area += triangle
                centroid += (e1 + e2) * (triangle / 3)
                let intx2 = e1.x * e1.x + e2.x * e1.x + e2.x * e2.x
                let inty2 = e1.y * e1.y + e2.y * e1.y + e2.y * e2.y
                moment += (0.25 / 3 * d) * (intx2 + inty2)
            }
            let c = centroid * (1 / area)
            // The moment about the triangle fan's origin, moved to the centroid.
            let aboutOrigin = moment
            let centroidWorld = origin + c
            let aboutCentroid = aboutOrigin - area * c.lengthSquared
            return (area, centroidWorld, aboutCentroid)
        }
    }

    /// Builds the geometry for an item of the given size.
    static func make(_ type: CollisionBoundsType, size: Size) throws(DynamicsError) -> ItemGeometry
    {
        let w = size.width / 2
        let h = size.height / 2
        switch type {
        case .rectangle:
            return .polygon([Vec2(-w, -h), Vec2(w, -h), Vec2(w, h), Vec2(-w, h)])
        case .ellipse:
            if abs(w - h) <= 1e-9 * max(w, h) { return .circle(radius: w) }
            let n = 32
            return .polygon(
                (0..<n).map { k in
                    let a = 2 * Double.pi * Double(k) / Double(n)
                    return Vec2(w * cos(a), h * sin(a))
                })
        case .path(let path):
            let points = path.flattened(tolerance: 0.1).flatMap { $0 }.map { Vec2($0.x, $0.y) }
            guard points.allSatisfy(\.isFinite) else {
                throw DynamicsError("the collision path has coordinates that are not finite")
            }
            let hull = convexHull(points)
            guard hull.count >= 3 else {
                throw DynamicsError(
                    "the collision path must enclose an area; it has \(hull.count) corners")
            }
            let polygon = ItemGeometry.polygon(hull)
            guard polygon.massProperties.area > 1e-6 else {
                throw DynamicsError("the collision path must enclose an area")
            }
            for p in points where distanceInside(p, hull) > 0.5 {
                throw DynamicsError(
                    "the collision path must be convex; the point (\(p.x), \(p.y)) is a dent")
            }
            return polygon
        }
    }

    /// Andrew's monotone chain; the result has positive signed area.
    static func convexHull(_ points: [Vec2]) -> [Vec2] {
        let sorted = points.sorted { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
        guard sorted.count >= 3 else { return sorted }
        // The chain through `points` that turns only left, less its last point (the other
        // chain's first).
        func chain(_ points: some Sequence<Vec2>) -> ArraySlice<Vec2> {
            var turns: [Vec2] = []
            for p in points {
                while turns.count >= 2
                    && (turns[turns.count - 1] - turns[turns.count - 2]).cross(
                        p - turns[turns.count - 2]) <= 1e-9
                {
                    turns.removeLast()
                }
                turns.append(p)
            }
            return turns.dropLast()
        }
        return Array(chain(sorted) + chain(sorted.reversed()))
    }

    /// How far inside the hull a point lies (0 on or outside its outline).
    static func distanceInside(_ p: Vec2, _ hull: [Vec2]) -> Double {
        var least = Double.infinity
        for i in hull.indices {
            let a = hull[i]
            let b = hull[(i + 1) % hull.count]
            let e = b - a
            let inside = e.cross(p - a) / e.length
            least = min(least, inside)
        }
        return max(0, least)
    }
}
