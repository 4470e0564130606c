import Foundation
import TactileCairo
import TactileCore

/// A photo from a fixed pool, altered anew for every puzzle, so that a script collecting
/// puzzles cannot recover the clean photo or tell where the hole is by comparing them.
///
/// A service that cuts puzzles from a few dozen photos hands out each photo hundreds of times.
/// Were the photo the same every time, the per-pixel median of a few hundred backgrounds
/// would be the clean photo, and the difference between one background and it (or between
/// two backgrounds) would show the hole. So each puzzle sees the photo:
/// - zoomed by 1…``largestZoom`` beyond covering the picture, and cropped at a random place:
///   no pixel of one background lies where the same point of the photo lies in another;
/// - mirrored half the time;
/// - with each colour channel's gain drawn from 1 ± ``colourGain``, and a brightness that
///   changes by up to ±``gradientLevels`` across the picture in a random direction.
///
/// A person sees the same kind of photo each time. What it does not stop: a script that
/// registers each background against the others (finding the zoom, crop and colour by
/// matching features) before taking the median. That is work per puzzle, on top of the
/// price every answer pays.
public enum PictureVariation {
    /// The most a photo is zoomed beyond covering the picture.
    public static let largestZoom = 1.5
    /// The largest change of each channel's gain, as a share.
    public static let colourGain = 0.08
    /// The largest change of brightness from the picture's middle to an edge, in 8-bit levels.
    public static let gradientLevels = 14.0

    /// The size to keep a pool's photo at for pictures of `width × height`: large enough
    /// that the most zoomed crop is not enlarged, no larger than `photo` needs.
    public static func keptSize(of photo: Bitmap, width: Int, height: Int) -> (
        width: Int, height: Int
    ) {
        guard photo.width > 0, photo.height > 0 else { return (width, height) }
        let cover = max(
            Double(width) / Double(photo.width), Double(height) / Double(photo.height))
        let scale = min(1, cover * largestZoom)
        return (
            max(1, Int((Double(photo.width) * max(scale, cover)).rounded())),
            max(1, Int((Double(photo.height) * max(scale, cover)).rounded()))
        )
    }

    /// `photo` scaled to ``keptSize(of:width:height:)``: what a pool keeps of each photo.
    public static func kept(_ photo: Bitmap, width: Int, height: Int) -> Bitmap {
        let size = keptSize(of: photo, width: width, height: height)
        guard size != (photo.width, photo.height) else { return photo }
        return PictureSource.filling(photo, width: size.width, height: size.height)
    }

    /// A `width × height` picture of `photo`, zoomed, cropped, mirrored and coloured at random.
    public static func picture(
        from photo: Bitmap, width: Int, height: Int,
        using random: inout some RandomNumberGenerator
    ) -> Bitmap {
        guard photo.width > 0, photo.height > 0 else {
            return Bitmap(width: width, height: height, fill: .white)
        }
        let cover = max(
            Double(width) / Double(photo.width), Double(height) / Double(photo.height))
        let scale = cover * Double.random(in: 1...largestZoom, using: &random)
        let drawn = Size(width: Double(photo.width) * scale, height: Double(photo.height) * scale)
        let x = -Double.random(in: 0...max(0, drawn.width - Double(width)), using: &random)
        let y = -Double.random(in: 0...max(0, drawn.height - Double(height)), using: &random)
        let mirrored = Bool.random(using: &random)
        let surface = ImageSurface(width: width, height: height)
        let canvas = surface.makeCanvas()
        canvas.fill(
            Path(rect: Rect(x: 0, y: 0, width: Double(width), height: Double(height))),
            with: .white)
        if mirrored {
            canvas.concatenate(
                Transform2D(scaleX: -1, y: 1).concatenating(
                    Transform2D(translationX: Double(width), y: 0)))
        }
        canvas.draw(photo, in: Rect(x: x, y: y, width: drawn.width, height: drawn.height))
        var picture = surface.bitmap()
        recolour(&picture, using: &random)
        return picture
    }

    /// Scales each channel by its own gain and adds a brightness gradient in a random
    /// direction, keeping alpha.
    static func recolour(_ picture: inout Bitmap, using random: inout some RandomNumberGenerator) {
        let gains = (0..<3).map { _ in
            1 + Double.random(in: -colourGain...colourGain, using: &random)
        }
        let angle = Double.random(in: 0..<(2 * .pi), using: &random)
        let strength = Double.random(in: gradientLevels / 2...gradientLevels, using: &random)
        let (width, height) = (picture.width, picture.height)
        let half = Double(max(width, height)) / 2
        let (dx, dy) = (cos(angle) * strength / half, sin(angle) * strength / half)
        let (cx, cy) = (Double(width) / 2, Double(height) / 2)
        picture.pixels.withUnsafeMutableBufferPointer { pixels in
            for row in 0..<height {
                let rowShift = (Double(row) + 0.5 - cy) * dy
                for column in 0..<width {
                    let shift = rowShift + (Double(column) + 0.5 - cx) * dx
                    let i = (row * width + column) * 4
                    for channel in 0..<3 {
                        let value = Double(pixels[i + channel]) * gains[channel] + shift
                        pixels[i + channel] = UInt8(value.rounded().clamped(to: 0...255))
                    }
                }
            }
        }
    }
}
