import TactileCore

/// Where pegs and disks go in a view of a given size.
///
/// Pegs stand side by side unless the view is clearly taller than wide (more than
/// ``stackingAspect`` times), when they are stacked in rows, each with a free lane beside it: a
/// page a little taller than wide still reads as a row of pegs. Disk widths interpolate
/// linearly from a minimum (disk 1) to a maximum (the largest disk); disk heights are capped so
/// few disks don't look like bricks. Every size is positive for any positive view and any
/// number of disks from 1 to 64.
public struct HanoiLayout: Hashable, Sendable {
    /// The arrangement of the pegs.
    public enum Arrangement: Hashable, Sendable {
        /// Pegs in one row, left to right.
        case sideBySide
        /// Pegs in rows, top to bottom, with a lane on the right for moving disks between rows.
        case stacked
    }

    public let viewSize: Size
    public let diskCount: Int
    public let pegCount: Int
    public let arrangement: Arrangement
    /// The height of every disk.
    public let diskHeight: Double
    /// The width of the largest disk.
    public let maximumDiskWidth: Double
    /// The width of disk 1.
    public let minimumDiskWidth: Double
    /// The width of a rod.
    public let rodWidth: Double
    /// The height of a base.
    public let baseHeight: Double
    /// The bottom of a disk resting on each peg's base (y), and the rod's centre (x).
    private let footings: [Point]
    /// The x of the lane in the stacked arrangement.
    private let laneX: Double

    /// How much taller than wide a view must be for the pegs to stack.
    public static let stackingAspect = 1.4

    /// The largest disk height, in points.
    public static let maximumDiskHeight = 28.0

    /// Computes a layout; sizes below one point are treated as one point.
    public init(viewSize: Size, disks: Int, pegs: Int) {
        let width = max(viewSize.width.isFinite ? viewSize.width : 1, 1)
        let height = max(viewSize.height.isFinite ? viewSize.height : 1, 1)
        self.viewSize = Size(width: width, height: height)
        let pegTotal = max(pegs, 1)
        diskCount = max(disks, 1)
        pegCount = pegTotal
        let margin = min(width, height) * 0.04
        let area = Rect(
            x: margin, y: margin, width: width - 2 * margin, height: height - 2 * margin)
        arrangement = height > width * Self.stackingAspect ? .stacked : .sideBySide
        let n = Double(diskCount)
        let p = Double(pegTotal)

        let maxWidth: Double
        let baseH: Double
        let diskH: Double
        switch arrangement {
        case .sideBySide:
            let column = area.width / p
            maxWidth = column * 0.92
            baseH = min(12, area.height * 0.04)
            // Room for the stack, one disk of rod above it, and a disk's travel clearance.
            diskH = min(Self.maximumDiskHeight, (area.height - baseH) / (n + 2.5))
            let contentHeight = baseH + diskH * (n + 2.5)
            let baseTop = area.midY + contentHeight / 2 - baseH
            footings = (0..<pegTotal).map { i in
                Point(x: area.minX + column * (Double(i) + 0.5), y: baseTop)
            }
            laneX = area.maxX
        case .stacked:
            let row = area.height / p
            let gap = area.width * 0.04
            maxWidth = (area.width - gap) / 2 * 0.96
            baseH = min(10, row * 0.06)
            diskH = min(Self.maximumDiskHeight, (row - baseH) / (n + 2.5))
            let contentHeight = baseH + diskH * (n + 2.5)
            let x = area.minX + maxWidth / 2
            footings = (0..<pegTotal).map { i in
                Point(x: x, y: area.minY + row * (Double(i) + 0.5) + contentHeight / 2 - baseH)
            }
            laneX = area.minX + maxWidth * 1.5 + gap
        }
        maximumDiskWidth = maxWidth
        baseHeight = baseH
        diskHeight = diskH
        rodWidth = min(12, maximumDiskWidth * 0.05, diskHeight * 0.6)
        minimumDiskWidth = min(maximumDiskWidth * 0.6, max(rodWidth * 3, maximumDiskWidth * 0.22))
    }

    /// The width of a disk.
    public func width(ofDisk disk: Int) -> Double {
        guard diskCount > 1 else { return (minimumDiskWidth + maximumDiskWidth) / 2 }
        let t = Double(disk - 1) / Double(diskCount - 1)
        return minimumDiskWidth + (maximumDiskWidth - minimumDiskWidth) * t
    }

    /// The rectangle of a disk resting on a peg at a level (0 is on the base).
    public func frame(ofDisk disk: Int, onPeg peg: Int, level: Int) -> Rect {
        Rect(
            center: restingCenter(onPeg: peg, level: level),
            size: Size(width: width(ofDisk: disk), height: diskHeight))
    }

    /// The centre of a disk resting on a peg at a level.
    public func restingCenter(onPeg peg: Int, level: Int) -> Point {
        let footing = footings[peg]
        return Point(x: footing.x, y: footing.y - diskHeight * (Double(level) + 0.5))
    }

    /// A peg's base.
    public func base(ofPeg peg: Int) -> Rect {
        let footing = footings[peg]
        let width = maximumDiskWidth * 1.04
        return Rect(x: footing.x - width / 2, y: footing.y, width: width, height: baseHeight)
    }

    /// A peg's rod, standing on its base and one disk taller than a full stack.
    public func rod(ofPeg peg: Int) -> Rect {
        let footing = footings[peg]
        let height = diskHeight * (Double(diskCount) + 1)
        return Rect(
            x: footing.x - rodWidth / 2, y: footing.y - height, width: rodWidth, height: height)
    }

    /// The height at which a disk's centre travels above a peg: clear of its rod.
    public func travelY(abovePeg peg: Int) -> Double {
        rod(ofPeg: peg).minY - diskHeight * 0.75
    }

    /// The points a moving disk's centre passes through, from rest to rest, never crossing
    /// another disk or a rod: up, across (through the lane when stacked), down.
    public func travelPath(of move: HanoiMove, fromLevel: Int, toLevel: Int) -> [Point] {
        let start = restingCenter(onPeg: move.from, level: fromLevel)
        let end = restingCenter(onPeg: move.to, level: toLevel)
        let up = Point(x: start.x, y: travelY(abovePeg: move.from))
        let down = Point(x: end.x, y: travelY(abovePeg: move.to))
        switch arrangement {
        case .sideBySide:
            let top = min(up.y, down.y)
            return [start, Point(x: start.x, y: top), Point(x: end.x, y: top), end]
        case .stacked:
            return [start, up, Point(x: laneX, y: up.y), Point(x: laneX, y: down.y), down, end]
        }
    }

    /// The peg whose area contains a point, for picking and dropping; `nil` outside all.
    public func peg(at point: Point) -> Int? {
        guard point.isFinite, point.x >= 0, point.y >= 0, point.x <= viewSize.width,
            point.y <= viewSize.height
        else { return nil }
        switch arrangement {
        case .sideBySide:
            let column = viewSize.width / Double(pegCount)
            return min(pegCount - 1, Int(point.x / column))
        case .stacked:
            guard point.x <= laneX + maximumDiskWidth / 2 else { return nil }
            let row = viewSize.height / Double(pegCount)
            return min(pegCount - 1, Int(point.y / row))
        }
    }
}

/// The point a fraction 0…1 of the way along a polyline, measured by length.
func point(along points: [Point], fraction: Double) -> Point {
    guard let first = points.first else { return .zero }
    let lengths = zip(points, points.dropFirst()).map { $0.distance(to: $1) }
    let total = lengths.reduce(0, +)
    guard total > 0 else { return first }
    var remaining = fraction.clamped(to: 0...1) * total
    for (i, length) in lengths.enumerated() {
        if remaining <= length {
            return points[i].interpolated(
                to: points[i + 1], fraction: length > 0 ? remaining / length : 0)
        }
        remaining -= length
    }
    return points[points.count - 1]
}
