import Foundation
import TactileCairo
import TactileCore
import TactilePuzzleImaging
import TactilePuzzleVerifier

/// Photographs to cut puzzles from in trials: a directory's images, or the sample photos
/// that ship with Debian's `python3-skimage` package (scikit-image's data set).
///
/// Nothing is downloaded: a set is read from files already installed. Each trial picture is
/// one photo varied as a service varies the photos of its pool (`PictureVariation`), so a
/// few photos give many different pictures.
public struct PhotoSet: Sendable {
    /// Where Debian's `python3-skimage` installs scikit-image's sample images.
    public static let scikitImageDirectory = "/usr/lib/python3/dist-packages/skimage/data"

    /// The photographs among scikit-image's sample images (the rest are drawings, text,
    /// test patterns and tiny files).
    public static let scikitImagePhotos = [
        "astronaut.png", "brick.png", "camera.png", "cell.png", "chelsea.png",
        "clock_motion.png", "coffee.png", "coins.png", "grass.png", "gravel.png",
        "hubble_deep_field.jpg", "ihc.png", "moon.png", "motorcycle_left.png",
        "motorcycle_right.png", "retina.jpg", "rocket.jpg",
    ]

    /// The smallest photo used, in pixels each way.
    public static let minimumSize = (width: 300, height: 170)

    /// Where the photos were read from.
    public let directory: String
    /// The photos' file names, in the order pictures cycle through them.
    public let names: [String]
    private let photos: [Bitmap]

    /// The number of photos.
    public var count: Int { photos.count }

    /// Reads photos from `directory`: the named files, or when `names` is `nil` every PNG
    /// and JPEG file there of at least ``minimumSize``, in name order.
    ///
    /// - Returns: `nil` when the directory holds no usable photo.
    public init?(directory: String, names: [String]? = nil) {
        let listed =
            names
            ?? ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter {
                let lower = $0.lowercased()
                return lower.hasSuffix(".png") || lower.hasSuffix(".jpg")
                    || lower.hasSuffix(".jpeg")
            }
            .sorted()
        var kept: [(String, Bitmap)] = []
        for name in listed {
            guard let bitmap = try? ImageLoader.load(path: directory + "/" + name),
                bitmap.width >= Self.minimumSize.width, bitmap.height >= Self.minimumSize.height
            else { continue }
            kept.append((name, bitmap))
        }
        guard !kept.isEmpty else { return nil }
        self.directory = directory
        self.names = kept.map(\.0)
        photos = kept.map(\.1)
    }

    /// scikit-image's photos as Debian installs them; `nil` when `python3-skimage` is not
    /// installed.
    public static func scikitImage() -> PhotoSet? {
        PhotoSet(directory: scikitImageDirectory, names: scikitImagePhotos)
    }

    /// Trial picture `index`: photo `index` modulo the count, varied as a service varies
    /// each photo of its pool (`PictureVariation`: zoomed, cropped, mirrored, recoloured).
    public func picture(
        _ index: Int, width: Int, height: Int, using random: inout some RandomNumberGenerator
    ) -> Bitmap {
        PictureVariation.picture(
            from: photos[index % photos.count], width: width, height: height, using: &random)
    }
}
