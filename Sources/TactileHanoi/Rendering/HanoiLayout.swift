import TactileCore

/// Where pegs and disks go in a view of a given size.
///
/// Pegs stand side by side in one row, or in several rows (``Arrangement/stacked``) with a
/// lane on each side for carrying disks between rows, whichever draws the disks larger (of
/// the ways to make rows that draw them nearly as large, the one whose towers take the most
/// of the width, so rows of pegs do not huddle in the middle of the view); a
/// view clearly taller than wide (more than ``stackingAspect`` times) prefers rows and any
/// other view one row, unless the other arrangement draws disks markedly larger (a fifth).
/// Everything is centred in the view, and each peg's letter sits under its base, inside the
/// view. Disk widths interpolate linearly from a minimum (disk 1) to a maximum (the largest
/// disk); disk heights are capped (at 28 points and at 0.3 of the largest disk's width) so few
/// or narrow disks don't look like bricks. Every size is positive for any positive view and
/// any number of disks from 1 to 64.
public struct HanoiLayout: Hashable, Sendable {
    /// The arrangement of the pegs.
    public enum Arrangement: Hashable, Sendable {
        /// Pegs in one row, left to right.
        case sideBySide
        /// Pegs in rows of ``HanoiLayout/columns``, top to bottom, with a lane on each side for
        /// moving disks between rows.
        case stacked
    }

    public let viewSize: Size
    public let diskCount: Int
    public let pegCount: Int
    public let arrangement: Arrangement
    /// The number of pegs in a full row.
    public let columns: Int
    /// The number of rows of pegs.
    public let rows: Int
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
    /// The size of the peg letters, in points; 0 when the view has no room for them.
    public let labelFontSize: Double
    /// The bottom of a disk resting on each peg's base (y), and the rod's centre (x).
    private let footings: [Point]
    /// The band of the view each row of pegs is drawn in.
    private let rowTop: Double
    private let rowHeight: Double
    /// The space between the outermost disks and a lane.
    private let laneGap: Double

    /// How much taller than wide a view must be for rows of pegs to be preferred.
    public static let stackingAspect = 1.4

    /// The largest disk height, in points.
    public static let maximumDiskHeight = 28.0

    /// How much larger (in disk area) the arrangement not preferred must draw the disks to be
    /// chosen instead.
    static let preferenceMargin = 1.2

    /// How much smaller (in disk area) rows of pegs may draw the disks than the rows that draw
    /// them largest, and still be chosen for taking more of the width.
    static let nearlyAsLarge = 1.1

    /// Computes a layout; sizes below one point are treated as one point.
    public init(viewSize: Size, disks: Int, pegs: Int) {
        let width = max(viewSize.width.isFinite ? viewSize.width : 1, 1)
        let height = max(viewSize.height.isFinite ? viewSize.height : 1, 1)
        self.viewSize = Size(width: width, height: height)
        let pegTotal = max(pegs, 1)
        let diskTotal = max(disks, 1)
        diskCount = diskTotal
        pegCount = pegTotal
        let margin = min(width, height) * 0.04
        let area = Rect(
            x: margin, y: margin, width: width - 2 * margin, height: height - 2 * margin)
        let candidates = (1...pegTotal).map {
            Geometry(area: area, disks: diskTotal, pegs: pegTotal, columns: $0)
        }
        // One row, against the rows of pegs that draw the largest disks — of those that draw
        // them nearly as large, the one whose towers take the most of the view's width.
        let oneRow = candidates[pegTotal - 1]
        let rowChoices = candidates.dropLast()
        let largest = rowChoices.map(\.diskArea).max() ?? 0
        let inRows =
            rowChoices
            .filter { $0.diskArea * Self.nearlyAsLarge >= largest }
            .max { $0.widthUsed < $1.widthUsed }
        let chosen: Geometry
        if let inRows {
            let prefersRows = height > width * Self.stackingAspect
            let (preferred, other) = prefersRows ? (inRows, oneRow) : (oneRow, inRows)
            chosen =
                other.diskArea > preferred.diskArea * Self.preferenceMargin ? other : preferred
        } else {
            chosen = oneRow
        }
        arrangement = chosen.rows > 1 ? .stacked : .sideBySide
        columns = chosen.columns
        rows = chosen.rows
        maximumDiskWidth = chosen.maximumDiskWidth
        baseHeight = chosen.baseHeight
        diskHeight = chosen.diskHeight
        labelFontSize = chosen.labelFontSize
        footings = chosen.footings
        rowTop = area.minY
        rowHeight = area.height / Double(chosen.rows)
        laneGap = chosen.laneGap
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

    /// Where a peg's letter goes: centred under its base, at ``labelFontSize``; `nil` when the
    /// view has no room for letters.
    public func labelFrame(ofPeg peg: Int) -> Rect? {
        guard labelFontSize > 0 else { return nil }
        let base = base(ofPeg: peg)
        let size = Self.labelSize(fontSize: labelFontSize)
        return Rect(
            x: base.midX - size.width / 2, y: base.maxY + Self.labelSpacing, width: size.width,
            height: size.height)
    }

    /// The height at which a disk's centre travels above a peg: clear of its rod.
    public func travelY(abovePeg peg: Int) -> Double {
        rod(ofPeg: peg).minY - diskHeight * 0.75
    }

    /// The points a moving disk's centre passes through, from rest to rest, never crossing
    /// another disk or a rod: up, across (through a lane when it changes rows), down.
    public func travelPath(of move: HanoiMove, fromLevel: Int, toLevel: Int) -> [Point] {
        let start = restingCenter(onPeg: move.from, level: fromLevel)
        let end = restingCenter(onPeg: move.to, level: toLevel)
        let up = Point(x: start.x, y: travelY(abovePeg: move.from))
        let down = Point(x: end.x, y: travelY(abovePeg: move.to))
        guard row(ofPeg: move.from) != row(ofPeg: move.to) else {
            let top = min(up.y, down.y)
            return [start, Point(x: start.x, y: top), Point(x: end.x, y: top), end]
        }
        // Down or up the lane nearer the two pegs, just clear of every row's disks.
        let half = width(ofDisk: move.disk) / 2
        let (left, right) = disksSpan
        let laneX =
            (start.x + end.x) / 2 < viewSize.width / 2
            ? left - laneGap - half : right + laneGap + half
        return [start, up, Point(x: laneX, y: up.y), Point(x: laneX, y: down.y), down, end]
    }

    /// A disk's centre moved as little as needed for the whole disk to be inside the view.
    public func clamped(_ center: Point, ofDisk disk: Int) -> Point {
        let halfWidth = min(width(ofDisk: disk), viewSize.width) / 2
        let halfHeight = min(diskHeight, viewSize.height) / 2
        let x = center.x.isFinite ? center.x : viewSize.width / 2
        let y = center.y.isFinite ? center.y : viewSize.height / 2
        return Point(
            x: x.clamped(to: halfWidth...(viewSize.width - halfWidth)),
            y: y.clamped(to: halfHeight...(viewSize.height - halfHeight)))
    }

    /// The peg whose area contains a point, for picking and dropping; `nil` outside the view.
    ///
    /// The view is shared out among the pegs: each row's band, and in it the nearest peg.
    public func peg(at point: Point) -> Int? {
        guard point.isFinite, point.x >= 0, point.y >= 0, point.x <= viewSize.width,
            point.y <= viewSize.height
        else { return nil }
        switch arrangement {
        case .sideBySide:
            let column = viewSize.width / Double(pegCount)
            return min(pegCount - 1, Int(point.x / column))
        case .stacked:
            let row = min(rows - 1, max(0, Int(((point.y - rowTop) / rowHeight).rounded(.down))))
            let inRow = (row * columns)..<min(pegCount, (row + 1) * columns)
            return inRow.min { abs(footings[$0].x - point.x) < abs(footings[$1].x - point.x) }
        }
    }

    // MARK: - Helpers

    /// The row a peg stands in, 0 at the top.
    func row(ofPeg peg: Int) -> Int { peg / columns }

    /// The leftmost and rightmost x any resting disk reaches.
    private var disksSpan: (Double, Double) {
        let xs = footings.map(\.x)
        return ((xs.min() ?? 0) - maximumDiskWidth / 2, (xs.max() ?? 0) + maximumDiskWidth / 2)
    }

    /// The space between a base and its letter.
    static let labelSpacing = 2.0

    /// The box a peg letter takes at a font size: a capital (W is the widest) and its line.
    static func labelSize(fontSize: Double) -> Size {
        Size(width: fontSize * 1.1, height: fontSize * 1.3)
    }

    /// One arrangement worked out: pegs in rows of `columns`.
    private struct Geometry {
        let columns: Int
        let rows: Int
        let maximumDiskWidth: Double
        let baseHeight: Double
        let diskHeight: Double
        let labelFontSize: Double
        let footings: [Point]
        let laneGap: Double

        /// The area of the largest disk: how legible this arrangement draws the tower.
        var diskArea: Double { maximumDiskWidth * diskHeight }

        /// The fraction of the width the towers take, from the leftmost largest disk to the
        /// rightmost (the lanes beside rows of pegs are empty most of the time).
        let widthUsed: Double

        init(area: Rect, disks: Int, pegs: Int, columns: Int) {
            self.columns = columns
            rows = (pegs + columns - 1) / columns
            let n = Double(disks)
            let rowHeight = area.height / Double(rows)
            let pitch: Double
            if rows == 1 {
                pitch = area.width / Double(pegs)
                maximumDiskWidth = pitch * 0.92
                baseHeight = min(12, rowHeight * 0.04)
                laneGap = 0
            } else {
                // Columns 1.1 disks apart, and a lane as wide as the largest disk each side.
                laneGap = area.width * 0.03
                maximumDiskWidth = (area.width - 2 * laneGap) / (1.1 * Double(columns) + 2)
                pitch = maximumDiskWidth * 1.1
                baseHeight = min(10, rowHeight * 0.06)
            }
            // Letters under the bases when they take at most a fifth of a row.
            let fontSize = min(16, max(8, baseHeight * 1.4))
            let labelHeight =
                HanoiLayout.labelSize(fontSize: fontSize).height
                + HanoiLayout.labelSpacing
            let hasLabels = labelHeight <= rowHeight * 0.2
            labelFontSize = hasLabels ? fontSize : 0
            let labelRoom = hasLabels ? labelHeight : 0
            // Room for the stack, one disk of rod above it, and a disk's travel clearance; and
            // disks at most 0.3 as high as the largest is wide, so narrow ones are not pills.
            diskHeight = min(
                HanoiLayout.maximumDiskHeight, maximumDiskWidth * 0.3,
                (rowHeight - baseHeight - labelRoom) / (n + 2.5))
            // The tower centred in its row, the letters under it, raised if they need room.
            let towerHeight = baseHeight + diskHeight * (n + 2.5)
            var footings: [Point] = []
            for peg in 0..<pegs {
                let row = peg / columns
                let inRow = Double(min(columns, pegs - row * columns))
                let x = area.midX + (Double(peg % columns) - (inRow - 1) / 2) * pitch
                let midY = area.minY + rowHeight * (Double(row) + 0.5)
                let y = min(
                    midY + towerHeight / 2 - baseHeight,
                    midY + rowHeight / 2 - baseHeight - labelRoom)
                footings.append(Point(x: x, y: y))
            }
            self.footings = footings
            let fullRow = Double(min(columns, pegs))
            widthUsed = ((fullRow - 1) * pitch + maximumDiskWidth) / area.width
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
