import TactileCore

/// The 4 × 4-pixel blocks a hole's shape covers fully, with their channel sums: what tells
/// how different the picture looks inside the hole and inside the same shape elsewhere,
/// summed once for all the places a decoy may go.
struct HoleBlocks {
    /// Each block's top-left pixel.
    private var corners: [(x: Int, y: Int)] = []
    /// Each block's red, green and blue sums, three per block.
    private var sums: [Int] = []
    private let maskOrigin: (x: Int, y: Int)

    /// The blocks of `mask` inside `picture`.
    init(_ picture: Bitmap, mask: ShapeMask) {
        maskOrigin = (mask.originX, mask.originY)
        let full = UInt8(ShapeMask.samplesPerPixel)
        for v in stride(from: 0, to: mask.height - 3, by: 4) {
            for u in stride(from: 0, to: mask.width - 3, by: 4)
            where mask.counts[v * mask.width + u] == full
                && mask.counts[(v + 3) * mask.width + u + 3] == full
            {
                let x = mask.originX + u
                let y = mask.originY + v
                guard x >= 0, y >= 0, x + 4 <= picture.width, y + 4 <= picture.height else {
                    continue
                }
                corners.append((x, y))
                let sum = Self.sum(picture, x: x, y: y)
                sums += [sum.red, sum.green, sum.blue]
            }
        }
    }

    /// The channel sums of the 4 × 4 pixels from (`x`, `y`), which must lie in the picture.
    private static func sum(_ picture: Bitmap, x: Int, y: Int) -> (
        red: Int, green: Int, blue: Int
    ) {
        picture.pixels.withUnsafeBytes { pixels in
            var (red, green, blue) = (0, 0, 0)
            for j in 0..<4 {
                let row = ((y + j) * picture.width + x) * 4
                for i in 0..<4 {
                    let rgba = pixels.loadUnaligned(fromByteOffset: row + 4 * i, as: UInt32.self)
                        .littleEndian
                    red += Int(rgba & 0xFF)
                    green += Int(rgba >> 8 & 0xFF)
                    blue += Int(rgba >> 16 & 0xFF)
                }
            }
            return (red, green, blue)
        }
    }

    /// How different the picture looks inside the hole's shape and inside the same shape
    /// moved to `origin`: the mean difference, over the three channels, of the block means,
    /// on the blocks that stay inside the picture there.
    func difference(_ picture: Bitmap, to origin: Point) -> Double {
        let dx = Int(origin.x) - maskOrigin.x
        let dy = Int(origin.y) - maskOrigin.y
        var total = 0
        var blocks = 0
        for (k, corner) in corners.enumerated() {
            let x = corner.x + dx
            let y = corner.y + dy
            guard x >= 0, y >= 0, x + 4 <= picture.width, y + 4 <= picture.height else {
                continue
            }
            let there = Self.sum(picture, x: x, y: y)
            total +=
                abs(sums[3 * k] - there.red) + abs(sums[3 * k + 1] - there.green)
                + abs(sums[3 * k + 2] - there.blue)
            blocks += 1
        }
        return blocks > 0 ? Double(total) / Double(blocks * 3 * 16) : 0
    }
}
