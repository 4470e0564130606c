import TactileCore

/// The file format of a puzzle's background.
public enum PuzzleImageFormat: Hashable, Sendable {
    /// Lossless PNG: every pixel exactly as generated.
    case png
    /// Lossy JPEG at a quality of 1…100 (libjpeg's scale), colour at half resolution.
    case jpeg(quality: Int)

    /// The default background format: JPEG at quality 80.
    public static let standard = PuzzleImageFormat.jpeg(quality: 80)

    /// The file name extension, without the dot: `png` or `jpg`.
    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        }
    }

    /// The media type for an HTTP `Content-Type`: `image/png` or `image/jpeg`.
    public var mediaType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        }
    }
}

/// A puzzle's two images as files: what a client is sent.
public struct EncodedPuzzleImages: Hashable, Sendable {
    /// The background's file, in ``format``.
    public var background: [UInt8]
    /// The background's format (its extension and media type).
    public var format: PuzzleImageFormat
    /// The piece's PNG file (it needs its alpha channel).
    public var piece: [UInt8]

    /// Creates the pair.
    public init(background: [UInt8], format: PuzzleImageFormat, piece: [UInt8]) {
        self.background = background
        self.format = format
        self.piece = piece
    }
}

/// Encodes puzzles' images as they are handed out: the background in the puzzle's
/// ``GeneratedPuzzle/backgroundFormat``, the piece as PNG.
///
/// A server encoding puzzle after puzzle keeps one encoder: it keeps its working memory
/// between images. An encoder is not shared between threads.
///
/// ```swift
/// let encoder = PuzzleImageEncoder()
/// let files = encoder.encode(puzzle)
/// write(files.background, to: "background.\(files.format.fileExtension)")
/// write(files.piece, to: "piece.png")
/// ```
public final class PuzzleImageEncoder {
    private let png = PNGEncoder()
    private var jpeg: JPEGEncoder?

    /// Creates an encoder with no working memory yet.
    public init() {}

    /// The puzzle's background in its format and its piece as PNG.
    ///
    /// A JPEG that libjpeg-turbo fails to write (out of memory) falls back to PNG, and
    /// ``EncodedPuzzleImages/format`` says so: the files are always valid and named right.
    public func encode(_ puzzle: GeneratedPuzzle) -> EncodedPuzzleImages {
        let (background, format) = encode(puzzle.background, as: puzzle.backgroundFormat)
        return EncodedPuzzleImages(
            background: background, format: format, piece: png.encode(puzzle.piece))
    }

    /// An opaque image's file in `format` (JPEG drops alpha), and the format it is in: PNG
    /// when a JPEG could not be written.
    public func encode(_ bitmap: Bitmap, as format: PuzzleImageFormat) -> (
        bytes: [UInt8], format: PuzzleImageFormat
    ) {
        switch format {
        case .png:
            return (png.encode(bitmap), .png)
        case .jpeg(let quality):
            if jpeg?.quality != quality { jpeg = JPEGEncoder(quality: quality) }
            let bytes = jpeg!.encode(bitmap)
            return bytes.isEmpty ? (png.encode(bitmap), .png) : (bytes, format)
        }
    }
}
