/// A GIF frame's palette of at most 256 colours, and the mapping of the frame's pixels onto
/// it.
///
/// A frame with 256 colours or fewer keeps them all, exactly. A frame with more starts from
/// boxes of similar colours (giflib's median cut, given as a box index per pixel): each box's
/// colour becomes the colour most of its pixels have when there is one, else their mean, so
/// a flat background keeps its exact colour. Pixels are then mapped by Floyd–Steinberg error
/// diffusion, so a gradient shows as a fine mix of its neighbouring palette colours instead
/// of bands; a pixel whose colour is in the palette exactly is drawn in it and passes no
/// error on, so flat areas and solid shapes stay clean.
///
/// Colours are packed as `0xRRGGBB`. Everything is integer arithmetic, so a frame always
/// encodes to the same bytes.
struct GIFFramePalette {
    /// The palette's colours, `0xRRGGBB`; at most ``capacity``.
    private(set) var colors: [UInt32] = []
    /// Looks a colour up in ``colors``.
    private var table = ColorTable()

    /// The most colours a GIF palette holds.
    static let capacity = 256

    /// Packs three channels as `0xRRGGBB`.
    @inline(__always)
    static func pack(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt32 {
        UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
    }

    /// Takes the frame's colours as they are, in order of first appearance, with each pixel's
    /// index in `indices`; false, leaving the palette empty, when there are more than
    /// ``capacity``.
    mutating func takeExactColors(
        red: [UInt8], green: [UInt8], blue: [UInt8], indices: inout [UInt8]
    ) -> Bool {
        colors.removeAll(keepingCapacity: true)
        table.removeAll()
        var last: UInt32 = .max
        var lastIndex: UInt8 = 0
        for i in red.indices {
            let color = Self.pack(red[i], green[i], blue[i])
            if color != last {
                if let index = table[color] {
                    lastIndex = index
                } else {
                    guard colors.count < Self.capacity else {
                        colors.removeAll(keepingCapacity: true)
                        table.removeAll()
                        return false
                    }
                    lastIndex = UInt8(colors.count)
                    table.insert(color, index: lastIndex)
                    colors.append(color)
                }
                last = color
            }
            indices[i] = lastIndex
        }
        return true
    }

    /// Sets the palette from boxes of similar colours: `boxes[i]` is pixel `i`'s box,
    /// `0..<count`. A box's colour is the colour over half its pixels have, if any, else its
    /// pixels' rounded mean; an empty box keeps `fallback`.
    mutating func takeBoxes(
        red: [UInt8], green: [UInt8], blue: [UInt8], boxes: [UInt8], count: Int,
        fallback: [UInt32]
    ) {
        var sums = [(r: Int, g: Int, b: Int, n: Int)](repeating: (0, 0, 0, 0), count: count)
        // Boyer–Moore majority vote per box, then a count of each box's candidate.
        var candidates = [UInt32](repeating: 0, count: count)
        var votes = [Int](repeating: 0, count: count)
        for i in red.indices {
            let box = Int(boxes[i])
            let color = Self.pack(red[i], green[i], blue[i])
            sums[box].r += Int(red[i])
            sums[box].g += Int(green[i])
            sums[box].b += Int(blue[i])
            sums[box].n += 1
            if votes[box] == 0 {
                candidates[box] = color
                votes[box] = 1
            } else {
                votes[box] += candidates[box] == color ? 1 : -1
            }
        }
        var support = [Int](repeating: 0, count: count)
        for i in red.indices {
            let box = Int(boxes[i])
            if candidates[box] == Self.pack(red[i], green[i], blue[i]) { support[box] += 1 }
        }
        colors.removeAll(keepingCapacity: true)
        table.removeAll()
        for box in 0..<count {
            let s = sums[box]
            let color: UInt32
            if s.n == 0 {
                color = fallback[box]
            } else if support[box] * 2 > s.n {
                color = candidates[box]
            } else {
                func mean(_ sum: Int) -> UInt8 { UInt8((sum + s.n / 2) / s.n) }
                color = Self.pack(mean(s.r), mean(s.g), mean(s.b))
            }
            if table[color] == nil { table.insert(color, index: UInt8(box)) }
            colors.append(color)
        }
    }

    /// Maps every pixel to the palette by Floyd–Steinberg error diffusion, rows alternating
    /// direction; a pixel whose colour is in the palette exactly takes it and passes no
    /// error on.
    func diffuse(
        red: [UInt8], green: [UInt8], blue: [UInt8], width: Int, height: Int,
        into indices: inout [UInt8]
    ) {
        let search = NearestColor(colors)
        // Error per channel in sixteenths of a level, for this row and the next, with a
        // column of padding on each side.
        let stride = (width + 2) * 3
        var errorRows = [Int](repeating: 0, count: stride * 2)
        var lastTarget: UInt32 = .max
        var lastIndex = 0
        errorRows.withUnsafeMutableBufferPointer { rows in
            indices.withUnsafeMutableBufferPointer { out in
                var current = rows.baseAddress!
                var next = current + stride
                for y in 0..<height {
                    swap(&current, &next)
                    next.update(repeating: 0, count: stride)
                    let forward = y % 2 == 0 ? 1 : -1
                    for step in 0..<width {
                        let x = forward == 1 ? step : width - 1 - step
                        let i = y * width + x
                        if let exact = table[Self.pack(red[i], green[i], blue[i])] {
                            out[i] = exact
                            continue
                        }
                        let here = (x + 1) * 3
                        let r = Self.clamp(Int(red[i]) * 16 + current[here])
                        let g = Self.clamp(Int(green[i]) * 16 + current[here + 1])
                        let b = Self.clamp(Int(blue[i]) * 16 + current[here + 2])
                        let target = Self.pack(
                            UInt8((r + 8) >> 4), UInt8((g + 8) >> 4), UInt8((b + 8) >> 4))
                        if target != lastTarget {
                            lastIndex = search.nearest(to: target)
                            lastTarget = target
                        }
                        out[i] = UInt8(lastIndex)
                        let chosen = colors[lastIndex]
                        let ahead = here + 3 * forward
                        let behind = here - 3 * forward
                        Self.spread(
                            r - Int(chosen >> 16) * 16, ahead: current + ahead,
                            belowBehind: next + behind, below: next + here,
                            belowAhead: next + ahead)
                        Self.spread(
                            g - Int((chosen >> 8) & 0xFF) * 16, ahead: current + ahead + 1,
                            belowBehind: next + behind + 1, below: next + here + 1,
                            belowAhead: next + ahead + 1)
                        Self.spread(
                            b - Int(chosen & 0xFF) * 16, ahead: current + ahead + 2,
                            belowBehind: next + behind + 2, below: next + here + 2,
                            belowAhead: next + ahead + 2)
                    }
                }
            }
        }
    }

    /// Floyd–Steinberg's weights: 7/16 of an error to the next pixel in the row, 3/16, 5/16
    /// and 1/16 to the three below (behind, under, ahead); what rounding leaves goes ahead.
    @inline(__always)
    private static func spread(
        _ error: Int, ahead: UnsafeMutablePointer<Int>, belowBehind: UnsafeMutablePointer<Int>,
        below: UnsafeMutablePointer<Int>, belowAhead: UnsafeMutablePointer<Int>
    ) {
        guard error != 0 else { return }
        let three = error * 3 / 16
        let five = error * 5 / 16
        let one = error / 16
        ahead.pointee += error - three - five - one
        belowBehind.pointee += three
        below.pointee += five
        belowAhead.pointee += one
    }

    /// A value in sixteenths of a level, kept within 0…255 levels.
    @inline(__always)
    private static func clamp(_ value: Int) -> Int { min(max(value, 0), 255 * 16) }
}

/// An open-addressing table from packed colours to palette indices, for at most
/// ``GIFFramePalette/capacity`` colours.
private struct ColorTable {
    private static let slots = 1024
    private static let empty = UInt32.max
    private var keys = [UInt32](repeating: ColorTable.empty, count: ColorTable.slots)
    private var values = [UInt8](repeating: 0, count: ColorTable.slots)

    @inline(__always)
    private static func slot(_ key: UInt32) -> Int {
        Int((key &* 2_654_435_761) >> 22)
    }

    subscript(key: UInt32) -> UInt8? {
        var i = Self.slot(key)
        while true {
            let found = keys[i]
            if found == key { return values[i] }
            if found == Self.empty { return nil }
            i = (i + 1) & (Self.slots - 1)
        }
    }

    mutating func insert(_ key: UInt32, index: UInt8) {
        var i = Self.slot(key)
        while keys[i] != Self.empty && keys[i] != key { i = (i + 1) & (Self.slots - 1) }
        keys[i] = key
        values[i] = index
    }

    mutating func removeAll() {
        for i in keys.indices { keys[i] = Self.empty }
    }
}

/// The palette colour nearest a colour (squared distance in RGB; the lowest index on a
/// tie), found among colours sorted by green: the search widens from the closest green and
/// stops once green alone is farther than the best match.
private struct NearestColor {
    private let greens: [Int]
    private let reds: [Int]
    private let blues: [Int]
    private let indices: [Int]

    init(_ colors: [UInt32]) {
        let order = colors.indices.sorted {
            let (a, b) = ((colors[$0] >> 8) & 0xFF, (colors[$1] >> 8) & 0xFF)
            return a != b ? a < b : $0 < $1
        }
        indices = order
        greens = order.map { Int((colors[$0] >> 8) & 0xFF) }
        reds = order.map { Int(colors[$0] >> 16) }
        blues = order.map { Int(colors[$0] & 0xFF) }
    }

    func nearest(to color: UInt32) -> Int {
        let (r, g, b) = (Int(color >> 16), Int((color >> 8) & 0xFF), Int(color & 0xFF))
        // The first colour with green ≥ g.
        var low = 0
        var high = greens.count
        while low < high {
            let middle = (low + high) / 2
            if greens[middle] < g { low = middle + 1 } else { high = middle }
        }
        var best = Int.max
        var bestIndex = 0
        func consider(_ k: Int) {
            let (dr, dg, db) = (reds[k] - r, greens[k] - g, blues[k] - b)
            let distance = dr * dr + dg * dg + db * db
            if distance < best || (distance == best && indices[k] < bestIndex) {
                best = distance
                bestIndex = indices[k]
            }
        }
        var up = low
        var down = low - 1
        while up < greens.count || down >= 0 {
            var moved = false
            if up < greens.count {
                let dg = greens[up] - g
                if dg * dg <= best {
                    consider(up)
                    up += 1
                    moved = true
                } else {
                    up = greens.count
                }
            }
            if down >= 0 {
                let dg = g - greens[down]
                if dg * dg <= best {
                    consider(down)
                    down -= 1
                    moved = true
                } else {
                    down = -1
                }
            }
            if !moved { break }
        }
        return bestIndex
    }
}
