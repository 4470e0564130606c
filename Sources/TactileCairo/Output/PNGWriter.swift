internal import CCairo
import TactileCore

/// An error writing or reading an image file.
public struct ImageFileError: Error, CustomStringConvertible {
    /// The file concerned.
    public let path: String
    /// What went wrong.
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}

extension ImageSurface {
    /// Writes the surface as a PNG file, atomically and never through a symbolic link
    /// (see `FileAccess`).
    public func writePNG(to path: String) throws(ImageFileError) {
        let bytes = try pngData(name: path)
        do { try FileAccess.write(bytes, to: path) } catch {
            throw ImageFileError(path: path, reason: error.reason)
        }
    }

    /// The surface encoded as PNG by Cairo.
    public func pngData(name: String = "PNG") throws(ImageFileError) -> [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let status = withExtendedLifetime(sink) {
            cairo_surface_write_to_png_stream(
                surface,
                { closure, data, length in
                    let sink = Unmanaged<Sink>.fromOpaque(closure!).takeUnretainedValue()
                    sink.bytes.append(
                        contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                    return CAIRO_STATUS_SUCCESS
                }, Unmanaged.passUnretained(sink).toOpaque())
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw ImageFileError(
                path: name, reason: String(cString: cairo_status_to_string(status)))
        }
        return sink.bytes
    }
}
