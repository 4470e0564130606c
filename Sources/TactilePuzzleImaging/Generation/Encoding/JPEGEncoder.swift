internal import CTurboJPEG
import TactileCore

/// A JPEG encoder for the puzzle's background, through libjpeg-turbo.
///
/// A lossy background is 4–6× smaller than a PNG of the same picture and leaks no exact
/// pixel values: every 8 × 8 block is quantised, and colour is stored at half resolution
/// (4:2:0). The alpha channel is dropped, so only opaque images belong here (the piece stays
/// a PNG).
///
/// Like ``PNGEncoder``, an encoder keeps its libjpeg-turbo handle and output buffer between
/// images, and is not shared between threads.
public final class JPEGEncoder {
    /// Accepted qualities, libjpeg's scale.
    public static let qualityRange = 1...100

    /// The quality, 1…100 (libjpeg's scale: 75 is its default, 90 is near lossless to the eye).
    public let quality: Int
    private let handle: tjhandle?
    private var buffer = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)

    /// Creates an encoder with a quality, clamped to ``qualityRange``.
    public init(quality: Int = 80) {
        self.quality = min(max(quality, Self.qualityRange.lowerBound), Self.qualityRange.upperBound)
        handle = tjInitCompress()
    }

    deinit {
        if let handle { tjDestroy(handle) }
        buffer.deallocate()
    }

    /// The JPEG file's bytes (baseline, 4:2:0), with a one-off encoder; empty when
    /// libjpeg-turbo fails (an empty bitmap, or no memory).
    public static func encode(_ bitmap: Bitmap, quality: Int = 80) -> [UInt8] {
        JPEGEncoder(quality: quality).encode(bitmap)
    }

    /// The JPEG file's bytes (baseline, 4:2:0), reusing this encoder's working memory;
    /// empty when libjpeg-turbo fails (an empty bitmap, or no memory).
    public func encode(_ bitmap: Bitmap) -> [UInt8] {
        guard let handle, bitmap.width > 0, bitmap.height > 0 else { return [] }
        let width = Int32(bitmap.width)
        let height = Int32(bitmap.height)
        let bound = Int(tjBufSize(width, height, Int32(TJSAMP_420.rawValue)))
        if buffer.count < bound {
            buffer.deallocate()
            buffer = .allocate(capacity: bound)
        }
        var output: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
        var size = UInt(buffer.count)
        let status = bitmap.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(
                handle, pixels.baseAddress, width, width * 4, height, Int32(TJPF_RGBX.rawValue),
                &output, &size, Int32(TJSAMP_420.rawValue), Int32(quality),
                TJFLAG_NOREALLOC | TJFLAG_FASTDCT)
        }
        guard status == 0, output == buffer.baseAddress, Int(size) <= buffer.count else {
            return []
        }
        return Array(UnsafeBufferPointer(start: buffer.baseAddress, count: Int(size)))
    }
}
