import Foundation

/// A uniform grid of shape indices, rebuilt every step with a counting sort.
struct Grid: ~Copyable {
    var small = Pool<Int>()
    var large = Pool<Int>()
    var origin = Vec2.zero
    var inverseCell = 1.0
    var columns = 0
    var rows = 0
    /// `entries[starts[c]..<starts[c + 1]]` are the shapes in cell c.
    var starts = Pool<Int>()
    var entries = Pool<Int>()
    var cursor = Pool<Int>()

    @inline(__always)
    func cell(_ x: Double, _ y: Double) -> Int {
        let (cx, cy) = cellXY(x, y)
        return cy * columns + cx
    }

    /// The column and row of the cell holding a point.
    @inline(__always)
    func cellXY(_ x: Double, _ y: Double) -> (Int, Int) {
        let cx = min(columns - 1, max(0, Int((x - origin.x) * inverseCell)))
        let cy = min(rows - 1, max(0, Int((y - origin.y) * inverseCell)))
        return (cx, cy)
    }

    mutating func fill(
        shapes: borrowing Pool<Shape>, origin: Vec2, cell: Double, columns: Int, rows: Int
    ) {
        self.origin = origin
        inverseCell = 1 / cell
        self.columns = columns
        self.rows = rows
        let count = columns * rows
        if starts.count < count + 1 {
            starts = Pool(repeating: 0, count: count + 1)
            cursor = Pool(repeating: 0, count: count + 1)
        }
        for c in 0...count { starts[c] = 0 }
        var total = 0
        forEachCell(of: shapes) { _, c in
            starts[c + 1] += 1
            total += 1
        }
        for c in 0..<count { starts[c + 1] += starts[c] }
        if entries.count < total { entries = Pool(repeating: 0, count: total) }
        for c in 0..<count { cursor[c] = starts[c] }
        forEachCell(of: shapes) { s, c in
            entries[cursor[c]] = s
            cursor[c] += 1
        }
    }

    /// Calls `body` with each small shape's index and each cell its bounds overlap.
    @inline(__always)
    private func forEachCell(of shapes: borrowing Pool<Shape>, _ body: (Int, Int) -> Void) {
        for sIndex in small.indices {
            let s = small[sIndex]
            let shape = shapes[s]
            let (x0, y0) = cellXY(shape.minX, shape.minY)
            let (x1, y1) = cellXY(shape.maxX, shape.maxY)
            for y in y0...y1 {
                for x in x0...x1 { body(s, y * columns + x) }
            }
        }
    }
}
