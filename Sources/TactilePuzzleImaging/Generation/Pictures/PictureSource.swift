import TactileCairo
import TactileCore

/// Where a puzzle's picture comes from: a user's image file or the built-in generator.
public enum PictureSource: Hashable, Sendable {
    /// A JPEG, PNG or any format gdk-pixbuf reads, scaled and centre-cropped to fill.
    case file(String)
    /// ``ProceduralPicture`` with a seed.
    case procedural(seed: UInt64)

    /// The picture at exactly `width × height` pixels.
    ///
    /// - Throws: `ImageFileError` when the file cannot be read or decoded.
    public func picture(width: Int, height: Int) throws(ImageFileError) -> Bitmap {
        switch self {
        case .procedural(let seed):
            return ProceduralPicture.make(width: width, height: height, seed: seed)
        case .file(let path):
            return Self.filling(try ImageLoader.load(path: path), width: width, height: height)
        }
    }

    /// A bitmap scaled (keeping its aspect ratio) to cover `width × height` and centre-cropped,
    /// flattened onto white so the picture is opaque.
    public static func filling(_ bitmap: Bitmap, width: Int, height: Int) -> Bitmap {
        guard bitmap.width > 0, bitmap.height > 0 else {
            return Bitmap(width: width, height: height, fill: .white)
        }
        let scale = max(
            Double(width) / Double(bitmap.width), Double(height) / Double(bitmap.height))
        let drawn = Size(width: Double(bitmap.width) * scale, height: Double(bitmap.height) * scale)
        let surface = ImageSurface(width: width, height: height)
        let canvas = surface.makeCanvas()
        canvas.fill(
            Path(rect: Rect(x: 0, y: 0, width: Double(width), height: Double(height))),
            with: .white)
        canvas.draw(
            bitmap,
            in: Rect(
                x: (Double(width) - drawn.width) / 2, y: (Double(height) - drawn.height) / 2,
                width: drawn.width, height: drawn.height))
        return surface.bitmap()
    }
}
