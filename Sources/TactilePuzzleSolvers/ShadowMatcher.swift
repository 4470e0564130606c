import Foundation
import TactileCore

/// The attacker who knows how holes are made: it looks for places darker inside the
/// piece's shape than just around it, and tells the hole from the decoys by which one's
/// surroundings continue into the piece.
///
/// 1. Darkness: at every position along the axis, the mean grey inside the piece's shape
///    (shrunk by 4 px, past any soft edge) against the mean in a ring 2–7 px outside it,
///    as a relative darkening. A hole, however soft its edge, scores high; so does a decoy
///    treated the same.
/// 2. Candidates: the best few positions at least half a piece apart, scoring at least half
///    the best.
/// 3. Context: for each candidate, the colours of the background's ring, averaged in 16
///    sectors around the centre, are correlated with the piece's own colours 3–7 px inside
///    its outline in the same sectors (a sky above, a ridge to the left, … continue across
///    the outline of the real hole); and the piece's grey levels with what the hole shows
///    inside, as ``IntensityMatcher`` does. The candidate with the best sum wins.
public struct ShadowMatcher: PuzzleSolver {
    /// Creates the solver.
    public init() {}

    public var name: String { "shadow + context" }

    static let margin = 8
    static let sectors = 16

    public func locate(_ puzzle: ClientPuzzle) -> Point {
        let piece = puzzle.piece
        let background = puzzle.background
        let margin = Self.margin
        let alpha = GrayImage(channel: 3, of: piece)
        let windowWidth = piece.width + 2 * margin
        let inner = alpha.mask(above: 254, grownBy: -4, margin: margin)
        let near = alpha.mask(above: 0, grownBy: 2, margin: margin)
        let far = alpha.mask(above: 0, grownBy: 7, margin: margin)
        let band = alpha.mask(above: 254, grownBy: -3, margin: margin)
        let deep = alpha.mask(above: 254, grownBy: -7, margin: margin)
        var insideOffsets: [(u: Int, v: Int)] = []
        var ringOffsets: [(u: Int, v: Int)] = []
        var bandOffsets: [(u: Int, v: Int)] = []
        for k in inner.values.indices {
            let p = (u: k % windowWidth - margin, v: k / windowWidth - margin)
            if inner.values[k] > 0 { insideOffsets.append(p) }
            if far.values[k] > 0, near.values[k] == 0 { ringOffsets.append(p) }
            if band.values[k] > 0, deep.values[k] == 0 { bandOffsets.append(p) }
        }
        guard !insideOffsets.isEmpty, !ringOffsets.isEmpty else { return .zero }
        let luma = GrayImage(luma: background)
        let w = background.width
        let h = background.height

        // 1. Darkness at every candidate.
        let candidates = puzzle.candidates()
        var scored: [(x: Int, y: Int, score: Float)] = []
        luma.values.withUnsafeBufferPointer { l in
            for c in candidates {
                var inside: Float = 0
                for p in insideOffsets { inside += l[(c.y + p.v) * w + c.x + p.u] }
                var ring: Float = 0
                var ringCount = 0
                for p in ringOffsets {
                    let x = c.x + p.u
                    let y = c.y + p.v
                    guard x >= 0, y >= 0, x < w, y < h else { continue }
                    ring += l[y * w + x]
                    ringCount += 1
                }
                guard ringCount > 0 else { continue }
                let meanInside = inside / Float(insideOffsets.count)
                let meanRing = ring / Float(ringCount)
                scored.append((c.x, c.y, (meanRing - meanInside) / (meanRing + 16)))
            }
        }
        guard let top = scored.max(by: { $0.score < $1.score }) else { return .zero }

        // 2. The best few, half a piece apart.
        var chosen: [(x: Int, y: Int, score: Float)] = []
        for c in scored.sorted(by: { $0.score > $1.score }) {
            guard chosen.count < 3, c.score >= top.score * 0.5 else { break }
            let apart = chosen.allSatisfy {
                abs($0.x - c.x) >= piece.width / 2 || abs($0.y - c.y) >= piece.height / 2
            }
            if apart { chosen.append(c) }
        }
        guard chosen.count > 1 else { return Point(x: Double(top.x), y: Double(top.y)) }

        // 3. Context: sector colours across the outline, and the inside's grey levels.
        let centre = (u: Double(piece.width) / 2, v: Double(piece.height) / 2)
        func sector(_ p: (u: Int, v: Int)) -> Int {
            let angle = atan2(Double(p.v) + 0.5 - centre.v, Double(p.u) + 0.5 - centre.u)
            let s = Int(((angle + .pi) / (2 * .pi) * Double(Self.sectors)).rounded(.down))
            return min(max(s, 0), Self.sectors - 1)
        }
        let pieceSectors = Self.sectorMeans(
            bandOffsets.map { p in (sector(p), Self.rgb(piece, p.u, p.v)) })
        let intensity = TemplateMatcher(
            image: luma.boxBlurred(radius: 2),
            template: GrayImage(luma: piece).boxBlurred(radius: 2),
            mask: GrayImage(channel: 3, of: piece).mask(above: 254, grownBy: -4, margin: 0))
        var best = (score: -Float.infinity, x: top.x, y: top.y)
        for c in chosen {
            let ring = ringOffsets.compactMap { p -> (Int, SIMD3<Float>)? in
                let x = c.x + p.u
                let y = c.y + p.v
                guard x >= 0, y >= 0, x < w, y < h else { return nil }
                return (sector(p), Self.rgb(background, x, y))
            }
            let context = Self.correlation(pieceSectors, Self.sectorMeans(ring))
            let score = context + intensity.score(x: c.x, y: c.y)
            if score > best.score { best = (score, c.x, c.y) }
        }
        return Point(x: Double(best.x), y: Double(best.y))
    }

    static func rgb(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> SIMD3<Float> {
        let i = (y * bitmap.width + x) * 4
        return SIMD3(
            Float(bitmap.pixels[i]), Float(bitmap.pixels[i + 1]), Float(bitmap.pixels[i + 2]))
    }

    /// Mean colour per sector; `nil` for a sector no pixel falls in.
    static func sectorMeans(_ samples: [(Int, SIMD3<Float>)]) -> [SIMD3<Float>?] {
        var sums = [SIMD3<Float>](repeating: .zero, count: sectors)
        var counts = [Int](repeating: 0, count: sectors)
        for (s, rgb) in samples {
            sums[s] += rgb
            counts[s] += 1
        }
        return (0..<sectors).map { counts[$0] > 0 ? sums[$0] / Float(counts[$0]) : nil }
    }

    /// The mean over the three channels of the correlation across the sectors both have.
    static func correlation(_ a: [SIMD3<Float>?], _ b: [SIMD3<Float>?]) -> Float {
        let pairs = zip(a, b).compactMap { x, y in x.flatMap { x in y.map { (x, $0) } } }
        guard pairs.count >= 4 else { return 0 }
        var total: Float = 0
        for c in 0..<3 {
            let xs = pairs.map { $0.0[c] }
            let ys = pairs.map { $0.1[c] }
            let mx = xs.reduce(0, +) / Float(xs.count)
            let my = ys.reduce(0, +) / Float(ys.count)
            var sxy: Float = 0
            var sxx: Float = 0
            var syy: Float = 0
            for (x, y) in zip(xs, ys) {
                sxy += (x - mx) * (y - my)
                sxx += (x - mx) * (x - mx)
                syy += (y - my) * (y - my)
            }
            total += sxx > 1e-3 && syy > 1e-3 ? sxy / (sxx * syy).squareRoot() : 0
        }
        return total / 3
    }
}
