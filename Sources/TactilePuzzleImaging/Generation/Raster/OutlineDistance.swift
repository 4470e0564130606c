/// How far pixels lie from a shape's outline, from a grid of coverage counts.
enum OutlineDistance {
    /// For each pixel of a `width × height` grid of sample counts (0…`full`, row by row),
    /// roughly how far its centre lies inside the outline, in pixels: negative outside.
    ///
    /// Pixels the outline crosses get their coverage less ½ (−½…½); the others their
    /// chamfer distance (steps of 1 and √2) to the nearest such pixel, taken from the
    /// crossed pixels' level: fully covered pixels 1, 1.4, 2, …; empty ones −½ − (distance
    /// − 1), that is −½, −0.9, −1.5, …. Pixels beyond the grid count as empty.
    static func signed(counts: [UInt8], width: Int, height: Int, full: Int) -> [Float] {
        let w = width
        let h = height
        guard w > 0, h > 0 else { return [] }
        let inside = chamfer(width: w, height: h, borderIsSource: true) { counts[$0] < full }
        let outside = chamfer(width: w, height: h, borderIsSource: false) { counts[$0] > 0 }
        let scale = 1 / Float(full)
        return [Float](unsafeUninitializedCapacity: w * h) { out, count in
            for i in 0..<(w * h) {
                let c = Int(counts[i])
                if c == full {
                    out[i] = inside[i]
                } else if c > 0 {
                    out[i] = Float(c) * scale - 0.5
                } else {
                    out[i] = 0.5 - outside[i]
                }
            }
            count = w * h
        }
    }

    /// Chamfer distances to the nearest pixel where `isSource` holds (0 there), in two
    /// passes over a grid padded by one pixel, which counts as source when `borderIsSource`.
    static func chamfer(
        width w: Int, height h: Int, borderIsSource: Bool, isSource: (Int) -> Bool
    ) -> [Float] {
        let far = Float(w + h + 2)
        let straight: Float = 1
        let diagonal: Float = 1.414_213_6
        let pw = w + 2
        var d = [Float](repeating: borderIsSource ? 0 : far, count: pw * (h + 2))
        d.withUnsafeMutableBufferPointer { d in
            for v in 0..<h {
                for u in 0..<w { d[(v + 1) * pw + u + 1] = isSource(v * w + u) ? 0 : far }
            }
            for v in 1...h {
                for u in 1...w where d[v * pw + u] > 0 {
                    let k = v * pw + u
                    let above = min(
                        d[k - pw] + straight, min(d[k - pw - 1], d[k - pw + 1]) + diagonal)
                    d[k] = min(min(d[k], above), d[k - 1] + straight)
                }
            }
            for v in stride(from: h, through: 1, by: -1) {
                for u in stride(from: w, through: 1, by: -1) where d[v * pw + u] > 0 {
                    let k = v * pw + u
                    let below = min(
                        d[k + pw] + straight, min(d[k + pw + 1], d[k + pw - 1]) + diagonal)
                    d[k] = min(min(d[k], below), d[k + 1] + straight)
                }
            }
        }
        return [Float](unsafeUninitializedCapacity: w * h) { out, count in
            for v in 0..<h {
                for u in 0..<w { out[v * w + u] = d[(v + 1) * pw + u + 1] }
            }
            count = w * h
        }
    }
}

extension OutlineDistance {
    /// For each pixel inside (a positive `distance`), the distance at the summit it climbs
    /// to, always stepping to its deepest neighbour: the half-width of the part of the shape
    /// it belongs to. A jigsaw piece's knob climbs to the knob's own centre, a few pixels
    /// deep, though its neck joins a body many times deeper; a corner of the body climbs
    /// along the diagonal to the body's centre. Pixels outside get 0.
    ///
    /// A flat stretch (neighbours equally deep, as along a ridge) takes the summit of the
    /// nearest of its pixels that has a deeper neighbour; one with none is a summit itself.
    /// Every order is fixed (depth, then place), so the same shape always gets the same
    /// summits.
    static func summits(of distance: [Float], width: Int, height: Int) -> [Float] {
        var summit = [Float](repeating: 0, count: distance.count)
        var reached = [Bool](repeating: false, count: distance.count)
        func forEachNeighbour(of i: Int, _ body: (Int) -> Void) {
            let (v, u) = i.quotientAndRemainder(dividingBy: width)
            for dv in -1...1 {
                for du in -1...1 where dv != 0 || du != 0 {
                    let (nv, nu) = (v + dv, u + du)
                    if nv >= 0, nv < height, nu >= 0, nu < width { body(nv * width + nu) }
                }
            }
        }
        // Deepest first, so that every neighbour a pixel climbs to has its summit already.
        let order = distance.indices.filter { distance[$0] > 0 }.sorted {
            distance[$0] != distance[$1] ? distance[$0] > distance[$1] : $0 < $1
        }
        var start = 0
        var spreading: [Int] = []
        while start < order.count {
            let depth = distance[order[start]]
            var end = start
            while end < order.count, distance[order[end]] == depth { end += 1 }
            // The pixels of this depth with a deeper neighbour climb to the deepest one.
            spreading.removeAll(keepingCapacity: true)
            for i in order[start..<end] {
                var best = -1
                forEachNeighbour(of: i) { n in
                    if distance[n] > depth, best < 0 || distance[n] > distance[best] { best = n }
                }
                guard best >= 0 else { continue }
                summit[i] = summit[best]
                reached[i] = true
                spreading.append(i)
            }
            // The rest of a flat stretch takes the summit of its nearest pixel that climbed.
            var next = 0
            while next < spreading.count {
                let i = spreading[next]
                next += 1
                forEachNeighbour(of: i) { n in
                    guard distance[n] == depth, !reached[n] else { return }
                    summit[n] = summit[i]
                    reached[n] = true
                    spreading.append(n)
                }
            }
            // A flat stretch with nowhere deeper to go is a summit.
            for i in order[start..<end] where !reached[i] {
                summit[i] = depth
                reached[i] = true
            }
            start = end
        }
        return summit
    }
}

extension OutlineDistance {
    /// For each pixel, how much further inside a thin part's pixels are to be taken to lie,
    /// so that in a part whose half-width is under 1.25 × `fullDepth` the pixels four fifths
    /// of the way to its middle lie `fullDepth` deep: the ratio of `fullDepth` to four fifths
    /// of the part's half-width (its
    /// ``summits(of:width:height:)``), at least 1 and at most 4 (a sliver stays a sliver),
    /// smoothed over a few pixels so that where a knob's neck meets the body the change is
    /// gradual. 1 outside.
    static func thinPartStretch(
        _ distance: [Float], width: Int, height: Int, fullDepth: Float
    ) -> [Float] {
        let summit = summits(of: distance, width: width, height: height)
        var stretch = summit.map { $0 > 0 ? min(max(fullDepth / (0.8 * $0), 1), 4) : 1 }
        for _ in 0..<2 { stretch = boxAveraged(stretch, width: width, height: height, radius: 2) }
        return stretch
    }

    /// The mean of each pixel's square neighbourhood of `radius`, clipped at the grid's edge.
    static func boxAveraged(_ values: [Float], width: Int, height: Int, radius: Int) -> [Float] {
        func pass(_ input: [Float], along step: Int, count: Int, lines: Int, lineStep: Int)
            -> [Float]
        {
            var output = input
            for line in 0..<lines {
                let base = line * lineStep
                for k in 0..<count {
                    let from = max(0, k - radius)
                    let to = min(count - 1, k + radius)
                    var sum: Float = 0
                    for j in from...to { sum += input[base + j * step] }
                    output[base + k * step] = sum / Float(to - from + 1)
                }
            }
            return output
        }
        let rows = pass(values, along: 1, count: width, lines: height, lineStep: width)
        return pass(rows, along: width, count: height, lines: width, lineStep: 1)
    }
}
