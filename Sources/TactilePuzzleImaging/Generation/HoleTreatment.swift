import Foundation
import TactileCore

/// How a hole (and each decoy) is cut into the background, how the piece is drawn, and what
/// shape the decoys take: everything that keeps an automated solver from finding the
/// answer while a person still sees it at a glance.
///
/// A hole is darkened, with a soft edge, a blur, grain and a colour cast inside. Every change
/// is weighted by how far a pixel lies inside the outline: with ``rimWidth`` 0 the changes
/// stay within the shape, weighted by coverage, so every pixel outside keeps the picture's
/// exact values; with a rim they reach that far outside.
///
/// What each part is for (``standard`` uses them all; `tactile bench puzzle` measures them):
/// - A wide, smooth darkening (``edgeSoftness``) with its steepest part deep inside
///   (``coreInset``): edge detectors find no step along the outline, and the contour they
///   do find is the outline shrunk by many pixels, which a template of the piece does not
///   fit within the verifier's tolerance.
/// - A brightness-neutral ``tint`` along the outline: the eye sees the exact shape, knobs
///   and all, in colour; edge detectors that work on grey levels see nothing. One that
///   reads colour sees it all: `tactile bench puzzle`'s colour-edge matcher finds nearly
///   every hole by its tint (about half with no tint).
/// - ``deepensThinParts``: a knob, thinner than the darkening's full depth, is darkened in
///   proportion to its own width, so it reads as a knob of the recess and not as a stalk.
///   Its darkening rises over a few pixels rather than the body's many, so edge detectors
///   find the knobs' outlines more often than the body's: a looks-for-safety trade that
///   `tactile bench puzzle` prices (the Sobel template solver finds about 5 % of holes in
///   drawn pictures and 13 % in photos with it, 1 % and 8 % without).
/// - ``blurRadius``, ``flattening``, ``shading`` and grain (``noise``, ``detailGrain``):
///   what is left of the picture inside no longer matches the piece's own detail, yet the
///   hole is as busy as the picture around it.
/// - ``piece`` draws the piece with its own edge and colours, so none of its pixels repeats
///   the background; ``decoys`` have outlines a person tells from the piece's at a glance.
public struct HoleTreatment: Hashable, Sendable {
    /// What shape decoy holes take.
    public enum DecoyShapes: Hashable, Sendable {
        /// Outlines a person tells from the piece's at a glance (a circle, a triangle, a
        /// star, a jigsaw piece with other knobs…), 80–100 % of its size, each overlapping the
        /// piece's outline by at most 60 % wherever the two are laid over each other. A
        /// solver that knows the outline rules them out too: decoys are for the eye's
        /// comfort, not a defence.
        case contrasting
        /// The piece's own shape and size, exactly on the row (or column) the piece slides
        /// along: only the picture tells them from the real hole, and a person may pick one.
        case matching
    }

    /// The share of light removed at full depth, 0…1.
    public var darkening: Double
    /// Pixels over which the darkening grows from the edge to full depth; 0 for a crisp edge.
    public var edgeSoftness: Double
    /// The darkening right at the edge, as a share of the full darkening, 0…1.
    public var edgeFloor: Double
    /// The radius in pixels of the box blur applied inside; 0 for none.
    public var blurRadius: Int
    /// The largest grain added inside, in 8-bit levels; 0 for none.
    public var noise: Int
    /// The grain's feature size in pixels: random values on a grid this coarse, blended
    /// between grid points, so smoothing before edge detection does not remove them.
    public var grainSize: Int
    /// How far the treatment reaches outside the outline, in pixels, 0…8; 0 keeps it inside,
    /// weighted by coverage.
    public var rimWidth: Double
    /// The largest colour cast of a hole: each channel's gain is drawn from 1 ± this, per
    /// hole, 0…0.5.
    public var colorJitter: Double
    /// The share of the picture's detail inside a hole, at full depth, replaced by the
    /// hole's mean colour, 0…1: what is left of the picture no longer matches the piece.
    public var flattening: Double
    /// The largest change of light across a hole, as a share of its brightness, 0…0.5: each
    /// hole is lit from its own random side, lighter there and darker opposite.
    public var shading: Double
    /// How much grain makes up for the detail the blur and the flattening take away, 0…4:
    /// the grain grows by this times the mean difference, in levels, between the picture
    /// and its blur inside the hole, so a hole in a busy photo is as busy as around it.
    public var detailGrain: Double
    /// Whether the grain fades in with the darkening, from nothing at the edge, rather than
    /// starting at full strength right inside the outline (where it would draw the outline
    /// as the edge of a texture).
    public var fadesGrain: Bool
    /// The strength, in 8-bit levels, of a colour tint that leaves brightness alone: cool
    /// (blue-violet) over warm or grey pictures, warm (amber) over blue ones, 0…64. It marks
    /// the outline crisply for the eye, while grey-level edge detectors see nothing of it.
    /// Where a channel would pass 0 or 255, the pixel's tint is scaled down as a whole, so
    /// clipping never changes its brightness.
    public var tint: Double
    /// The pixels over which the tint grows from the outline inwards, 0…8.
    public var tintSoftness: Double
    /// How far inside the outline, in pixels, the hole's floor begins, 0…24: the share
    /// ``coreShare`` of the darkening is added there, over ``coreSoftness`` pixels, so the
    /// hole reads as a recess with a sloping wall and a darker floor, and its steepest edge
    /// is no outline of the piece.
    public var coreInset: Double
    /// The share of the darkening that belongs to the floor, 0…1; 0 for none.
    public var coreShare: Double
    /// The pixels over which the floor's darkening grows, 0.5…16.
    public var coreSoftness: Double
    /// Whether parts thinner than the darkening's full depth (a knob, its neck, a star's
    /// point) are darkened in proportion to their own half-width, reaching full depth four
    /// fifths of the way to their middle, so the hole shows them as the piece has them.
    /// Without it, a knob is darkened only along its middle and shows as a thin stalk. The
    /// darkening of such a part rises over fewer pixels than the body's, so its outline is
    /// crisper (see the type's discussion for what that costs).
    public var deepensThinParts: Bool
    /// How the piece is drawn.
    public var piece: PieceTreatment
    /// What shape the decoys take.
    public var decoys: DecoyShapes

    /// Creates a treatment.
    public init(
        darkening: Double, edgeSoftness: Double, edgeFloor: Double, blurRadius: Int, noise: Int,
        grainSize: Int = 1, rimWidth: Double = 0, colorJitter: Double = 0,
        flattening: Double = 0, shading: Double = 0, detailGrain: Double = 0,
        fadesGrain: Bool = false, tint: Double = 0, tintSoftness: Double = 1.5,
        coreInset: Double = 0, coreShare: Double = 0, coreSoftness: Double = 4,
        deepensThinParts: Bool = false, piece: PieceTreatment = .exact,
        decoys: DecoyShapes = .contrasting
    ) {
        self.grainSize = max(1, min(grainSize, 16))
        self.darkening = darkening.clamped(to: 0...1)
        self.edgeSoftness = edgeSoftness.isFinite ? max(0, edgeSoftness) : 0
        self.edgeFloor = edgeFloor.clamped(to: 0...1)
        self.blurRadius = max(0, min(blurRadius, 8))
        self.noise = max(0, min(noise, 64))
        self.rimWidth = rimWidth.isFinite ? rimWidth.clamped(to: 0...8) : 0
        self.colorJitter = colorJitter.isFinite ? colorJitter.clamped(to: 0...0.5) : 0
        self.flattening = flattening.isFinite ? flattening.clamped(to: 0...1) : 0
        self.shading = shading.isFinite ? shading.clamped(to: 0...0.5) : 0
        self.detailGrain = detailGrain.isFinite ? detailGrain.clamped(to: 0...4) : 0
        self.fadesGrain = fadesGrain
        self.tint = tint.isFinite ? tint.clamped(to: 0...64) : 0
        self.tintSoftness = tintSoftness.isFinite ? tintSoftness.clamped(to: 0...8) : 1.5
        self.coreInset = coreInset.isFinite ? coreInset.clamped(to: 0...24) : 0
        self.coreShare = coreShare.isFinite ? coreShare.clamped(to: 0...1) : 0
        self.coreSoftness = coreSoftness.isFinite ? coreSoftness.clamped(to: 0.5...16) : 4
        self.deepensThinParts = deepensThinParts
        self.piece = piece
        self.decoys = decoys
    }

    /// Darkened by half with a crisp edge, nothing else: what TTGPuzzleVerify shows.
    public static let plain = HoleTreatment(
        darkening: 0.5, edgeSoftness: 0, edgeFloor: 1, blurRadius: 0, noise: 0)

    /// The first generator's treatment, kept to measure against: 55 % darker, growing over
    /// 10 px from 15 % of that at the edge, a 3-pixel blur and ±16 levels of grain in 4-pixel
    /// mottles, inside the shape only; the piece cut exactly from the picture, decoys of
    /// other shapes. The edge-pixel matcher of `tactile bench puzzle` finds nearly every
    /// hole: the piece's faint rim pixels repeat the background under them.
    public static let softened = HoleTreatment(
        darkening: 0.55, edgeSoftness: 10, edgeFloor: 0.15, blurRadius: 3, noise: 16,
        grainSize: 4)

    /// The default: a recess rather than a cut-out. Holes and decoys alike are darkened by
    /// up to 60 %, from nothing at 1 px outside the outline to 70 % of that 14 px inside, the
    /// rest added over 6 px around 13 px inside (the recess's floor), and lit from a random
    /// side (±25 %); inside, the picture is blurred (4 px), 60 % flattened toward its mean,
    /// cast by up to 6 % per channel and grained (±6 levels in 2-pixel mottles, more over
    /// busy pictures, fading in with the darkening); a colour tint of 64 levels that keeps
    /// brightness shows the outline to the eye; knobs and other thin parts are darkened
    /// across their width (``deepensThinParts``), so they read as knobs rather than stalks.
    /// The piece is drawn with its
    /// own light edge and a brightness and colour of its own (``PieceTreatment/standard``);
    /// decoys have the piece's own shape. `tactile bench puzzle` measures the solvers it
    /// stops.
    public static let standard = HoleTreatment(
        darkening: 0.6, edgeSoftness: 14, edgeFloor: 0, blurRadius: 4, noise: 6, grainSize: 2,
        rimWidth: 1, colorJitter: 0.06, flattening: 0.6, shading: 0.25, detailGrain: 0.6,
        fadesGrain: true, tint: 64, tintSoftness: 1.5, coreInset: 13, coreShare: 0.3,
        coreSoftness: 6, deepensThinParts: true, piece: .standard, decoys: .contrasting)

    /// The treatment's name when it is one of the named ones (`plain`, `softened`,
    /// `standard`), else `custom`.
    public var name: String {
        switch self {
        case .plain: "plain"
        case .softened: "softened"
        case .standard: "standard"
        default: "custom"
        }
    }

    /// Cuts the hole described by `mask` into `bitmap`.
    public func apply(
        to bitmap: inout Bitmap, mask: ShapeMask, using random: inout some RandomNumberGenerator
    ) {
        guard mask.width > 0, mask.height > 0 else { return }
        var grain = SeededRandom(seed: random.next())
        let gains: SIMD3<Float> =
            colorJitter > 0
            ? SIMD3(
                Float(Double.random(in: -colorJitter...colorJitter, using: &random)),
                Float(Double.random(in: -colorJitter...colorJitter, using: &random)),
                Float(Double.random(in: -colorJitter...colorJitter, using: &random)))
            : .zero
        // The region treated: the mask and the rim around it.
        let reach = rimWidth > 0 ? Int(rimWidth.rounded(.up)) + 1 : 0
        let region = (
            x: mask.originX - reach, y: mask.originY - reach, width: mask.width + 2 * reach,
            height: mask.height + 2 * reach
        )
        let counts = Self.padded(mask, by: reach)
        var light = (x: Float(0), y: Float(0))
        if shading > 0 {
            let angle = Double.random(in: 0..<(2 * .pi), using: &random)
            let scale = shading / Double(max(region.width, region.height)) * 2
            light = (Float(cos(angle) * scale), Float(sin(angle) * scale))
        }
        let weights = cachedWeights(counts: counts, width: region.width, height: region.height)
        let blurred =
            blurRadius > 0
            ? Self.boxBlurred(
                bitmap, x: region.x, y: region.y, width: region.width, height: region.height,
                radius: blurRadius) : []
        let width = bitmap.width
        let grainField = Self.grainField(
            width: region.width, height: region.height, size: grainSize, amplitude: noise,
            using: &grain)
        // Only the rows and columns of the region inside the bitmap.
        let rows = max(0, -region.y)..<min(region.height, bitmap.height - region.y)
        let columns = max(0, -region.x)..<min(region.width, width - region.x)
        guard !rows.isEmpty, !columns.isEmpty else { return }
        let darkening = Float(self.darkening)
        let flattening = Float(self.flattening)
        let mean =
            flattening > 0 || tint > 0
            ? Self.meanColor(bitmap, weights: weights, region: region) : .zero
        let tintVector = tint > 0 ? Self.tintDirection(over: mean) * Float(tint) : .zero
        var grainScale: Float = 1
        if detailGrain > 0, noise > 0, blurRadius > 0 {
            let detail = Self.meanDetail(bitmap, blurred: blurred, weights: weights, region: region)
            grainScale = 1 + Float(detailGrain) * detail / Float(noise)
        }
        let centre = (x: Float(region.width) / 2, y: Float(region.height) / 2)
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            weights.withUnsafeBufferPointer { weights in
                blurred.withUnsafeBufferPointer { blurred in
                    grainField.withUnsafeBufferPointer { grainField in
                        for v in rows {
                            let y = region.y + v
                            for u in columns {
                                let m = v * region.width + u
                                let presence = weights[3 * m]
                                guard presence > 0 else { continue }
                                let tinted = tintVector * weights[3 * m + 2]
                                let depth = weights[3 * m + 1] * presence
                                let lit =
                                    1
                                    + (light.x * (Float(u) - centre.x) + light.y
                                        * (Float(v) - centre.y)) * depth
                                let keep = (1 - darkening * depth) * lit
                                let grainValue =
                                    noise > 0
                                    ? Float(grainField[m]) * presence * grainScale
                                        * (fadesGrain ? weights[3 * m + 1] : 1) : 0
                                let i = (y * width + region.x + u) * 4
                                var values = SIMD3<Float>.zero
                                for channel in 0..<3 {
                                    var value = Float(pixels[i + channel])
                                    if blurRadius > 0 {
                                        value +=
                                            (Float(blurred[m * 3 + channel]) - value) * presence
                                    }
                                    value += (mean[channel] - value) * flattening * depth
                                    value *= keep * (1 + gains[channel] * presence)
                                    values[channel] = min(max(value + grainValue, 0), 255)
                                }
                                // Most of a hole is beyond the tint's reach.
                                let shift =
                                    tinted == .zero ? .zero : Self.unclipped(tinted, on: values)
                                for channel in 0..<3 {
                                    pixels[i + channel] = UInt8(
                                        min(max(values[channel] + shift[channel], 0), 255) + 0.5)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The mask's counts with `margin` empty pixels all round.
    static func padded(_ mask: ShapeMask, by margin: Int) -> [UInt8] {
        guard margin > 0 else { return mask.counts }
        let w = mask.width + 2 * margin
        var out = [UInt8](repeating: 0, count: w * (mask.height + 2 * margin))
        for v in 0..<mask.height {
            for u in 0..<mask.width {
                out[(v + margin) * w + u + margin] = mask.counts[v * mask.width + u]
            }
        }
        return out
    }

    /// ``weights(counts:width:height:)``, kept for the masks seen last (``RecentResults``):
    /// the outline's distances are worked out once rather than for every hole.
    func cachedWeights(counts: [UInt8], width: Int, height: Int) -> [Float] {
        Self.recentWeights.value(
            for: MaskKey(counts: counts, width: width, height: height, extra: self)
        ) {
            weights(counts: counts, width: width, height: height)
        }
    }

    /// Weights for the masks seen last: about 120 KB each for a 96-pixel piece.
    static let recentWeights = RecentResults<MaskKey<HoleTreatment>, [Float]>(limit: 32)

    /// For each pixel of the region, three weights, interleaved: its presence in the hole
    /// (its coverage without a rim; with one, rising from 0 at ``rimWidth`` outside the
    /// outline to 1 half a pixel inside), the depth of the darkening there (rising from
    /// ``edgeFloor`` at the rim's outer edge to 1 at ``edgeSoftness`` inside, smoothly, plus
    /// the floor's share from ``coreInset``; in a thin part with ``deepensThinParts``, as if
    /// the pixel lay deeper by the part's stretch), and the tint's strength (rising from half a
    /// pixel outside the outline over 1 + ``tintSoftness`` pixels).
    func weights(counts: [UInt8], width: Int, height: Int) -> [Float] {
        let full = ShapeMask.samplesPerPixel
        let n = width * height
        guard edgeSoftness > 0 || rimWidth > 0 || coreShare > 0 else {
            return [Float](unsafeUninitializedCapacity: 3 * n) { out, count in
                for i in 0..<n {
                    let coverage = Float(counts[i]) / Float(full)
                    out[3 * i] = coverage
                    out[3 * i + 1] = 1
                    out[3 * i + 2] = coverage
                }
                count = 3 * n
            }
        }
        let distance = OutlineDistance.signed(
            counts: counts, width: width, height: height, full: full)
        let stretch =
            deepensThinParts
            ? OutlineDistance.thinPartStretch(
                distance, width: width, height: height,
                fullDepth: Float(
                    max(edgeSoftness, coreShare > 0 ? coreInset + coreSoftness / 2 : 0))) : []
        let rim = Float(rimWidth)
        let softness = Float(edgeSoftness)
        let floor = Float(edgeFloor)
        let coreShare = Float(self.coreShare)
        let coreStart = Float(coreInset - coreSoftness / 2)
        let coreSpan = Float(max(coreSoftness, 0.5))
        let tintSpan = Float(1 + tintSoftness)
        return [Float](unsafeUninitializedCapacity: 3 * n) { out, count in
            for i in 0..<n {
                let d = distance[i]
                // How deep the darkening takes the pixel to lie: deeper in a thin part.
                let deep = stretch.isEmpty || d <= 0 ? d : d * stretch[i]
                // Coverage is d + ½ where the outline crosses; the rim stretches the rise.
                let presence = min(max((d + 0.5 + rim) / (1 + rim), 0), 1)
                var depth: Float = 1
                if softness > 0 {
                    let s = min(max((deep + rim) / (softness + rim), 0), 1)
                    depth = floor + (1 - floor) * s * s * (3 - 2 * s)
                }
                if coreShare > 0 {
                    let c = min(max((deep - coreStart) / coreSpan, 0), 1)
                    depth = (1 - coreShare) * depth + coreShare * c * c * (3 - 2 * c)
                }
                out[3 * i] = presence
                out[3 * i + 1] = depth
                let t = min(max((d + 0.5) / tintSpan, 0), 1)
                out[3 * i + 2] = t * t * (3 - 2 * t)
            }
            count = 3 * n
        }
    }
}
