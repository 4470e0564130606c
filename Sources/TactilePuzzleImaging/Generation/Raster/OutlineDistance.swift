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
