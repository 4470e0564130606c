import CCairo
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
    /// Writes the surface as a PNG file.
    public func writePNG(to path: String) throws(ImageFileError) {
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw ImageFileError(
                path: path, reason: String(cString: cairo_status_to_string(status)))
        }
    }
}
